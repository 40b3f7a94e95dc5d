import json

import pytest
from alienworlds.episode import Episode, Settings, exploration, make_agent
from alienworlds.episode.agent_registry import Agent, Reply, Request, text_reply
from alienworlds.episode.metrics import compute_report
from alienworlds.episode.trace import read_trace
from episode_testing import events_of


def run(env, name, out, condition="autonomous", **settings):
    agent = make_agent(
        name, env, **({"source": settings.pop("source")} if "source" in settings else {})
    )
    return Episode(env, agent, out, Settings(condition=condition, **settings)).run()


def test_main_world_oracle_is_the_ceiling_and_naive_the_floor(main_env, tmp_path):
    oracle = run(main_env, "oracle", tmp_path / "oracle")
    assert [m["accuracy"] for m in oracle["milestones"]] == [100.0] * 5
    assert [m["rule_report_score"] for m in oracle["milestones"]] == [34] * 5
    assert all(m["sigma"] == 0.0 for m in oracle["milestones"])
    assert oracle["covered_accuracy"] == 100.0 and oracle["uncovered_accuracy"] is None
    naive = run(main_env, "naive", tmp_path / "naive")
    floor = (
        100
        * sum(main_env.grade(t.id, main_env.naive_reply(t.id)).passed for t in main_env.tasks())
        / len(main_env.tasks())
    )
    assert [m["accuracy"] for m in naive["milestones"]] == [pytest.approx(floor)] * 5
    assert naive["milestones"][-1]["rule_report_score"] == 8  # the red herrings
    assert naive["gain"] == 0 and naive["reversal"] is False and naive["largest_step_share"] is None
    header = read_trace(tmp_path / "oracle")[0]
    assert (
        header["world_hash"] == main_env.world_hash
        and header["manual_hash"] == main_env.manual_hash
    )
    assert len(header["tasks"]) == 70 and header["protocol"]["passes"] == 3


def test_demo_episode_trace_contents(demo_env, tmp_path):
    report = run(demo_env, "fixed", tmp_path)
    events = read_trace(tmp_path)
    kinds = [e["type"] for e in events]
    assert kinds[0] == "header" and kinds[-1] == "end"
    assert (
        kinds.count("answer") == 5 * 6 * 3
        and kinds.count("rule_report") == 5
        and kinds.count("milestone") == 5
    )
    assert kinds.count("tool") == 48
    assert len({e["key"] for e in events}) == len(events)
    budgets = [m["budget"] for m in report["milestones"]]
    assert [b["calls"] for b in budgets] == [0, 12, 24, 36, 48]
    assert budgets[-1]["units"] == sum(e["units"] for e in events if e["type"] == "tool")
    # each tool call is answered by a tool message with the same id
    messages = [e["message"] for e in events if e["type"] == "message"]
    ids = [c["id"] for m in messages for c in m.get("tool_calls") or ()]
    assert ids == [m["tool_call_id"] for m in messages if m["role"] == "tool"]
    assert report == json.loads((tmp_path / "report.json").read_text())
    # report.json is the trace's report plus its exploration section (kept beside the trace)
    assert {k: v for k, v in report.items() if k != "exploration"} == compute_report(events)
    assert report["exploration"] == exploration.compute(events, tmp_path)
    assert len(report["exploration"]["probes"]) == 48
    curve = [m["accuracy"] for m in report["milestones"]]
    assert curve[0] < curve[-1] and report["gain"] == pytest.approx(curve[-1] - curve[0])


def test_same_inputs_give_the_same_trace(demo_env, tmp_path):
    run(demo_env, "fixed", tmp_path / "a", seed=3)
    run(demo_env, "fixed", tmp_path / "b", seed=3)
    assert events_of(tmp_path / "a") == events_of(tmp_path / "b")
    run(demo_env, "fixed", tmp_path / "c", seed=4)
    assert events_of(tmp_path / "a") != events_of(tmp_path / "c")


def test_milestone_copies_are_discarded(demo_env, tmp_path):
    run(demo_env, "oracle", tmp_path)
    events = read_trace(tmp_path)
    messages = [e["message"] for e in events if e["type"] == "message"]
    # the system prompt, then one user message per round and the agent's reply: no milestone text
    assert [m["role"] for m in messages] == ["system"] + ["user", "assistant"] * 4
    assert not any("Held-out task" in (m["content"] or "") for m in messages)
    requests = [e for e in events if e["type"] == "request" and e["purpose"] == "answer"]
    assert all(not r["tools_enabled"] and len(r["extra"]) == 1 for r in requests)


class Recorder(Agent):
    """Oracle answers; records every request it sees."""

    name = "recorder"
    offline = True

    def __init__(self, env):
        self.inner = make_agent("oracle", env)
        self.requests: list[Request] = []

    def respond(self, request):
        self.requests.append(request)
        return self.inner.respond(request)


def test_conditions(demo_env, tmp_path):
    direct = run(demo_env, "oracle", tmp_path / "d", condition="direct")
    assert [m["t"] for m in direct["milestones"]] == [0] and direct["gain"] is None
    book = Recorder(demo_env)
    Episode(demo_env, book, tmp_path / "o", Settings(condition="open-book-m0")).run()
    assert "(get seq (- i 1))" in book.requests[0].messages[0]["content"]
    after = Recorder(demo_env)
    report = Episode(demo_env, after, tmp_path / "a4o", Settings(condition="open-book-m4")).run()
    assert [m["t"] for m in report["milestones"]] == [0, 1, 2, 3, 4] and report["open_book"][
        "t"
    ] == "4+O"
    disclosed = [r for r in after.requests if r.milestone == "4+O"]
    assert disclosed and all(
        "(get seq (- i 1))" in r.messages[-2]["content"] for r in disclosed if r.purpose == "answer"
    )
    assert not any(
        "(get seq (- i 1))" in (m.get("content") or "")
        for r in after.requests
        if r.milestone != "4+O"
        for m in r.messages
    )
    without = Recorder(demo_env)
    report = Episode(demo_env, without, tmp_path / "w", Settings(condition="without-tool")).run()
    turns = [r for r in without.requests if r.purpose == "reflect"]
    assert len(turns) == 4 and not any(r.tools_enabled for r in without.requests)
    assert report["milestones"][-1]["budget"]["calls"] == 0


