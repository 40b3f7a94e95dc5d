"""The openai agent against a real HTTP server speaking the chat-completions
protocol: the SDK's retries, Retry-After, the key, the seed, reasoning
fields, dropped fields and the concurrency limit."""

import pytest
from alienworlds.episode import Episode, Settings
from alienworlds.episode.agent_registry import AgentError, Request, make_agent
from alienworlds.episode.openai_agent import OpenAIAgent
from alienworlds.episode.trace import read_trace
from fake_openai import FakeServer, OracleModel, completion

FAST = {"retry-after-ms": "1"}  # the SDK waits what the server asks


def agent_for(server, **options):
    options.setdefault("backoff", 0.001)
    return OpenAIAgent(
        base_url=server.url, model="fake-model", api_key_env="FAKE_OPENAI_KEY", **options
    )


def ask(agent, content="hi"):
    return agent.respond(Request("k", "answer", [{"role": "user", "content": content}], [], False))


def test_a_full_episode_through_the_http_protocol(demo_env, tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_OPENAI_KEY", "sekrit-key")
    failures = {
        1: (429, {"error": {"message": "slow down"}}, FAST),
        3: (500, {"error": {"message": "boom"}}, FAST),
        4: (200, b"{not json", {}),
        7: (503, {"error": {"message": "overloaded"}}, FAST),
    }
    with FakeServer(OracleModel(demo_env, failures), delay=0.005) as server:
        agent = agent_for(server, concurrency=4)
        report = Episode(demo_env, agent, tmp_path, Settings()).run()
    assert [m["accuracy"] for m in report["milestones"]] == [100.0] * 5
    assert [m["rule_report_score"] for m in report["milestones"]] == [
        2
    ] * 5  # D1 and D2 right; D3 UNKNOWN; D4, D5 missing
    events = read_trace(tmp_path)
    tools = [e for e in events if e["type"] == "tool"]
    assert len(tools) == 8 and [e["feedback"] for e in tools[:2]] == [
        "3",
        "1",
    ]  # PLUCK counts from one here
    budget = report["milestones"][-1]["budget"]
    explore = [e for e in events if e["type"] == "reply" and e["key"].startswith("reply/r")]
    assert (
        budget["calls"] == 8
        and budget["units"] == 8
        and budget["tokens"] == 107 * len(explore) == 107 * 12
    )
    # retries happened and were recorded
    assert max(e["attempts"] for e in events if e["type"] == "reply") >= 2
    # the structured conversation went back intact: reasoning fields, tool-call ids, tool results
    second = next(
        b
        for b in server.requests
        if b.get("tool_choice") != "none" and sum(m["role"] == "tool" for m in b["messages"]) == 1
    )
    assistant = [m for m in second["messages"] if m["role"] == "assistant"][-1]
    tool = second["messages"][-1]
    assert assistant["reasoning_content"].startswith("thinking") and "refusal" not in assistant
    assert tool == {
        "role": "tool",
        "tool_call_id": assistant["tool_calls"][0]["id"],
        "content": "3",
    }
    # milestone copies are tool-disabled and never enter the main conversation
    copies = [b for b in server.requests if b.get("tool_choice") == "none"]
    assert copies and all(b["tools"][0]["function"]["name"] == "run_aliencode" for b in copies)
    assert 1 < server.max_inflight <= 4  # the concurrency limit
    # the key is sent, never recorded; the trajectory's seed is sent
    assert all(h.get("authorization") == "Bearer sekrit-key" for h in server.headers)
    assert b"sekrit" not in (tmp_path / "trace.jsonl").read_bytes()
    assert all(b.get("seed") is None for b in server.requests)  # built without a seed: none sent
    header = events[0]
    assert header["agent"] == {
        "name": "openai",
        "model": "fake-model",
        "params": {},
        "drop_fields": [],
    }
    assert (
        header["runtime"]["base_url"] == server.url
        and header["runtime"]["api_key_env"] == "FAKE_OPENAI_KEY"
    )


def test_without_a_key_no_authorization_header_is_sent(monkeypatch):
    monkeypatch.delenv("FAKE_OPENAI_KEY", raising=False)
    with FakeServer(
        lambda body, n: (200, completion({"role": "assistant", "content": "ok"}), {})
    ) as server:
        assert ask(agent_for(server)).message["content"] == "ok"
    assert "authorization" not in server.headers[0]


def test_the_sdk_retries_server_errors_then_the_run_stops():
    with FakeServer(lambda body, n: (500, {"error": {"message": "boom"}}, FAST)) as server:
        with pytest.raises(AgentError, match="HTTP 500.*after the SDK's retries, --max-retries 3"):
            ask(agent_for(server, max_retries=3))
    assert len(server.requests) == 4


def test_retry_after_is_honoured():
    replies = iter(
        [
            (429, {}, {"retry-after-ms": "300"}),
            (200, completion({"role": "assistant", "content": "ok"}), {}),
        ]
    )
    with FakeServer(lambda body, n: next(replies)) as server:
        reply = ask(agent_for(server))
    assert reply.message["content"] == "ok" and reply.attempts == 2
    assert server.times[1] - server.times[0] >= 0.3


def test_a_reply_without_choices_is_asked_again_then_given_up():
    replies = iter(
        [
            (200, {"error": "busy"}, {}),
            (200, b"<html>", {}),
            (200, completion({"role": "assistant", "content": "ok"}), {}),
        ]
    )
    with FakeServer(lambda body, n: next(replies)) as server:
        reply = ask(agent_for(server))
    assert reply.message["content"] == "ok" and reply.attempts == 3 and len(server.requests) == 3
    with FakeServer(lambda body, n: (200, {"choices": []}, {})) as server:
        with pytest.raises(
            AgentError, match="giving up after 3 attempts; last: a response without choices"
        ):
            ask(agent_for(server, max_retries=2))
    assert len(server.requests) == 3


def test_a_client_error_stops_at_once_and_the_run_resumes(demo_env, tmp_path):
    calls = {"n": 0}

    def broken(body, n):
        calls["n"] += 1
        return 400, {"error": {"message": "bad request"}}, {}

    with FakeServer(broken) as server:
        with pytest.raises(AgentError, match="HTTP 400"):
            Episode(demo_env, agent_for(server), tmp_path, Settings(condition="direct")).run()
    assert calls["n"] == 1
    with FakeServer(OracleModel(demo_env)) as server:
        report = Episode(
            demo_env, agent_for(server), tmp_path, Settings(condition="direct"), resume=True
        ).run()
    assert report["complete"] and report["milestones"][0]["accuracy"] == 100.0


def test_the_seed_is_sent_until_the_endpoint_refuses_it(demo_env, capsys):
    def picky(body, n):
        if "seed" in body:
            return 400, {"error": {"message": "Unrecognized request argument supplied: seed"}}, {}
        return 200, completion({"role": "assistant", "content": "ok"}), {}

    with FakeServer(
        lambda body, n: (200, completion({"role": "assistant", "content": "ok"}), {})
    ) as server:
        ask(make_agent("openai", demo_env, seed=7, base_url=server.url, model="m"))
    assert server.requests[0]["seed"] == 7
    with FakeServer(picky) as server:
        agent = make_agent("openai", demo_env, seed=7, base_url=server.url, model="m")
        assert ask(agent).message["content"] == "ok" and ask(agent).message["content"] == "ok"
    assert ["seed" in b for b in server.requests] == [True, False, False]
    assert "refuses the seed field" in capsys.readouterr().err


def test_request_body_and_dropped_fields(demo_env):
    agent = OpenAIAgent(
        base_url="http://127.0.0.1:9/v1",
        model="m",
        params={"temperature": 1, "max_tokens": 50, "top_p": None},
        drop_fields=["reasoning_content"],
        seed=3,
    )
    messages = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "x", "reasoning_content": "r"},
    ]
    body = agent.body(Request("k", "answer", messages, [demo_env.tool_spec()], False))
    assert (
        body["tool_choice"] == "none"
        and body["temperature"] == 1
        and body["max_tokens"] == 50
        and body["seed"] == 3
    )
    assert "top_p" not in body  # --param KEY=null removes a field
    assert body["messages"][1] == {"role": "assistant", "content": "x"}
    assert "tool_choice" not in agent.body(
        Request("k", "explore", messages, [demo_env.tool_spec()], True)
    )
    with pytest.raises(AgentError):
        OpenAIAgent(base_url="http://127.0.0.1:9/v1", model=None)
