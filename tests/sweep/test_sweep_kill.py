"""A sweep killed with SIGKILL (the driver, or one pool worker) in the
middle of its episodes loses and repeats nothing: after `--resume` (or the
pool's own restart) every trace holds exactly the events of an
uninterrupted run, each once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from alienworlds.cli.aliencode import main
from alienworlds.episode.trace import TRACE_NAME, read_trace
from alienworlds.sweep.worker import LOCK_NAME
from click.testing import CliRunner
from sweep_testing import HERE, traces, write_sweep

AGENTS = '"oracle", { name = "slow-fixed", class = "sweep_agents:SlowFixedAgent" }'
HELD = """worlds = ["demo"]
agents = ["oracle", { name = "held-fixed", class = "sweep_agents:HeldFixedAgent" }]
conditions = ["direct"]
trajectories = 1
passes = 1
"""
EPISODES = 8  # demo × 2 agents × 2 conditions × 2 trajectories
pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads /proc to find the pool's workers"
)


@pytest.fixture(scope="module")
def reference(tmp_path_factory, twin):
    folder = tmp_path_factory.mktemp("reference")
    spec = write_sweep(folder, twin, AGENTS, worlds='"demo"')
    result = CliRunner().invoke(
        main, ["sweep", str(spec), "--out", str(folder / "out"), "--jobs", "2", "--no-progress"]
    )
    assert result.exit_code == 0, result.output
    return spec, traces(folder / "out")


def start(
    spec: Path, out: Path, *extra: str, env: dict[str, str] | None = None
) -> subprocess.Popen:
    env = {
        **os.environ,
        **(env or {}),
        "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "alienworlds.cli.aliencode",
            "sweep",
            str(spec),
            "--out",
            str(out),
            "--jobs",
            "2",
            "--no-progress",
            *extra,
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def episodes_done(out: Path) -> int:
    try:
        return json.loads((out / "sweep.json").read_text(encoding="utf-8"))["counts"]["done"]
    except (OSError, ValueError, KeyError):
        return 0


def partial_traces(out: Path) -> list[Path]:
    return [p for p in out.rglob(TRACE_NAME) if not any(e["type"] == "end" for e in read_trace(p))]


def wait_until(condition, process: subprocess.Popen, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        assert process.poll() is None, f"the sweep ended before the kill: {process.communicate()}"
        assert time.monotonic() < deadline, "the sweep made no progress"
        time.sleep(0.02)


def workers_of(pid: int) -> list[int]:
    """The pool's worker processes (not the resource tracker)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == pid and b"spawn_main" in cmdline:
            out.append(int(entry.name))
    return out