def test_fixed_probe_condition_injects_the_same_sequence_for_every_agent(demo_env, tmp_path):
    probes = {}
    for name in ("oracle", "naive"):
        run(demo_env, name, tmp_path / name, condition="fixed-probe", fixed_per_round=5)
        probes[name] = [
            (e["round"], e["arguments"], e["feedback"])
            for e in read_trace(tmp_path / name)
            if e["type"] == "tool"
        ]
    assert probes["oracle"] == probes["naive"] and len(probes["oracle"]) == 20
    notes = [
        e
        for e in read_trace(tmp_path / "oracle")
        if e["type"] == "request" and e["purpose"] == "reflect"
    ]
    assert len(notes) == 20 and not any(n["tools_enabled"] for n in notes)
    # the fixed agent learns from injected probes as from its own
    report = run(demo_env, "fixed", tmp_path / "fixed", condition="fixed-probe")
    assert report["milestones"][-1]["accuracy"] > report["milestones"][0]["accuracy"]


def test_hindsight_replays_the_probes_of_a_trace_live(demo_env, tmp_path):
    run(demo_env, "fixed", tmp_path / "source", seed=5)
    report = run(
        demo_env,
        "naive",
        tmp_path / "h",
        condition="hindsight",
        probes_from=str(tmp_path / "source"),
    )
    source = [
        (e["round"], e["arguments"]) for e in read_trace(tmp_path / "source") if e["type"] == "tool"
    ]
    replayed = [
        (e["round"], e["arguments"]) for e in read_trace(tmp_path / "h") if e["type"] == "tool"
    ]
    assert replayed == source
    assert report["milestones"][-1]["budget"]["calls"] == 48
    with pytest.raises(ValueError):
        Episode(
            demo_env, make_agent("naive", demo_env), tmp_path / "x", Settings(condition="hindsight")
        )


def test_replay_agent_reproduces_a_run(demo_env, tmp_path):
    first = run(demo_env, "fixed", tmp_path / "first", seed=2)
    again = run(demo_env, "replay", tmp_path / "again", seed=2, source=str(tmp_path / "first"))
    strip = lambda r: {k: v for k, v in r.items() if k != "agent"}  # noqa: E731
    assert strip(first) == strip(again)


class Greedy(Agent):
    """Asks for three tool calls per turn forever, some of them bad."""

    name = "greedy"
    offline = True

    def __init__(self):
        self.turns = 0

    def respond(self, request):
        if request.purpose != "explore":
            return text_reply("```aliencode\nEMIT(1)\n```")
        self.turns += 1
        calls = [
            {
                "id": f"a{self.turns}",
                "type": "function",
                "function": {
                    "name": "run_aliencode",
                    "arguments": json.dumps({"code": "EMIT(1, 2)"}),
                },
            },
            {
                "id": f"b{self.turns}",
                "type": "function",
                "function": {"name": "run_aliencode", "arguments": "{not json"},
            },
            {
                "id": f"c{self.turns}",
                "type": "function",
                "function": {"name": "other_tool", "arguments": "{}"},
            },
        ]
        return Reply(
            {"role": "assistant", "content": "probing", "tool_calls": calls},
            {"prompt_tokens": 10, "completion_tokens": 5},
        )


def test_round_budgets_are_enforced(demo_env, tmp_path):
    agent = Greedy()
    report = Episode(demo_env, agent, tmp_path, Settings()).run()
    tools = [e for e in read_trace(tmp_path) if e["type"] == "tool"]
    per_round = [sum(e["counted"] for e in tools if e["round"] == r) for r in range(1, 5)]
    assert per_round == [12] * 4 and agent.turns == 16
    assert {e["status"] for e in tools} == {"ran", "invalid"}
    end = report["milestones"][-1]["budget"]
    assert end == {"calls": 48, "units": 32, "tokens": 16 * 15, "rejected": 32}


def test_the_floor_is_recorded_and_reported(demo_env, tmp_path):
    import json as _json

    from alienworlds.episode import Episode, Settings, make_agent

    report = Episode(
        demo_env, make_agent("naive", demo_env), tmp_path, Settings(condition="direct")
    ).run()
    header = _json.loads((tmp_path / "trace.jsonl").read_text().splitlines()[0])
    # the demo bank's naive solutions pass 2 of its 6 tasks, and no trivial strategy does better
    assert (
        header["floor"] == demo_env.floor == report["floor"] == pytest.approx(100 * 4 / 6, abs=1e-3)
    )
    m0 = report["milestones"][0]
    assert m0["chance_corrected"] == pytest.approx(
        100 * (m0["accuracy"] - report["floor"]) / (100 - report["floor"]), abs=1e-3
    )
    # the floor follows from world and bank: a trace recorded with another floor still resumes
    lines = (tmp_path / "trace.jsonl").read_text().splitlines()
    header["floor"] = 12.5
    (tmp_path / "trace.jsonl").write_text("\n".join([_json.dumps(header), *lines[1:]]) + "\n")
    again = Episode(
        demo_env, make_agent("naive", demo_env), tmp_path, Settings(condition="direct"), resume=True
    ).run()
    assert again["floor"] == 12.5 and again["milestones"][0]["accuracy"] == m0["accuracy"]
