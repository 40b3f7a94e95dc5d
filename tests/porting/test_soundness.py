"""The porter is never wrong: what it prints, run in the world, prints what
the input prints under the manual; when it cannot show that, it refuses.

Each test names one way an earlier porter printed a wrong program (a list
changed through another name, a compensation that only fit the sample
values, ties between values that compare equal and print differently, -0.0)
and checks the port on the worst inputs of that shape; a seeded slice of the
differential fuzzer (benchmarks/porting_differential.py) runs the random and
targeted programs against main and a world made to break compensations.
"""

from __future__ import annotations

import random

import pytest
from alienworlds.porting import Bounds, Porter, PortError
from alienworlds.porting.differential import (
    TARGETED,
    WALK_ROUTES,
    copying_world,
    differential,
    fresh_list_program,
    manual_output,
    programs,
    random_program,
    runnable,
    walk_changing_program,
)
from alienworlds.porting.samples import values, wide
from alienworlds.porting.types import BOOL, FLOAT, INT, STR, infer, list_of
from alienworlds.ruleset import parse_world, standard_world
from fuzzing import examples
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from aliencode import parse, run_source
from aliencode import syntax as s
from aliencode.world_schema import SCHEMA, load

STANDARD = standard_world("aliencode")
MAIN = load("main")


def world(*rules: tuple[str, str]):
    text = "".join(
        f'[[rules]]\nid = "R{k}"\nname = "r"\ntarget = "{target}"\nactual = "{actual}"\nscope = '
        '"anywhere"\n'
        for k, (target, actual) in enumerate(rules)
    )
    return parse_world(
        f'format = 1\nname = "hostile"\nlanguage = "aliencode"\n{text}', "t.toml", SCHEMA
    )


# Rules whose compensations are easy to get almost right.
HOSTILE = world(
    ("literal.float", "(neg n)"),
    ("literal.int", "(+ n 3)"),
    ("APEX", "(min (if (== (len args) 1) (get args 0) args))"),
    ("SOME_OF", "(all seq)"),
    ("PLUCK", "(get seq (- i 1))"),
    ("ANNEX", "(prepend seq val)"),
    ("UNDER", "(> a b)"),
)

COPYING = copying_world()


def random_seeds(test):
    """`test` run on a few seeds of a random program maker."""
    return settings(
        max_examples=examples(12),
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )(given(st.integers(0, 2**32))(test))


PORTERS: dict[str, Porter] = {}


def porter(w) -> Porter:
    """One porter per world for the whole module (searches are shared)."""
    if w.name not in PORTERS:
        PORTERS[w.name] = Porter(w, Bounds(budget=20_000))
    return PORTERS[w.name]


def never_wrong(w, source: str) -> bool:
    """Port `source` to `w`: True when ported (and the port agrees), False
    when refused; a wrong port fails the test."""
    want = run_source(source, STANDARD).text()
    try:
        ported = porter(w).port(source, examples=[], keywords={})
    except PortError:
        return False
    assert run_source(ported.source, w).text() == want, (source, ported.source)
    return True


def emitted_type(source: str):
    tree = parse(source)
    types = infer(tree, [])
    emits = [n for n in _walk(tree) if isinstance(n, s.OpCall) and n.op == "EMIT"]
    return types.of(emits[-1].args[0])


def _walk(node):
    stack = [node]
    while stack:
        n = stack.pop(0)
        yield n
        stack.extend(s.children(n))


@pytest.mark.parametrize(
    "change",
    [
        'SET ys AS xs\nANNEX(ys, "a")',
        'CRAFT f(p):\n    ANNEX(p, "a")\nf(xs)',
        'SET m AS STRAND(xs)\nANNEX(PLUCK(m, 0), "a")',
        'CRAFT g():\n    DELIVER xs\nIMPRINT(g(), 0, "a")',
        'SET m AS STRAND(STRAND(0), xs)\nSWEEP row IN m:\n    ANNEX(row, "a")',
        'SET ys AS BOND(YES, xs)\nANNEX(ys, "a")',
        'SET ys AS APEX(xs, STRAND(0))\nANNEX(ys, "a")',
        'SET ys AS NADIR(STRAND(5), xs)\nANNEX(ys, "a")',
    ],
)
def test_a_list_changed_through_another_way_in_widens_its_type(change):
    t = emitted_type(f"SET xs AS STRAND(1, 2)\n{change}\nEMIT(PLUCK(xs, 2))\n")
    assert t.has("str") and t.has("int")


def test_a_list_never_changed_keeps_its_type():
    assert (
        emitted_type(
            'SET xs AS STRAND(1, 2)\nSET ys AS STRAND()\nANNEX(ys, "a")\nEMIT(PLUCK(xs, 0))\n'
        )
        == INT
    )


def test_the_aliasing_program_of_the_review_is_refused_or_right():
    source = (
        'SET xs AS STRAND(1, 2)\nSET ys AS xs\nANNEX(ys, "a")\n'
        "EMIT(SHATTER(PLUCK(xs, 2), PLUCK(xs, 2)))\n"
    )
    never_wrong(MAIN, source)
    never_wrong(HOSTILE, source)


def test_samples_hold_the_boundary_values_of_every_type():
    ints = values(list_of(INT))
    assert [-5] in ints and [] in ints and any(len(v) > 20 for v in ints)
    mixed = values(list_of(INT | FLOAT | BOOL))
    # ties: equal values that print differently, in both orders
    assert any(repr(v) == "[0, False]" for v in mixed) and any(
        repr(v) == "[False, 0]" for v in mixed
    )
    assert any(repr(v) == "[-0.0, 0.0]" for v in values(list_of(FLOAT)))
    assert -0.0 in values(FLOAT) and any(repr(v) == "-0.0" for v in values(FLOAT))


