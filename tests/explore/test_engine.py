"""Soundness of the hypothesis engine: random probes, answered by the demo
world, never eliminate the world's true rules, and every probe they make is
explained by the survivors."""

import random

from alienworlds.episode.trace import read_trace
from alienworlds.explore.aliencode.design import Designer, atom, compose, cost, places_of
from alienworlds.explore.aliencode.metrics import _texts, _Truth, base_engine
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from aliencode.metering import PROBE_CAP


def _random_probe(engine, designer, rng):
    atoms, writer = [], designer.writer()
    for _ in range(6):
        slot = rng.randrange(len(engine.slots))
        trial = [
            *atoms,
            atom(slot, engine.slots[slot].site, rng.choice(places_of(engine, slot)), rng, writer),
        ]
        if cost(designer.spell(compose(trial)), designer.keywords) <= PROBE_CAP:
            atoms = trial
    return designer.spell(compose(atoms)) if atoms else None


@settings(max_examples=examples(6), deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_probes_keep_the_true_rules_alive(fixed_probe_trace, demo_env, seed):
    system, rules = _texts(read_trace(fixed_probe_trace[0]))
    engine = base_engine(system, rules)
    truth = _Truth(engine, demo_env.world)
    in_space = [
        k for k in range(len(engine.slots)) if any(truth.holds(k, h) for h in engine.alive[k])
    ]
    assert len(in_space) == len(engine.slots)  # the demo world's rules are all in the space
    designer, rng = Designer(engine, seed), random.Random(seed)
    for _ in range(4):
        code = _random_probe(engine, designer, rng)
        outcome = demo_env.run_tool({"code": code})
        assert outcome.status == "ran", code
        step = engine.observe(code, outcome.feedback)
        assert step.status in ("explained", "pending", "silent"), (code, outcome.feedback)
        for k in in_space:
            assert any(truth.holds(k, h) for h in engine.alive[k]), (
                engine.slots[k].id,
                code,
                outcome.feedback,
            )
