"""Probe metering on the syntax tree: an EMIT costs its arguments, ×3 unless
it provably runs at most once; a generator of bypass attempts checks that
no EMIT that actually ran twice was charged once."""

import pytest
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from metering_gen import bypass_attempt, executions, underpaid

from aliencode import parse, run_source
from aliencode.metering import emit_costs, units


@pytest.mark.parametrize(
    "src,cost",
    [
        ("SET x AS 1", 0),
        ("EMIT()", 1),
        ("EMIT(1, 2, 3)", 3),
        ("EMIT(STRAND(1, 2, 3))", 1),
        ('EMIT("a") # EMIT(1, 2)', 1),
        ('SET s AS "EMIT(1, 2)"', 0),
        ("SWEEP i IN EXTENT(100):\n    EMIT(i)", 3),
        ("SWEEP i IN EXTENT(2):\n    WHILE NO:\n        EMIT(i, i)", 6),
        ("WHILE NO:\n    IDLE\nEMIT(1)", 1),
        ("EMIT(EMIT(1), 2)", 3),
        ("UPON YES:\n    EMIT(1, 2)\nDEFAULT:\n    EMIT(3)", 3),
        ("SWEEP x IN EMIT(1):\n    IDLE", 1),  # the iterable is evaluated once
        # once: a CRAFT defined once and called once from code that runs once
        ("CRAFT f(x):\n    EMIT(x, x)\nf(1)", 2),
        ("CRAFT f():\n    EMIT(1)\nCRAFT g():\n    f()\ng()", 1),
        ("CRAFT g():\n    CRAFT h():\n        EMIT(1)\n    h()\ng()", 1),
        ("CRAFT f():\n    EMIT(1)\nSWEEP x IN f():\n    IDLE", 1),
        # more than once, or not provably at most once
        ("WHILE NEGATE(EMIT(1)):\n    CEASE", 3),  # a WHILE condition repeats
        ("CRAFT f(x):\n    EMIT(x)\nSWEEP i IN STRAND(1):\n    f(i)", 3),
        ("CRAFT f(x):\n    EMIT(x)\nf(1)\nf(2)", 3),
        ("CRAFT f(x):\n    EMIT(x)\nUPON YES:\n    f(1)\nDEFAULT:\n    f(2)", 3),
        ("CRAFT f(n):\n    EMIT(n)\n    UPON OVER(n, 0):\n        f(WEAVE(n, 1))\nf(3)", 3),
        (
            "CRAFT f(n):\n    EMIT(n)\n    g(n)\nCRAFT g(n):\n    UPON OVER(n, 0):\n        "
            "f(WEAVE(n, 1))\nf(3)",
            3,
        ),
        ("CRAFT f():\n    EMIT(1)\nCRAFT g():\n    f()\nSWEEP i IN STRAND(1, 2):\n    g()", 3),
        ("CRAFT keep(x):\n    EMIT(x)\n    DELIVER YES\nEMIT(STRAIN(keep, STRAND(1, 2)))", 4),
        ("CRAFT f():\n    EMIT(1)\nSET g AS f\ng()\ng()", 3),
        ("CRAFT f():\n    EMIT(1)\nCRAFT twice(h):\n    h()\n    h()\ntwice(f)", 3),
        ("CRAFT f():\n    EMIT(1)\nPLUCK(STRAND(f), 0)()", 3),
        ("CRAFT f():\n    EMIT(1)\nCRAFT get():\n    DELIVER f\nget()()", 3),
        ("CRAFT f():\n    EMIT(1)\nf()\nCRAFT f():\n    EMIT(2)\nf()", 6),
        ("CRAFT f():\n    EMIT(1)\nCRAFT g(f):\n    f()\ng(1)\nf()", 3),
        (
            "SWEEP i IN STRAND(1):\n    CRAFT f(x):\n        EMIT(x)",
            3,
        ),  # never called: nothing proves it runs once
        ("CRAFT f():\n    EMIT(1)", 3),
    ],
)
def test_units(src, cost):
    assert units(parse(src)) == cost


@given(st.integers(min_value=0, max_value=10**9))
@settings(max_examples=examples(150), deadline=None)
def test_no_bypass_attempt_prints_more_than_it_pays_for(seed):
    attempt = bypass_attempt(seed)
    assert underpaid(attempt) is None, (seed, attempt.source)


def test_the_generator_reaches_every_trick():
    # the attempts do run output more than once, and do keep some EMITs at ×1
    repeated = once = 0
    for seed in range(60):
        attempt = bypass_attempt(seed)
        ran = executions(attempt.source)
        repeated += sum(1 for c in ran.values() if c > 1)
        factors = [c.factor for c in emit_costs(parse(attempt.source))]
        once += factors.count(1)
    assert repeated > 100 and once > 20


def test_units_are_counted_only_when_asked_for(monkeypatch):
    # a grader compiles and runs thousands of answers and never reads units
    from aliencode import compiler

    counted = []
    real = compiler.probe_units
    monkeypatch.setattr(compiler, "probe_units", lambda tree: counted.append(tree) or real(tree))
    result = run_source("SWEEP x IN STRAND(1, 2):\n    EMIT(x)\nEMIT(1, 2)")
    assert counted == []
    assert result.units == 3 * 1 + 2 and len(counted) == 1
    assert result.units == 5 and len(counted) == 1  # counted once