def test_wide_values_are_deterministic_and_of_the_type():
    t = list_of(INT | STR)
    first = [wide(t, random.Random(5)) for _ in range(50)]
    assert first == [wide(t, random.Random(5)) for _ in range(50)]
    assert all(type(v) is list and all(type(x) in (int, str) for x in v) for v in first)
    assert any(abs(x) > 100 for v in first for x in v if type(x) is int)


@pytest.mark.parametrize("value", ["-0.0", "0.0", "-1.5", "1.0"])
def test_float_literals_under_a_negating_rule(value):
    assert never_wrong(HOSTILE, f"EMIT({value})\nEMIT(STRAND({value}, 2.5))\n")


@pytest.mark.parametrize(
    "args", ["NO, 0", "0, NO", "1, 1.0, YES", "YES, 1.0, 1", "-0.0, 0.0", "0.0, -0.0", "2, 2.0"]
)
def test_maxima_with_ties_are_the_first_of_equal_values(args):
    never_wrong(HOSTILE, f"EMIT(APEX({args}))\n")
    never_wrong(HOSTILE, f"EMIT(APEX(STRAND({args})))\n")
    never_wrong(HOSTILE, f"SET xs AS STRAND({args})\nEMIT(NADIR(xs), APEX(xs))\n")


@pytest.mark.parametrize("elements", ["-5", "0", "-0.0", "NO", "0, -5", "0, 0", ""])
def test_any_beyond_the_sample_values(elements):
    never_wrong(HOSTILE, f"EMIT(SOME_OF(STRAND({elements})))\n")


def test_every_targeted_shape_is_ported_right_or_refused():
    rng = random.Random(3)
    for shape in TARGETED:
        for _ in range(2):
            pick = lambda: rng.choice(("0", "-1", "-0.0", "1.0", "YES", "NO", "27"))  # noqa: E731
            never_wrong(HOSTILE, shape.format(a=pick(), b=pick(), c=pick(), s='"a"'))


@pytest.mark.parametrize("route", sorted(WALK_ROUTES))
def test_a_list_changed_while_a_sweep_walks_it_is_ported_right_or_refused(route):
    rng = random.Random(f"walk {route}")
    ported = tried = 0
    for _ in range(6):
        source = walk_changing_program(rng, route)
        if manual_output(source) is None:
            continue
        for w in (MAIN, COPYING):
            tried += 1
            ported += never_wrong(w, source)
    assert tried >= 8
    if not WALK_ROUTES[route].changes_walked:
        assert ported == tried  # the walked list never changes: nothing to refuse


@pytest.mark.parametrize("maker", [walk_changing_program, fresh_list_program])
@random_seeds
def test_random_loops_that_change_lists_port_right_or_are_refused(maker, seed):
    source = maker(random.Random(seed))
    assume(manual_output(source) is not None)
    never_wrong(MAIN, source)
    never_wrong(COPYING, source)


def test_some_loops_changing_a_fresh_list_still_port_where_sweep_walks_a_copy():
    ported = sum(never_wrong(COPYING, fresh_list_program(random.Random(s))) for s in range(40))
    assert 5 <= ported < 40  # the fresh ones port; those whose list reached m first do not


def test_the_walk_the_differential_found_is_refused():
    # Found by benchmarks/porting_differential.py (seed 0): main changes SWEEP in CRAFT
    # bodies, and its port walked a copy of xs made before the loop.
    source = (
        "CRAFT f(xs):\n    SET last AS 0\n    SWEEP x IN xs:\n        IMPRINT(xs, -1, STRAND())\n"
        "        SET last AS x\n    DELIVER last\nEMIT(f(STRAND(1, 100)))\n"
    )
    assert manual_output(source) == "[]"  # the loop variable ends on the new element
    with pytest.raises(PortError, match="may change the list it walks") as refused:
        porter(MAIN).port(source, examples=[], keywords={})
    assert (refused.value.site, refused.value.line) == ("SWEEP", 3)


@pytest.mark.parametrize("given", ['"a"', "STRAND(2, 1)", "2.5"])
def test_a_parameter_named_like_a_craft_holds_what_its_caller_passed(given):
    # The analysis once took f(v) in `use` for the CRAFT f (an int), and main's port of
    # SHATTER added where the manual joins.
    source = (
        f"CRAFT f(q):\n    DELIVER 1\nCRAFT h(p):\n    DELIVER {given}\n"
        "CRAFT use(f, v):\n    DELIVER SHATTER(f(v), f(v))\nEMIT(use(h, 0), use(f, 0))\n"
    )
    never_wrong(MAIN, source)
    never_wrong(HOSTILE, source)


def test_a_seeded_slice_of_the_differential_finds_no_disagreement():
    cases = runnable(programs(11, 40))
    assert len(cases) > 10
    for w in (MAIN, HOSTILE):
        tally = differential(w, cases, porter(w))
        assert tally.tried == len(cases) and tally.ported > 0
        assert not tally.disagreements, tally.disagreements[0]


@random_seeds
def test_random_programs_port_right_or_are_refused(seed):
    source = random_program(random.Random(seed), 4)
    assume(manual_output(source) is not None)
    never_wrong(HOSTILE, source)
