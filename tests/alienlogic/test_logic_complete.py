"""The prover is complete for classical propositional logic in the standard
world: every tautology is proved, the proof is checked, and a formula that
is not a tautology is refused at once with a countermodel. Also the
propositional solver it relies on."""

import random
import time

import pytest
from fuzzing import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from logic_formulagen import random_formula, random_tautology, substituted, valid
from machine_speed import scaled

from alienlogic import Not, Pred, Theorem, check, load_world, parse_formula
from alienlogic.prover import prove
from alienlogic.refutation import refute_search
from alienlogic.sat import entails, solve
from alienlogic.semantics import Interpretation, holds

STANDARD = load_world("standard")


def iff(a: str, b: str) -> str:
    return f"AND(IMPL({a}, {b}), IMPL({b}, {a}))"


PELLETIER_5 = "IMPL(IMPL(OR(p, q), OR(p, r)), OR(p, IMPL(q, r)))"
PELLETIER_12 = iff(iff(iff("p", "q"), "r"), iff("p", iff("q", "r")))


def proved(goal: str, premises: tuple[str, ...] = ()):
    t = Theorem(tuple(parse_formula(p) for p in premises), parse_formula(goal))
    r = prove(STANDARD, t, seconds=10)
    assert r.found, r.reason
    assert check(r.proof, STANDARD, task=t).accepted
    return r


@pytest.mark.parametrize("goal", [PELLETIER_5, PELLETIER_12], ids=["pelletier-5", "pelletier-12"])
def test_pelletier_5_and_12_are_proved(goal):
    r = proved(goal)
    # sizes of the reference proofs (shown to people): no blow-up
    assert len(r.proof.steps) <= {PELLETIER_5: 60, PELLETIER_12: 250}[goal]


def test_pelletier_12_cannot_hide_in_the_direct_search():
    # the refutation stage proves it on its own, at Herbrand level 0
    t = Theorem((), parse_formula(PELLETIER_12))
    found = refute_search(t.premises, t.goal)
    assert found.derivation is not None and found.level == 0


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_random_tautologies_are_proved_and_checked(seed):
    t = random_tautology(seed, size=10)
    r = prove(STANDARD, t, seconds=20)
    assert r.found, (r.reason, [str(p) for p in t.premises], str(t.goal))
    assert check(r.proof, STANDARD, task=t).accepted


SCHEMAS = [
    PELLETIER_5,
    PELLETIER_12,
    "OR(p, NOT(p))",
    "IMPL(IMPL(IMPL(p, q), p), p)",
    "OR(IMPL(p, q), IMPL(q, p))",
    iff("OR(p, AND(q, r))", "AND(OR(p, q), OR(p, r))"),
    "IMPL(NOT(IMPL(p, q)), IMPL(q, p))",
]


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SCHEMAS), st.integers(min_value=0, max_value=2**32 - 1))
def test_substitution_instances_of_tautologies_are_proved(schema, seed):
    goal = substituted(parse_formula(schema), random.Random(seed))
    assert valid((), goal)
    r = prove(STANDARD, Theorem((), goal), seconds=20)
    assert r.found, (r.reason, str(goal))
    assert check(r.proof, STANDARD, task=Theorem((), goal)).accepted


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_non_tautologies_are_refused_at_once_with_a_countermodel(seed):
    rng = random.Random(seed)
    goal = random_formula(rng, rng.randint(1, 6))
    if valid((), goal):
        return
    start = time.process_time()
    r = prove(STANDARD, Theorem((), goal), seconds=10)
    assert not r.found and r.reason.startswith("not a classical consequence (countermodel")
    assert time.process_time() - start < scaled(1.0)


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_the_solver_agrees_with_truth_tables(seed):
    rng = random.Random(seed)
    formulas = [
        random_formula(rng, rng.randint(0, 5), ("p", "q", "r")) for _ in range(rng.randint(1, 4))
    ]
    outcome = solve(formulas)
    table_sat = not valid(tuple(formulas), parse_formula("BOT"), ("p", "q", "r"))
    assert outcome.satisfiable == table_sat
    if outcome.satisfiable:
        # the model makes every formula true
        m = Interpretation(
            1,
            {},
            {},
            {
                (a, 0): frozenset({()}) if Pred(a) in outcome.model else frozenset()
                for a in ("p", "q", "r")
            },
        )
        assert all(holds(f, m) for f in formulas)
    else:
        # the core is itself unsatisfiable and made of given formulas
        assert set(outcome.core) <= set(formulas)
        assert valid(outcome.core, parse_formula("BOT"), ("p", "q", "r"))


def test_solver_handles_deep_and_wide_sets():
    deep = parse_formula("p")
    for _ in range(150):
        deep = Not(Not(deep))
    assert entails([deep], parse_formula("p"))
    many = [parse_formula(f"IMPL(p{i}, p{i + 1})") for i in range(2000)] + [parse_formula("p0")]
    assert entails(many, parse_formula("p2000"))
    assert solve(many).satisfiable


@pytest.mark.parametrize("goal", ["P(f(a))", "EXISTS(x, FORALL(y, R(x, y)))", "FORALL(x, P(x))"])
def test_first_order_non_theorems_end_cleanly(goal):
    # every witness of FORALL(x, EXISTS(y, R(x, y))) brings another one: the
    # search must end by its limits, with nesting bounded, never crash
    t = Theorem(
        (parse_formula("EXISTS(x, P(x))"), parse_formula("FORALL(x, EXISTS(y, R(x, y)))")),
        parse_formula(goal),
    )
    r = prove(STANDARD, t, seconds=1)
    assert not r.found and r.reason


def test_first_order_non_theorem_without_endless_witnesses_is_refused():
    t = Theorem((parse_formula("EXISTS(x, P(x))"),), parse_formula("FORALL(x, P(x))"))
    r = prove(STANDARD, t, seconds=10)
    assert not r.found and "not a classical consequence" in r.reason
