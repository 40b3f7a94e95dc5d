"""Ctrl-C (SIGINT) or SIGTERM in the middle of a milestone: no new request
starts, the ones in flight are cancelled, the trace stays consistent, the
process exits within 2 s, and --resume sends exactly the requests whose
replies the trace lacks."""

import os
import signal
import subprocess
import sys
import time

import pytest
from alienworlds.episode import Episode, Settings
from alienworlds.episode.openai_agent import OpenAIAgent
from alienworlds.episode.trace import read_trace
from fake_openai import FakeServer, OracleModel

CONCURRENCY = 4


def answer_requests(server):
    return sum(
        1 for b in server.requests if "Held-out task" in str(b["messages"][-1].get("content"))
    )


def start_episode(url, out):
    command = [
        sys.executable,
        "-m",
        "alienworlds.cli.aliencode",
        "episode",
        "--agent",
        "openai",
        "--model",
        "fake-model",
        "--base-url",
        url,
        "--api-key-env",
        "NO_KEY_HERE",
        "--world",
        "demo",
        "--concurrency",
        str(CONCURRENCY),
        "--out",
        str(out),
    ]
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "NO_KEY_HERE"},
    )


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_mid_milestone_stops_spending_and_resume_sends_only_what_is_missing(
    demo_env, tmp_path, signum
):
    out = tmp_path / "run"
    with FakeServer(OracleModel(demo_env), delay=0.3) as server:
        proc = start_episode(server.url, out)
        try:
            deadline = time.monotonic() + 60
            while answer_requests(server) < 6:  # M0's answers are under way
                assert proc.poll() is None, proc.communicate()
                assert time.monotonic() < deadline, "the episode never reached M0's answers"
                time.sleep(0.01)
            signalled = time.monotonic()
            proc.send_signal(signum)
            _, stderr = proc.communicate(timeout=10)
            exited = time.monotonic() - signalled
        finally:
            if proc.poll() is None:
                proc.kill()
        time.sleep(0.5)  # anything still on its way arrives
        after = sum(1 for t in server.times if t > signalled)
        sent = len(server.requests)
    print(
        f"{signal.Signals(signum).name}: exit after {exited:.2f} s; requests after the signal: "
        f"{after} (of {sent})"
    )
    assert proc.returncode == 128 + signum, stderr
    assert exited < 2.0
    assert after <= CONCURRENCY
    assert f"stopped by {signal.Signals(signum).name}" in stderr and "--resume" in stderr

    # the trace is consistent: whole lines, a request before each reply, a reply before each verdict
    raw = (out / "trace.jsonl").read_bytes()
    assert raw.endswith(b"\n")
    events = read_trace(out)
    keys = [e["key"] for e in events]
    assert len(keys) == len(set(keys))
    replies = {k.removeprefix("reply/") for k in keys if k.startswith("reply/")}
    for event in events:
        if event["type"] == "reply":
            assert keys.index(f"request/{event['key'].removeprefix('reply/')}") < keys.index(
                event["key"]
            )
        if event["type"] == "answer":
            assert event["key"].removeprefix("answer/") in replies
    assert "end" not in keys and len(replies) <= sent

    with FakeServer(OracleModel(demo_env)) as server:
        agent = OpenAIAgent(
            base_url=server.url,
            model="fake-model",
            api_key_env="NO_KEY_HERE",
            concurrency=CONCURRENCY,
        )
        report = Episode(demo_env, agent, out, Settings(), resume=True).run()
        resumed = len(server.requests)
    final = read_trace(out)
    assert report["complete"] and [m["accuracy"] for m in report["milestones"]] == [100.0] * 5
    final_replies = {e["key"] for e in final if e["type"] == "reply"}
    assert {f"reply/{k}" for k in replies} <= final_replies
    assert resumed == len(final_replies) - len(replies)  # no reply in the trace was asked for again


LEFT_TO_DEFAULT = """
import asyncio, signal, sys
from alienworlds.episode.interrupt import Interrupted, leave_to_default, run_until_signal

async def episode():
    print("ready", flush=True)
    await asyncio.sleep(60)

leave_to_default(signal.SIGTERM)
try:
    run_until_signal(episode())
except Interrupted as exc:
    print(exc, flush=True)
    sys.exit(exc.exit_status)
"""


@pytest.mark.parametrize(
    "signum, status, printed",
    [
        (signal.SIGTERM, -signal.SIGTERM, ""),
        (signal.SIGINT, 128 + signal.SIGINT, "stopped by SIGINT"),
    ],
)
def test_a_signal_left_to_default_kills_instead_of_stopping_the_episode(signum, status, printed):
    """A sweep's pool worker leaves SIGTERM to its default: the pool kills
    it with SIGTERM, and SIGINT still stops its episode cleanly."""
    proc = subprocess.Popen(
        [sys.executable, "-c", LEFT_TO_DEFAULT], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout.readline() == "ready\n"
        proc.send_signal(signum)
        out, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == status
    assert out.strip() == printed
