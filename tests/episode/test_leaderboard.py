import json
import statistics

import pytest
from alienworlds.cli.aliencode import main
from alienworlds.episode import leaderboard
from alienworlds.episode.aggregate import aggregate, system_identity
from alienworlds.tasks.validity import chance_corrected
from click.testing import CliRunner


def _report(
    curve,
    agent,
    world="main",
    condition="autonomous",
    floor=20.0,
    tokens=1000,
    sigma=1.5,
    logic=False,
    complete=True,
    passes=3,
):
    curve = [float(a) for a in curve]
    ms = [
        {
            "t": i,
            "accuracy": a,
            "chance_corrected": chance_corrected(a, floor),
            "sigma": sigma,
            "rule_report_score": None if logic else i,
            "rule_report_of": None if logic else 9,
            "budget": {"calls": 12 * i, "units": 20 * i, "tokens": 100 * i, "rejected": 0},
            "bands": {"apply": a},
            "families": {"base": a},
        }
        for i, a in enumerate(curve)
    ]
    return {
        "language": "alienlogic" if logic else "aliencode",
        "world": world,
        "world_hash": f"sha256:{world}",
        "bank_hash": "sha256:bank",
        "manual_hash": "m",
        "condition": condition,
        "passes": passes,
        "tasks": 10,
        "floor": floor,
        "agent": agent,
        "seed": agent.get("seed", 0),
        "milestones": ms,
        "endpoint": curve[-1],
        "endpoint_chance_corrected": chance_corrected(curve[-1], floor),
        "gain": curve[-1] - curve[0],
        "largest_step_share": None,
        "reversal": False,
        "covered_accuracy": None,
        "uncovered_accuracy": None,
        "unprovable_recognition": 50.0 if logic else None,
        "provable_accuracy": 40.0 if logic else None,
        "complete": complete,
        "milestone_tokens": tokens,
        "total_tokens": tokens + 100 * (len(curve) - 1),
    }


def _model(name, temperature=None, seed=0):
    agent = {
        "name": "openai",
        "model": name,
        "params": {} if temperature is None else {"temperature": temperature},
        "drop_fields": [],
        "seed": seed,
    }
    return agent


def test_trajectories_of_one_system_pool_across_seeds_and_nothing_else():
    assert system_identity({"name": "fixed", "seed": 3, "per_round": 12}) == {
        "name": "fixed",
        "per_round": 12,
    }
    entries = [(f"m/t{k}", _report([10, 40 + 10 * k], _model("m", seed=k))) for k in range(3)]
    entries.append(("other", _report([10, 90], _model("m", temperature=1))))
    entries.append(("elsewhere", _report([10, 95], _model("m"), world="gen-7")))
    boards = leaderboard.build(entries)
    assert [b.setting["world"] for b in boards] == ["main", "gen-7"]  # worlds are never mixed
    main_rows = {r.system: r for r in boards[0].rows}
    assert len(main_rows) == 2
    pooled = next(r for r in main_rows.values() if r.stats["n"] == 3)
    assert pooled.stats["trajectories"] == ["m/t0", "m/t1", "m/t2"]
    assert pooled.stats["best_at_n"] == 60 and pooled.stats["mean_at_n"] == 50
    assert pooled.stats["sd"] == pytest.approx(statistics.stdev([40, 50, 60]), abs=1e-4)
    assert pooled.stats["best_at_n_chance_corrected"] == chance_corrected(60, 20.0) == 50.0
    assert all(
        "temperature" in name for name in main_rows if main_rows[name].stats["n"] == 1
    )  # names told apart
    assert boards[1].rows[0].stats["n"] == 1
    summary = aggregate([report for _, report in entries], [name for name, _ in entries])
    assert summary["best_at_n"] is None and len(summary["agents"]) == 3
    assert any("@ gen-7/autonomous" in label for label in summary["agents"])


def test_conditions_and_answer_counts_are_settings_of_their_own():
    entries = [
        ("a", _report([0, 50], {"name": "x"})),
        ("b", _report([0, 70], {"name": "x"}, condition="fixed-probe")),
        ("c", _report([0, 60], {"name": "x"}, passes=1)),
    ]
    assert len(leaderboard.build(entries)) == 3


