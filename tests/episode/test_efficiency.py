"""Probe efficiency against the human median, else the explorer's."""

import json
import statistics

import pytest
from alienworlds.episode import Episode, Settings, leaderboard, make_agent
from alienworlds.episode import efficiency as eff
from alienworlds.episode.report import write_summary
from hypothesis import given
from hypothesis import strategies as st

WORLD = {"language": "aliencode", "world": "w", "world_hash": "h", "bank_hash": "b"}


def report(name, calls, endpoint=80.0, complete=True, condition="autonomous", **world):
    return {
        **WORLD,
        **world,
        "agent": {"name": name},
        "condition": condition,
        "complete": complete,
        "endpoint": endpoint,
        "milestones": [{"budget": {"calls": 0}}, {"budget": {"calls": calls}}],
    }


counts = st.integers(min_value=0, max_value=10_000)


@given(st.floats(min_value=0, max_value=10_000), counts)
def test_the_ratio_is_between_zero_and_one(reference, spent):
    assert 0.0 <= eff.ratio(reference, spent) <= 1.0


@given(st.floats(min_value=0, max_value=10_000), counts, counts)
def test_more_probes_never_score_better(reference, a, b):
    low, high = sorted((a, b))
    assert eff.ratio(reference, high) <= eff.ratio(reference, low)


@given(st.integers(min_value=1, max_value=10_000), st.integers(min_value=1, max_value=50))
def test_the_ratio_is_one_up_to_the_reference_and_squared_beyond(reference, factor):
    assert eff.ratio(reference, reference) == 1.0
    assert eff.ratio(reference, max(1, reference // factor)) == 1.0
    assert eff.ratio(reference, reference * factor) == pytest.approx(1 / factor**2)


@given(st.floats(min_value=0, max_value=10_000))
def test_no_probe_scores_one_and_a_zero_reference_scores_any_probe_zero(reference):
    assert eff.ratio(reference, 0) == 1.0
    assert eff.ratio(0.0, 1) == 0.0


@given(
    st.lists(counts, min_size=1, max_size=9),
    st.lists(counts, min_size=0, max_size=9),
)
def test_people_are_the_reference_whenever_there_are_any(humans, explorers):
    reports = [report(f"human:p{i}", c) for i, c in enumerate(humans)]
    reports += [report("explorer", c) for c in explorers]
    ref = eff.references(reports)[eff.world_key(reports[0])]
    assert (ref.source, ref.n, ref.probes) == ("human", len(humans), statistics.median(humans))


@given(st.lists(counts, min_size=1, max_size=9), counts)
def test_the_explorer_is_the_reference_without_people(explorers, other):
    reports = [report("explorer", c) for c in explorers] + [report("oracle", other)]
    eff.attach(reports)
    median = statistics.median(explorers)
    assert {r["efficiency"]["reference"] for r in reports} == {"explorer"}
    assert reports[-1]["efficiency"]["efficiency"] == round(eff.ratio(median, other), 4)
    assert reports[-1]["efficiency"]["weighted"] == pytest.approx(
        eff.ratio(median, other) * 80.0, abs=1e-3
    )


def test_incomplete_other_condition_and_other_world_runs_are_no_reference():
    reports = [
        report("human:a", 1, complete=False),
        report("human:b", 2, condition="fixed-probe"),
        report("human:c", 3, world_hash="other"),
        report("explorer", 10),
        report("naive", 20),
    ]
    eff.attach(reports)
    assert reports[-1]["efficiency"]["reference"] == "explorer"
    assert reports[-1]["efficiency"]["reference_probes"] == 10
    # the other world's only trajectory is its own reference
    assert reports[2]["efficiency"]["efficiency"] == 1.0


def test_without_a_reference_there_is_no_efficiency():
    reports = [report("oracle", 0), report("naive", 5)]
    eff.attach(reports)
    assert [r["efficiency"] for r in reports] == [None, None]


def test_a_trajectory_without_a_milestone_has_no_efficiency():
    empty = {**report("naive", 0), "milestones": []}
    reports = [report("explorer", 4), empty]
    eff.attach(reports)
    assert empty["efficiency"] is None


@pytest.fixture(scope="module")
def demo_runs(demo_env, tmp_path_factory):
    base = tmp_path_factory.mktemp("efficiency")
    dirs = []
    for name in ("explorer", "fixed", "oracle"):
        Episode(
            demo_env,
            make_agent(name, demo_env),
            base / name,
            Settings(exploration=False),
        ).run()
        dirs.append(base / name)
    return base, dirs


def test_every_report_shows_efficiency_against_the_explorer(demo_runs):
    base, dirs = demo_runs
    summary, boards = write_summary(base, dirs, with_exploration=False)
    reports = [json.loads((d / "report.json").read_text()) for d in dirs]
    explorer_probes = reports[0]["milestones"][-1]["budget"]["calls"]
    for r in reports:
        spent = r["milestones"][-1]["budget"]["calls"]
        assert r["efficiency"]["probes"] == spent
        assert r["efficiency"]["efficiency"] == round(eff.ratio(explorer_probes, spent), 4)
    assert (
        summary["agents"]["fixed"]["efficiency"]["efficiency"]
        == reports[1]["efficiency"]["efficiency"]
    )
    rows = leaderboard.as_json(boards)["boards"][0]["rows"]
    assert {r["system"]: r["efficiency"]["weighted"] for r in rows} == {
        r["agent"]["name"]: r["efficiency"]["weighted"] for r in reports
    }
    markdown = (base / "report.md").read_text()
    assert "## Efficiency" in markdown and "explorer median" in markdown
    for term in ("eff", "eff×M"):
        assert f"**{term}**" in markdown
    page = (base / "index.html").read_text()
    assert "eff×M" in page and "explorer median" in page
    text = leaderboard.text(boards)
    assert "eff×M" in text.split("\n")[1] and "Probe efficiency against the explorer" in text


def test_a_report_without_a_reference_shows_no_efficiency(demo_runs, tmp_path):
    base, dirs = demo_runs
    summary, boards = write_summary(tmp_path, dirs[1:], with_exploration=False)
    assert "eff" not in leaderboard.text(boards).split("\n")[1]
    assert "## Efficiency" not in (tmp_path / "report.md").read_text()
    assert all(a["efficiency"] is None for a in summary["agents"].values())


def test_a_board_pooling_worlds_names_no_single_reference(demo_runs):
    import copy

    base, dirs = demo_runs
    reports = [json.loads((d / "report.json").read_text()) for d in dirs]
    other = copy.deepcopy(reports)
    for r in other:
        r["world_hash"] = "sha256:another"
    other[0]["milestones"][-1]["budget"]["calls"] = 10  # the other world's explorer spent more
    entries = [(f"t{i}", r) for i, r in enumerate(reports + other)]
    boards = leaderboard.build(entries, setting_of=lambda r: {"family": "demo"})
    (board,) = boards
    fixed = next(r for r in board.rows if r.system == "fixed")
    spent = reports[1]["milestones"][-1]["budget"]["calls"]
    here = reports[0]["milestones"][-1]["budget"]["calls"]
    each = [round(eff.ratio(reference, spent), 4) for reference in (here, 10)]
    assert fixed.stats["efficiency"]["reference"] is None
    assert fixed.stats["efficiency"]["efficiency"] == round(sum(each) / 2, 4)
    assert "they differ" in leaderboard.text(boards)
