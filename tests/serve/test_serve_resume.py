"""A server killed (SIGKILL) mid-session and started again continues every
open session with nothing lost: each action the server acknowledged is in
the trace, and the page shows exactly what it showed before the kill."""

import json
import threading
import time

import httpx
from alienworlds.episode.metrics import compute_report
from alienworlds.episode.trace import read_trace
from serve_participant import ScriptedParticipant
from serve_process import ServerProcess
from serve_testing import act, make_study, play, wait_view


def _post_quietly(base: str, token: str, body: dict) -> None:
    """An action whose response may never come (the server dies under it)."""
    try:
        httpx.post(f"{base}/api/p/{token}/act", json=body, timeout=30)
    except httpx.HTTPError:
        pass


# kill points: in M0's answers, mid round 1, at the round's last probe, in M1, in round 2
KILL_AFTER = (3, 12, 18, 21, 34)
IN_FLIGHT_DELAYS = (0.0, 0.01, 0.05)


def test_a_killed_server_resumes_every_session_with_nothing_lost(tmp_path, demo_env):
    made = make_study(tmp_path / "data", count=2)
    participant = ScriptedParticipant(demo_env, probes_per_round=6)
    server = ServerProcess(made.data).start()
    try:
        with httpx.Client(base_url=server.base, timeout=60) as client:
            done = 0
            for kill_at in KILL_AFTER:
                played = play(
                    client,
                    made.tokens["p1"],
                    participant,
                    stop=lambda v, n, k=kill_at - done: n >= k,
                )
                done += played.actions
                other = play(client, made.tokens["p2"], participant, stop=lambda v, n: n >= 1)
                before = {pid: wait_view(client, t) for pid, t in made.tokens.items()}
                server.kill()
                server.start()
                after = {pid: wait_view(client, t) for pid, t in made.tokens.items()}
                assert after == before, f"after {done} actions"
                assert other.view == before["p2"]
            # an action in flight when the server dies, at a few delays: taken whole or not at all
            for delay in IN_FLIGHT_DELAYS:
                view = wait_view(client, made.tokens["p1"])
                action, text, refuse = participant.decide(view)
                body = {"action": action, "key": view["key"], "text": text, "refuse": refuse}
                poster = threading.Thread(
                    target=_post_quietly, args=(server.base, made.tokens["p1"], body)
                )
                poster.start()
                time.sleep(delay)
                server.kill()
                poster.join(60)
                server.start()
                resumed = wait_view(client, made.tokens["p1"])
                assert resumed == view or resumed["key"] != view["key"]
            final = play(client, made.tokens["p1"], participant)
            assert final.view["phase"] == "finished"
            assert act(client, made.tokens["p1"], {"key": "M4/rules"}, "answer").status_code == 409
    finally:
        server.stop()
    events = read_trace(made.data / "studies" / "st" / "p1" / "trace.jsonl")
    keys = [e["key"] for e in events]
    assert len(keys) == len(set(keys))  # nothing written twice
    probes = [json.loads(e["arguments"])["code"] for e in events if e["type"] == "tool"]
    assert probes == [p for batch in participant.sequence for p in batch[:6]]
    report = compute_report(events)
    assert [m["accuracy"] for m in report["milestones"]] == [100.0] * 5
