"""Generated AlienLogic worlds: audited, deterministic, every patch shown,
sound, and usable by the episode driver."""

from __future__ import annotations

import json
import re
import sys
import tomllib
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from alienworlds.cli.alienlogic import cli
from alienworlds.episode.environment_loader import make_environment
from alienworlds.generate.alienlogic import (
    VERSION,
    Generated,
    GenerationError,
    Knobs,
    generate,
    write,
)
from alienworlds.generate.alienlogic.patches import ID_LETTERS
from alienworlds.ruleset.world import World
from alienworlds.tasks.alienlogic_validity import battery
from alienworlds.tasks.bank import load_bank
from click.testing import CliRunner

from alienlogic import Proof, check, load_world, parse_formula, parse_proof
from alienlogic.patch_library import library, read_library

sys.path.insert(
    0, str(Path(__file__).resolve().parents[1] / "alienlogic")
)  # the soundness tests' models and proofs
from logic_models import unsound_line  # noqa: E402
from logic_proofgen import generate as random_proof  # noqa: E402
from logic_proofgen import mutate  # noqa: E402

SMALL = Knobs(patches=4, theorems=6, unprovable=1, first_order=1, examples=1)
# Balancing a bank against the adaptive strategies costs seconds to a minute a seed, so
# the suite checks three of the cheapest: of test-0..16, test-11, test-2 and test-10 took
# 4.8, 7.4 and 7.8 s of CPU, test-6 and test-1 (the seeds before) 30 and 35 s, the
# others more than 9 s; benchmarks/alienlogic_generated_worlds.py runs many more. The
# first seed's provable theorems must be proved by bounded search, which the forged-label
# test needs: in test-10 they are, in test-11 only the prover proves them.
SEEDS = ["test-10", "test-11", "test-2"]


@cache
def generated(seed: str) -> Generated:
    return generate(seed, SMALL)


AUDITS = {}  # seed -> the bank's audit, from writing it


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    """Each seed's world written (and so audited) once for the module."""
    out = {}
    for seed in SEEDS:
        out[seed] = tmp_path_factory.mktemp("gen") / "world"
        AUDITS[seed] = write(generated(seed), out[seed])
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_a_generated_world_passes_the_audit_and_keeps_its_promises(seed, folders):
    folder = folders[seed]  # written, so it passed the audit (write() refuses otherwise)
    world = load_world(str(folder / "world.toml"))
    bank = load_bank("alienlogic", world.name, folder / "bank.toml")
    tasks = bank.tasks
    assert (
        len(world.rules) == SMALL.patches
        and len(tasks) == SMALL.theorems
        and len(bank.examples) == SMALL.examples
    )
    unprovable = [t for t in tasks if t.extra.get("provable") is False]
    assert len(unprovable) == SMALL.unprovable
    for t in unprovable:  # each with its certificate file beside the bank
        assert (folder / t.extra["certificate"]).is_file()
    # every patch matters: some task's rules (computed by the audit) name it
    report = AUDITS[seed]
    assert report.problems == [] and len(report.tasks) == SMALL.theorems
    shown = {r for t in report.tasks for r in t.rules}
    assert shown == {r.id for r in world.rules}
    # opaque ids: a letter and a number, not in sequence
    ids = [r.id for r in world.rules]
    assert all(re.fullmatch(f"[{ID_LETTERS}][0-9]{{1,2}}", i) for i in ids) and len(
        set(ids)
    ) == len(ids)
    assert VERSION in (folder / "world.toml").read_text(encoding="utf-8").splitlines()[0]


@pytest.mark.parametrize("seed", SEEDS)
def test_no_knowledge_free_strategy_beats_refusing_everything(seed, folders):
    world = load_world(str(folders[seed] / "world.toml"))
    validity = battery(world, load_bank("alienlogic", world.name, folders[seed] / "bank.toml"))
    refuse_all = validity.strategies["refuse-all"].accuracy
    assert all(s.accuracy <= refuse_all for s in validity.strategies.values()), validity.summary()


