"""A participant plays whole episodes through the HTTP API (in process):
the same protocol, trace and report as an agent's."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from alienworlds.episode.metrics import compute_report
from alienworlds.episode.trace import read_trace
from alienworlds.serve.app import ServerLimits, application
from alienworlds.serve.limits import Rate
from alienworlds.serve.store import Store
from conftest import LOGIC_BANK
from serve_participant import ScriptedParticipant
from serve_testing import act, make_study, play, wait_view
from starlette.testclient import TestClient

REPO = Path(__file__).resolve().parents[2]
FAST = ServerLimits(client_rate=Rate(1000.0, 100_000), action_rate=Rate(1000.0, 100_000))


def _trace(made, participant):
    return read_trace(made.data / "studies" / made.study.id / participant / "trace.jsonl")


@pytest.mark.parametrize("condition", ["autonomous", "without-tool", "fixed-probe"])
def test_a_participant_who_knows_the_answers_scores_full_marks(tmp_path, demo_env, condition):
    made = make_study(tmp_path / "data", count=2, condition=condition)
    with TestClient(application(made.data, FAST)) as client:
        played = play(client, made.tokens["p1"], ScriptedParticipant(demo_env, probes_per_round=5))
        status = client.get(f"/api/r/{made.researcher}/status").json()
        page = client.get(f"/r/{made.researcher}")
    assert played.view["phase"] == "finished", played.view
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "human:st-p1" in page.text and "Leaderboard" in page.text and "not started" in page.text
    events = _trace(made, "p1")
    header = events[0]
    assert header["agent"] == {"name": "human:st-p1"}
    assert header["condition"] == condition and header["protocol"]["passes"] == 3
    report = compute_report(events)
    assert [m["accuracy"] for m in report["milestones"]] == [100.0] * 5
    assert report["milestones"][-1]["rule_report_score"] == len(demo_env.rule_ids())
    answers = [e for e in events if e["type"] == "answer"]
    assert len(answers) == 5 * len(demo_env.tasks()) * 3
    for event in answers:  # every pass repeats the person's first answer
        first = next(
            a
            for a in answers
            if (a["milestone"], a["task"], a["pass"]) == (event["milestone"], event["task"], 1)
        )
        assert event["answer"] == first["answer"]
    tools = [e for e in events if e["type"] == "tool"]
    if condition == "autonomous":
        typed = [p for batch in ScriptedParticipant(demo_env).sequence for p in batch[:5]]
        assert [json.loads(e["arguments"])["code"] for e in tools] == typed
        for event in tools:
            assert (
                event["feedback"]
                == demo_env.run_tool({"code": json.loads(event["arguments"])["code"]}).feedback
            )
    rows = {r["participant"]: r for r in status["participants"]}
    assert rows["p1"]["state"] == "finished" and rows["p1"]["accuracy"] == [100.0] * 5
    assert rows["p2"]["state"] == "not started"
    board = status["leaderboard"]["boards"][0]["rows"]
    assert [r["system"] for r in board] == ["human:st-p1"]


def test_an_alienlogic_participant_proves_and_refuses(tmp_path, logic_env):
    made = make_study(tmp_path / "data", count=1, language="alienlogic", bank=LOGIC_BANK, passes=1)
    with TestClient(application(made.data, FAST)) as client:
        played = play(client, made.tokens["p1"], ScriptedParticipant(logic_env, probes_per_round=2))
    assert played.view["phase"] == "finished"
    assert played.view["budget"]["total_max"] == 48 and played.view["budget"]["total_used"] == 8
    report = compute_report(_trace(made, "p1"))
    assert [m["accuracy"] for m in report["milestones"]] == [100.0] * 5
    assert report["unprovable_recognition"] == 100.0


def test_the_page_shows_the_round_and_the_budget_left(tmp_path, demo_env):
    made = make_study(tmp_path / "data", count=1)
    participant = ScriptedParticipant(demo_env)
    seen = []
    with TestClient(application(made.data, FAST)) as client:
        play(
            client,
            made.tokens["p1"],
            participant,
            stop=lambda view, n: seen.append(view) or view.get("round") == 2,
        )
    explore = [v for v in seen if v["phase"] == "explore" and v["round"] == 1]
    assert [v["budget"]["round_used"] for v in explore] == list(range(12))
    assert [len(v["probes"]) for v in explore] == list(range(12))
    assert all(v["rounds"] == 4 and v["budget"]["per_round"] == 12 for v in explore)
    after = next(v for v in seen if v["phase"] == "rules" and v["milestone"] == "M1")
    assert after["milestones"] == {"done": 1, "of": 5}
    assert (
        after["probes"][-1]["feedback"]
        == demo_env.run_tool({"code": participant.sequence[0][11]}).feedback
    )


def test_a_session_that_cannot_run_says_why_in_one_line(tmp_path):
    world = tmp_path / "world.toml"
    world.write_text((REPO / "ruleset" / "worlds" / "aliencode" / "demo.toml").read_text())
    made = make_study(tmp_path / "data", count=1, world=str(world))
    world.write_text("this is = not [a world")  # broken after the study was made
    with TestClient(application(made.data, FAST)) as client:
        view = wait_view(client, made.tokens["p1"])
        status = client.get(f"/api/r/{made.researcher}/status").json()
        briefing = client.get(f"/api/p/{made.tokens['p1']}/briefing")
    assert view["phase"] == "failed" and view["key"] is None
    assert "world.toml" not in view["message"]  # the page names no server path
    row = status["participants"][0]
    assert row["state"] == "failed" and "world.toml" in row["error"] and "\n" not in row["error"]
    assert briefing.status_code == 503


def test_the_episode_starts_only_after_the_participant_agrees(tmp_path):
    data = tmp_path / "data"
    store = Store(data, create=True)
    text = "You may stop at any time. Your answers are kept without your name."
    _, researcher, links = store.create(
        "aliencode", "demo", None, "autonomous", 3, 0, 1, "c", consent=text
    )
    token = dict(links)["p1"]
    with TestClient(application(data, FAST)) as client:
        view = wait_view(client, token)
        assert view["phase"] == "consent" and view["prompt"] == text
        assert client.get(f"/api/r/{researcher}/status").json()["participants"][0]["state"] == (
            "consent"
        )
        for action in ("probe", "answer", "end-round"):
            assert act(client, token, view, action, "x").status_code == 400
        assert not (data / "studies" / "c" / "p1" / "trace.jsonl").exists()
        view = act(client, token, view, "consent").json()
        view = wait_view(client, token) if view["phase"] == "working" else view
        assert view["phase"] == "rules" and view["key"] == "M0/rules"
    agreed = json.loads((data / "studies" / "c" / "p1" / "consent.json").read_text())
    assert agreed["agreed_at"] > 0
    with TestClient(application(data, FAST)) as client:  # a restart asks no second time
        assert wait_view(client, token)["key"] == "M0/rules"


def test_the_open_book_milestone_shows_the_disclosed_rules(tmp_path, demo_env):
    made = make_study(tmp_path / "data", count=1, condition="open-book-m4", passes=1)
    seen = []
    with TestClient(application(made.data, FAST)) as client:
        played = play(
            client,
            made.tokens["p1"],
            ScriptedParticipant(demo_env, probes_per_round=1),
            stop=lambda view, n: seen.append(view) or False,
        )
    assert played.view["phase"] == "finished"
    disclosed = [v for v in seen if v.get("milestone") == "M4+O"]
    assert disclosed and all(demo_env.disclosure() in v["prompt"] for v in disclosed)
    assert not any(demo_env.disclosure() in v.get("prompt", "") for v in seen[: -len(disclosed)])
    report = compute_report(_trace(made, "p1"))
    assert report["open_book"]["accuracy"] == 100.0


def test_aliencode_report_reads_a_study_beside_agents_runs(tmp_path, demo_env):
    made = make_study(tmp_path / "data", count=2)
    with TestClient(application(made.data, FAST)) as client:
        play(client, made.tokens["p1"], ScriptedParticipant(demo_env, probes_per_round=2))
    study = made.data / "studies" / "st"
    done = subprocess.run(
        [sys.executable, "-m", "alienworlds.cli.aliencode", "report", str(study)]
        + ["--out", str(tmp_path / "report"), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    board = json.loads(done.stdout)["leaderboard"]["boards"][0]
    assert [r["system"] for r in board["rows"]] == ["human:st-p1"]
