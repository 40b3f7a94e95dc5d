"""The `alienlogic` command line: exit codes, JSON, worlds, manual."""

import json
from pathlib import Path

import pytest
from alienworlds.cli.alienlogic import cli, main
from click.testing import CliRunner

from alienlogic import __version__

ROOT = Path(__file__).resolve().parents[2]
GOOD = (ROOT / "examples" / "contraposition.proof").read_text()
BAD = GOOD.replace("[NOT_E 2, 4]", "[NOT_E 2, 3]")


@pytest.fixture
def run(monkeypatch):
    # These tests are about the standard calculus; the default world (`main`)
    # has tests of its own (test_logic_main_world.py).
    monkeypatch.setenv("ALIENLOGIC_WORLD", "standard")

    def invoke(*args, stdin=None):
        return CliRunner().invoke(cli, list(args), input=stdin)

    return invoke


def test_accepted_proof_exits_0(run, tmp_path):
    path = tmp_path / "good.proof"
    path.write_text(GOOD)
    result = run("check", str(path))
    assert result.exit_code == 0 and result.output == "accepted (7 steps)\n"


def test_rejected_proof_exits_1_and_hides_detail(run):
    result = run("check", "-", stdin=BAD)
    assert result.exit_code == 1
    assert result.output == "rejected at step 5: RULE_VIOLATION MISMATCH\n"
    detailed = run("check", "--detail", stdin=BAD)
    assert (
        "detail: the cited lines are not φ and NOT(φ)" in detailed.output
        and "rule: NOT_E" in detailed.output
    )


def test_json_verdict(run):
    result = run("check", "--json", stdin=BAD)
    assert json.loads(result.output) == {
        "accepted": False,
        "verifier_passed": False,
        "goal_match": False,
        "rejected_step": 5,
        "reason_class": "RULE_VIOLATION",
        "reason_id": "MISMATCH",
        "n_steps": 7,
    }
    detailed = json.loads(run("check", "--json", "--detail", stdin=BAD).output)
    assert detailed["rule_name"] == "NOT_E" and detailed["detail"]


def test_parse_error_is_a_rejection_with_its_position(run):
    result = run("check", "--json", stdin="PROOF\npremises: p\ngoal: p\n1. p [premise\nEND\n")
    assert result.exit_code == 1
    verdict = json.loads(result.output)
    assert verdict["reason_class"] == "PARSE_ERROR" and verdict["message"].startswith(
        "line 4, column 14: expected"
    )
    text = run("check", stdin="garbage")
    assert text.exit_code == 1 and "line 1, column 1" in text.output


def test_world_changes_the_verdict(run):
    proof = "PROOF\npremises: NOT(NOT(p))\ngoal: p\n1. NOT(NOT(p)) [premise]\n2. p [DNE 1]\nEND\n"
    assert run("check", stdin=proof).exit_code == 0
    result = run("check", "--world", "demo", stdin=proof)
    assert (
        result.exit_code == 1 and result.output == "rejected at step 2: ALIEN_AXIOM_DISABLED K4\n"
    )
    by_path = run(
        "check",
        "--world",
        str(ROOT / "ruleset" / "worlds" / "alienlogic" / "demo.toml"),
        stdin=proof,
    )
    assert by_path.output == result.output


def test_default_world_comes_from_the_environment(run, monkeypatch):
    proof = "PROOF\npremises: NOT(NOT(p))\ngoal: p\n1. NOT(NOT(p)) [premise]\n2. p [DNE 1]\nEND\n"
    monkeypatch.setenv("ALIENLOGIC_WORLD", "demo")
    assert run("check", stdin=proof).exit_code == 1
    assert run("check", "--world", "standard", stdin=proof).exit_code == 0


@pytest.mark.parametrize(
    "args, message",
    [
        (["check", "no/such/file.proof"], "alienlogic: no such file: no/such/file.proof"),
        (
            ["check", "--world", "atlantis", "-"],
            "no such world file, and no shipped alienlogic world of that name",
        ),
    ],
)
def test_bad_input_exits_2(run, args, message):
    result = run(*args, stdin=GOOD)
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output


def test_non_utf8_input_exits_2(run, tmp_path):
    path = tmp_path / "latin1.proof"
    path.write_bytes("PROOF é".encode("latin-1"))
    result = run("check", str(path))
    assert result.exit_code == 2 and "not UTF-8" in result.output


