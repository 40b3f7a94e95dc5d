"""The built-in offline agents that read the environment's answer key.

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
"""

from __future__ import annotations

import json

from .agent import Agent, Reply, Request, text_reply
from .environment import Environment
from .protocol import CALLS_PER_ROUND, ROUNDS


class ScriptedAgent(Agent):
    offline = True

    def __init__(self, env: Environment) -> None:
        self.env = env

    @classmethod
    def from_options(cls, env: Environment, seed: int, options: dict[str, object]) -> ScriptedAgent:
        return cls(env)

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


def tool_calls_in(
    messages: list[dict], tool_name: str, argument: str
) -> list[tuple[str | None, str]]:
    """(call id, argument) of every call of the tool in a conversation, in
    order (calls whose argument is missing or not a string left out)."""
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
                out.append((call.get("id"), args[argument]))
    return out


def probes_in(messages: list[dict], tool_name: str, argument: str) -> list[str]:
    """The tool arguments of every call in a conversation, in order."""
    return [arg for _, arg in tool_calls_in(messages, tool_name, argument)]


class FixedAgent(ScriptedAgent):
    name = "fixed"

    def __init__(
        self,
        env: Environment,
        seed: int = 0,
        per_round: int = CALLS_PER_ROUND,
        rounds: int = ROUNDS,
    ) -> None:
        super().__init__(env)
        self.seed = seed
        self.per_round = min(per_round, env.calls_per_round)
        self.sequence = env.fixed_probes(seed, rounds, self.per_round)
        self._touched: dict[str, frozenset[str]] = {}

    @classmethod
    def from_options(cls, env: Environment, seed: int, options: dict[str, object]) -> FixedAgent:
        return cls(env, seed=seed)

    def config(self) -> dict[str, object]:
        return {"name": self.name, "seed": self.seed, "per_round": self.per_round}

    def explore(self, request: Request) -> Reply:
        # calls made since the round's opening user message
        made = 0
        for message in reversed(request.messages):
            if message.get("role") == "user":
                break
            made += len(message.get("tool_calls") or ())
        batch = (
            self.sequence[(request.round or 1) - 1]
            if request.round and request.round <= len(self.sequence)
            else []
        )
        if made >= len(batch):
            return text_reply("That is all for this round.")
        call = {
            "id": f"call_fixed_r{request.round}_{made + 1}",
            "type": "function",
            "function": {
                "name": self.env.tool_name,
                "arguments": json.dumps({self.env.tool_argument: batch[made]}),
            },
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
