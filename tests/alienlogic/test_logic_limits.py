"""AlienLogic's limits: work linear in the input, and time limits that cover
all of the work (tests/alienlogic/logic_worst_cases.py makes the inputs;
benchmarks/logic_limits.py measures more of them).

Linearity is measured by counting work where a count exists: the elements
copied into free-name sets, the steps the checker looks at. The command
limits are measured as the child process's CPU time, start-up included."""

import builtins
import random
import time
import tracemalloc

import pytest
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from logic_worst_cases import (
    certify,
    generate,
    pigeonhole,
    run_alone,
    wide_proof,
)
from logic_worst_cases import (
    prove as prove_cases,
)

from alienlogic import check, formulas, load_world, parse_formula, parse_proof
from alienlogic.kernel import Checker
from alienlogic.proof import Citation, Theorem
from alienlogic.prover import StepClock, prove

STANDARD = load_world("standard")


def copied_into_free_sets(text: str, monkeypatch) -> int:
    """Elements put into the sets of free names while a proof is checked."""
    count = [0]

    def counted(kind):
        def make(items=()):
            made = kind(items)
            count[0] += len(made)
            return made

        return make

    proof = parse_proof(text)
    with monkeypatch.context() as m:
        m.setattr(formulas, "set", counted(builtins.set), raising=False)
        m.setattr(formulas, "frozenset", counted(builtins.frozenset), raising=False)
        assert check(proof).accepted
    return count[0]


@pytest.mark.parametrize("seed", range(6))
def test_free_names_of_wide_formulas_cost_linear_work(seed, monkeypatch):
    # the same shape at k and 2k constants: linear work doubles; a union per
    # argument copied k^2 / 2 elements, and a set kept at every level of a
    # chain copied (height × k)
    small = copied_into_free_sets(wide_proof(random.Random(seed), 1_000), monkeypatch)
    large = copied_into_free_sets(wide_proof(random.Random(seed), 2_000), monkeypatch)
    assert 0 < large <= 2.2 * small
    # a bound that does not depend on the nesting: a few copies per name
    assert large <= 8 * 2_000


@pytest.mark.parametrize("seed", range(6))
def test_checking_a_wide_proof_takes_memory_linear_in_its_text(seed):
    # allocation sizes do not depend on the machine; a set of free names kept
    # at every level of a chain took 171 bytes per character of the chain's
    # text (229 MB for 1.2 MB), every shape now takes under 25
    text = wide_proof(random.Random(seed), 4_000)
    tracemalloc.start()
    try:
        assert check(text).accepted
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= 40 * len(text), peak / len(text)


