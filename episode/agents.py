"""The agent interface and the built-in offline agents.

An agent answers one request at a time: the conversation so far (OpenAI-style
chat messages), the tool schema, whether tools are enabled, and what the
request is for. It returns an assistant message (possibly with tool calls)
and its token usage. The driver owns the conversation, the budgets and the
trace; an agent owns nothing but its own reply.

Built in, deterministic and offline:

* `oracle` answers with the bank's reference solutions and reports the
  world's actual rules: the ceiling.
* `naive` answers with the manual-trusting solutions and reports every rule
  unchanged: the floor.
* `fixed` issues the seeded fixed-probe sequence as its own tool calls and
  then behaves as a perfect learner of exactly what its probes touched: it
  knows a rule once one of the probes in its conversation uses the rule's
  site, answers a task with the reference when it knows every rule the task
  needs (else the manual-trusting solution) and reports the rules it knows.
  Its curve rises as its probes reach more sites, which exercises every
  metric end to end.
* `replay` returns the replies recorded in a trace, request by request.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from .environment import Environment
from .protocol import CALLS_PER_ROUND, ROUNDS


class AgentError(Exception):
    """The agent cannot answer (a dead endpoint, a trace without the reply).
    The run stops; `--resume` continues it later."""


@dataclass
class Request:
    key: str  # unique within the episode, e.g. "r2/turn3", "M1/rules", "M1/T07/2"
    purpose: str  # explore | reflect | rules | answer
    messages: list[dict]
    tools: list[dict]
    tools_enabled: bool
    milestone: object = None
    round: int | None = None
    task: str | None = None
    answer_pass: int | None = None


@dataclass
class Reply:
    message: dict
    usage: dict = field(default_factory=lambda: {"prompt_tokens": 0, "completion_tokens": 0})
    attempts: int = 1

    @property
    def tokens(self) -> int:
        return int(self.usage.get("prompt_tokens") or 0) + int(self.usage.get("completion_tokens") or 0)

    def as_dict(self) -> dict[str, object]:
        return {"message": self.message, "usage": self.usage, "attempts": self.attempts}


def text_reply(content: str) -> Reply:
    return Reply({"role": "assistant", "content": content})


class Agent:
    """The one interface every agent implements."""

    name = "agent"
    concurrency = 1  # how many milestone requests may run at once
    offline = False  # True: answers at once and locally (the trace then records a request with its reply, one fsync)

    def config(self) -> dict[str, object]:
        """What the trace records about the agent (never a secret)."""
        return {"name": self.name}

    def respond(self, request: Request) -> Reply:
        raise NotImplementedError

    def close(self) -> None:
        pass


class ScriptedAgent(Agent):
    offline = True

    def __init__(self, env: Environment) -> None:
        self.env = env

    def explore(self, request: Request) -> Reply:
        return text_reply("I have no probe to run in this round.")

    def rule_report(self, request: Request) -> dict[str, str]:
        return {}

    def answer(self, request: Request) -> str:
        raise NotImplementedError

    def respond(self, request: Request) -> Reply:
        if request.purpose == "explore":
            return self.explore(request)
        if request.purpose == "rules":
            return text_reply(self.env.format_rule_report(self.rule_report(request)))
        if request.purpose == "answer":
            return text_reply(self.answer(request))
        return text_reply("Noted.")


class OracleAgent(ScriptedAgent):
    name = "oracle"

    def rule_report(self, request: Request) -> dict[str, str]:
        return self.env.true_rule_report()

    def answer(self, request: Request) -> str:
        return self.env.reference_reply(request.task)


class NaiveAgent(ScriptedAgent):
    name = "naive"

    def rule_report(self, request: Request) -> dict[str, str]:
        return self.env.manual_rule_report()

    def answer(self, request: Request) -> str:
        return self.env.naive_reply(request.task)


def probes_in(messages: list[dict], tool_name: str, argument: str) -> list[str]:
    """The tool arguments of every call in a conversation, in order."""
    out = []
    for message in messages:
        for call in message.get("tool_calls") or ():
            fn = call.get("function") or {}
            if fn.get("name") != tool_name:
                continue
            try:
                args = json.loads(fn.get("arguments") or "{}")
            except (TypeError, ValueError):
                continue
            if isinstance(args, dict) and isinstance(args.get(argument), str):
                out.append(args[argument])
    return out


class FixedAgent(ScriptedAgent):
    name = "fixed"

    def __init__(self, env: Environment, seed: int = 0, per_round: int = CALLS_PER_ROUND, rounds: int = ROUNDS) -> None:
        super().__init__(env)
        self.seed = seed
        self.per_round = min(per_round, env.calls_per_round)
        self.sequence = env.fixed_probes(seed, rounds, self.per_round)
        self._touched: dict[str, frozenset[str]] = {}

    def config(self) -> dict[str, object]:
        return {"name": self.name, "seed": self.seed, "per_round": self.per_round}

    def explore(self, request: Request) -> Reply:
        # calls made since the round's opening user message
        made = 0
        for message in reversed(request.messages):
            if message.get("role") == "user":
                break
            made += len(message.get("tool_calls") or ())
        batch = self.sequence[(request.round or 1) - 1] if request.round and request.round <= len(self.sequence) else []
        if made >= len(batch):
            return text_reply("That is all for this round.")
        call = {
            "id": f"call_fixed_r{request.round}_{made + 1}",
            "type": "function",
            "function": {"name": self.env.tool_name, "arguments": json.dumps({self.env.tool_argument: batch[made]})},
        }
        return Reply({"role": "assistant", "content": None, "tool_calls": [call]})

    def known(self, request: Request) -> set[str]:
        known: set[str] = set()
        for probe in probes_in(request.messages, self.env.tool_name, self.env.tool_argument):
            if probe not in self._touched:
                self._touched[probe] = frozenset(self.env.rules_touched(probe))
            known |= self._touched[probe]
        return known

    def rule_report(self, request: Request) -> dict[str, str]:
        known = self.known(request)
        return {rid: expr for rid, expr in self.env.true_rule_report().items() if rid in known}

    def answer(self, request: Request) -> str:
        needs = next(t.rules for t in self.env.tasks() if t.id == request.task)
        if set(needs) <= self.known(request):
            return self.env.reference_reply(request.task)
        return self.env.naive_reply(request.task)


class ReplayAgent(Agent):
    """Returns the replies a trace recorded, by request key."""

    name = "replay"
    offline = True

    def __init__(self, source: str | Path) -> None:
        from .trace import read_trace

        self.path = Path(source)
        if self.path.is_dir():
            self.path = self.path / "trace.jsonl"
        events = read_trace(self.path)
        if not events or events[0].get("type") != "header":
            raise AgentError(f"{self.path}: not an episode trace")
        self.header = events[0]
        self.replies = {e["key"].removeprefix("reply/"): e for e in events if e.get("type") == "reply"}

    def config(self) -> dict[str, object]:
        return {"name": self.name, "source": str(self.path), "source_agent": self.header.get("agent")}

    def respond(self, request: Request) -> Reply:
        event = self.replies.get(request.key)
        if event is None:
            raise AgentError(f"the recorded trace {self.path} has no reply for request {request.key}")
        return Reply(event["message"], event.get("usage") or {}, event.get("attempts", 1))


BUILT_IN = ("oracle", "naive", "fixed", "replay", "openai")


def make_agent(name: str, env: Environment, seed: int = 0, **options: object) -> Agent:
    """An agent by name; `options` are the agent's own settings."""
    if name == "oracle":
        return OracleAgent(env)
    if name == "naive":
        return NaiveAgent(env)
    if name == "fixed":
        return FixedAgent(env, seed=seed)
    if name == "replay":
        source = options.get("source")
        if not source:
            raise AgentError("the replay agent needs a recorded trace (--from DIR)")
        return ReplayAgent(str(source))
    if name == "openai":
        from .openai_agent import OpenAIAgent

        return OpenAIAgent(**{k: v for k, v in options.items() if k != "source"})
    raise AgentError(f"unknown agent {name!r}; built in: {', '.join(BUILT_IN)}")
