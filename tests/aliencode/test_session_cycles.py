"""A finished run leaves no reference cycle behind (runtime.Session.close).

A world check or a generator grades thousands of answers, each in a short
session. When a session's functions, namespace and meter kept each other
alive, every run's leftovers waited for the host's cycle collector, whose
passes took a fifth of the check's time."""

import gc

import pytest
from alienworlds.tasks.aliencode_grading import each_run

from aliencode import Limits, Session, compile_source, run_source
from alienworlds.api import load_bank, load_world

RECURSIVE = """CRAFT fib(n):
    UPON UNDER(n, 2):
        DELIVER n
    DELIVER SHATTER(fib(WEAVE(n, 1)), fib(WEAVE(n, 2)))
SET seen AS STRAND()
SWEEP k IN EXTENT(1, 8):
    ANNEX(seen, fib(k))
EMIT(fib(12), seen, GAUGE(seen))
"""


@pytest.fixture
def collector_paused():
    """Nothing collected behind the test's back; gc.collect() counts what a
    run left for the collector."""
    gc.collect()
    gc.disable()
    yield
    gc.enable()


def test_a_run_leaves_nothing_for_the_cycle_collector(collector_paused):
    result = run_source(RECURSIVE)
    assert result.error is None and result.output
    assert gc.collect() == 0


def test_a_closed_session_frees_its_functions_at_once(collector_paused):
    program = compile_source(RECURSIVE)
    with Session(Limits()) as session:
        first = session.execute(program)
        assert session.execute(program).output == first.output  # definitions persist
        assert "fib" in {name.split("_")[-1] for name in session.namespace}
    assert session.namespace == {}
    assert gc.collect() == 0


def test_grading_a_real_world_leaves_no_cycles(collector_paused):
    """Every private run of main's first function tasks, compiled afresh:
    rules inlined, spliced, folded and called as compiled rules, with the
    census on."""
    world = load_world("aliencode", "main")
    bank = load_bank("aliencode", world)
    tasks = [t for t in bank.tasks if t.calls][:6]
    assert tasks
    limits = Limits()
    runs = [run for task in tasks for run in each_run(world, limits, task.reference, task)]
    assert len(runs) > len(tasks) and all(run.result.error is None for run in runs)
    assert gc.collect() == 0