def test_world_check_json(run):
    result = run("world", "check", "demo", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["world"] == "demo" and data["ok"] is True and data["problems"] == []
    assert data["hash"].startswith("sha256:")
    assert data["rules"][0] == {
        "id": "K4",
        "name": "No double-negation elimination",
        "target": "DNE",
        "disabled": True,
        "require": None,
        "conclusion": None,
    }
    assert data["rules"][1]["conclusion"] == "(right (ref 1))"


def test_world_check_text(run):
    result = run("world", "check", "demo")
    assert (
        result.exit_code == 0
        and result.output.startswith("world demo (sha256:")
        and result.output.endswith("ok\n")
    )


def test_world_check_reports_every_validation_problem(run, tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text(
        'format = 1\nname = "broken"\nlanguage = "alienlogic"\n'
        '[[rules]]\nid = "A"\nname = "a"\ntarget = "NOPE"\ndisabled = true\n'
        '[[rules]]\nid = "B"\nname = "b"\ntarget = "IMPL_E"\nrequire = "(== depht 0)"\n'
    )
    result = run("world", "check", str(path))
    assert result.exit_code == 2
    assert f"{path}: rule A: key 'target': unknown inference rule 'NOPE'" in result.output
    assert f"{path}: rule B: key 'require': unknown name 'depht'" in result.output
    data = json.loads(run("world", "check", str(path), "--json").output)
    assert data["ok"] is False and len(data["problems"]) == 2 and data["hash"] is None


def test_world_check_audit_problem_exits_1(run, tmp_path):
    path = tmp_path / "dead.toml"
    path.write_text(
        'format = 1\nname = "dead"\nlanguage = "alienlogic"\n'
        '[[rules]]\nid = "A"\nname = "a"\ntarget = "DNE"\ndisabled = true\n'
        '[[rules]]\nid = "B"\nname = "b"\ntarget = "DNE"\nrequire = "(== depth 0)"\n'
    )
    result = run("world", "check", str(path), "--json")
    assert result.exit_code == 1
    assert json.loads(result.output)["problems"] == [
        "rule B: never applies, rule A disables DNE earlier"
    ]


def test_malformed_toml_is_clean(run, tmp_path):
    path = tmp_path / "junk.toml"
    path.write_text("this is = = not toml")
    result = run("world", "check", str(path))
    assert (
        result.exit_code == 2
        and "not valid TOML" in result.output
        and "Traceback" not in result.output
    )


def test_manual(run):
    result = run("manual", "--world", "demo", "--format", "md")
    assert (
        result.exit_code == 0
        and result.output == (ROOT / "manuals" / "alienlogic" / "demo.md").read_text()
    )
    assert run("manual").output.startswith(
        "AlienLogic manual\n=================\n"
    )  # no world name


@pytest.mark.parametrize("args", [[], ["check"], ["manual"], ["world"], ["world", "check"]])
def test_help_everywhere(run, args):
    result = run(*args, "--help")
    assert result.exit_code == 0 and "Usage: " in result.output


def test_version(run):
    result = run("--version")
    assert result.exit_code == 0 and __version__ in result.output


def test_main_entry_point_exit_codes(capfd, monkeypatch, tmp_path):
    # the entry point reads and writes the real standard streams (cli/streams.py),
    # so the proof comes from a file and the output is captured at the descriptors
    monkeypatch.setenv("ALIENLOGIC_WORLD", "standard")
    proof = tmp_path / "good.proof"
    proof.write_text(GOOD, encoding="utf-8")
    with pytest.raises(SystemExit) as info:
        main(["check", str(proof)])
    assert info.value.code == 0 and "accepted" in capfd.readouterr().out


def test_main_turns_an_internal_error_into_a_message(capfd, monkeypatch, tmp_path):
    def boom(*args, **kwargs):
        raise RuntimeError("bug")

    monkeypatch.setattr("alienworlds.cli.alienlogic.check_proof", boom)
    proof = tmp_path / "good.proof"
    proof.write_text(GOOD, encoding="utf-8")
    with pytest.raises(SystemExit) as info:
        main(["check", str(proof), "--world", "standard"])
    assert info.value.code == 3
    assert capfd.readouterr().err == "alienlogic: internal error (RuntimeError); please report it\n"


def test_a_number_of_thousands_of_digits_is_a_rejection_not_an_internal_error():
    text = "PROOF\npremises: p\ngoal: p\n1. p [premise]\n2. p [reit " + "7" * 10000 + "]\nEND\n"
    result = CliRunner().invoke(cli, ["check", "--world", "standard", "--json"], input=text)
    assert result.exit_code == 1 and json.loads(result.output)["reason_id"] == "REF_NOT_EARLIER"
