"""The AlienLogic `explorer` agent: a scientist without an answer key.

Everything it knows comes from the conversation it is shown: the worked
proofs with their verdicts in the system prompt, and the verdicts of its
own `check_proof` probes. It keeps the hypothesis space (`space.Space`) of
those observations and:

* explores: each turn it draws candidate probes (`probes.sample`) for the
  rules it is least sure of, computes each one's expected information gain
  (the entropy of the verdict's distribution under the posterior) and
  submits the best, until the round's 12 proofs (48 in all) are spent or no
  probe can teach it anything;
* answers: it writes its most probable hypothesis of every rule as a world
  file in memory (`beliefs.hypothesised_world`) and answers with the
  prover's proof there, or refuses when the certifier and the independent
  re-checker show that no proof exists there (`answer.Answerer`);
* reports: every first-pass answer at a milestone opens with the rules it
  believes in, one patch a line (`beliefs.report`); each probe says which
  rule it studies and its expected gain.

It never reads the world file, the bank, or the environment's answer key:
it is built from the environment's public protocol numbers alone.

Two baselines share its hypothesis space and its answering and differ only
in how they choose probes, so that a comparison isolates what choosing by
information gain buys: `RandomProbeAgent` submits a random probe of a
random rule (from the same generator, gain never computed), and
`FixedProbeAgent` the protocol's seeded fixed-probe sequence (the manual's
examples, as the `fixed` agent issues them).
"""

from __future__ import annotations

import json
import random

from alienworlds.episode.agent import Agent, Reply, Request, text_reply

from alienlogic import RULES

from .answer import REFUSAL, Answerer
from .beliefs import report
from .conversation import ARGUMENT, TOOL, exchanges, theorem_of
from .observe import Observation, observe, parse_verdict
from .probes import Probe, chain, conclusion_variants, sample
from .space import Space, entropy

RULES_PER_TURN = 5  # the least certain rules, for which a turn draws many candidate probes
PROBES_PER_RULE = 30
PROBES_ANY_RULE = 6  # and a few for every other rule: a rule the prior deems safe still gets tested
VARIANTS_FROM = 10  # of those, how many get conclusion variants (3 each)
MIN_GAIN = 1e-6  # bits: a probe expected to teach less is not worth a call
CHAIN_PARTS = 6  # a probe chains at most this many candidates
CHAIN_FROM = 24  # the best candidates considered for chaining


class Knowledge:
    """The hypothesis space of the exchanges seen so far, kept up to date."""

    def __init__(self) -> None:
        self.space = Space()
        self.seen: list[tuple[str, str]] = []

    def update(self, found: list[tuple[str, str]]) -> Space:
        if found[: len(self.seen)] != self.seen:
            self.space, self.seen = Space(), []
        for proof, verdict_text in found[len(self.seen) :]:
            verdict = parse_verdict(verdict_text)
            if verdict is not None:
                self.space.add(observe(proof, verdict))
            else:
                self.space.add(Observation(None, {}, ()))
            self.seen.append((proof, verdict_text))
        return self.space


def candidates(space: Space, rng: random.Random) -> list[Probe]:
    """Probes for every rule, most for the rules the space is least sure of."""
    ranked = sorted(RULES, key=lambda r: -space.rule(r).entropy())
    out: list[Probe] = []
    for i, rule in enumerate(ranked):
        drawn = sample(rule, rng, PROBES_PER_RULE if i < RULES_PER_TURN else PROBES_ANY_RULE)
        out += drawn + [v for p in drawn[:VARIANTS_FROM] for v in conclusion_variants(p)[:3]]
    return out


def best_probe(space: Space, rng: random.Random, sent: set[str]) -> tuple[Probe, float] | None:
    """The probe with the largest expected information gain: the best
    candidate, extended greedily by chaining others after it while that
    raises the gain (the first of equals wins every comparison)."""
    scored: list[tuple[float, int, Probe]] = []
    for i, probe in enumerate(candidates(space, rng)):
        if probe.text not in sent:
            scored.append((entropy(space.predict(probe.proof)), i, probe))
    if not scored:
        return None
    scored.sort(key=lambda t: (-t[0], t[1]))
    gain, _, best = scored[0]
    parts = [best]
    for _ in range(CHAIN_PARTS - 1):
        step = None
        for _, _, other in scored[1 : CHAIN_FROM + 1]:
            if other in parts:
                continue
            joint = chain(best, other)
            if joint is None or joint.text in sent:
                continue
            g = entropy(space.predict(joint.proof))
            if g > (step[1] if step else gain) + 1e-9:
                step = (joint, g, other)
        if step is None:
            break
        best, gain = step[0], step[1]
        parts.append(step[2])
    return (best, gain) if gain > MIN_GAIN else None


