import json
import re

import pytest

from alienworlds.episode import Episode, Settings
from alienworlds.episode.agents import AgentError, Request
from alienworlds.episode.openai_agent import OpenAIAgent
from alienworlds.episode.trace import read_trace

from fake_openai import FakeServer, completion


def agent_for(server, **options):
    options.setdefault("backoff", 0.001)
    return OpenAIAgent(base_url=server.url, model="fake-model", api_key_env="FAKE_OPENAI_KEY", **options)


class Model:
    """A scripted model: two probes a round (with a reasoning field), then
    stops; answers tasks with the world's reference solutions."""

    def __init__(self, env, failures=None):
        self.env = env
        self.failures = failures or {}

    def __call__(self, body, number):
        if number in self.failures:
            return self.failures[number]
        messages = body["messages"]
        last_user = max(i for i, m in enumerate(messages) if m["role"] == "user")
        prompt = messages[last_user]["content"]
        if body.get("tool_choice") == "none":
            if "rule report" in prompt:
                return 200, completion({"role": "assistant", "content": "D1: (+ n 1)\nD2: (< a b)\nD3: UNKNOWN"}), {}
            task = re.search(r"Held-out task (\w+)", prompt)
            if task:
                return 200, completion({"role": "assistant", "content": "Answer:\n" + self.env.reference_reply(task.group(1))}), {}
            return 200, completion({"role": "assistant", "content": "My hypotheses are unchanged."}), {}
        made = sum(1 for m in messages[last_user:] if m["role"] == "tool")
        if made >= 2:
            return 200, completion({"role": "assistant", "content": "Done for this round."}), {}
        call = {"id": f"call_srv_{number}", "type": "function",
                "function": {"name": "run_aliencode", "arguments": json.dumps({"code": f"EMIT(PLUCK(STRAND(1, 2, 3), {made}))"})}}
        message = {"role": "assistant", "content": None, "tool_calls": [call], "reasoning_content": f"thinking {number}", "refusal": None}
        return 200, completion(message), {}


def test_a_full_episode_through_the_http_protocol(demo_env, tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_OPENAI_KEY", "sekrit-key")
    failures = {1: (429, {"error": {"message": "slow down"}}, {"Retry-After": "0"}),
                3: (500, {"error": {"message": "boom"}}, {}),
                4: (200, b"{not json", {}),
                7: (503, {"error": {"message": "overloaded"}}, {})}
    with FakeServer(Model(demo_env, failures), delay=0.005) as server:
        agent = agent_for(server, concurrency=4)
        report = Episode(demo_env, agent, tmp_path, Settings()).run()
    assert [m["accuracy"] for m in report["milestones"]] == [100.0] * 5
    assert [m["rule_report_score"] for m in report["milestones"]] == [2] * 5  # D1 and D2 right; D3 UNKNOWN; D4, D5 missing
    events = read_trace(tmp_path)
    tools = [e for e in events if e["type"] == "tool"]
    assert len(tools) == 8 and [e["feedback"] for e in tools[:2]] == ["3", "1"]  # PLUCK counts from one here
    budget = report["milestones"][-1]["budget"]
    explore = [e for e in events if e["type"] == "reply" and e["key"].startswith("reply/r")]
    assert budget["calls"] == 8 and budget["units"] == 8 and budget["tokens"] == 107 * len(explore) == 107 * 12
    # retries happened and were recorded
    assert max(e["attempts"] for e in events if e["type"] == "reply") >= 2
    # the structured conversation went back intact: reasoning fields, tool-call ids, tool results
    second = next(b for b in server.requests if b.get("tool_choice") != "none"
                  and sum(m["role"] == "tool" for m in b["messages"]) == 1)
    assistant = [m for m in second["messages"] if m["role"] == "assistant"][-1]
    tool = second["messages"][-1]
    assert assistant["reasoning_content"].startswith("thinking") and "refusal" not in assistant
    assert tool == {"role": "tool", "tool_call_id": assistant["tool_calls"][0]["id"], "content": "3"}
    # milestone copies are tool-disabled and never enter the main conversation
    copies = [b for b in server.requests if b.get("tool_choice") == "none"]
    assert copies and all(b["tools"][0]["function"]["name"] == "run_aliencode" for b in copies)
    assert 1 < server.max_inflight <= 4  # the concurrency limit
    # the key is sent, never recorded
    assert all(h.get("Authorization") == "Bearer sekrit-key" for h in server.headers)
    assert b"sekrit" not in (tmp_path / "trace.jsonl").read_bytes()
    header = events[0]
    assert header["agent"] == {"name": "openai", "model": "fake-model", "params": {}, "drop_fields": []}
    assert header["runtime"]["base_url"] == server.url and header["runtime"]["api_key_env"] == "FAKE_OPENAI_KEY"


def test_retries_back_off_exponentially_and_give_up(demo_env):
    waits = []
    with FakeServer(lambda body, n: (500, {"error": {}}, {})) as server:
        agent = agent_for(server, max_retries=3, backoff=0.5, sleep=waits.append)
        with pytest.raises(AgentError, match="giving up after 4 attempts"):
            agent.respond(Request("k", "answer", [{"role": "user", "content": "hi"}], [], False))
    assert waits == [0.5, 1.0, 2.0] and len(server.requests) == 4


def test_retry_after_is_honoured_but_capped(demo_env):
    waits = []
    replies = iter([(429, {}, {"Retry-After": "5"}), (429, {}, {"Retry-After": "500"}),
                    (200, completion({"role": "assistant", "content": "ok"}), {})])
    with FakeServer(lambda body, n: next(replies)) as server:
        agent = agent_for(server, backoff=0.1, max_backoff=30, sleep=waits.append)
        reply = agent.respond(Request("k", "answer", [{"role": "user", "content": "hi"}], [], False))
    assert waits == [5.0, 30.0] and reply.message["content"] == "ok" and reply.attempts == 3


def test_a_client_error_stops_at_once_and_the_run_resumes(demo_env, tmp_path):
    calls = {"n": 0}

    def broken(body, n):
        calls["n"] += 1
        return 400, {"error": {"message": "bad request"}}, {}

    with FakeServer(broken) as server:
        with pytest.raises(AgentError, match="HTTP 400"):
            Episode(demo_env, agent_for(server), tmp_path, Settings(condition="direct")).run()
    assert calls["n"] == 1
    with FakeServer(Model(demo_env)) as server:
        report = Episode(demo_env, agent_for(server), tmp_path, Settings(condition="direct"), resume=True).run()
    assert report["complete"] and report["milestones"][0]["accuracy"] == 100.0


def test_request_body_and_dropped_fields(demo_env):
    agent = OpenAIAgent(base_url="http://127.0.0.1:9/v1", model="m", params={"temperature": 1, "max_tokens": 50},
                        drop_fields=["reasoning_content"])
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "x", "reasoning_content": "r"}]
    body = agent.body(Request("k", "answer", messages, [demo_env.tool_spec()], False))
    assert body["tool_choice"] == "none" and body["temperature"] == 1 and body["max_tokens"] == 50
    assert body["messages"][1] == {"role": "assistant", "content": "x"}
    assert "tool_choice" not in agent.body(Request("k", "explore", messages, [demo_env.tool_spec()], True))
    with pytest.raises(AgentError):
        OpenAIAgent(base_url="http://127.0.0.1:9/v1", model=None)
