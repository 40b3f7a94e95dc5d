"""A smaller episode for a smoke test: fewer rounds and a few held-out
tasks spread over the bands, recorded in the header like any setting."""

from alienworlds.episode import Episode, Settings, make_agent
from alienworlds.episode.driver import spread_tasks
from alienworlds.episode.environment import TaskInfo
from alienworlds.episode.trace import read_trace
from hypothesis import given
from hypothesis import strategies as st

tasks_lists = st.lists(st.sampled_from(["easy", "medium", "hard"]), max_size=30).map(
    lambda bands: [TaskInfo(f"T{k:02d}", "synthesis", b, "f", ()) for k, b in enumerate(bands)]
)


@given(tasks_lists, st.one_of(st.none(), st.integers(0, 40)))
def test_a_spread_keeps_bank_order_and_spans_the_bands(tasks, limit):
    chosen = spread_tasks(tasks, limit)
    assert len(chosen) == (len(tasks) if limit is None else min(limit, len(tasks)))
    ids = [t.id for t in tasks]
    assert [t.id for t in chosen] == sorted((t.id for t in chosen), key=ids.index)
    bands = {t.band for t in tasks}
    assert len({t.band for t in chosen}) == min(len(chosen), len(bands))
    for band in bands:  # within a band, the first ones in the bank's order
        mine = [t.id for t in tasks if t.band == band]
        taken = [t.id for t in chosen if t.band == band]
        assert taken == mine[: len(taken)]


def test_a_smoke_sized_episode_runs_one_round_on_three_tasks(demo_env, tmp_path):
    agent = make_agent("oracle", demo_env)
    settings = Settings(condition="autonomous", passes=1, rounds=1, tasks=3)
    report = Episode(demo_env, agent, tmp_path, settings).run()
    assert [m["t"] for m in report["milestones"]] == [0, 1] and report["tasks"] == 3
    header = read_trace(tmp_path)[0]
    assert header["protocol"]["rounds"] == 1
    assert [t["id"] for t in header["tasks"]] == [t.id for t in spread_tasks(demo_env.tasks(), 3)]
