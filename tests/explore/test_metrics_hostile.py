"""Exploration metrics of traces whose tool calls and results are hostile:
garbage arguments, verdicts that lie (another call's verdict, forged
fields), verdicts of no proof at all. The metrics never fail, and their
invariants hold whatever the trace says."""

import copy
import json
from pathlib import Path

import pytest
from alienworlds.episode import Episode, Settings, make_agent
from alienworlds.episode.alienlogic_env import AlienLogicEnvironment
from alienworlds.episode.trace import read_trace
from alienworlds.explore.alienlogic.metrics import exploration
from fuzzing import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

BANK = Path(__file__).parents[1] / "episode" / "data" / "alienlogic_demo.toml"


@pytest.fixture(scope="module")
def fixed_trace(tmp_path_factory):
    env = AlienLogicEnvironment("demo", bank_path=BANK)
    out = tmp_path_factory.mktemp("fixed")
    Episode(env, make_agent("fixed", env), out, Settings()).run()
    return read_trace(out)


_VERDICT = st.fixed_dictionaries(
    {},
    optional={
        "accepted": st.booleans(),
        "verifier_passed": st.booleans(),
        "rejected_step": st.one_of(
            st.integers(-3, 10**12), st.booleans(), st.text(max_size=3), st.none()
        ),
        "reason_class": st.sampled_from(
            [
                "ALIEN_SIDE_CONDITION",
                "ALIEN_AXIOM_DISABLED",
                "WRONG_CONCLUSION",
                "PARSE_ERROR",
                "LINE_NUMBER",
                "x",
            ]
        ),
        "reason_id": st.one_of(
            st.sampled_from(["K4", "K9", "K12", "K20", "WRONG_CONCLUSION", ""]), st.integers()
        ),
    },
)


def _feedback(feedbacks):
    """Another call's verdict (a lie), a forged verdict, or no verdict at all."""
    return st.one_of(st.sampled_from(feedbacks), _VERDICT.map(json.dumps), st.text(max_size=40))


@settings(
    max_examples=examples(15),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_hostile_tool_results_never_break_the_metrics(fixed_trace, data):
    events = copy.deepcopy(fixed_trace)
    tools = [e for e in events if e.get("type") == "tool"]
    proofs = [e["arguments"] for e in tools]
    feedbacks = [e["feedback"] for e in tools]
    for e in data.draw(st.lists(st.sampled_from(tools), max_size=12, unique_by=id)):
        e["arguments"] = data.draw(
            st.one_of(
                st.sampled_from(proofs),
                st.text(max_size=30),
                st.just('{"proof": 7}'),
                st.just("[]"),
            )
        )
        e["feedback"] = data.draw(_feedback(feedbacks))
        e["status"] = data.draw(st.sampled_from(["ran", "ran", "invalid", "error"]))
    x = exploration(events)
    rows = x["probes"]
    assert len(rows) == sum(1 for e in tools if e["counted"])
    for row in rows:
        assert row["before"] >= row["after"] >= 1 and row["bits"] >= 0
        assert row["redundant"] == (row["before"] == row["after"])
    assert x["errors"]["exploration"] == sum(1 for r in rows if r["redundant"] and r["before"] > 1)
    assert all(0 <= c["covered"] <= c["of"] for c in x["coverage"])
    assert all(0 <= m <= 1 for m in x["true_mass"].values())
