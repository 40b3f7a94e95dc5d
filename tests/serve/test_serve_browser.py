"""A scripted participant plays the demo world end to end in headless
Chromium, through the page's own text box and buttons, against
`alienworlds serve` running as a process. Timings are printed, not
asserted (a verdict must not depend on the machine's speed)."""

import os
import statistics
from pathlib import Path

from alienworlds.episode.metrics import compute_report
from alienworlds.episode.trace import read_trace
from serve_browser_play import play_in_browser
from serve_cdp import Browser, chromium_or_skip
from serve_participant import ScriptedParticipant
from serve_process import ServerProcess
from serve_testing import make_study

REPO = Path(__file__).resolve().parents[2]


def test_a_scripted_participant_plays_the_demo_world_in_chromium(tmp_path, demo_env):
    binary = chromium_or_skip()
    made = make_study(tmp_path / "data", count=1, consent="A consent text for the test.")
    participant = ScriptedParticipant(demo_env)
    server = ServerProcess(made.data).start()
    browser = Browser(binary, tmp_path / "profile", f"{server.base}/p/{made.tokens['p1']}")
    artefacts = Path(
        os.environ.get("ALIENWORLDS_TEST_ARTIFACTS") or REPO / "out" / "test-artifacts"
    )
    artefacts.mkdir(parents=True, exist_ok=True)

    def mid_round(view):
        if view["phase"] == "explore" and view["round"] == 2 and view["budget"]["round_used"] == 3:
            browser.screenshot(artefacts / "serve-explore.png")

    try:
        played = play_in_browser(browser, participant, on_view=mid_round)
        shot = browser.screenshot(artefacts / "serve-finished.png")
    finally:
        browser.close()
        server.stop()
    assert played.seen[-1]["phase"] == "finished"
    assert shot[:8] == b"\x89PNG\r\n\x1a\n"
    first = next(v for v in played.seen if v["phase"] == "explore")
    assert (
        "round 1 of 4" in first["progress"]
        and "probes left this round: 12 of 12" in first["progress"]
    )
    last = [v for v in played.seen if v["phase"] == "explore"][-1]
    assert (
        "round 4 of 4" in last["progress"] and "probes left this round: 1 of 12" in last["progress"]
    )
    assert played.seen[0]["phase"] == "consent"
    assert played.milliseconds.keys() == {"consent", "probe", "rules", "answer"}
    assert len(played.milliseconds["probe"]) == 48
    events = read_trace(made.data / "studies" / "st" / "p1" / "trace.jsonl")
    report = compute_report(events)
    assert [m["accuracy"] for m in report["milestones"]] == [100.0] * 5
    assert [e["arguments"] for e in events if e["type"] == "tool"] == [
        __import__("json").dumps({"code": p}) for batch in participant.sequence for p in batch
    ]
    for kind, times in sorted(played.milliseconds.items()):
        print(
            f"{kind}: {len(times)} actions, median {statistics.median(times):.0f} ms, "
            f"max {max(times):.0f} ms"
        )