def test_ranking_by_chance_corrected_best_or_mean_with_shared_ranks():
    entries = [
        ("a1", _report([0, 90], {"name": "a"})),
        ("a2", _report([0, 10], {"name": "a"})),
        ("b1", _report([0, 60], {"name": "b"})),
        ("b2", _report([0, 60], {"name": "b"})),
        ("c1", _report([0, 60], {"name": "c"})),
        ("d1", _report([0, 0], {"name": "d"}, floor=None)),
    ]
    best = leaderboard.build(entries[:5])[0]
    assert [(r.rank, r.system) for r in best.rows] == [(1, "a"), (2, "b"), (2, "c")]
    mean = leaderboard.build(entries[:5], rank_by="mean")[0]
    assert [(r.rank, r.system) for r in mean.rows] == [(1, "b"), (1, "c"), (3, "a")]
    with pytest.raises(ValueError):
        leaderboard.build(entries, rank_by="worst")
    unknown_floor = leaderboard.build([entries[5]])[0]
    assert (
        unknown_floor.floor is None
        and unknown_floor.rows[0].stats["best_at_n_chance_corrected"] is None
    )
    assert unknown_floor.rows[0].rank == 1  # ranked by the raw score when the floor is unknown
    notes = leaderboard.text([best])
    assert "Rows differ in n" in notes and "Ranked by chance-corrected Best@n" in notes


def test_the_formats_hold_the_same_rows(tmp_path):
    entries = [
        ("o", _report([100] * 5, {"name": "oracle"}, tokens=0)),
        ("n", _report([20] * 5, {"name": "naive"})),
        ("l", _report([30, 40], {"name": "prover"}, world="logic", logic=True, complete=False)),
    ]
    boards = leaderboard.build(entries)
    text = leaderboard.text(boards)
    lines = text.splitlines()
    head = next(line for line in lines if line.startswith("rank"))
    for column in (
        "system",
        "Best@n cc",
        "Best@n",
        "Mean@n cc",
        "Mean@n",
        "sd",
        "σ",
        "gain",
        "rules",
        "tokens",
    ):
        assert column in head
    oracle = next(line for line in lines if " oracle " in f" {line} ")
    assert oracle.split()[:7] == ["1", "oracle", "1", "100.0", "100.0", "100.0", "100.0"]
    assert oracle.split()[-1] == "400"  # mean total tokens per trajectory
    assert "prov" in text and "unprov" in text and "prover (1 incomplete)" in text
    assert "cc = chance-corrected score" in text and "σ = answering noise" in text
    paths = leaderboard.write(
        boards, [tmp_path / "b.md", tmp_path / "b.json", tmp_path / "sub" / "b.html"]
    )
    data = json.loads(paths[1].read_text())
    assert data["rank_by"] == "best_at_n_chance_corrected" and len(data["boards"]) == 2
    row = data["boards"][0]["rows"][1]
    assert (
        row["system"] == "naive" and row["best_at_n_chance_corrected"] == 0.0 and row["rank"] == 2
    )
    assert row["tokens"]["total"] == 1400 and row["sigma"] == 1.5 and row["curves"] == [[20] * 5]
    assert row["rule_report_score"] == 4 and row["rule_report_of"] == 9
    md = paths[0].read_text()
    assert "| 1 | oracle | 1 | 100.0 |" in md and "## Terms" in md and "**σ**" in md
    page = paths[2].read_text()
    assert (
        page.count("<table") == 2
        and "Content-Security-Policy" in page
        and "data:image/svg+xml;base64," in page
    )
    with pytest.raises(ValueError):
        leaderboard.write(boards, [tmp_path / "b.txt"])


