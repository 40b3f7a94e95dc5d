"""The prover in patched worlds: detours around disabled or guarded rules
(alienlogic/detours.py and the search's excluded middle), every proof it
returns re-checked by the kernel, and what `prove` and `certify` say when
they find nothing."""

import re
import shlex
from pathlib import Path

import pytest
from alienworlds.cli.alienlogic import cli
from alienworlds.ruleset.world import Rule, World
from click.testing import CliRunner
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from logic_proofgen import generate
from logic_worst_cases import pigeonhole

from alienlogic import Theorem, check, load_world, parse_formula
from alienlogic.advice import Invocation, prove_failure
from alienlogic.detours import DETOUR_RULES, routable, route_around
from alienlogic.oracle import Oracle
from alienlogic.prover import FAILURES, StepClock, prove
from alienlogic.writeout import Emitter, Node

WORLDS = Path(__file__).parents[2] / "benchmarks" / "worlds"
NO_DNE = str(WORLDS / "alienlogic_no_dne.toml")
NO_LEM = str(WORLDS / "alienlogic_no_lem.toml")
NO_NOT_I = str(WORLDS / "alienlogic_no_not_i.toml")
NO_IMPL_I = str(WORLDS / "alienlogic_no_impl_i.toml")


def theorem(premises: str, goal: str) -> Theorem:
    return Theorem(
        tuple(parse_formula(p) for p in premises.split(";") if p.strip()), parse_formula(goal)
    )


def world(*rules: Rule) -> World:
    return World(name="w", language="alienlogic", rules=rules)


def disabled(*targets: str) -> World:
    return world(
        *(Rule(id=f"D{i}", name="off", target=t, disabled=True) for i, t in enumerate(targets))
    )


def rules_of(proof) -> set[str]:
    return {s.rule for s in proof.steps}


def test_double_negation_without_dne_goes_through_excluded_middle():
    # the example: `prove` found nothing here even at budget 40
    w, t = load_world(NO_DNE), theorem("NOT(NOT(p))", "p")
    r = prove(w, t, max_budget=40, seconds=10)
    assert r.found and check(r.proof, w, task=t).accepted
    assert {"LEM", "OR_E", "BOT_E"} <= rules_of(r.proof) and "DNE" not in rules_of(r.proof)


def test_negation_without_not_i_goes_through_excluded_middle():
    w, t = load_world(NO_NOT_I), theorem("IMPL(p, q); NOT(q)", "NOT(p)")
    r = prove(w, t, seconds=10)
    assert r.found and check(r.proof, w, task=t).accepted
    assert "NOT_I" not in rules_of(r.proof)


def test_a_lem_step_is_rewritten_through_not_i_and_dne():
    w = load_world(NO_LEM)
    goal = parse_formula("OR(p, NOT(p))")
    routed = route_around(Node(goal, "LEM"), Oracle(w), ())
    proof = Emitter(w, Theorem((), goal)).run(routed)
    assert check(proof, w, task=Theorem((), goal)).accepted
    assert "LEM" not in rules_of(proof) and {"NOT_I", "DNE"} <= rules_of(proof)


def test_no_detour_without_its_rules():
    # DNE and LEM both disabled: intuitionistic logic, no route to p
    w = disabled("DNE", "LEM")
    oracle = Oracle(w)
    assert not routable(oracle, "DNE") and routable(oracle, "NOT_I")
    p, nnp = parse_formula("p"), parse_formula("NOT(NOT(p))")
    tree = Node(p, "DNE", (Node(nnp, "premise"),))
    assert route_around(tree, oracle, (nnp,)).rule == "DNE"  # the refused step stays
    r = prove(w, theorem("NOT(NOT(p))", "p"), seconds=50, clock=StepClock())
    assert not r.found and r.failure in FAILURES


def test_every_detour_names_rules_that_exist():
    from alienlogic.rules import RULES

    assert all(set(rules) <= set(RULES) for rules in DETOUR_RULES.values())


