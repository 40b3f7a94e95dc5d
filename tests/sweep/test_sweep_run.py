"""Sweeps end to end: the built-in agents over 2 worlds × 2 conditions × 2
trajectories in the process pool (1 and 2 jobs) and on an embedded Ray give
the same leaderboard and the same traces; a finished sweep resumes to
nothing; a failing agent is isolated and counted in the exit status."""

from __future__ import annotations

import json

import pytest
from alienworlds.cli.aliencode import main
from alienworlds.cli.sweep import failures_status
from alienworlds.episode.trace import TRACE_NAME
from click.testing import CliRunner
from sweep_testing import board, traces, write_sweep


def sweep(*args: str, progress: bool = False):
    quiet = [] if progress else ["--no-progress"]
    return CliRunner().invoke(main, ["sweep", *args, *quiet], catch_exceptions=False)


@pytest.fixture(scope="module")
def pooled(tmp_path_factory, twin):
    folder = tmp_path_factory.mktemp("pooled")
    spec = write_sweep(folder, twin)
    result = sweep(str(spec), "--out", str(folder / "out"), "--jobs", "2")
    assert result.exit_code == 0, result.output
    return spec, folder / "out", result.output


def test_every_episode_has_its_folder_and_the_leaderboard_ranks_systems_per_family(pooled):
    _, root, output = pooled
    found = traces(root)
    assert sorted(found) == sorted(
        f"{w}/{a}/{c}/t{i}"
        for w in ("demo", "twin")
        for a in ("oracle", "naive", "fixed")
        for c in ("direct", "autonomous")
        for i in (1, 2)
    )
    assert all(events[-1]["type"] == "end" for events in found.values())
    seeds = {key: events[0]["seed"] for key, events in found.items()}
    assert all(
        seeds[key] == int(key[-1]) - 1 for key in seeds
    )  # trajectory i: seed + i - 1, as `episode` assigns
    boards = board(root)["boards"]
    assert [(b["setting"]["family"], b["setting"]["condition"]) for b in boards] == [
        ("demo", "direct"),
        ("demo", "autonomous"),
        ("twin", "direct"),
        ("twin", "autonomous"),
    ]
    for b in boards:
        rows = {r["system"]: r for r in b["rows"]}
        assert rows["oracle"]["rank"] == 1 and rows["oracle"]["best_at_n_chance_corrected"] == 100.0
        # naive passes 2 of demo's 6 tasks; the floor is 4 of 6 (the adaptive strategies)
        assert rows["naive"]["best_at_n_chance_corrected"] == pytest.approx(-100.0, abs=0.01)
        assert all(r["n"] == 2 and r["failures"] == 0 for r in rows.values())
    autonomous = {r["system"]: r for r in boards[1]["rows"]}
    assert autonomous["fixed"]["gain_mean"] > 0  # its probes teach it rules
    state = json.loads((root / "sweep.json").read_text(encoding="utf-8"))
    assert state["counts"] == {"episodes": 24, "done": 24, "failed": 0, "pending": 0}
    for name in ("leaderboard.md", "leaderboard.html", "curves.png", "curves.svg", "sweep.toml"):
        assert (root / name).stat().st_size > 0
    assert "family twin · condition autonomous" in (root / "leaderboard.md").read_text(
        encoding="utf-8"
    )
    assert "24 of 24 episodes done" in output


