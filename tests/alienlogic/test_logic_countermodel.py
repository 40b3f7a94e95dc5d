"""The prover's refutations: only with a countermodel the evaluator confirms.

Also the false negative a review found (a closed tableau branch forgotten
between the two conjuncts of AND_I), a property comparing the prover with
truth tables on formulas that contain BOT, and a seeded slice of the
differential benchmark (benchmarks/prover_differential.py)."""

import importlib.util
import random
import sys
from pathlib import Path

import pytest
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from alienlogic import check, countermodel, load_world, parse_formula, prover
from alienlogic.formulas import Exists, Forall, Name, Or, Pred
from alienlogic.proof import Theorem
from alienlogic.prover import StepClock, prove
from alienlogic.semantics import Interpretation

_SPEC = importlib.util.spec_from_file_location(
    "prover_differential", Path(__file__).parents[2] / "benchmarks" / "prover_differential.py"
)
differential = importlib.util.module_from_spec(_SPEC)
sys.modules.setdefault("prover_differential", differential)  # dataclasses look their module up
_SPEC.loader.exec_module(differential)

STANDARD = load_world("standard")


def theorem(premises: str, goal: str) -> Theorem:
    return Theorem(
        tuple(parse_formula(p) for p in premises.split(";") if p.strip()), parse_formula(goal)
    )


# -- the false negative -------------------------------------------------------------


@pytest.mark.parametrize(
    "premises, goal",
    [
        ("IMPL(IMPL(BOT, p), AND(q, BOT))", "AND(BOT, p)"),
        ("IMPL(IMPL(BOT, p), AND(q, BOT))", "AND(p, AND(BOT, q))"),
        ("IMPL(IMPL(BOT, P(a)), AND(Q(a), BOT))", "AND(BOT, FORALL(x, P(x)))"),
        ("FORALL(x, IMPL(IMPL(BOT, P(x)), AND(Q(x), BOT)))", "AND(BOT, EXISTS(x, P(x)))"),
    ],
)
def test_a_goal_after_a_closed_conjunct_is_proved(premises, goal):
    # proving the first conjunct closes the branch; the second conjunct is
    # proved on that same branch and must see it closed
    t = theorem(premises, goal)
    r = prove(STANDARD, t, seconds=10)
    assert r.found, r.reason
    assert check(r.proof, STANDARD, task=t).accepted


# -- countermodels ----------------------------------------------------------------


def test_verified_accepts_a_countermodel_and_refuses_anything_else():
    premises, goal = (parse_formula("IMPL(p, q)"),), parse_formula("p")
    false_both = Interpretation(1, {}, {}, {("p", 0): frozenset(), ("q", 0): frozenset()})
    assert countermodel.verified(premises, goal, false_both) is not None
    p_true = Interpretation(1, {}, {}, {("p", 0): frozenset({()}), ("q", 0): frozenset({()})})
    assert countermodel.verified(premises, goal, p_true) is None  # the goal holds
    premise_false = Interpretation(1, {}, {}, {("p", 0): frozenset(), ("q", 0): frozenset()})
    assert (
        countermodel.verified((parse_formula("q"),), goal, premise_false) is None
    )  # a premise fails
    missing = Interpretation(1, {}, {}, {("p", 0): frozenset()})
    assert countermodel.verified(premises, goal, missing) is None  # q has no meaning


def test_a_solver_assignment_that_is_not_a_countermodel_is_refused():
    t = theorem("IMPL(p, q)", "q")
    assert countermodel.propositional(t.premises, t.goal, frozenset()) is not None
    assert countermodel.propositional(t.premises, t.goal, frozenset({parse_formula("p")})) is None
    assert countermodel.propositional(t.premises, t.goal, frozenset({parse_formula("q")})) is None


@pytest.mark.parametrize(
    "premises, goal, size, plain",
    [
        ("EXISTS(x, P(x))", "FORALL(x, P(x))", 2, True),
        ("FORALL(x, EXISTS(y, R(x, y)))", "EXISTS(y, FORALL(x, R(x, y)))", 2, True),
        ("P(a)", "P(b)", 2, False),
        ("FORALL(x, P(f(x)))", "P(a)", 2, False),
        ("", "EQ(a, b)", 2, False),
        ("NOT(EQ(a, b)); NOT(EQ(b, c))", "NOT(EQ(a, c))", 2, False),
        ("", "NOT(EQ(a, b))", 1, False),
    ],
)
def test_small_countermodels_are_found_and_check(premises, goal, size, plain):
    t = theorem(premises, goal)
    found = countermodel.search(t.premises, t.goal)
    assert found is not None and found.model.size == size
    assert countermodel.verified(t.premises, t.goal, found.model) is not None
    if (
        plain
    ):  # no second constant, function or equation: the benchmark's own evaluator reads it too
        assert differential.is_countermodel(t, found.model)