def test_hostile_system_names_are_escaped_everywhere(tmp_path):
    evil = "<script>alert(1)</script>|`x`"
    boards = leaderboard.build([("t", _report([0, 50], {"name": "openai", "model": evil}))])
    md = leaderboard.markdown(boards)
    assert "<script>" not in md and "\\|`x`" in md
    page = leaderboard.html(boards)
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_cli_report_prints_the_leaderboard_and_writes_the_files(tmp_path):
    runner = CliRunner()
    runs = tmp_path / "runs"
    made = runner.invoke(
        main,
        [
            "episode",
            "--agent",
            "oracle,naive",
            "--world",
            "demo",
            "--condition",
            "direct",
            "--trajectories",
            "2",
            "--out",
            str(runs),
        ],
    )
    assert made.exit_code == 0, made.output
    assert (runs / "index.html").exists() and (runs / "oracle" / "t2" / "replay.html").exists()
    assert not (
        runs / "oracle" / "index.html"
    ).exists()  # several agents: one index over all of them
    out = tmp_path / "board"
    result = runner.invoke(
        main,
        [
            "report",
            str(runs),
            "--out",
            str(out),
            "--leaderboard",
            str(out / "lb.md"),
            "--leaderboard",
            str(out / "lb.json"),
            "--leaderboard",
            str(out / "lb.html"),
        ],
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert (
        lines[0].startswith("aliencode · world demo")
        and "condition direct" in lines[0]
        and "floor 66.7%" in lines[0]
    )
    rows = [line.split() for line in lines[3:5]]
    assert rows[0][:3] == ["1", "oracle", "2"] and rows[1][:3] == ["2", "naive", "2"]
    # naive passes 2 of 6 demo tasks, under the floor of 4 of 6: 100 × (33.3 − 66.7) / 33.3
    assert rows[0][3:7] == ["100.0"] * 4 and rows[1][3] == "-100.0"
    for name in (
        "lb.md",
        "lb.json",
        "lb.html",
        "index.html",
        "report.md",
        "curves.png",
        "curves.svg",
        "summary.json",
    ):
        assert (out / name).exists(), name
    board = json.loads((out / "lb.json").read_text())["boards"][0]
    assert [r["trajectories"] for r in board["rows"]] == [
        ["oracle/t1", "oracle/t2"],
        ["naive/t1", "naive/t2"],
    ]
    as_json = runner.invoke(
        main, ["report", str(runs / "naive"), "--json", "--rank", "mean", "--no-html"]
    )
    data = json.loads(as_json.output)
    assert data["n"] == 2 and data["leaderboard"]["rank_by"] == "mean_at_n_chance_corrected"
    bad = runner.invoke(main, ["report", str(runs), "--leaderboard", str(tmp_path / "lb.txt")])
    assert bad.exit_code == 2 and ".md, .json, .html" in bad.output
    empty = tmp_path / "empty"
    empty.mkdir()
    assert runner.invoke(main, ["report", str(empty)]).exit_code == 2


def test_a_caller_may_group_worlds_into_families():
    entries = [
        (f"{w}/t1", _report([0, a], {"name": "x"}, world=w))
        for w, a in (("gen-1", 40.0), ("gen-2", 60.0))
    ]
    entries[1][1]["floor"] = 10.0
    assert len(leaderboard.build(entries)) == 2
    family = leaderboard.build(
        entries,
        setting_of=lambda r: {
            "language": r["language"],
            "family": "gen",
            "condition": r["condition"],
        },
    )
    assert (
        len(family) == 1 and family[0].floor is None
    )  # the floors differ: no chance correction across them
    row = family[0].rows[0]
    assert (
        row.stats["n"] == 2
        and row.stats["mean_at_n"] == 50.0
        and row.stats["best_at_n_chance_corrected"] is None
    )
    assert (
        family[0].title()
        == "aliencode · family gen · condition autonomous · floor unknown (or not shared)"
    )


def test_failures_are_counted_per_row_and_never_pooled():
    setting = {
        "language": "aliencode",
        "world": "main",
        "world_hash": "sha256:main",
        "bank_hash": "sha256:bank",
        "condition": "autonomous",
        "passes": 3,
    }
    entries = [("a/t1", _report([10, 60], _model("a"))), ("b/t1", _report([10, 30], _model("b")))]
    failures = [
        (setting, _model("a", seed=1)),
        (setting, _model("broken")),
        (setting, _model("broken", seed=1)),
        ({**setting, "condition": "direct"}, _model("a")),
    ]
    boards = leaderboard.build(entries, failures=failures)
    assert [b.setting["condition"] for b in boards] == ["autonomous", "direct"]
    rows = {r.system: r for r in boards[0].rows}
    assert (rows["openai:a"].stats["n"], rows["openai:a"].failures, rows["openai:a"].rank) == (
        1,
        1,
        1,
    )
    assert (rows["openai:b"].failures, rows["openai:b"].rank) == (0, 2)
    assert (
        rows["openai:broken"].stats["n"],
        rows["openai:broken"].failures,
        rows["openai:broken"].rank,
    ) == (0, 2, None)
    assert [r.system for r in boards[0].rows][-1] == "openai:broken"  # unranked rows come last
    only = boards[1]
    assert (only.floor, only.tasks, [(r.system, r.failures, r.rank) for r in only.rows]) == (
        None,
        None,
        [("openai:a", 1, None)],
    )
    assert leaderboard.as_json(boards)["boards"][0]["rows"][0]["failures"] == 1
    md = leaderboard.markdown(boards)
    assert "| tokens | failures |" in md and "**failures**" in md
    plain = leaderboard.build(entries)  # without failures (aliencode report): no such column
    assert "failures" not in leaderboard.markdown(plain) and "failures" not in leaderboard.text(
        plain
    )


def _explored(report, bits, redundant_rate, mass, errors):
    probes = [
        {
            "round": 1,
            "call": i + 1,
            "before": 2.0 ** (b + 1),
            "after": 2.0,
            "bits": b,
            "redundant": b == 0,
            "targets": [],
        }
        for i, b in enumerate(bits)
    ] + [{"round": 1, "call": len(bits) + 1, "status": "rejected", "bits": None}]
    return {
        **report,
        "exploration": {
            "engine": {"name": "test"},
            "probes": probes,
            "redundant_rate": redundant_rate,
            "coverage": [],
            "true_mass": {"M0": 0.01, "M4": mass},
            "errors": {"exploration": errors[0], "exploitation": errors[1]},
        },
    }


def test_exploration_metrics_are_columns_averaged_over_trajectories(tmp_path):
    entries = [
        (
            "e1",
            _explored(
                _report([0, 50], {"name": "explorer", "seed": 0}), [2.0, 0.0], 0.5, 0.8, (1, 2)
            ),
        ),
        (
            "e2",
            _explored(_report([0, 70], {"name": "explorer", "seed": 1}), [4.0], 0.0, 1.0, (3, 0)),
        ),
        ("f", _report([0, 40], {"name": "fixed"})),
    ]
    boards = leaderboard.build(entries)
    [row] = [
        r for r in leaderboard.as_json(boards)["boards"][0]["rows"] if r["system"] == "explorer"
    ]
    assert row["exploration"] == {
        "n": 2,
        "bits_per_probe": 2.5,
        "redundant_rate": 0.25,
        "true_mass": 0.9,
        "exploration_errors": 2.0,
        "exploitation_errors": 1.0,
    }
    lines = leaderboard.text(boards).splitlines()
    assert next(line for line in lines if line.startswith("rank")).split()[-4:] == [
        "bits",
        "redundant",
        "mass",
        "errors",
    ]
    assert next(line for line in lines if " explorer " in f" {line} ").split()[-4:] == [
        "2.50",
        "25.0",
        "0.90",
        "2.0/1.0",
    ]
    assert next(line for line in lines if " fixed " in f" {line} ").split()[-4:] == ["–"] * 4
    assert "bits = exploration: the mean information per probe" in leaderboard.text(boards)
    plain = leaderboard.text(leaderboard.build([entries[2]]))
    assert "redundant" not in plain and "mass" not in plain


def test_ties_are_broken_by_mean_then_by_name():
    """fixed reaches 100 once but averages 87.5; oracle always reaches 100:
    equal on Best@n, oracle ranks first on Mean@n."""
    entries = [
        ("f1", _report([0, 100], {"name": "fixed"})),
        ("f2", _report([0, 75], {"name": "fixed"})),
        ("o1", _report([0, 100], {"name": "oracle"})),
        ("o2", _report([0, 100], {"name": "oracle"})),
        ("z1", _report([0, 100], {"name": "a-tie"})),
        ("z2", _report([0, 75], {"name": "a-tie"})),
    ]
    board = leaderboard.build(entries)[0]
    assert [(r.rank, r.system) for r in board.rows] == [
        (1, "oracle"),
        (2, "a-tie"),
        (2, "fixed"),
    ]
    assert [line.split()[:2] for line in leaderboard.text([board]).splitlines()[3:6]] == [
        ["1", "oracle"],
        ["2", "a-tie"],
        ["2", "fixed"],
    ]
