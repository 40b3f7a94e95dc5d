"""Memory: a deterministic accounting of the live size of a program's values.

The census (ruleset/memory.py) counts units from the values themselves; the
verdict must depend on the program alone: the same steps and the same error
run after run, under any hash seed. Real process memory of the worst cases is
checked in child processes by test_worst_cases.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from alienworlds.ruleset import Meter, make_operators
from alienworlds.ruleset.memory import measure, size
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from aliencode import Limits, Session, compile_source, run_source

LIMIT = Limits().max_memory
BIG = "SET b AS COIL(2, 2047)\n"
# One EXTENT of 10,000 integers of 2,048 bits: about 3.2 million units, and
# a memory limit of 8 million units (the default's behaviour, made quick).
EXTENT = "EXTENT(b, SHATTER(b, 10000))"
SMALL = Limits(max_memory=8 * 2**20, max_steps=10**8)


def memory_error(result, limits: Limits = SMALL) -> bool:
    return (
        result.error is not None and result.error.message == f"memory of {limits.max_memory} units"
    )


# -- the census itself ---------------------------------------------------------------


def test_size_model():
    assert size(None) == size(True) == size(7) == size("a") == 0  # shared by the host
    assert size(2**2047) > 300 and size(1.5) == 24
    assert size("x" * 1000) == 56 + 1000 and size("é" * 1000) == 56 + 4000
    assert size([1, 2, 3]) == 56 + 24 and size((1, 2)) == 40 + 16


def _census(roots, held):
    return measure(list(roots), list(held))


def test_shared_values_are_counted_once():
    inner = list(range(1000, 2000))
    once = _census([inner], []).live
    assert _census([[inner] * 500], []).live == once + size([inner] * 500)


def test_a_dropped_cycle_is_dead_and_a_referred_temporary_is_live():
    def held_cycle():
        xs = list(range(1000, 1300))
        xs.append(xs)
        return [xs]

    found = measure([], held_cycle())
    assert found.live == 0 and found.held == []
    temporary = list(range(1000, 1300))  # referred to by this frame only: invisible to the walk
    found = measure([], [temporary])
    assert found.live >= size(temporary) and found.held == [temporary]


def test_closures_count_what_they_hold():
    def make():
        data = list(range(1000, 2000))

        def inner():
            return data

        return inner

    fn = make()
    assert _census([fn], []).live > size(list(range(1000, 2000)))


# -- programs --------------------------------------------------------------------


def test_seventy_eight_extents_of_large_integers_are_refused_regression():
    """Was a bug: 78 EXTENT lists of 2,048-bit integers finished within
    their steps at 2.4 GB. Now refused by the memory limit, at the same
    point every run."""
    source = (
        BIG + "SET keep AS STRAND()\nSWEEP i IN EXTENT(78):\n    ANNEX(keep, EXTENT(b, SHATTER(b, "
        "100000)))\nEMIT(GAUGE(keep))"
    )
    first, second = run_source(source), run_source(source)
    assert memory_error(first, Limits()), first.text()
    assert first.as_dict() == second.as_dict()
    assert first.steps < 1_500_000


_SEEDED_RUN = (
    "import json, sys\n"
    "from aliencode import Limits, run_source\n"
    "print(json.dumps(run_source(sys.stdin.read(), limits=Limits(max_memory=8 * "
    "2**20)).as_dict()))\n"
)


def test_the_verdict_does_not_depend_on_the_hash_seed():
    source = (
        BIG + "SET keep AS STRAND()\nSWEEP i IN EXTENT(9):\n"
        "    ANNEX(keep, STRAND("
        + EXTENT
        + ', FUSE("k", i), KNOT(i, STRAND(i))))\nEMIT(GAUGE(keep))'
    )
    outs = set()
    for seed in ("0", "1", "12345"):
        proc = subprocess.run(
            [sys.executable, "-c", _SEEDED_RUN],
            input=source,
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        assert proc.returncode == 0, proc.stderr
        outs.add(proc.stdout)
    assert len(outs) == 1
    assert json.loads(outs.pop())["error"]["message"] == f"memory of {8 * 2**20} units"


def test_memory_counts_what_is_live_not_what_was_ever_made():
    """Sixty large lists made and dropped one after another: far more than
    the limit in total, little at any time."""
    source = BIG + "SWEEP i IN EXTENT(40):\n    SET xs AS " + EXTENT + "\nEMIT(GAUGE(xs))"
    result = run_source(source, limits=SMALL)
    assert result.error is None and result.output == "10000"


# A list built element by element (no operator holds it), and a function
# that makes and drops large lists (so censuses run while it is called):
# about 3.2 million units each.
HELPERS = (
    "CRAFT mkn():\n    SET xs AS STRAND()\n    SWEEP i IN EXTENT(10000):\n        ANNEX(xs, "
    "SHATTER(b, i))\n"
    "    DELIVER xs\n"
    "CRAFT churn():\n    SWEEP j IN EXTENT(4):\n        SET t AS "
    + EXTENT
    + "\n        SET t AS 0\n    DELIVER 0\n"
)


@pytest.mark.parametrize(
    "what,source",
    [
        ("operands waiting in one expression", f"EMIT(GAUGE(STRAND({EXTENT}, {EXTENT}, churn())))"),
        (
            "results of calls waiting in one expression",
            f"CRAFT mk():\n    DELIVER {EXTENT}\nEMIT(GAUGE(STRAND(mk(), mk(), churn())))",
        ),
        (
            "elements taken out of a list",
            "SET h AS STRAND(mkn(), mkn())\nEMIT(GAUGE(STRAND(EXPEL(h), EXPEL(h), churn())))",
        ),
        (
            "a loop's own sequence, dropped by its variable",
            "SET xs AS mkn()\nSWEEP v IN xs:\n    SET xs AS 0\n    SET keep AS mkn()\n    SET x "
            "AS churn()\n    CEASE",
        ),
        (
            "what closures waiting in one expression hold",
            "CRAFT mkc():\n    SET data AS mkn()\n    CRAFT get():\n        DELIVER data\n    "
            "DELIVER get\n"
            "EMIT(GAUGE(STRAND(mkc(), mkc(), churn())))",
        ),
    ],
)
def test_values_the_walk_cannot_see_are_counted(what, source):
    """Values held only by the host (its expression stack, a loop's
    iterator, a closure on the stack) count. Each case keeps two values of
    3.2 million units out of the walk's sight while churn() makes more: with
    them the live size passes the limit of 8 million units, without them it
    would stay below."""
    result = run_source(BIG + HELPERS + source, limits=SMALL)
    assert memory_error(result), f"{what}: {result.text()[-200:]}"


def test_what_the_walk_sees_alone_stays_below_the_limit():
    """The control for the cases above: the same churn with one large value
    in view runs to its end."""
    result = run_source(
        BIG + HELPERS + "SET keep AS mkn()\nEMIT(churn(), GAUGE(keep))", limits=SMALL
    )
    assert result.error is None and result.output == "0 10000"


def test_a_session_counts_what_earlier_entries_keep():
    session = Session(SMALL)
    results = [session.execute(compile_source(BIG + f"SET k{i} AS {EXTENT}")) for i in range(6)]
    assert [r.error is None for r in results[:2]] == [True, True]
    assert any(memory_error(r) for r in results[2:])


# -- new one-character strings ----------------------------------------------------------

_TEXT = st.text(
    st.sampled_from(["a", "é", "\u0100", "\u4e00", chr(0x1F600)]), min_size=65, max_size=400
)  # long enough to be held
_CHAR_MAKERS = {
    "zip": lambda ops, s: ops["zip"](s, s),
    "enumerate": lambda ops, s: ops["enumerate"](s),
    "filter": lambda ops, s: ops["filter"](lambda _: True, s),
    "sort_asc": lambda ops, s: ops["sort_asc"](s),
    "list": lambda ops, s: ops["list"](s),
    "tuple": lambda ops, s: ops["tuple"](s),
}


@pytest.mark.parametrize("op", sorted(_CHAR_MAKERS))
@settings(max_examples=examples(40), deadline=None)
@given(text=_TEXT)
def test_operations_hold_the_characters_they_make_regression(op, text):
    """Was a bug: PAIR of a string counted its pairs but not the new
    one-character strings inside them (a character beyond Latin-1 is a host
    object of its own), so 21 PAIRs of a 100,000-character string of astral
    characters reached 762 MB before any census. Every operation that takes
    a string apart now reports at least what the census finds in its result."""
    meter = Meter(Limits())
    meter.roots = list
    ops = make_operators(meter)
    result = _CHAR_MAKERS[op](ops, text)
    assert meter.allocated >= measure([result], []).live


def test_one_character_strings_are_counted_per_reference():
    """The census counts a character beyond Latin-1 where it appears (as a
    float), instead of remembering millions of them by identity: the same
    character a thousand times counts a thousand times."""
    char = chr(0x1F600)
    repeated = [char] * 1000
    assert measure([repeated], []).live == size(repeated) + 1000 * size(char)
    assert measure([[("é", char)] * 10], []).live == size([0] * 10) + 10 * (
        size((0, 0)) + size(char)
    )
