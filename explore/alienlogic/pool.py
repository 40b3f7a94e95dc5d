"""A fixed pool of sample steps per rule, for telling candidates apart.

Two candidates that agree on every pool step (and on every step observed
since) are one hypothesis: the space is kept as observational equivalence
classes, not as expressions. The pool is the steps of probes drawn with a
fixed seed (`probes.sample`, the standard calculus's steps in many
contexts) and of their conclusion variants (each formula a `conclusion`
patch could derive), at most `POOL_STEPS` per rule. It depends on nothing
but the code, so it is computed once per process.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from functools import cache, lru_cache

from alienlogic import RULES
from alienlogic.kernel import StepFacts, walk

from .grammar import grammar
from .probes import conclusion_variants, sample

SEED = "alienlogic-pool-1"
PROBES_PER_RULE = 30
POOL_STEPS = 160


@dataclass(frozen=True)
class Pool:
    """A rule's pool steps and every candidate's values there, as bit masks."""

    steps: tuple[StepFacts, ...]
    require_bits: tuple[int, ...]  # per require candidate: bit j set when it holds at step j
    conclusion_bits: tuple[int, ...]  # per conclusion candidate: bit j set when it derives step j
    standard_bits: int  # bit j set when the standard conclusion holds at step j


@lru_cache(maxsize=1)
def _pool_steps() -> dict[str, list[StepFacts]]:
    rng = random.Random(SEED)
    steps: dict[str, list[StepFacts]] = defaultdict(list)
    for rule in RULES:
        probes = sample(rule, rng, PROBES_PER_RULE)
        probes += [v for p in probes for v in conclusion_variants(p)]
        for probe in probes:
            for facts in walk(probe.proof):
                if facts.view is not None:
                    steps[facts.rule].append(facts)
    out = {}
    for rule in RULES:
        found = steps[rule]
        if len(found) > POOL_STEPS:
            found = random.Random(f"{SEED}:{rule}").sample(found, POOL_STEPS)
        out[rule] = found
    return out


def masks(rule: str, steps: list[StepFacts]) -> tuple[list[int], list[int], int]:
    """Bit masks of the candidates' values over `steps` (bit j: step j)."""
    g = grammar(rule)
    req = [0] * len(g.requires)
    conc = [0] * len(g.conclusions)
    std = 0
    for j, facts in enumerate(steps):
        r, c = g.evaluate(facts.view)
        bit = 1 << j
        for i, v in enumerate(r):
            if v:
                req[i] |= bit
        for i, v in enumerate(c):
            if v:
                conc[i] |= bit
        if facts.failure is None:
            std |= bit
    return req, conc, std


@cache
def pool(rule: str) -> Pool:
    steps = _pool_steps()[rule]
    req, conc, std = masks(rule, steps)
    return Pool(tuple(steps), tuple(req), tuple(conc), std)