def test_guarded_steps_are_routed_only_on_request():
    guard = Rule(id="G1", name="DNE in boxes", target="DNE", require="(> depth 0)")
    w = world(guard)
    nnp, p = parse_formula("NOT(NOT(p))"), parse_formula("p")
    tree = Node(p, "DNE", (Node(nnp, "premise"),))
    kept = route_around(tree, Oracle(w), (nnp,))
    routed = route_around(tree, Oracle(w), (nnp,), guarded=True)
    assert kept.rule == "DNE" and routed.rule == "OR_E"
    proof = Emitter(w, Theorem((nnp,), p)).run(routed)
    assert check(proof, w, task=Theorem((nnp,), p)).accepted


# -- every proof the prover returns in a random patched world re-checks ---------

CLASSICAL = ("DNE", "LEM", "NOT_I", "IMPL_I", "OR_E", "BOT_E", "NOT_E", "OR_I1", "AND_E2")
GUARDS = (
    ("DNE", "(> depth 0)"),
    ("NOT_I", "(<= depth 1)"),
    ("IMPL_I", "(<= depth 1)"),
    ("LEM", "(== depth 0)"),
    ("OR_E", "(== (times-cited (refline 1)) 0)"),
    ("NOT_E", "(== (sub (ref 2)) (ref 1))"),
    ("BOT_E", "(> depth 0)"),
    ("reit", "(not (premise? (refline 1)))"),
)


@st.composite
def patched_worlds(draw) -> World:
    off = draw(st.sets(st.sampled_from(CLASSICAL), max_size=2))
    guards = draw(st.sets(st.sampled_from(GUARDS), max_size=3))
    rules = [
        Rule(id=f"D{i}", name="off", target=t, disabled=True) for i, t in enumerate(sorted(off))
    ]
    rules += [
        Rule(id=f"G{i}", name="guard", target=t, require=e)
        for i, (t, e) in enumerate(sorted(guards))
        if t not in off
    ]
    return world(*rules)


@settings(max_examples=examples(60), deadline=None)
@given(patched_worlds(), st.integers(min_value=0, max_value=2**32 - 1), st.booleans())
def test_every_proof_the_prover_returns_in_a_patched_world_is_accepted(w, seed, guarded):
    t = generate(seed, first_order=False).theorem
    r = prove(w, t, seconds=40, clock=StepClock(), route_guarded=guarded)
    if r.found:
        assert check(r.proof, w, task=t).accepted, (w.rules, str(r.proof))
    else:
        assert r.failure in FAILURES and r.reason


def test_patched_worlds_are_not_vacuous():
    # the property above sees proofs: in the worlds disabling DNE, NOT_I or
    # LEM every generated standard theorem of a seeded sample is proved
    for spec in (NO_DNE, NO_NOT_I, NO_LEM):
        w = load_world(spec)
        for seed in range(8):
            t = generate(seed, first_order=False).theorem
            r = prove(w, t, seconds=40, clock=StepClock())
            assert r.found and check(r.proof, w, task=t).accepted, (spec, seed, r.reason)


# -- what prove and certify say when they find nothing ---------------------------


def _run(*args: str):
    return CliRunner().invoke(cli, list(args))


def _untimed(output: str) -> list[str]:
    """The output's lines with the time a reason line ends with dropped."""
    return [re.sub(r" \([0-9.]+ s( CPU)?\)$", "", x) for x in output.splitlines()]


def _next_command(output: str, name: str) -> list[str]:
    """The command a "next step" line suggests, as arguments."""
    line = next(x for x in output.splitlines() if x.startswith("next step:"))
    text = line.split(f"alienlogic {name} ", 1)[1].split(";")[0]
    return [name, *shlex.split(text)]


