"""A world without a bank: `world check` says it skipped the bank audit;
commands that need a bank name the path where it was expected and --bank."""

import json
import shutil
from pathlib import Path

import pytest
from alienworlds.cli.aliencode import main as aliencode
from alienworlds.cli.alienlogic import cli as alienlogic
from alienworlds.episode.environment_loader import MissingBank, make_environment
from alienworlds.ruleset.world import WORLDS_DIR
from alienworlds.tasks.bank import bank_path
from click.testing import CliRunner

CLIS = {"aliencode": aliencode, "alienlogic": alienlogic}
ROOT = Path(__file__).resolve().parents[2]
BANKS = {
    "aliencode": bank_path("aliencode", "demo"),
    "alienlogic": ROOT / "tests" / "episode" / "data" / "alienlogic_demo.toml",
}


@pytest.fixture(params=["aliencode", "alienlogic"])
def bankless(request, tmp_path):
    """A copy of the language's demo world under a name no bank has."""
    language = request.param
    text = (WORLDS_DIR / language / "demo.toml").read_text(encoding="utf-8")
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("name = "))
    lines[first] = 'name = "bankless"'
    path = tmp_path / "bankless.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return language, path


def test_world_check_says_it_skipped_the_bank_audit(bankless):
    language, path = bankless
    result = CliRunner().invoke(CLIS[language], ["world", "check", str(path)])
    assert result.exit_code == 0, result.output
    assert "the bank audit was skipped: give a bank with --bank PATH" in result.stdout
    assert str(bank_path(language, "bankless")) in result.stdout
    assert result.stdout.splitlines()[-2:] == [
        f"bank: none (the world's own would be {bank_path(language, 'bankless')} or "
        f"{path.parent / 'bank.toml'}); "
        "the bank audit was skipped: give a bank with --bank PATH",
        "ok",
    ]
    data = json.loads(
        CliRunner().invoke(CLIS[language], ["world", "check", str(path), "--json"]).stdout
    )
    assert data["bank_audit"] == "skipped" and data["ok"]
    given = CliRunner().invoke(
        CLIS[language],
        ["world", "check", str(path), "--bank", str(BANKS[language]), "--json"]
        + (["--no-prover"] if language == "alienlogic" else []),
    )
    assert json.loads(given.stdout)["bank_audit"] == "done"


def test_an_episode_on_a_world_without_a_bank_names_the_path_and_bank(bankless, tmp_path):
    language, path = bankless
    result = CliRunner().invoke(
        CLIS[language],
        ["episode", "--agent", "oracle", "--world", str(path), "--out", str(tmp_path / "o")],
    )
    assert result.exit_code == 2
    assert (
        f"no task bank for world 'bankless': none at {bank_path(language, 'bankless')}"
        in result.stderr
    )
    assert f"nor at {path.parent / 'bank.toml'} beside the world file" in result.stderr
    assert "--bank PATH" in result.stderr and "Traceback" not in result.output
    with pytest.raises(MissingBank, match="--bank"):
        make_environment(language, str(path))


def test_tasks_without_a_bank_names_the_path(bankless):
    language, path = bankless
    result = CliRunner().invoke(CLIS[language], ["tasks", "--world", str(path)])
    assert (
        result.exit_code == 2
        and "--bank PATH" in result.stderr
        and str(bank_path(language, "bankless")) in result.stderr
    )


def test_a_world_given_by_path_runs_with_its_bank_given(bankless, tmp_path):
    language, path = bankless
    bank = tmp_path / "bank.toml"
    shutil.copy(BANKS[language], bank)
    result = CliRunner().invoke(
        CLIS[language],
        [
            "episode",
            "--agent",
            "oracle",
            "--world",
            str(path),
            "--bank",
            str(bank),
            "--condition",
            "direct",
            "--out",
            str(tmp_path / "o"),
            "--no-progress",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "bankless" in result.stdout


def test_a_world_given_by_path_finds_the_bank_beside_it(bankless, tmp_path):
    language, path = bankless
    shutil.copy(BANKS[language], path.parent / "bank.toml")
    checked = CliRunner().invoke(
        CLIS[language],
        ["world", "check", str(path), "--json"]
        + (["--no-prover"] if language == "alienlogic" else []),
    )
    assert json.loads(checked.stdout)["bank_audit"] == "done"
    listed = CliRunner().invoke(CLIS[language], ["tasks", "--world", str(path)])
    assert listed.exit_code == 0, listed.output
    assert make_environment(language, str(path)).bank.source == str(path.parent / "bank.toml")
    # --bank still wins over the bank beside the world
    other = tmp_path / "elsewhere" / "other.toml"
    other.parent.mkdir()
    shutil.copy(BANKS[language], other)
    assert make_environment(language, str(path), other).bank.source == str(other)


def test_a_shipped_world_named_or_given_by_path_keeps_its_shipped_bank():
    shipped = WORLDS_DIR / "aliencode" / "demo.toml"
    assert make_environment("aliencode", str(shipped)).bank.source == str(
        bank_path("aliencode", "demo")
    )
    assert make_environment("aliencode", "demo").bank.source == str(bank_path("aliencode", "demo"))


def test_world_check_reports_the_same_for_any_number_of_jobs():
    def checked(*jobs: str) -> dict:
        result = CliRunner().invoke(aliencode, ["world", "check", "demo", "--json", *jobs])
        data = json.loads(result.stdout)
        data.pop("seconds", None)
        data["validity"].pop("seconds", None)
        return data

    assert checked("--jobs", "1") == checked("--jobs", "2") == checked()
    refused = CliRunner().invoke(aliencode, ["world", "check", "demo", "--jobs", "0"])
    assert refused.exit_code == 2 and "--jobs" in refused.output