@pytest.mark.parametrize(
    "premises, goal",
    [
        ("FORALL(x, P(x))", "P(a)"),
        ("", "IMPL(FORALL(x, EXISTS(y, R(x, y))), FORALL(x, EXISTS(y, R(x, y))))"),
        ("", "EQ(a, a)"),
    ],
)
def test_no_countermodel_of_a_valid_theorem(premises, goal):
    t = theorem(premises, goal)
    assert countermodel.search(t.premises, t.goal) is None


def nested_quantifiers(depth: int, rng: random.Random) -> Theorem:
    """An invalid sequent whose grounding grows as 4^depth: the search's
    node budget must end it (a worst case for the budget)."""
    names = [f"x{i}" for i in range(depth)]
    body = parse_formula(f"R({rng.choice(names)}, {rng.choice(names)})")
    body = Or(body, parse_formula(f"P({rng.choice(names)})"))
    for name in reversed(names):
        body = (Forall if rng.random() < 0.5 else Exists)(name, body)
    return Theorem((), body)


@settings(max_examples=examples(15), deadline=None)
@given(st.integers(min_value=8, max_value=12), st.integers(min_value=0, max_value=2**16))
def test_the_countermodel_search_ends_within_its_node_budget(depth, seed):
    t = nested_quantifiers(depth, random.Random(seed))
    spent = []
    # every node counts: a budget of 5,000 cannot ground 4^8 instances
    found = countermodel.search(t.premises, t.goal, budget=5_000, stop=lambda: spent.append(1))
    assert len(spent) <= 5_000 // 1024 + 1
    if found is not None:
        assert countermodel.verified(t.premises, t.goal, found.model) is not None


# -- what the prover may claim ----------------------------------------------------------


def test_a_refutation_carries_its_checked_countermodel():
    for premises, goal in (("IMPL(p, q)", "p"), ("EXISTS(x, P(x))", "FORALL(x, P(x))")):
        t = theorem(premises, goal)
        r = prove(STANDARD, t, seconds=10)
        assert r.refuted and r.reason.startswith("not a classical consequence (countermodel: ")
        assert differential.is_countermodel(t, r.countermodel.model)


def test_without_a_countermodel_the_prover_does_not_claim_a_refutation(monkeypatch):
    # an evaluator that confirms nothing: every refutation must turn into "could not decide"
    monkeypatch.setattr(countermodel, "holds", lambda f, m, env=None: type(f).__name__ == "Bot")
    for premises, goal in (("IMPL(p, q)", "p"), ("EXISTS(x, P(x))", "FORALL(x, P(x))")):
        r = prove(STANDARD, theorem(premises, goal), seconds=10, clock=StepClock())
        assert not r.found and not r.refuted
        assert "not a classical consequence" not in r.reason


def test_an_open_branch_without_a_countermodel_is_undecided(monkeypatch):
    monkeypatch.setattr(prover.countermodel, "search", lambda *args, **kwargs: None)
    # an allowance large enough for the search stage to end on its own
    r = prove(
        STANDARD, theorem("EXISTS(x, P(x))", "FORALL(x, P(x))"), seconds=10_000, clock=StepClock()
    )
    assert not r.found and not r.refuted
    assert r.reason.startswith("could not decide (the refutation leaves a branch open")


# -- the prover against truth tables ---------------------------------------------------------


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_prover_agrees_with_truth_tables(seed):
    rng = random.Random(seed)
    t = differential.propositional_sequent(rng)
    valid = differential.truth_table(t)
    r = prove(STANDARD, t, seconds=2000, clock=StepClock())
    assert r.found or r.refuted  # propositional logic is decided
    if r.found:
        assert valid and check(r.proof, STANDARD, task=t).accepted
    else:
        assert not valid and differential.is_countermodel(t, r.countermodel.model)


def test_a_seeded_slice_of_the_differential_has_no_disagreement():
    prop = differential.run_propositional(300, seed=11)
    monadic = differential.run_first_order(60, seed=11, binary=False)
    binary = differential.run_first_order(25, seed=11, binary=True)
    for tally in (prop, monadic, binary):
        assert tally.disagreements == []
    # the slice exercises both answers in each class
    assert prop.proved > 50 and prop.refuted > 50
    assert monadic.proved > 10 and monadic.refuted > 10
    assert prop.neither == 0  # propositional logic is decided within the allowance


@settings(max_examples=examples(10), deadline=None)
@given(st.integers(min_value=1_000, max_value=20_000))
def test_a_theorem_naming_thousands_of_constants_ends_the_search_cleanly(count):
    # one naming of the constants is as long as their count: the budget pays
    # for it, and nothing recurses once per constant
    wide = Pred("P", tuple(Name(f"c{i}") for i in range(count)))
    spent = []
    assert countermodel.search((wide,), parse_formula("P(a)"), stop=lambda: spent.append(1)) is None
    assert len(spent) <= countermodel.SEARCH_BUDGET // 1024 + 1
