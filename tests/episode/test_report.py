import json

import pytest
from alienworlds.cli.aliencode import main
from alienworlds.episode.aggregate import aggregate
from alienworlds.episode.metrics import compute_report, dynamics
from alienworlds.episode.replay_html import replay_html
from alienworlds.episode.report import markdown
from click.testing import CliRunner


def test_dynamics():
    d = dynamics([10.0, 30.0, 20.0, 50.0, 40.0])
    assert d["gain"] == 30 and d["steps"] == [20, -10, 30, -10]
    assert d["largest_step_share"] == 1.0 and d["reversal"] is True and d["reversals"] == 2
    down = dynamics([50.0, 40.0, 45.0, 20.0, 30.0])
    assert down["gain"] == -20 and down["largest_step_share"] == 1.25
    assert (
        dynamics([5.0, 5.0])["largest_step_share"] is None
        and dynamics([5.0, 5.0])["reversal"] is False
    )
    assert dynamics([7.0])["gain"] is None


def _trace(verdicts, rules_correct):
    header = {
        "type": "header",
        "key": "header",
        "language": "aliencode",
        "world": "w",
        "world_hash": "h",
        "manual_hash": "m",
        "condition": "direct",
        "seed": 0,
        "agent": {"name": "x"},
        "protocol": {"passes": 3, "milestones": ["0"]},
        "tasks": [
            {"id": "A", "band": "apply", "family": "base", "rules": ["R1"]},
            {"id": "B", "band": "scope", "family": "nested", "rules": ["R1", "R2"]},
        ],
    }
    events = [header]
    events.append(
        {
            "type": "rule_report",
            "key": "rules/M0",
            "milestone": 0,
            "report": {},
            "correct": rules_correct,
            "score": sum(rules_correct.values()),
            "of": len(rules_correct),
        }
    )
    for task, passes in verdicts.items():
        for k, ok in enumerate(passes, start=1):
            events.append(
                {
                    "type": "answer",
                    "key": f"answer/M0/{task}/{k}",
                    "milestone": 0,
                    "task": task,
                    "pass": k,
                    "passed": ok,
                }
            )
    events.append(
        {
            "type": "milestone",
            "key": "milestone/M0",
            "milestone": 0,
            "budget": {"calls": 0, "units": 0, "tokens": 0},
        }
    )
    return events


def test_accuracy_sigma_and_coverage():
    report = compute_report(
        _trace({"A": [True, True, False], "B": [False, False, False]}, {"R1": True, "R2": False})
    )
    m0 = report["milestones"][0]
    assert m0["accuracy"] == pytest.approx(100 / 3, abs=1e-3)
    assert m0["pass_accuracy"] == [50.0, 50.0, 0.0] and m0["sigma"] == pytest.approx(
        23.5702, abs=1e-3
    )
    assert m0["covered_tasks"] == 1 and m0["covered_accuracy"] == pytest.approx(66.6667)
    assert m0["uncovered_accuracy"] == 0.0 and m0["rule_report_score"] == 1
    assert m0["bands"] == {"apply": pytest.approx(66.6667), "scope": 0.0}
    assert report["complete"] is False and report["gain"] is None
    missing = compute_report(
        _trace({"A": [True]}, {"R1": True, "R2": True})
    )  # unanswered passes score zero
    assert missing["milestones"][0]["accuracy"] == pytest.approx(100 / 6, abs=1e-3)


def _report(curve):
    return {
        "endpoint": curve[-1],
        "milestones": [
            {
                "t": i,
                "accuracy": a,
                "rule_report_score": 1,
                "budget": {},
                "bands": {"apply": a},
                "families": {"base": a / 2},
            }
            for i, a in enumerate(curve)
        ],
        "gain": curve[-1] - curve[0],
        "largest_step_share": None,
        "reversal": False,
        "covered_accuracy": None,
        "uncovered_accuracy": None,
        "unprovable_recognition": None,
    }


