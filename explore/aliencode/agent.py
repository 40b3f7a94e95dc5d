"""The `explorer` agent and its random- and fixed-probe variants.

The agent reads only what a system is shown: the system prompt (manual and
worked examples with their outputs), the rule-report prompt, the tool
results in the conversation and each task's prompt. Of the environment it
uses the rule-report prompt (the text every milestone shows), the bank's
manual-trusting solutions (`naive_reply`: what a system that believes the
manual writes, never the reference) and, for `explorer-fixed`, the
protocol's seeded fixed probes. It never touches the world, the bank, the
references, the grader or the tool itself (`GUARDED` lists what it may use;
tests/explore/test_agent.py runs it against an environment that refuses
everything else, with the world file unreadable).

* `explorer`: each probe is the packed atoms of highest expected information
  gain (design.py); a round ends early when no candidate can teach anything.
* `explorer-random`: the same engine and answering, probes of random atoms
  (random rule, place and operands) packed to the unit cap.
* `explorer-fixed`: the same engine and answering, the protocol's fixed-probe
  sequence (the `fixed` agent's probes).

At a milestone each rule is reported as its most likely survivor, and each
task is answered under the most likely world (answer.py).
"""

from __future__ import annotations

import json
import random
import statistics
import time

from alienworlds.episode.agent import Agent, Reply, Request, text_reply
from alienworlds.episode.protocol import CALLS_PER_ROUND, ROUNDS
from alienworlds.episode.scripted_agents import tool_calls_in

from aliencode.metering import PROBE_CAP

from .answer import Answerer
from .design import Designer, atom, compose, cost, places_of
from .engine import Engine
from .view import read_view

# The only environment attributes the agents read (see the module docstring).
# "language": the shared agent names (episode/languages.py) pick the class by it
GUARDED = (
    "language",
    "rule_report_prompt",
    "naive_reply",
    "fixed_probes",
    "tool_name",
    "tool_argument",
    "calls_per_round",
)


def tool_observations(messages: list[dict], tool_name: str, argument: str) -> list[tuple[str, str]]:
    """(program, feedback) of every call of the tool in a conversation, in
    order, leaving out calls that ran nothing (over the unit cap, beyond the
    round's budget)."""
    sent = dict(tool_calls_in(messages, tool_name, argument))
    out = []
    for message in messages:
        if message.get("role") == "tool" and message.get("tool_call_id") in sent:
            content = message.get("content") or ""
            if not content.startswith(("[rejected]", "[not run]")):
                out.append((sent[message["tool_call_id"]], content))
    return out


class ExplorerAgent(Agent):
    name = "explorer"
    offline = True
    probes = "designed"

    def __init__(self, env: object, seed: int = 0) -> None:
        self.env = env
        self.seed = seed
        self.per_round = min(CALLS_PER_ROUND, env.calls_per_round)
        self.engine: Engine | None = None
        self.designer: Designer | None = None
        self.answerer = Answerer()
        self.seen = 0
        self.decisions: list[float] = []  # seconds of CPU per probe chosen

    @classmethod
    def from_options(cls, env: object, seed: int, options: dict[str, object]) -> ExplorerAgent:
        return cls(env, seed)

    def config(self) -> dict[str, object]:
        return {"name": self.name, "seed": self.seed}

    # -- keeping up with the conversation -------------------------------------------------

    def _sync(self, messages: list[dict]) -> Engine:
        if self.engine is None:
            view = read_view(messages[0]["content"], self.env.rule_report_prompt())
            self.engine = Engine(view)
            self.designer = Designer(self.engine, self.seed)
            for example in view.examples:
                self.engine.observe(example.program, example.output, tool=False)
        observed = tool_observations(messages, self.env.tool_name, self.env.tool_argument)
        for program, feedback in observed[self.seen :]:
            self.engine.observe(program, feedback)
        self.seen = max(self.seen, len(observed))
        return self.engine

    def respond(self, request: Request) -> Reply:
        engine = self._sync(request.messages)
        if request.purpose == "explore":
            return self._explore(request)
        if request.purpose == "rules":
            report = engine.rule_report()
            return text_reply("\n".join(f"{rid}: {expr}" for rid, expr in report.items()))
        if request.purpose == "answer":
            prompt = request.messages[-1].get("content") or ""
            return text_reply(
                self.answerer.answer(
                    request.task, prompt, self.env.naive_reply(request.task), engine.world()
                )
            )
        return text_reply("Noted.")

    # -- probing --------------------------------------------------------------------------

    def _explore(self, request: Request) -> Reply:
        made = 0
        for message in reversed(request.messages):
            if message.get("role") == "user":
                break
            made += len(message.get("tool_calls") or ())
        if made >= self.per_round:
            return text_reply("That is all for this round.")
        start = time.process_time()
        code = self.probe(request.round or 1, made + 1)
        self.decisions.append(time.process_time() - start)
        if code is None:
            return text_reply("No probe I can think of would teach me more in this round.")
        call = {
            "id": f"call_{self.name}_r{request.round}_{made + 1}",
            "type": "function",
            "function": {
                "name": self.env.tool_name,
                "arguments": json.dumps({self.env.tool_argument: code}),
            },
        }
        return Reply({"role": "assistant", "content": None, "tool_calls": [call]})

    def probe(self, round_no: int, number: int) -> str | None:
        choice = self.designer.choose(f"r{round_no}/{number}")
        return choice.source if choice else None

    def decision_seconds(self) -> float | None:
        return statistics.median(self.decisions) if self.decisions else None


class RandomProbeAgent(ExplorerAgent):
    """Random atoms packed to the unit cap; the explorer's answering."""

    name = "explorer-random"
    probes = "random"

    def probe(self, round_no: int, number: int) -> str | None:
        engine, designer = self.engine, self.designer
        rng = random.Random(f"explorer-random:{self.seed}:{round_no}/{number}")
        atoms = []
        writer = designer.writer()
        for _ in range(8):
            slot = rng.randrange(len(engine.slots))
            place = rng.choice(places_of(engine, slot))
            trial = [
                *atoms,
                atom(slot, engine.slots[slot].site, place, rng, writer, designer.printer),
            ]
            if cost(designer.spell(compose(trial)), designer.keywords) <= PROBE_CAP:
                atoms = trial
        return designer.spell(compose(atoms)) if atoms else None


class FixedProbeAgent(ExplorerAgent):
    """The protocol's seeded fixed probes; the explorer's answering."""

    name = "explorer-fixed"
    probes = "fixed"

    def __init__(self, env: object, seed: int = 0) -> None:
        super().__init__(env, seed)
        self.sequence = env.fixed_probes(seed, ROUNDS, self.per_round)

    def probe(self, round_no: int, number: int) -> str | None:
        batch = self.sequence[round_no - 1] if round_no <= len(self.sequence) else []
        return batch[number - 1] if number <= len(batch) else None