def test_ids_do_not_run_in_sequence():
    ids = [r.id for seed in SEEDS for r in generated(seed).world.rules]
    numbers = [int(i[1:]) for i in ids]
    assert len(set(i[0] for i in ids)) > 5 and len(set(numbers)) > 10
    assert sorted(numbers[: SMALL.patches]) != list(
        range(min(numbers[: SMALL.patches]), min(numbers[: SMALL.patches]) + SMALL.patches)
    )


def test_world_check_accepts_a_generated_world_with_the_bank_beside_it(folders):
    result = CliRunner().invoke(
        cli, ["world", "check", str(folders[SEEDS[0]] / "world.toml"), "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["ok"] and data["bank_audit"] == "done" and len(data["tasks"]) == SMALL.theorems
    assert len(data["validity"]["strategies"]) >= 2 and "floor" in data["validity"]


def test_the_same_seed_gives_the_same_bytes(folders):
    """Written files are the generated texts; a fresh run of the command
    gives them again (test_the_command_writes_the_same_files_...)."""
    first = generated(SEEDS[0]).files
    assert generated(SEEDS[1]).files != first
    written = {
        str(p.relative_to(folders[SEEDS[0]])): p.read_text(encoding="utf-8")
        for p in sorted(folders[SEEDS[0]].rglob("*"))
        if p.is_file()
    }
    assert written == first


def test_a_theorem_labelled_unprovable_that_bounded_search_proves_fails_generation(tmp_path):
    """Relabel a provable task with a naive proof as unprovable (with an
    unprovable task's certificate): writing must fail on the audit."""
    g = generated(SEEDS[0])
    bank = tomllib.loads(g.files["bank.toml"])
    victim = next(t for t in bank["tasks"] if t["provable"])
    donor = next(t for t in bank["tasks"] if not t["provable"])
    text = g.files["bank.toml"]
    start = text.index(f'id = "{victim["id"]}"')
    end = text.find("[[tasks]]", start)
    block = text[start : end if end != -1 else len(text)]
    bad = block.replace(
        "provable = true", f'provable = false\ncertificate = "{donor["certificate"]}"', 1
    )
    forged = replace(g, files={**g.files, "bank.toml": text.replace(block, bad)})
    # bounded search proves it outright, or derives it once layout conditions are ignored
    with pytest.raises(
        GenerationError, match="labelled unprovable, but bounded search (proves|derives) it"
    ):
        write(forged, tmp_path / "w")
    assert not (tmp_path / "w" / "world.toml").exists()


def _with_steps(proof: Proof, steps) -> Proof:
    steps = tuple(steps)
    return Proof(
        proof.premises, steps[-1].formula if steps and steps[-1].depth == 0 else proof.goal, steps
    )


def _through_world(proof: Proof, world) -> Proof:
    """`proof` with each line a patched conclusion refuses replaced by what
    the world derives there (read off the refusal), cut before the first
    step the world refuses for another reason: every step of the result is
    checked (`verifier_passed`), so every line must hold."""
    for _ in range(len(proof.steps) + 1):
        verdict = check(proof, world)
        if verdict.verifier_passed or verdict.rejected_step is None:
            return proof
        n = verdict.rejected_step - 1
        derived = re.search(r"\S+ derives (.*?) here(?: \(.*\))?, not ", verdict.detail or "")
        steps = list(proof.steps)
        if derived is not None:  # a standard or a patched conclusion
            steps[n] = replace(steps[n], formula=parse_formula(derived.group(1)))
        else:
            steps = steps[:n]
        proof = _with_steps(proof, steps)
    return proof


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_worlds_are_sound(seed, folders):
    """What a generated world accepts holds classically: its reference
    proofs and worked examples, and random standard proofs and their
    mutants, passed through the world's patches (_through_world)."""
    world = load_world(str(folders[seed] / "world.toml"))
    bank = tomllib.loads((folders[seed] / "bank.toml").read_text(encoding="utf-8"))
    texts = [t["reference"] for t in bank["tasks"] if "reference" in t] + [
        e["program"] for e in bank["examples"]
    ]
    accepted = 0
    for text in texts:
        proof = parse_proof(text)
        assert check(proof, world).accepted
        assert unsound_line(proof) is None, text
    for k in range(60):
        base = random_proof(k, first_order=k % 3 == 0, n_steps=10)
        for proof in (base, mutate(base, k)):
            proof = _through_world(proof, world)
            if proof.steps and check(proof, world).verifier_passed:
                accepted += 1
                assert unsound_line(proof) is None, str(proof)
    assert accepted > 10


def test_every_conclusion_rewrite_of_the_library_is_sound():
    """Each conclusion patch alone: random standard proofs passed through it
    stay sound (a rewrite that took an implication's antecedent would not)."""
    rewrites = [p for p in library() if p.conclusion]
    assert rewrites
    for spec in rewrites:
        world = World("one-patch", "alienlogic", rules=(spec.rule("X1"),))
        used = 0
        for k in range(400):
            proof = _through_world(random_proof(k, first_order=k % 2 == 0, n_steps=10), world)
            if (
                any(s.rule == spec.target for s in proof.steps)
                and check(proof, world).verifier_passed
            ):
                used += 1
                assert unsound_line(proof) is None, (spec.name, str(proof))
                if used == 5:
                    break
        assert used, spec.name


def test_an_unsound_conclusion_rewrite_is_caught_by_the_same_property():
    """The property above can fail: a rewrite taking the antecedent of the
    cited implication (unsound) yields an unsound accepted proof."""
    [spec] = read_library(
        '[[patch]]\nscheme = "conclusion"\nslot = "conclusion"\ntarget = "IMPL_E"\n'
        'name = "bad"\nconclusion = "(left (ref 1))"\n'
    )
    world = World("bad", "alienlogic", rules=(spec.rule("X1"),))
    found = False
    for k in range(200):
        proof = _through_world(random_proof(k, first_order=False, n_steps=10), world)
        if check(proof, world).verifier_passed and unsound_line(proof) is not None:
            found = True
            break
    assert found


def test_the_episode_finds_the_bank_and_certificates_beside_the_world(folders):
    folder = folders[SEEDS[1]]
    env = make_environment("alienlogic", str(folder / "world.toml"))
    assert Path(env.bank.source).resolve() == (folder / "bank.toml").resolve()
    assert len(env.bank.tasks) == SMALL.theorems


def test_the_command_writes_the_same_files_and_refuses_to_overwrite(folders, tmp_path):
    knobs = [
        "--patches",
        str(SMALL.patches),
        "--theorems",
        str(SMALL.theorems),
        "--unprovable",
        str(SMALL.unprovable),
        "--first-order",
        str(SMALL.first_order),
        "--examples",
        str(SMALL.examples),
    ]
    out = tmp_path / "w"
    result = CliRunner().invoke(
        cli, ["world", "generate", "--seed", SEEDS[1], *knobs, "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    # each step names itself on standard error, the last one the audit before writing
    steps = [
        line.removeprefix("alienlogic world generate: ").removesuffix(" …")
        for line in result.stderr.splitlines()
        if line.endswith(" …")
    ]
    assert steps[0].startswith("proving ") and steps[0].endswith(
        " probe theorems in standard logic"
    )
    assert steps[1] == f"drawing {SMALL.patches} patches (world 1)"
    assert steps[-1] == "auditing the files before they are written"
    assert "auditing the files before they are written: done in " in result.stderr
    # a fresh run (not the cache) writes the same bytes
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()) == sorted(
        generated(SEEDS[1]).files
    )
    for rel, text in generated(SEEDS[1]).files.items():
        assert (out / rel).read_text(encoding="utf-8") == text
    again = CliRunner().invoke(
        cli, ["world", "generate", "--seed", SEEDS[1], *knobs, "--out", str(out)]
    )
    assert again.exit_code == 2 and "--force" in again.output
    assert " …" not in again.stderr  # refused before any step began
    bad = CliRunner().invoke(
        cli,
        [
            "world",
            "generate",
            "--seed",
            "x",
            "--theorems",
            "3",
            "--unprovable",
            "3",
            "--first-order",
            "1",
            "--out",
            str(tmp_path / "v"),
        ],
    )
    assert bad.exit_code == 2 and not (tmp_path / "v").exists()
