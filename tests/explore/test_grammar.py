"""The grammar of hypothesised patches: every candidate is a legal world
expression, and the explorer evaluates it exactly as the checker does."""

import json
import random

from alienworlds.explore.alienlogic.grammar import BOUNDS, grammar
from alienworlds.explore.alienlogic.pool import pool
from alienworlds.explore.alienlogic.probes import conclusion_variants, sample
from alienworlds.ruleset.limits import Limits
from alienworlds.ruleset.world import Rule, World, parse_world

from alienlogic import RULES
from alienlogic.formulas import Formula
from alienlogic.kernel import walk
from alienlogic.patches import CompiledWorld
from alienlogic.verdict import Rejection
from alienlogic.world_schema import SCHEMA


def test_every_candidate_is_a_legal_world_expression():
    n = 0
    for rule in RULES:  # one world per rule: a world holds at most 1000 rules
        g = grammar(rule)
        lines = ["format = 1", 'name = "grammar"', 'language = "alienlogic"']
        for key, cands in (("require", g.requires), ("conclusion", g.conclusions)):
            for c in cands:
                n += 1
                lines += [
                    "[[rules]]",
                    f'id = "g{n}"',
                    f'name = "g{n}"',
                    f'target = "{rule}"',
                    f"{key} = {json.dumps(c.text)}",
                ]
        world = parse_world(
            "\n".join(lines) + "\n", "grammar.toml", SCHEMA
        )  # raises WorldError on a bad expression
        assert len(world.rules) == len(g.requires) + len(g.conclusions)
    assert n > 3000


def test_the_grammar_covers_the_kinds_of_patch_the_brief_names():
    texts = {c.text for r in RULES for c in grammar(r).requires}
    for expected in (
        "(<= depth 1)",
        "(< (refline 1) (refline 2))",
        "(<= (times-cited (refline 1)) 0)",
        "(not (premise? (refline 1)))",
        "(not (is NOT (ref 1)))",
        "(<= (size conclusion) 3)",
        "(== (ref 1) (left (ref 2)))",
        "(== (size conclusion) (size (sub (ref 1))))",
    ):
        assert expected in texts, expected
    paths = {c.text for c in grammar("AND_E2").conclusions}
    assert {"(ref 1)", "(left (ref 1))", "(right (sub (ref 1)))"} <= paths
    assert BOUNDS["requires_per_rule"] == 2


def test_program_agrees_with_the_checkers_compiled_expressions():
    """Every 7th candidate of every rule, on pool steps and fresh probe steps."""
    rng = random.Random(5)
    limits = Limits(max_steps=10**15, wall_seconds=10.0**9)
    for rule in RULES:
        g = grammar(rule)
        steps = list(pool(rule).steps[::12])
        for probe in sample(rule, rng, 3):
            for variant in (probe, *conclusion_variants(probe)[:2]):
                steps += [f for f in walk(variant.proof) if f.rule == rule and f.view is not None]
        picked = list(range(0, len(g.requires), 7))
        cpicked = list(range(0, len(g.conclusions), 3))
        world = World(
            "check",
            "alienlogic",
            rules=tuple(
                [Rule(f"r{i}", "r", rule, require=g.requires[i].text) for i in picked]
                + [Rule(f"c{i}", "c", rule, require=g.conclusions[i].text) for i in cpicked]
            ),
        )
        compiled = CompiledWorld(world, limits)
        binding = compiled.bind()
        patches = compiled.requires[rule]
        for facts in steps:
            req, conc = g.evaluate(facts.view)
            for k, i in enumerate(picked):
                try:
                    want = bool(binding.evaluate(patches[k], facts.view))
                except Rejection:
                    want = False
                assert req[i] == want, (rule, g.requires[i].text, str(facts.view.conclusion))
            for k, i in enumerate(cpicked):
                try:
                    value = binding.evaluate(patches[len(picked) + k], facts.view)
                except Rejection:
                    value = None
                assert conc[i] == (isinstance(value, Formula) and value is facts.view.conclusion), (
                    rule,
                    g.conclusions[i].text,
                )


def test_the_pool_tells_many_candidates_apart():
    for rule in ("IMPL_E", "AND_E2", "OR_E", "FORALL_E"):
        p = pool(rule)
        assert len(set(p.require_bits)) > 30 and len(set(p.conclusion_bits)) > 3, rule
