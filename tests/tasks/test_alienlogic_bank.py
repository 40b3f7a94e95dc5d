"""The main AlienLogic bank keeps its promises (issue 6): the audit runs
clean, prover included, with every count recomputed here."""

import json
from collections import Counter

import pytest
from alienworlds.cli.alienlogic import cli
from alienworlds.tasks.alienlogic_audit import audit, blocking_patches, first_order
from alienworlds.tasks.alienlogic_grading import logic_tasks
from alienworlds.tasks.bank import load_bank
from click.testing import CliRunner

from alienlogic import load_world

WORLD = load_world("main")
BANK = load_bank("alienlogic", "main")


@pytest.fixture(scope="module")
def report():
    return audit(WORLD, BANK, prover=True)


def _refuted_labels(report) -> set[str]:
    """Theorems labelled unprovable on a bounded certificate only, which
    is evidence, not a proof, and which the prover proves in the world: the
    wrong labels issue 12 reports (L49 among them). Sound certificates
    replace them; until then the audit rightly reports them, and nothing
    else may be reported."""
    return {
        t.id
        for t in report.tasks
        if not t.provable and t.certificate_kind == "bounded" and t.prover.get("world")
    }


def test_audit_is_clean(report):
    refuted = _refuted_labels(report)
    found = [p for p in report.problems if not any(p.startswith(f"task {i}: ") for i in refuted)]
    assert found == []
    assert all(
        "the prover proves this theorem designated unprovable" in p
        for p in report.problems
        if p not in found
    )


def test_counts(report):
    tasks = report.tasks
    assert len(tasks) == 70 and len(report.examples) == 8
    assert sum(t.provable for t in tasks) == 45 and report.reference_pass == 45
    assert report.certified == 25 and report.standard_proves == 25
    assert sum(t.first_order for t in tasks) >= 10
    assert Counter(t.family for t in tasks) == {
        "sanity": 7,
        "single-rule": 12,
        "two-rule": 8,
        "multi-rule": 6,
        "first-order": 12,
        "unprovable": 25,
    }
    assert Counter(t.certificate_kind for t in tasks if not t.provable) == {"matrix": 25}
    assert report.bounded_derivable == 0


def test_every_patch_is_needed_and_families_match_rule_counts(report):
    listed = {r for t in report.tasks for r in t.rules}
    assert listed == {r.id for r in WORLD.rules}
    for t in report.tasks:
        n = len(t.rules)
        expected = {
            "sanity": n == 0,
            "single-rule": n == 1,
            "two-rule": n == 2,
            "multi-rule": n >= 3,
            "first-order": t.first_order,
            "unprovable": not t.provable,
        }
        assert expected[t.family], (t.id, t.family, t.rules)


def test_prover_confirms_every_theorem(report):
    s = report.summary()["prover"]
    assert s == {
        "world_proves": 45,
        "standard_proves_unprovable": 25,
        "world_blocked": 25 - len(_refuted_labels(report)),
    }


def test_naive_proofs_are_refused_only_by_their_rules():
    for task in logic_tasks(BANK):
        if not task.naive:
            continue
        from alienlogic import check, parse_proof

        naive = parse_proof(task.naive)
        rules, stuck = blocking_patches(WORLD, naive, task.theorem)
        assert stuck is None and rules
        assert check(naive, WORLD.without(*rules), task=task.theorem).accepted


def test_ids_do_not_reveal_provability():
    tasks = logic_tasks(BANK)
    assert all(len(t.id) == 3 and t.id[0] == "L" and t.id[1:].isdigit() for t in tasks)
    # provable and unprovable ids are interleaved, not in blocks
    flags = [t.provable for t in sorted(tasks, key=lambda t: t.id)]
    runs = sum(1 for a, b in zip(flags, flags[1:]) if a != b)
    assert runs >= 20
    assert len({t.prompt for t in tasks}) == 1


def test_first_order_classification():
    by_id = {t.id: t for t in logic_tasks(BANK)}
    assert first_order(by_id["L28"].theorem) and not first_order(by_id["L16"].theorem)


