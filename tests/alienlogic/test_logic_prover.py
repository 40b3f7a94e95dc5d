"""The prover: proofs it returns are accepted by the world's checker, the
workarounds a world forces are found, unprovable goals fail cleanly."""

import json

import pytest
from alienworlds.cli.alienlogic import cli
from click.testing import CliRunner
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from logic_proofgen import generate

from alienlogic import Theorem, check, load_world, parse_formula
from alienlogic.kernel import Checker
from alienlogic.proof import Citation
from alienlogic.prover import prove

MAIN = load_world("main")
STANDARD = load_world("standard")
DEMO = load_world("demo")


def theorem(premises: str, goal: str) -> Theorem:
    return Theorem(
        tuple(parse_formula(p) for p in premises.split(";") if p.strip()), parse_formula(goal)
    )


def proved(world, premises: str, goal: str):
    t = theorem(premises, goal)
    r = prove(world, t, seconds=10)
    assert r.found, r.reason
    assert check(r.proof, world, task=t).accepted
    return r.proof


CLASSICS = [
    ("IMPL(p, q); p", "q"),
    ("IMPL(p, q); IMPL(q, r)", "IMPL(p, r)"),
    ("IMPL(p, q)", "IMPL(NOT(q), NOT(p))"),
    ("OR(p, q); IMPL(p, r); IMPL(q, r)", "r"),
    ("", "IMPL(p, IMPL(q, p))"),
    ("FORALL(x, IMPL(P(x), Q(x))); EXISTS(x, P(x))", "EXISTS(x, Q(x))"),
    ("EQ(a, b)", "EQ(b, a)"),
    ("FORALL(x, FORALL(y, R(x, y)))", "FORALL(y, FORALL(x, R(x, y)))"),
]


@pytest.mark.parametrize("world", [STANDARD, DEMO, MAIN], ids=["standard", "demo", "main"])
@pytest.mark.parametrize("premises, goal", CLASSICS)
def test_textbook_theorems_in_every_world(world, premises, goal):
    proved(world, premises, goal)


@pytest.mark.parametrize(
    "premises, goal",
    [
        ("NOT(NOT(p))", "p"),
        ("", "OR(p, NOT(p))"),
        ("IMPL(IMPL(p, q), p)", "p"),
        ("NOT(FORALL(x, P(x)))", "EXISTS(x, NOT(P(x)))"),
        ("EXISTS(x, EXISTS(y, R(x, y)))", "EXISTS(y, EXISTS(x, R(x, y)))"),
    ],
)
def test_classical_theorems_in_the_standard_world_only(premises, goal):
    proved(STANDARD, premises, goal)
    r = prove(MAIN, theorem(premises, goal), seconds=5)
    assert not r.found and r.reason


def test_the_main_worlds_workarounds_are_found():
    # box-lift for rules allowed only inside a box
    text = str(proved(MAIN, "p; NOT(p)", "q"))
    assert "[BOT_E" in text and "[IMPL_I" in text
    assert "| EXISTS(x, P(x))" in str(proved(MAIN, "P(a)", "EXISTS(x, P(x))"))
    # hoisting past a depth limit, and EQ_I to the top level
    assert "| IMPL(r, p)  " in str(proved(MAIN, "", "IMPL(p, IMPL(q, IMPL(r, p)))"))
    assert (
        str(proved(MAIN, "", "IMPL(P(a), AND(P(a), EQ(a, a)))")).split("\n")[3].endswith("[EQ_I]")
    )
    # fresh copies for use-once guards and citation order
    proved(MAIN, "FORALL(x, P(x))", "AND(P(a), P(b))")
    proved(MAIN, "IMPL(p, q); p", "AND(q, q)")
    proved(MAIN, "p", "AND(p, p)")
    proved(MAIN, "p; q", "AND(q, p)")
    # a patched conclusion is used as the world defines it: AND_E2 gives the
    # left conjunct here, so the right one comes by modus ponens
    assert "[IMPL_E" in str(proved(MAIN, "AND(p, q); IMPL(p, q)", "q"))


def test_helper_lemmas_at_a_shallower_level():
    # IMPL_I closes boxes at most two deep in the main world: the innermost
    # implication comes from a lemma proved at the top level, used by
    # modus ponens inside the boxes
    text = str(proved(MAIN, "", "IMPL(p, IMPL(q, IMPL(r, AND(p, q))))"))
    assert "IMPL(AND(p, q), IMPL(r, AND(p, q)))" in text and "[AND_I" in text


def test_every_provable_theorem_of_the_main_bank_is_proved_in_its_world():
    from alienworlds.tasks.alienlogic_grading import logic_tasks
    from alienworlds.tasks.bank import load_bank

    tasks = [t for t in logic_tasks(load_bank("alienlogic", "main")) if t.provable]
    assert tasks
    for t in tasks:
        r = prove(MAIN, t.theorem, seconds=10)
        assert r.found, (t.id, r.reason)
        assert check(r.proof, MAIN, task=t.theorem).accepted


def test_limits_end_the_search_cleanly():
    r = prove(MAIN, theorem("", "IMPL(p, p)"), seconds=0.001)
    assert not r.found and r.reason
    r = prove(MAIN, theorem("", "IMPL(p, p)"), max_budget=3)
    assert not r.found and "budget" in r.reason


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.booleans())
def test_generated_standard_theorems_are_proved(seed, first_order):
    p = generate(seed, first_order=first_order)
    r = prove(STANDARD, p.theorem, seconds=10)
    assert r.found, (r.reason, str(p))
    assert check(r.proof, STANDARD, task=p.theorem).accepted


def test_incremental_checker_matches_check_and_backtracks():
    premises = (parse_formula("IMPL(p, q)"), parse_formula("p"))
    c = Checker(premises, MAIN)
    assert c.take(premises[0], "premise") is None and c.take(premises[1], "premise") is None
    snap = c.snapshot()
    assert c.take(parse_formula("q"), "IMPL_E", (Citation(1, 1), Citation(2, 2))).reason_id == "F5"
    assert c.take(parse_formula("q"), "IMPL_E", (Citation(2, 2), Citation(1, 1))) is None
    assert c.take(parse_formula("q"), "IMPL_E", (Citation(2, 2), Citation(1, 1))).reason_id == "W9"
    c.restore(snap)
    assert len(c.steps) == 2 and c.times_cited(1) == 0
    assert c.take(parse_formula("q"), "IMPL_E", (Citation(2, 2), Citation(1, 1))) is None
    assert check(c.proof(parse_formula("q")), MAIN).accepted


def test_prove_command():
    runner = CliRunner()
    result = runner.invoke(
        cli, ["prove", "--world", "main", "--premises", "p, NOT(p)", "--goal", "q"]
    )
    assert result.exit_code == 0 and result.output.startswith("PROOF\n")
    assert runner.invoke(cli, ["check", "--world", "main"], input=result.output).exit_code == 0
    result = runner.invoke(
        cli, ["prove", "--world", "main", "--goal", "IMPL(p, p)", "--json", "--seconds", "2"]
    )
    assert result.exit_code == 1 and json.loads(result.output)["found"] is False
    result = runner.invoke(cli, ["prove", "--world", "main", "--task", "L16"])
    assert result.exit_code == 0
    assert runner.invoke(cli, ["prove", "--world", "main", "--task", "NOPE"]).exit_code == 2
    assert (
        runner.invoke(cli, ["prove", "--world", "main", "--task", "L16", "--goal", "p"]).exit_code
        == 2
    )
