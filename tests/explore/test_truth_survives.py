"""A property: in a random world with one patch from the grammar (now and
then a second side condition on the same rule), the true patching of every
rule survives every observation (its posterior probability stays
positive), whatever the probes."""

import random

from alienworlds.explore.alienlogic.grammar import grammar
from alienworlds.explore.alienlogic.metrics import truth_probability
from alienworlds.explore.alienlogic.observe import observe
from alienworlds.explore.alienlogic.probes import conclusion_variants, sample
from alienworlds.explore.alienlogic.space import Space
from alienworlds.ruleset.world import Rule, World
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from alienlogic import RULES, check

RULE_NAMES = sorted(RULES)


def single_patch_world(rng: random.Random) -> tuple[World, str]:
    rule = rng.choice(RULE_NAMES)
    g = grammar(rule)
    kind = rng.random()
    if kind < 0.15:
        patch = Rule("Z9", "the patch", rule, disabled=True)
    elif kind < 0.4 and g.conclusions:
        patch = Rule("Z9", "the patch", rule, conclusion=rng.choice(g.conclusions).text)
    else:  # any member of the grammar, not only a class's representative
        patch = Rule("Z9", "the patch", rule, require=rng.choice(g.requires).text)
    patches = (patch,)
    if not patch.disabled and rng.random() < 0.3:
        patches += (Rule("Z8", "a second patch", rule, require=rng.choice(g.requires).text),)
    return World("single", "alienlogic", rules=patches), rule


@settings(max_examples=examples(15), deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_the_true_patch_survives_every_observation(seed):
    rng = random.Random(seed)
    world, patched = single_patch_world(rng)
    space = Space()
    others = [r for r in RULE_NAMES if r != patched]
    for k in range(8):
        rule = patched if k % 2 == 0 else rng.choice(others)
        probes = sample(rule, rng, 1)
        if probes and rng.random() < 0.4:
            probes = conclusion_variants(probes[0])[:1] or probes
        for probe in probes:
            space.add(observe(probe.proof, check(probe.proof, world).as_dict()))
            for r in {patched, rule}:
                assert truth_probability(space, world, r) > 0, (r, str(world.rules[0]), probe.text)
    assert space.rule(patched).unexplained == 0
