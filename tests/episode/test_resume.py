import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from alienworlds.episode import Episode, Settings, TraceError, make_agent
from alienworlds.episode.agent_registry import Agent, AgentError
from alienworlds.episode.trace import Trace
from episode_testing import events_of

ROOT = Path(__file__).resolve().parents[2]


def run(env, name, out, resume=False, **settings):
    return Episode(
        env,
        make_agent(name, env, seed=settings.get("seed", 0)),
        out,
        Settings(**settings),
        resume=resume,
    ).run()


class Killed(BaseException):
    """Stands for the process being killed (not an Exception: nothing catches it)."""


class CrashingAgent(Agent):
    def __init__(self, inner, after):
        self.inner, self.after, self.calls = inner, after, 0
        self.name, self.offline = inner.name, inner.offline

    def config(self):
        return self.inner.config()

    def respond(self, request):
        self.calls += 1
        if self.calls > self.after:
            raise AgentError("endpoint went away")
        return self.inner.respond(request)


@pytest.fixture(scope="module")
def clean(demo_env, tmp_path_factory):
    out = tmp_path_factory.mktemp("clean")
    report = run(demo_env, "fixed", out)
    return out, report


@pytest.mark.parametrize("after", [0, 1, 5, 12, 13, 30, 60, 100, 142])
def test_resume_after_an_agent_failure_loses_and_repeats_nothing(demo_env, clean, tmp_path, after):
    agent = CrashingAgent(make_agent("fixed", demo_env), after)
    with pytest.raises(AgentError):
        Episode(demo_env, agent, tmp_path, Settings()).run()
    resumed = CrashingAgent(make_agent("fixed", demo_env), 10**9)
    report = Episode(demo_env, resumed, tmp_path, Settings(), resume=True).run()
    assert events_of(tmp_path) == events_of(clean[0])
    assert report == clean[1]
    total = sum(1 for e in events_of(clean[0]) if e["type"] == "reply")
    assert after + resumed.calls == total  # every request was answered exactly once


def test_resume_after_a_kill_at_any_write(demo_env, clean, tmp_path, monkeypatch):
    total = len(events_of(clean[0]))
    original = Trace.append
    for n, point in enumerate(range(1, total, 53)):
        out = tmp_path / f"k{n}"
        written = {"n": 0}

        def dying_append(self, *events, _point=point, _written=written):
            if _written["n"] + len(events) >= _point:
                raise Killed()
            _written["n"] += len(events)
            return original(self, *events)

        monkeypatch.setattr(Trace, "append", dying_append)
        with pytest.raises(Killed):
            run(demo_env, "fixed", out)
        monkeypatch.setattr(Trace, "append", original)
        if n % 3 == 0:  # a write torn by the kill
            with open(out / "trace.jsonl", "a") as fh:
                fh.write('{"type": "answer", "key": "answer/M9')
        run(demo_env, "fixed", out, resume=True)
        assert events_of(out) == events_of(clean[0]), point


def test_resuming_a_finished_run_changes_nothing(demo_env, clean, tmp_path):
    run(demo_env, "oracle", tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    run(demo_env, "oracle", tmp_path, resume=True)
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert before == after


def test_an_existing_trace_needs_resume(demo_env, tmp_path):
    run(demo_env, "oracle", tmp_path, condition="direct")
    with pytest.raises(TraceError, match="--resume"):
        run(demo_env, "oracle", tmp_path, condition="direct")


def test_resume_refuses_another_agent_or_condition(demo_env, tmp_path):
    run(demo_env, "oracle", tmp_path, condition="direct")
    with pytest.raises(TraceError, match="agent"):
        run(demo_env, "naive", tmp_path, resume=True, condition="direct")
    with pytest.raises(TraceError, match="condition"):
        run(demo_env, "oracle", tmp_path, resume=True, condition="autonomous")


def _lines(path):
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def test_kill_the_process_and_resume(tmp_path):
    """A real SIGKILL in the middle of a run, then `--resume`."""
    cmd = [
        sys.executable,
        "-m",
        "alienworlds.cli.aliencode",
        "episode",
        "--agent",
        "fixed",
        "--world",
        "demo",
        "--passes",
        "30",
        "--no-progress",
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run(
        cmd + ["--out", str(tmp_path / "clean")],
        check=True,
        capture_output=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    trace = tmp_path / "killed" / "trace.jsonl"
    proc = subprocess.Popen(
        cmd + ["--out", str(tmp_path / "killed")],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while _lines(trace) < 700 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    killed_at = _lines(trace)
    assert proc.returncode == -signal.SIGKILL and 0 < killed_at < _lines(
        tmp_path / "clean" / "trace.jsonl"
    )
    done = subprocess.run(
        cmd + ["--out", str(tmp_path / "killed"), "--resume"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert events_of(tmp_path / "killed") == events_of(tmp_path / "clean")