class ExplorerAgent(Agent):
    name = "explorer"
    offline = True

    def __init__(
        self, seed: int = 0, calls_per_round: int = 12, max_total_calls: int | None = 48
    ) -> None:
        self.seed = seed
        self.calls_per_round = calls_per_round
        self.max_total_calls = max_total_calls
        self.knowledge = Knowledge()
        self.answerer = Answerer()

    @classmethod
    def from_options(cls, env: object, seed: int, options: dict[str, object]) -> ExplorerAgent:
        # the protocol's public numbers only: nothing of the world, the bank or the answer key
        return cls(
            seed, int(getattr(env, "calls_per_round", 12)), getattr(env, "max_total_calls", 48)
        )

    def config(self) -> dict[str, object]:
        return {"name": self.name, "seed": self.seed}

    def respond(self, request: Request) -> Reply:
        space = self.knowledge.update(exchanges(request.messages))
        if request.purpose == "explore":
            return self._explore(request, space)
        if request.purpose == "answer":
            return text_reply(self._answer(request, space))
        return text_reply("Rules I believe in:\n" + report(space.beliefs()))

    def _explore(self, request: Request, space: Space) -> Reply:
        made_this_round = 0
        for message in reversed(request.messages):
            if message.get("role") == "user":
                break
            made_this_round += len(message.get("tool_calls") or ())
        made = sum(
            len(m.get("tool_calls") or ()) for m in request.messages if m.get("role") == "assistant"
        )
        if made_this_round >= self.calls_per_round or (
            self.max_total_calls is not None and made >= self.max_total_calls
        ):
            return text_reply("Rules I believe in:\n" + report(space.beliefs()))
        found = self.choose(space, made)
        if found is None:
            return text_reply(
                "No probe left that could change my beliefs. Rules I believe in:\n"
                + report(space.beliefs())
            )
        text, note = found
        call = {
            "id": f"call_{self.name}_{made + 1}",
            "type": "function",
            "function": {"name": TOOL, "arguments": json.dumps({ARGUMENT: text})},
        }
        return Reply({"role": "assistant", "content": note, "tool_calls": [call]})

    def choose(self, space: Space, made: int) -> tuple[str, str] | None:
        """The next probe (its text and a note on why), or None: nothing left to learn."""
        rng = random.Random(f"explorer:{self.seed}:{made}")
        found = best_probe(space, rng, {p for p, _ in self.knowledge.seen})
        if found is None:
            return None
        probe, gain = found
        return (
            probe.text,
            f"Probing {probe.rule} (step {probe.target}): expected information gain {gain:.2f} "
            "bits.",
        )

    def _answer(self, request: Request, space: Space) -> str:
        prompt = (
            next(
                (m.get("content") for m in reversed(request.messages) if m.get("role") == "user"),
                "",
            )
            or ""
        )
        theorem = theorem_of(prompt)
        beliefs = space.beliefs()
        head = (
            "Rules I believe in:\n" + report(beliefs) + "\n\n" if request.answer_pass == 1 else ""
        )
        if theorem is None:
            return head + REFUSAL
        return head + self.answerer.answer(space, theorem).text


class RandomProbeAgent(ExplorerAgent):
    """The explorer's answering with random probes: a rule drawn uniformly,
    one probe of it from the same generator (a conclusion variant half the
    time, when it has one); the expected gain is never computed."""

    name = "explorer-random"

    def choose(self, space: Space, made: int) -> tuple[str, str] | None:
        rng = random.Random(f"explorer-random:{self.seed}:{made}")
        rule = rng.choice(sorted(RULES))
        drawn = sample(rule, rng, 1)
        if not drawn:
            return None
        probe = drawn[0]
        variants = conclusion_variants(probe)
        if variants and rng.random() < 0.5:
            probe = rng.choice(variants)
        return probe.text, f"Probing {probe.rule} at random."


class FixedProbeAgent(ExplorerAgent):
    """The explorer's answering with the protocol's seeded fixed-probe
    sequence (the manual's examples, drawn as the `fixed` agent draws them)."""

    name = "explorer-fixed"

    def __init__(
        self,
        sequence: list[str],
        seed: int = 0,
        calls_per_round: int = 12,
        max_total_calls: int | None = 48,
    ) -> None:
        super().__init__(seed, calls_per_round, max_total_calls)
        self.sequence = sequence

    @classmethod
    def from_options(cls, env: object, seed: int, options: dict[str, object]) -> FixedProbeAgent:
        per_round = int(getattr(env, "calls_per_round", 12))
        rounds = -(-int(getattr(env, "max_total_calls", 48) or 48) // per_round)
        sequence = [p for batch in env.fixed_probes(seed, rounds, per_round) for p in batch]
        return cls(sequence, seed, per_round, getattr(env, "max_total_calls", 48))

    def choose(self, space: Space, made: int) -> tuple[str, str] | None:
        if made >= len(self.sequence):
            return None
        return self.sequence[made], "The next probe of the fixed sequence."