def test_one_job_gives_the_same_episodes_and_leaderboard(pooled, tmp_path):
    spec, root, _ = pooled
    result = sweep(str(spec), "--out", str(tmp_path / "out"), "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert board(tmp_path / "out") == board(root)
    assert traces(tmp_path / "out") == traces(root)


def test_embedded_ray_gives_the_same_episodes_and_leaderboard(pooled, tmp_path, ray_local):
    spec, root, _ = pooled
    result = sweep(str(spec), "--out", str(tmp_path / "out"), "--ray", "local", progress=True)
    assert result.exit_code == 0, result.output
    assert ray_local.is_initialized()  # the sweep used the test's Ray and left it running
    # the driver names Ray's start-up and its tasks' (the tasks' own lines reach the terminal
    # through Ray's log forwarding, which this in-process run does not capture)
    lines = result.stderr.splitlines()
    assert "aliencode sweep: starting or joining Ray at local …" in lines
    assert "aliencode sweep: starting 2 Ray tasks …" in lines  # as many as the cluster's CPUs
    assert board(tmp_path / "out") == board(root)
    assert traces(tmp_path / "out") == traces(root)
    assert json.loads((tmp_path / "out" / "sweep.json").read_text())["executor"] == "ray local"


def test_a_finished_sweep_resumes_to_nothing(pooled, tmp_path):
    spec, root, _ = pooled
    before = {p: p.read_bytes() for p in root.rglob(TRACE_NAME)}
    result = sweep(str(spec), "--out", str(root), "--resume", "--jobs", "2")
    assert result.exit_code == 0, result.output
    assert "24 of 24 episodes done (24 finished before)" in result.output
    assert {p: p.read_bytes() for p in root.rglob(TRACE_NAME)} == before


def test_an_existing_sweep_needs_resume(pooled):
    spec, root, _ = pooled
    result = CliRunner().invoke(main, ["sweep", str(spec), "--out", str(root)])
    assert result.exit_code == 2
    assert "holds a sweep already: continue it with --resume" in result.output


def test_a_failing_agent_is_isolated_and_counted_in_the_exit_status(tmp_path, twin):
    agents = '"oracle", { name = "raising", class = "sweep_agents:RaisingAgent" }'
    spec = write_sweep(tmp_path, twin, agents)
    result = sweep(str(spec), "--out", str(tmp_path / "out"), "--jobs", "2")
    assert result.exit_code == failures_status(8) == 18, result.output
    state = json.loads((tmp_path / "out" / "sweep.json").read_text())
    failed = [e for e in state["episodes"] if e["status"] == "failed"]
    assert len(failed) == 8 and {e["agent"] for e in failed} == {"raising"}
    assert all(
        e["error"] == "AgentError: the raising agent cannot answer (on purpose)" for e in failed
    )
    assert state["counts"] == {"episodes": 16, "done": 8, "failed": 8, "pending": 0}
    for b in board(tmp_path / "out")["boards"]:
        rows = {r["system"]: r for r in b["rows"]}
        assert (
            rows["oracle"]["n"] == 2
            and rows["oracle"]["failures"] == 0
            and rows["oracle"]["rank"] == 1
        )
        assert (
            rows["raising"]["n"] == 0
            and rows["raising"]["failures"] == 2
            and rows["raising"]["rank"] is None
        )
    assert (
        "| tokens | bits | redundant | mass | errors | failures |"
        in (tmp_path / "out" / "leaderboard.md").read_text()
    )
    assert "failed: demo/raising/direct/t1: AgentError" in result.output


def test_exit_status_counts_failures_up_to_a_hundred():
    assert [failures_status(k) for k in (0, 1, 2, 99, 100, 101, 5000)] == [
        0,
        11,
        12,
        109,
        110,
        110,
        110,
    ]


def test_alienlogic_sweep(tmp_path):
    from alienworlds.cli.alienlogic import cli as logic

    spec = tmp_path / "logic.toml"
    spec.write_text(
        'language = "alienlogic"\nworlds = ["main"]\nagents = ["oracle", "naive"]\nconditions = '
        '["direct"]\npasses = 1\n'
    )
    result = CliRunner().invoke(
        logic,
        [
            "sweep",
            str(spec),
            "--out",
            str(tmp_path / "out"),
            "--jobs",
            "1",
            "--json",
            "--no-progress",
        ],
    )
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    assert printed["counts"] == {"episodes": 2, "done": 2, "failed": 0, "pending": 0}
    [b] = printed["leaderboard"]["boards"]
    assert b["setting"] == {
        "language": "alienlogic",
        "family": "main",
        "condition": "direct",
        "passes": 1,
    }
    rows = {r["system"]: r for r in b["rows"]}
    assert rows["oracle"]["rank"] == 1 and rows["oracle"]["unprovable_recognition"] == 100.0
    assert (
        rows["naive"]["rank"] == 2 and rows["naive"]["best_at_n_chance_corrected"] < 0
    )  # below the bank's floor
    assert (tmp_path / "out" / "main" / "oracle" / "direct" / "t1" / "trace.jsonl").exists()