def test_world_check_json():
    result = CliRunner().invoke(cli, ["world", "check", "main", "--json", "--no-prover"])
    data = json.loads(result.output)
    assert result.exit_code == 0 and data["ok"] and data["problems"] == []
    assert data["reference_pass"] == 45 and data["certified"] == 25
    assert len(data["tasks"]) == 70 and len(data["rules"]) == 24
    assert set(data["tasks"][0]) == {"id", "family", "provable", "first_order", "rules"}
    assert [e["id"] for e in data["worked_examples"]] == [f"E{i}" for i in range(1, 9)]


def test_world_check_reports_a_broken_bank(tmp_path):
    text = BANK.source and open(BANK.source, encoding="utf-8").read()
    broken = text.replace("[IMPL_E 2, 1]", "[IMPL_E 1, 2]", 1)
    path = tmp_path / "bank.toml"
    path.write_text(
        broken.replace(
            'certificate = "certificates/', f'certificate = "{(tmp_path / "missing").as_posix()}/'
        ),
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["world", "check", "main", "--bank", str(path), "--no-prover"])
    assert result.exit_code == 1
    assert "no certificate file" in result.output and "not accepted in the world" in result.output


def test_tasks_command_shows_prompts_only():
    result = CliRunner().invoke(cli, ["tasks", "--world", "main", "--json"])
    data = json.loads(result.output)
    assert result.exit_code == 0 and len(data["tasks"]) == 70
    for t in data["tasks"]:
        assert set(t) == {"id", "prompt", "premises", "goal"}
    text = CliRunner().invoke(cli, ["tasks", "--world", "main"]).output
    for secret in ("PROOF", "certificate", "provable", "matrix", "bounded"):
        assert secret not in text


# -- the label that was wrong (issue 12) ---------------------------------------------

OLD_L49 = """PROOF
premises:
goal: IMPL(p, IMPL(q, IMPL(r, AND(p, q))))
1. | AND(p, q)                            [assume]
2. | | r                                  [assume]
3. | | AND(p, q)                          [reit 1]
4. | IMPL(r, AND(p, q))                   [IMPL_I 2-3]
5. IMPL(AND(p, q), IMPL(r, AND(p, q)))    [IMPL_I 1-4]
6. | p                                    [assume]
7. | | q                                  [assume]
8. | | AND(p, q)                          [AND_I 6, 7]
9. | | IMPL(r, AND(p, q))                 [IMPL_E 8, 5]
10. | IMPL(q, IMPL(r, AND(p, q)))         [IMPL_I 7-9]
11. IMPL(p, IMPL(q, IMPL(r, AND(p, q))))  [IMPL_I 6-10]
END
"""


def test_the_old_l49_is_provable_through_a_helper_lemma():
    """The first bank labelled this theorem unprovable on a bounded search
    whose universe lacked the helper implication of line 5."""
    from alienlogic import check, parse_proof
    from alienlogic.bounded import bounded_search

    proof = parse_proof(OLD_L49)
    assert check(proof, WORLD).accepted
    found = bounded_search(WORLD, proof.theorem)
    assert found.proved and check(found.proof, WORLD, task=proof.theorem).accepted
    assert "IMPL(AND(p, q), IMPL(r, AND(p, q)))" in str(found.proof)
    assert all(t.theorem.goal != proof.goal for t in logic_tasks(BANK))


def test_world_check_fails_when_bounded_search_proves_an_unprovable_label(tmp_path):
    import shutil
    from pathlib import Path

    from alienlogic.certify import find_certificate

    root = Path(BANK.source).parent
    shutil.copytree(root / "certificates", tmp_path / "certificates")
    text = (
        Path(BANK.source)
        .read_text(encoding="utf-8")
        .replace(
            'goal = "NOT(NOT(OR(p, NOT(p))))"', 'goal = "IMPL(p, IMPL(q, IMPL(r, AND(p, q))))"'
        )
    )
    path = tmp_path / "main.toml"
    path.write_text(text, encoding="utf-8")
    bank = load_bank("alienlogic", "main", path)
    result = CliRunner().invoke(cli, ["world", "check", "main", "--bank", str(path), "--no-prover"])
    assert result.exit_code == 1
    assert "task L49: labelled unprovable, but bounded search proves it" in result.output
    theorem = next(t.theorem for t in logic_tasks(bank) if t.id == "L49")
    found = find_certificate(WORLD, theorem, seconds=None)
    assert (
        not found.found and "no candidate algebra" in found.tried[-1]
    )  # the search ran to its end