def test_prove_failure_names_its_reason_and_the_certifier():
    out = _run("prove", "--world", NO_IMPL_I, "--goal", "IMPL(p, p)")
    assert out.exit_code == 1
    lines = out.output.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("no proof found: no proof within budget 14")
    assert "raise --budget (now 14)" in lines[1]
    # the suggested certify command certifies the theorem
    suggested = _run(*_next_command(out.output, "certify"))
    assert suggested.exit_code == 0 and suggested.output.startswith("certified:")
    verbose = _run("prove", "--world", NO_IMPL_I, "--goal", "IMPL(p, p)", "--verbose")
    assert _untimed(verbose.output)[:2] == _untimed(out.output)
    assert "direct search: no proof up to tree height 14" in verbose.output


def test_prove_failure_out_of_time_says_which_flag_to_raise():
    # eight pigeons in seven holes: far more than a hundredth of a second anywhere
    out = _run("prove", "--world", "standard", "--goal", pigeonhole(7), "--seconds", "0.01")
    assert out.exit_code == 1
    assert out.output.splitlines()[0].startswith("no proof found: out of time")
    assert out.output.splitlines()[1].startswith("next step: raise --seconds (now 0.01)")


def test_prove_failure_advice_for_every_kind():
    call = Invocation("w.toml", None, "p", "q")
    for kind in FAILURES:
        r = prove(disabled("IMPL_I"), theorem("", "IMPL(p, p)"), seconds=5)
        r.failure = kind
        reason, step = prove_failure(r, call, 14, 20.0, 3600.0)
        assert reason.startswith("no proof found: ") and step
    r.failure = "out of time"
    assert "largest" in prove_failure(r, call, 14, 3600.0, 3600.0)[1]
    r.failure = "budget"
    assert prove_failure(r, call, 64, 20.0, 3600.0)[1].startswith("check whether it is unprovable")


def test_certify_failure_is_one_reason_and_one_next_step():
    # p ⊢ p is provable, so no certificate exists
    args = ("certify", "--world", "standard", "--premises", "p", "--goal", "p")
    out = _run(*args)
    assert out.exit_code == 1
    lines = out.output.splitlines()
    assert len(lines) == 2, out.output
    assert lines[0].startswith("not certified: no countermodel in the searched algebras")
    assert lines[1].startswith("next step: the theorem may be provable: alienlogic prove")
    suggested = _run(*_next_command(out.output, "prove"))
    assert suggested.exit_code == 0 and suggested.output.startswith("PROOF")
    verbose = _run(*args, "--verbose")
    assert _untimed(verbose.output)[:2] == _untimed(out.output)
    assert any(x.startswith("  tried ") for x in verbose.output.splitlines())


def test_certify_out_of_time_says_which_flag_to_raise():
    out = _run("certify", "--world", NO_LEM, "--goal", "OR(p, NOT(p))", "--seconds", "0.001")
    assert out.exit_code == 1
    first, second = out.output.splitlines()
    assert first.startswith("not certified: out of time after")
    assert second.startswith("next step: raise --seconds (now 0.001)")


@pytest.mark.parametrize("flag", ["--verbose", "--route-guarded"])
def test_prove_help_explains_the_new_flags(flag):
    assert flag in _run("prove", "--help").output


def test_certify_all_gives_each_failure_one_reason_line(tmp_path):
    bank = tmp_path / "bank.toml"
    bank.write_text(
        'format = 1\nworld = "standard"\n\n[[tasks]]\nid = "T1"\nkind = "proof"\n'
        'family = "unprovable"\nprompt = "Prove it, or answer ANSWER: UNPROVABLE."\n'
        'premises = ["p"]\ngoal = "p"\nprovable = false\ncertificate = "T1.json"\n',
        encoding="utf-8",
    )
    args = ("certify", "--world", "standard", "--bank", str(bank), "--all")
    out = _run(*args)
    assert out.exit_code == 1
    lines = out.output.splitlines()
    assert len(lines) == 3 and lines[0].split()[:3] == ["T1", "-", "FAIL"]
    assert lines[1].strip().startswith("no countermodel in the searched algebras")
    assert len(_run(*args, "--verbose").output.splitlines()) > 3