def holds_open(pid: int, path: Path) -> bool:
    try:
        return any(Path(os.readlink(fd)) == path for fd in Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return False


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def assert_nothing_lost_or_repeated(out: Path, expected: dict[str, list[dict]]) -> None:
    found = traces(out)
    assert sorted(found) == sorted(expected)
    for key, events in found.items():
        keys = Counter(e["key"] for e in events)
        assert not [k for k, n in keys.items() if n > 1], f"{key}: events written twice"
        assert events == expected[key], f"{key}: the events differ from an uninterrupted run's"


KILL_TRIES = 5  # a demo episode takes a fraction of a second: the kill may land just after one ends


def kill_mid_episode(spec: Path, out: Path) -> bool:
    """SIGKILL the sweep while an episode is under way; False when the kill
    landed between episodes (the race the caller retries)."""
    process = start(spec, out)
    wait_until(lambda: episodes_done(out) >= 2, process)
    workers = workers_of(
        process.pid
    )  # before the kill's moment: reading /proc takes a while on a busy machine
    wait_until(lambda: partial_traces(out), process)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    deadline = time.monotonic() + 10
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert workers and not any(alive(w) for w in workers), "the pool's workers outlived the sweep"
    return bool(partial_traces(out))


def test_sigkill_of_the_sweep_then_resume_loses_and_repeats_nothing(reference, tmp_path):
    spec, expected = reference
    for attempt in range(KILL_TRIES):
        out = tmp_path / f"out{attempt}"
        if kill_mid_episode(spec, out):
            break
    else:
        pytest.fail(
            f"the kill landed between episodes {KILL_TRIES} times: nothing was in the middle"
        )
    assert episodes_done(out) < EPISODES
    result = CliRunner().invoke(
        main, ["sweep", str(spec), "--out", str(out), "--resume", "--jobs", "2", "--no-progress"]
    )
    assert result.exit_code == 0, result.output
    assert_nothing_lost_or_repeated(out, expected)
    state = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert state["counts"] == {"episodes": EPISODES, "done": EPISODES, "failed": 0, "pending": 0}


def test_sigkill_of_a_pool_worker_restarts_its_episodes_from_their_traces(reference, tmp_path):
    spec, expected = reference
    out = tmp_path / "out"
    process = start(spec, out)
    wait_until(
        lambda: episodes_done(out) >= 2 and partial_traces(out) and workers_of(process.pid), process
    )
    victim = workers_of(process.pid)[0]
    os.kill(victim, signal.SIGKILL)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr.decode()
    assert_nothing_lost_or_repeated(out, expected)
    state = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert state["counts"]["done"] == EPISODES
    restarted = [e for e in state["episodes"] if e["starts"] == 2]
    assert restarted and all(
        e["starts"] in (1, 2) for e in state["episodes"]
    )  # the killed worker's episode ran again


def test_a_worker_killed_while_it_waits_for_a_job_does_not_hang_the_sweep(tmp_path):
    """An idle pool worker waits for its next job holding the lock of the
    pool's job queue, and killed there it holds it for ever. The pool then
    terminates its other workers with SIGTERM: one inside an episode must
    die of it. Had it stopped its episode cleanly instead, it would wait
    for that lock, and the sweep with it."""
    spec = tmp_path / "sweep.toml"
    spec.write_text(HELD, encoding="utf-8")
    release = tmp_path / "release"
    env = {"SWEEP_TEST_RELEASE": str(release)}
    release.touch()
    reference = start(spec, tmp_path / "reference", env=env)
    assert reference.wait(timeout=120) == 0, reference.communicate()
    release.unlink()
    out = tmp_path / "out"
    held_lock = out / "demo" / "held-fixed" / "direct" / "t1" / LOCK_NAME
    process = start(spec, out, env=env)

    def idle_worker() -> list[int]:
        workers = workers_of(process.pid)
        held = [w for w in workers if holds_open(w, held_lock)]
        return (
            [w for w in workers if w not in held]
            if held and len(workers) == 2 and episodes_done(out) == 1
            else []
        )

    try:
        wait_until(idle_worker, process)
        victim = idle_worker()[0]  # the held episode keeps both workers where they are
        time.sleep(0.1)  # from posting the oracle's outcome to waiting on the job queue
        os.kill(victim, signal.SIGKILL)
        release.touch()
        _, stderr = process.communicate(timeout=120)
    finally:
        process.kill()  # a hung sweep: its workers die with it
    assert process.returncode == 0, stderr.decode()
    assert_nothing_lost_or_repeated(out, traces(tmp_path / "reference"))
    starts = {
        e["key"]: e["starts"]
        for e in json.loads((out / "sweep.json").read_text(encoding="utf-8"))["episodes"]
    }
    assert starts == {"demo/oracle/direct/t1": 1, "demo/held-fixed/direct/t1": 2}


def test_sigterm_stops_the_episodes_cleanly_and_resume_finishes_them(reference, tmp_path):
    spec, expected = reference
    out = tmp_path / "out"
    process = start(spec, out)
    wait_until(lambda: episodes_done(out) >= 2 and partial_traces(out), process)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 143, stderr.decode()
    assert "stopped by SIGTERM" in stderr.decode() and "--resume" in stderr.decode()
    state = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert state["counts"]["pending"] > 0 and state["counts"]["failed"] == 0
    assert (out / "leaderboard.json").exists()  # over the episodes finished so far
    result = CliRunner().invoke(
        main, ["sweep", str(spec), "--out", str(out), "--resume", "--jobs", "2", "--no-progress"]
    )
    assert result.exit_code == 0, result.output
    assert_nothing_lost_or_repeated(out, expected)


def test_an_edited_sweep_does_not_pass_off_old_episodes_as_its_own(reference, tmp_path):
    spec, _ = reference
    out = tmp_path / "out"
    edited = tmp_path / "edited.toml"
    edited.write_text(
        'worlds = ["demo"]\nagents = ["oracle"]\nconditions = ["direct"]\npasses = 1\n'
    )
    assert (
        CliRunner()
        .invoke(main, ["sweep", str(edited), "--out", str(out), "--jobs", "1", "--no-progress"])
        .exit_code
        == 0
    )
    edited.write_text(
        'worlds = ["demo"]\nagents = ["oracle"]\nconditions = ["direct"]\npasses = 2\n'
    )
    result = CliRunner().invoke(
        main, ["sweep", str(edited), "--out", str(out), "--jobs", "1", "--resume", "--no-progress"]
    )
    assert result.exit_code == 11, result.output
    assert (
        "failed: demo/oracle/direct/t1: TraceError:" in result.output
        and "different protocol" in result.output
    )