def cpu_of_check(text: str) -> float:
    """The best of three: CPU seconds to parse and check `text`."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        assert check(text).accepted
        best = min(best, time.process_time() - start)
    return best


def test_checking_a_wide_proof_takes_linear_time():
    # four times the constants: a linear checker takes about four times as
    # long, the quadratic one took sixteen times (13 s at 40,000 constants)
    names = [f"c{i}" for i in range(8_000)]
    small, large = (", ".join(names[:k]) for k in (2_000, 8_000))
    t_small = cpu_of_check(
        f"PROOF\npremises: P({small})\ngoal: P({small})\n1. P({small}) [premise]\nEND\n"
    )
    t_large = cpu_of_check(
        f"PROOF\npremises: P({large})\ngoal: P({large})\n1. P({large}) [premise]\nEND\n"
    )
    assert t_large < 8 * t_small + 0.05, (t_small, t_large)


def test_a_proof_of_another_theorem_is_refused_before_its_steps():
    text = wide_proof(random.Random(0), 2_000)
    looked_at = []
    task = Theorem((parse_formula("p"),), parse_formula("p"))
    v = check(text, task=task, stop=lambda: looked_at.append(1))
    assert v.reason_id == "PREMISES_MISMATCH" and looked_at == []
    proof = parse_proof(text)
    assert check(proof, task=proof.theorem, stop=lambda: looked_at.append(1)).accepted
    assert len(looked_at) == len(proof.steps)


def test_the_grader_refuses_a_wide_proof_of_other_premises():
    from alienworlds.tasks.alienlogic_grading import AlienLogicGrader, logic_tasks
    from alienworlds.tasks.bank import load_bank

    bank = load_bank("alienlogic", "main")
    task = next(t for t in logic_tasks(bank) if t.provable)
    g = AlienLogicGrader(load_world("main"), bank).grade(
        task.id, wide_proof(random.Random(2), 2_000)
    )
    assert (
        not g.passed
        and g.verdict["reason_id"] == "PREMISES_MISMATCH"
        and not g.verdict["verifier_passed"]
    )


# -- the checker's undo -----------------------------------------------------------------


def state(c: Checker) -> tuple:
    s = c._state
    b = s.boxes
    return (
        tuple(c.steps),
        tuple(s.formulas),
        tuple(s.cited),
        tuple(s.premise_lines),
        +s.asserted,
        tuple((x.parent, x.depth, x.first, x.last, x.open) for x in b.boxes),
        tuple(b.stack),
        tuple(b.box_of),
    )


@settings(max_examples=examples(80), deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["p", "q", "AND(p, q)", "IMPL(p, q)", "BOT"]),
            st.sampled_from(["premise", "assume", "reit", "AND_I", "AND_E1", "IMPL_I", "NOT_E"]),
            st.integers(0, 3),
            st.integers(1, 8),
            st.integers(1, 8),
        ),
        max_size=25,
    ),
    st.integers(0, 25),
)
def test_restore_gives_back_exactly_the_state_of_the_snapshot(moves, cut):
    """Random steps (most refused), a snapshot somewhere, more steps, restore:
    the checker's state is the one a checker that took only the first steps has."""
    premises = (parse_formula("AND(p, q)"), parse_formula("p"))
    c, replay = Checker(premises, STANDARD), Checker(premises, STANDARD)
    snap = None
    for i, (f, rule, depth, a, b) in enumerate(moves):
        if i == cut:
            snap = c.snapshot()
        cites = {
            "premise": (),
            "assume": (),
            "reit": (Citation(a, a),),
            "AND_I": (Citation(a, a), Citation(b, b)),
            "AND_E1": (Citation(a, a),),
            "IMPL_I": (Citation(a, b, True),),
            "NOT_E": (Citation(a, a), Citation(b, b)),
        }[rule]
        taken = c.take(parse_formula(f), rule, cites, depth)
        if snap is None:
            assert (replay.take(parse_formula(f), rule, cites, depth) is None) == (taken is None)
    if snap is not None:
        c.restore(snap)
    assert state(c) == state(replay)


# -- time limits ------------------------------------------------------------------------


def test_a_counting_clock_is_read_by_the_search_only():
    # the write-out and the final check must not read a StepClock: verdicts
    # counted in steps stay what they were
    t = Theorem((), parse_formula(pigeonhole(3)))
    clocks = [StepClock(), StepClock()]
    results = [prove(STANDARD, t, seconds=10_000, clock=c) for c in clocks]
    assert all(r.found for r in results)
    assert clocks[0].ticks == clocks[1].ticks
    assert str(results[0].proof) == str(results[1].proof)


def test_a_counting_clock_stops_the_same_search_at_the_same_point():
    t = Theorem((), parse_formula(pigeonhole(6)))
    first = prove(STANDARD, t, seconds=12, clock=StepClock())
    second = prove(STANDARD, t, seconds=12, clock=StepClock())
    assert not first.found and first.reason == second.reason == "out of time"
    assert first.searched == second.searched


@pytest.mark.parametrize(
    "case", [*prove_cases(6), *prove_cases(7), *certify(random.Random(5), 28)], ids=lambda c: c.name
)
def test_the_command_ends_within_its_limit_plus_a_second(case):
    m = run_alone(case, kill_after=120)
    assert m.exit_code == 1, m.output  # not found / not certified, never a crash
    assert m.cpu <= case.bound, (m.cpu, m.output)


def test_generated_worst_cases_end_within_their_bounds():
    for case in generate(0):
        m = run_alone(case, kill_after=120)
        assert m.exit_code in (0, 1) and "Traceback" not in m.output, (case.name, m.output)
        assert m.cpu <= case.bound, (case.name, m.cpu)