def test_best_at_n_takes_the_lowest_index_on_a_tie():
    summary = aggregate([_report([0, 50]), _report([10, 70]), _report([5, 70]), _report([0, 20])])
    assert (
        summary["best_index"] == 1
        and summary["best_at_n"] == 70
        and summary["best_trajectory"] == "t2"
    )
    assert summary["mean_at_n"] == 52.5 and summary["worst"] == 20 and summary["range"] == 50
    assert summary["best"]["curve"] == [10, 70]
    assert summary["bands"]["apply"] == {"best": 70, "mean": 52.5}
    assert summary["families"]["base"] == {"best": 35, "mean": 26.25}


def test_cli_episode_and_report(tmp_path):
    runner = CliRunner()
    out = tmp_path / "runs"
    result = runner.invoke(
        main,
        [
            "episode",
            "--agent",
            "oracle,naive",
            "--agent",
            "fixed",
            "--world",
            "demo",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "condition autonomous" in lines[0] and "6 tasks × 3 answers" in lines[0]
    oracle = next(line for line in lines if line.startswith("oracle"))
    assert oracle.split()[1:6] == ["100.0"] * 5
    for name in ("oracle", "naive", "fixed"):
        assert (out / name / "trace.jsonl").exists() and (out / name / "report.json").exists()
        assert (out / name / "report.md").exists() and (out / name / "curves.png").exists()
    assert (out / "curves.png").exists() and "agents differ" in (out / "report.md").read_text()
    again = runner.invoke(
        main, ["episode", "--agent", "oracle", "--world", "demo", "--out", str(out / "oracle")]
    )
    assert again.exit_code == 1 and "--resume" in again.output
    same = runner.invoke(
        main,
        [
            "episode",
            "--agent",
            "oracle",
            "--world",
            "demo",
            "--out",
            str(out / "oracle"),
            "--resume",
        ],
    )
    assert same.exit_code == 0 and "100.0" in same.output
    report = runner.invoke(main, ["report", str(out / "fixed"), "--html", "--json"])
    assert report.exit_code == 0, report.output
    summary = json.loads(report.output[: report.output.rindex("}") + 1])
    assert summary["n"] == 1 and summary["best_trajectory"] == "fixed"
    page = (out / "fixed" / "replay.html").read_text()
    assert "Milestone M4" in page and "run_aliencode" in page and "<script" not in page


def test_cli_trajectories_and_bad_input(tmp_path):
    runner = CliRunner()
    result = runner.invoke(
        main,
        [
            "episode",
            "--agent",
            "fixed",
            "--world",
            "demo",
            "--condition",
            "direct",
            "--trajectories",
            "2",
            "--out",
            str(tmp_path),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    reports = json.loads(result.stdout)
    assert [r["trajectory"] for r in reports] == [1, 2]
    assert (tmp_path / "t1" / "trace.jsonl").exists() and (tmp_path / "t2" / "trace.jsonl").exists()
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["n"] == 2 and summary["best_index"] == 0
    listed = runner.invoke(main, ["report", str(tmp_path), "--json"])
    assert listed.exit_code == 0 and json.loads(listed.output)["trajectories"] == ["t1", "t2"]
    assert runner.invoke(main, ["episode", "--agent", "nobody", "--world", "demo"]).exit_code == 2
    assert (
        runner.invoke(main, ["episode", "--agent", "oracle", "--world", "no-such-world"]).exit_code
        == 2
    )
    assert runner.invoke(main, ["episode", "--agent", "replay", "--world", "demo"]).exit_code == 2
    assert (
        runner.invoke(
            main, ["episode", "--agent", "openai", "--world", "demo", "--out", str(tmp_path / "o")]
        ).exit_code
        == 2
    )
    assert (
        runner.invoke(
            main, ["episode", "--agent", "oracle", "--world", "demo", "--condition", "hindsight"]
        ).exit_code
        == 2
    )


def test_replay_page_escapes_text(demo_env, tmp_path):
    from alienworlds.episode import Episode, Settings
    from alienworlds.episode.agent_registry import Agent, text_reply

    class Shouter(Agent):
        name = "shouter"

        def respond(self, request):
            return text_reply("<script>alert(1)</script> & done")

    Episode(demo_env, Shouter(), tmp_path, Settings(condition="direct")).run()
    page = replay_html(tmp_path)
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_a_reversal_is_a_drop_of_three_points_or_more():
    assert dynamics([50.0, 48.0])["reversal"] is False and dynamics([50.0, 48.0])["reversals"] == 0
    assert dynamics([50.0, 47.0])["reversal"] is True and dynamics([50.0, 47.0])["reversals"] == 1
    assert dynamics([40.0, 60.0, 58.0, 62.0, 57.5])["reversal"] is True  # ends 4.5 below M3
    assert dynamics([40.0, 60.0, 58.0, 59.0, 58.0])["reversals"] == 0


def _scored_trace(floor):
    events = _trace({"A": [True, True, True], "B": [False, True, False]}, {"R1": True, "R2": True})
    events[0]["floor"] = floor
    events[0]["tasks"][1]["unprovable"] = True
    events += [
        {
            "type": "reply",
            "key": "reply/r1/turn1",
            "usage": {"prompt_tokens": 100, "completion_tokens": 20},
        },
        {
            "type": "reply",
            "key": "reply/M0/A/1",
            "usage": {"prompt_tokens": 7, "completion_tokens": 3},
        },
        {"type": "reply", "key": "reply/M0/rules", "usage": {"prompt_tokens": 5}},
    ]
    return events


def test_report_shows_floor_chance_correction_tokens_and_provable_accuracy():
    report = compute_report(_scored_trace(20.0))
    m0 = report["milestones"][0]
    assert report["floor"] == 20.0 and m0["accuracy"] == pytest.approx(200 / 3, abs=1e-3)
    assert m0["chance_corrected"] == pytest.approx(100 * (200 / 3 - 20) / 80, abs=1e-3)
    assert report["endpoint_chance_corrected"] == m0["chance_corrected"]
    assert m0["provable_accuracy"] == 100.0 and m0["unprovable_recognition"] == pytest.approx(
        100 / 3, abs=1e-3
    )
    assert (
        m0["milestone_tokens"] == 15
        and report["milestone_tokens"] == 15
        and report["total_tokens"] == 135
    )
    assert compute_report(_scored_trace(None))["milestones"][0]["chance_corrected"] is None
    plain = compute_report(_trace({"A": [True]}, {"R1": True, "R2": True}))
    assert (
        plain["milestones"][0]["provable_accuracy"] is None
    )  # nothing unprovable: one accuracy only


def test_agents_are_never_pooled():
    a, b = _report([0, 50]), _report([0, 90])
    a["agent"], b["agent"] = {"name": "fixed", "seed": 0}, {"name": "oracle"}
    c = _report([0, 70])
    c["agent"] = {"name": "fixed", "seed": 0}
    for r in (a, b, c):
        r.update(
            language="aliencode",
            world="w",
            world_hash="h",
            manual_hash="m",
            condition="autonomous",
            tasks=2,
            passes=3,
            steps=[],
            reversals=0,
        )
        for m in r["milestones"]:
            m["sigma"] = 0.0
    summary = aggregate([a, b, c], ["fixed/t1", "oracle", "fixed/t2"])
    assert summary["best_at_n"] is None and summary["best_index"] is None
    assert set(summary["agents"]) == {"fixed", "oracle"}
    assert (
        summary["agents"]["fixed"]["best_at_n"] == 70
        and summary["agents"]["fixed"]["best_trajectory"] == "fixed/t2"
    )
    assert summary["agents"]["fixed"]["n"] == 2 and summary["agents"]["oracle"]["best_at_n"] == 90
    text = markdown([a, b, c], summary, plot=None)
    assert (
        "Best@3" not in text
        and "Best@2 = 70" in text
        and "Best@1 = 90" in text
        and "never pooled" in text
    )


def test_scorecard_rows():
    from alienworlds.cli.episode import scorecard

    report = compute_report(_scored_trace(20.0))
    report["gain"] = None
    text = scorecard([("x", report, 1.0)])
    lines = text.splitlines()
    assert lines[0].startswith("floor (best trivial strategy on this bank): 20.0%")
    assert "prov" in lines[1] and "unprov" in lines[1] and "Tm" in lines[1] and "Ttot" in lines[1]
    row = lines[3].split()
    assert row[0] == "x" and row[1] == "66.7" and "15" in row and "135" in row
    assert lines[4].split() == ["cc", "58.3"]
