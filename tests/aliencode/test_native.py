"""Guarded native code (aliencode/native.py) behaves exactly as the checked
operators: the same output, error (kind, message, position), steps and
memory census, for operands of every kind, near every bound."""

from __future__ import annotations

import ast
import sys

import pytest
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from aliencode import Limits, Session, parse, syntax
from aliencode import native as native_module
from aliencode.compiler import Compiler, compile_program, rebound_names
from aliencode.native import LEAF, PRODUCT_OPERAND
from aliencode.world_schema import load

NAMES = ("x", "y", "z")
BINARY = ("SHATTER", "WEAVE", "PARE", "RESIDUE", "HALVE")
COMPARE = ("AKIN", "APART", "UNDER", "OVER", "ATOP", "BENEATH")
BITS = 2048
# A small memory limit: the list made at the end of each program sets off a
# census, which walks the frame of the function the program may run in.
LIMITS = Limits(max_steps=20_000, max_memory=60_000)

# Values around every bound the guard or the checked operators know.
_EDGES = [
    0,
    1,
    -1,
    7,
    1000,
    10**12,
    LEAF - 1,
    LEAF,
    -LEAF,
    PRODUCT_OPERAND,
    (1 << BITS) - 1,
    -(1 << BITS) + 1,
]
INTEGERS = st.one_of(
    st.sampled_from([str(v) for v in _EDGES]),
    st.integers(-(10**30), 10**30).map(str),
    st.integers(-(10**6), 10**6).map(str),
)
OTHERS = st.sampled_from(['"ab"', "2.5", "YES", "NO", "none", "STRAND(1, 2)", "KNOT()", "-0.0"])
VALUES = st.one_of(INTEGERS, INTEGERS, INTEGERS, OTHERS)  # mostly integers: runs get far


def program_of(lines: list[str], in_function: bool) -> str:
    """The lines as a program: at top level, or as the body of a CRAFT that
    the program calls (indented line by line, nested lines included)."""
    if not in_function:
        return "\n".join(lines)
    inner = "\n".join("    " + line.replace("\n", "\n    ") for line in lines)
    return f"CRAFT f():\n{inner}\n    DELIVER 0\nEMIT(f())"


def expressions(depth: int) -> st.SearchStrategy[str]:
    leaf = st.one_of(st.sampled_from(NAMES), st.integers(-9, 9).map(str), st.just("w"))
    if depth == 0:
        return leaf
    inner = expressions(depth - 1)
    node = st.tuples(st.sampled_from(BINARY + COMPARE), inner, inner).map(
        lambda t: f"{t[0]}({t[1]}, {t[2]})"
    )
    return st.one_of(leaf, node)


@st.composite
def programs(draw) -> str:
    lines = [f"SET {name} AS {draw(VALUES)}" for name in NAMES if draw(st.integers(0, 4))]
    lines.append("SET xs AS STRAND()")
    for _ in range(draw(st.integers(1, 3))):
        expr = draw(expressions(3))
        lines.append(f"EMIT({expr})")
        lines.append(f"ANNEX(xs, {expr})")
    lines.append("SET big AS PARE(STRAND(0), 10000)")
    lines.append("EMIT(xs)")
    looped = "\n".join("    " + line for line in lines)
    if draw(st.booleans()):  # in a function, whose frame the census walks
        return f"CRAFT f(w):\n{looped}\n    DELIVER 0\nEMIT(f({draw(VALUES)}))"
    return "SET w AS 3\n" + "\n".join(lines)


def outcome(source: str, world, native: bool, sites: bool = True) -> dict[str, object]:
    tree = parse(source, world.keywords, LIMITS)
    program = compile_program(tree, world, LIMITS, native=native)
    if not sites:
        program.op_sites.clear()  # errors then carry no operation's name
    session = Session(LIMITS)
    result = session.execute(program)
    return {**result.as_dict(), "peak": session.meter.peak}


MAIN = load("main")
STANDARD = load("standard")


@settings(max_examples=examples(300), deadline=None)
@given(programs(), st.sampled_from([STANDARD, MAIN]))
def test_native_forms_behave_as_the_checked_operators(source, world):
    assert outcome(source, world, True) == outcome(source, world, False), source


def _generated(source: str, native: bool = True) -> str:
    # CRAFTs in place: a shared one is a placeholder here (craft_cache.py)
    module = Compiler(STANDARD, Limits(), native=native, shared_crafts=False).module(parse(source))
    ast.fix_missing_locations(module)
    return ast.unparse(module)


def test_integer_trees_compile_to_one_guarded_native_expression():
    code = _generated("SET i AS 1\nSET t AS RESIDUE(SHATTER(t, PARE(i, 7)), 1000003)")
    assert "(a_t + a_i * 7) % 1000003 if a_t.__class__ is _int" in code
    assert "_r_x25(_r_x2b(a_t, _r_x2a(a_i, 7)), 1000003)" in code  # the checked path
    assert "_int" not in _generated("SET t AS RESIDUE(SHATTER(t, PARE(i, 7)), 1000003)", False)


def test_a_guard_asks_only_what_the_tree_needs():
    mod = _generated("SET r AS RESIDUE(x, 3)")  # any integer: no bound
    assert "a_x % 3 if a_x.__class__ is _int else" in mod
    divide = _generated("SET r AS RESIDUE(3, x)")  # a divisor: not zero
    assert "a_x.__class__ is _int and a_x else" in divide


def test_a_tree_beyond_the_integer_limit_stays_checked():
    # two names within LEAF may sum beyond 2**62 bits only if the limit is that small
    small = Compiler(STANDARD, Limits(max_int_bits=62)).module(parse("SET r AS SHATTER(x, y)"))
    ast.fix_missing_locations(small)
    code = ast.unparse(small)
    assert "a_x.__class__" not in code  # no tree's guard: the sum of any two values
    assert "_sum_rest(_s, (_s := None))" in code


def test_annex_appends_natively_only_a_value_that_cannot_change_a_list():
    assert "a_xs.append(" in _generated("ANNEX(xs, SHATTER(k, 1))")
    assert "a_xs.append(" not in _generated("ANNEX(xs, f(xs))")
    assert "a_xs.append(" not in _generated("ANNEX(xs, EXPEL(xs))")


def _native_and_checked(source: str) -> list[tuple[dict, int]]:
    """The run's result and census peak, with native code and without."""
    limits = Limits(max_memory=100_000)
    found = []
    for native in (True, False):
        program = compile_program(parse(source), STANDARD, limits, native=native)
        session = Session(limits)
        result = session.execute(program)
        found.append((result.as_dict(), session.meter.peak))
    return found


def test_a_census_sees_the_same_frames_with_native_code():
    """A census taken while a function's frame is live walks its locals: the
    native form must bind what the checked form binds (`_t` of a sum with a
    constant, which therefore stays outside native trees)."""
    source = (
        "CRAFT f(x):\n"
        "    SET y AS PARE(SHATTER(x, 1), RESIDUE(x, 7))\n"
        "    SET big AS PARE(STRAND(0), 20000)\n"
        "    DELIVER y\n"
        "EMIT(f(1000))"
    )
    found = _native_and_checked(source)
    assert found[0][1] > 0  # a census ran
    assert found[0] == found[1]


SEQUENCES = st.sampled_from(
    ['"abc"', '"é"', "STRAND(1, 2, 3)", "KNOT(4, 5)", "STRAND()", '""', "7", "none", "2.5", "YES"]
)
POSITIONS = st.one_of(
    st.integers(-5, 5).map(str),
    st.sampled_from(["YES", "NO", "2.5", '"1"', "none", str(1 << 70), str(-(1 << 70))]),
)


@settings(max_examples=examples(200), deadline=None)
@given(SEQUENCES, POSITIONS, st.booleans(), st.sampled_from([STANDARD, MAIN]), st.booleans())
def test_native_pluck_and_gauge_behave_as_the_checked_operators(
    seq, position, in_function, world, sites
):
    """PLUCK and GAUGE of names read natively under their guard; out of range,
    on a non-sequence, with a bool or non-integer position: the same error
    (main's PLUCK counts from one, its integer literals are shifted: the
    native read stands inside a spliced rule, at a position of its own)."""
    lines = [
        f"SET s AS {seq}",
        f"SET i AS {position}",
        "SET xs AS STRAND()",
        "ANNEX(xs, PLUCK(s, i))",
        "EMIT(GAUGE(s), PLUCK(s, 0), xs)",
        "SET big AS PARE(STRAND(0), 10000)",
    ]
    source = program_of(lines, in_function)
    assert outcome(source, world, True, sites) == outcome(source, world, False, sites), source


def test_pluck_and_gauge_of_names_compile_to_native_reads():
    code = _generated("SET s AS STRAND(1)\nSET i AS 0\nEMIT(PLUCK(s, i), GAUGE(s))")
    assert "a_s[a_i] if a_s.__class__ in _seqs and a_i.__class__ is _int else" in code
    assert "_len(a_s) if a_s.__class__ in _seqs else _r_len(a_s)" in code
    assert "a_s[" not in _generated("SET s AS STRAND(1)\nEMIT(PLUCK(s, 0))", False)


# Operands that make no integer tree (calls, reads of lists): `+` and `-`
# compute natively and hand all but a small integer to `_sum_rest`.
SUM_VALUES = st.one_of(
    INTEGERS,
    st.sampled_from(["1000", "-1000", str((1 << 30) - 1), str(1 << 30), str(-(1 << 30))]),
    OTHERS,
    st.sampled_from(['PARE("ab", 600)', "PARE(STRAND(1), 1200)", "1e308", str(1 << 1100)]),
)
# Each call of `s` makes a list a census may be set off by.
SUM_LIMITS = Limits(max_steps=20_000, max_memory=30_000, max_length=2000)


@st.composite
def sum_programs(draw) -> tuple[str, str]:
    """A program defining `v` (its argument's value from a drawn list) and a
    CRAFT summing two of them, and a second program run in the same session
    calling it (an error there is raised by code the first one compiled)."""
    values = draw(st.lists(SUM_VALUES, min_size=2, max_size=4))
    table = "STRAND(" + ", ".join(values) + ")"
    op = draw(st.sampled_from(["SHATTER", "WEAVE"]))
    first = (
        f"CRAFT v(k):\n    DELIVER PLUCK({table}, k)\n"
        f"CRAFT s(i, j):\n    SET big AS PARE(STRAND(0), 2000)\n"
        f"    DELIVER {op}(v(i), v(j))\n"
        f"EMIT({op}(v(0), v(1)))"
    )

    def call() -> str:
        return (
            f"s({draw(st.integers(0, len(values) - 1))}, {draw(st.integers(0, len(values) - 1))})"
        )

    # the outer sum's first operand waits in `_s` while the last call runs
    lines = [
        f"EMIT({op}({op}({call()}, {call()}), {call()}))"
        if draw(st.booleans())
        else f"EMIT({call()})"
        for _ in range(draw(st.integers(1, 4)))
    ]
    return first, "\n".join(lines)


def session_outcome(sources: tuple[str, ...], world, native: bool) -> list[dict[str, object]]:
    session = Session(SUM_LIMITS)
    found = []
    for source in sources:
        tree = parse(source, world.keywords, SUM_LIMITS)
        result = session.execute(compile_program(tree, world, SUM_LIMITS, native=native))
        found.append({**result.as_dict(), "peak": session.meter.peak})
    return found


@settings(max_examples=examples(300), deadline=None)
@given(sum_programs(), st.sampled_from([STANDARD, MAIN]))
def test_native_sums_of_any_values_behave_as_the_checked_operators(sources, world):
    """Integers small and past the limit, floats, strings and lists made long
    (past the length limit, held for the census), mixtures that are a
    TypeError or an OverflowError, an error raised by a sum another program
    of the session compiled: the same as `add` and `sub`."""
    native = session_outcome(sources, world, True)
    assert native == session_outcome(sources, world, False), sources


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="native sums are emitted on 3.11 only")
def test_a_sum_of_calls_compiles_to_a_native_sum():
    code = _generated("CRAFT f(n):\n    SET r AS SHATTER(f(n), f(n))\n    DELIVER r")
    assert "_s if (_s := (a_f(_d - 1, a_n) + a_f(_d - 1, a_n))).__class__ is _int" in code
    assert "else _sum_rest(_s, (_s := None))" in code
    assert "_s" not in _generated("CRAFT f(n):\n    DELIVER SHATTER(f(n), f(n))", False)


def test_without_native_sums_a_sum_of_calls_stays_checked(monkeypatch):
    """Where the error mapping of native sums is not verified (another
    Python), the compiler emits the checked operator instead."""
    monkeypatch.setattr(native_module, "NATIVE_SUMS", False)
    code = _generated("CRAFT f(n):\n    DELIVER SHATTER(f(n), f(n))")
    assert "_s" not in code and "_sum_rest" not in code


def test_a_census_leaves_out_the_native_sums_temporary():
    """`_s` holds an integer a census would count (above 256) while the
    census runs in a call; the checked form holds nothing there."""
    source = (
        "CRAFT big(k):\n    SET xs AS PARE(STRAND(0), 5000)\n    DELIVER k\n"
        "CRAFT f(x):\n    DELIVER SHATTER(SHATTER(big(x), big(x)), big(x))\n"
        "EMIT(f(1000))"
    )
    found = _native_and_checked(source)
    assert ("_s :=" in _generated(source)) == native_module.NATIVE_SUMS
    assert found[0][1] > 0  # a census ran
    assert found[0] == found[1]


# A SWEEP over a standard EXTENT from an integer constant binds integers
# within LEAF: native trees and reads of its name need no guard on it,
# unless the body may rebind the name.
LOOP_BOUNDS = st.sampled_from(
    ["3", "0, 4", "-3, 2", "5, 2", str(LEAF - 100_001) + ", " + str(LEAF - 99_998), "NO, 3"]
)
LOOP_BODIES = st.sampled_from(
    [
        "ANNEX(xs, RESIDUE(PARE(k, 7919), 10007))",
        "ANNEX(xs, HALVE(PARE(k, k), 3))",
        "ANNEX(xs, PLUCK(s, k))",
        "ANNEX(xs, RESIDUE(100, k))",
        "ANNEX(xs, PLUCK(KNOT(1, 2, 3), k))",
        "ANNEX(xs, UNDER(k, 2))",
        "SET k AS SHATTER(k, 1.5)\n    ANNEX(xs, PARE(k, 3))",
        'ANNEX(xs, PARE(k, 3))\n    SET k AS "a"',
        'SWEEP k IN KNOT("a"):\n        ANNEX(xs, k)\n    ANNEX(xs, RESIDUE(k, 2))',
        'SET k AS "a"\n    ANNEX(xs, RESIDUE(k, 3))',
        "SET k AS PARE(SHATTER(k, 1), 10000000000000000000000)\n    ANNEX(xs, PARE(k, k))",
    ]
)


@settings(max_examples=examples(150), deadline=None)
@given(LOOP_BOUNDS, LOOP_BODIES, st.booleans(), st.sampled_from([STANDARD, MAIN]))
def test_a_counting_loops_name_is_read_natively_without_a_guard(bounds, body, in_function, world):
    lines = [
        'SET s AS "abc"',
        "SET xs AS STRAND()",
        f"SWEEP k IN EXTENT({bounds}):\n    {body}",
        "EMIT(xs)",
        "SET big AS PARE(STRAND(0), 10000)",
    ]
    source = program_of(lines, in_function)
    for sites in (True, False):
        assert outcome(source, world, True, sites) == outcome(source, world, False, sites), source


def test_a_counting_loops_name_has_no_guard_unless_the_body_rebinds_it():
    for loop in ("SWEEP k IN EXTENT(9):", "SWEEP k IN EXTENT(n):", "SWEEP k IN EXTENT(-4, n):"):
        code = _generated(f"SET xs AS STRAND()\n{loop}\n    ANNEX(xs, PARE(k, 7))")
        assert "a_xs.append(a_k * 7)" in code, loop
    for loop in ("SWEEP k IN xs:", "SWEEP k IN EXTENT(n, 9):", "SWEEP k, j IN INDEX(xs):"):
        code = _generated(f"SET xs AS STRAND()\n{loop}\n    ANNEX(xs, PARE(k, 7))")
        assert "a_k.__class__ is _int" in code, loop
    rebound = _generated("SWEEP k IN EXTENT(9):\n    SET y AS PARE(k, 7)\n    SET k AS 1.5")
    assert "a_k.__class__ is _int" in rebound
    beyond = _generated(f"SWEEP k IN EXTENT({LEAF}, {LEAF + 1}):\n    SET y AS PARE(k, 7)")
    assert "a_k.__class__ is _int" in beyond


ANNEXED = st.sampled_from(
    ["STRAND()", "STRAND(1, 2, 3)", "KNOT(1, 2)", '"abc"', "7", "none", "2.5", "YES", "keep"]
)
ANNEX_VALUES = st.sampled_from(["k", "PARE(k, 2)", 'FUSE("w", k)', "RESIDUE(k, 0)", "zz", "xs"])


@settings(max_examples=examples(200), deadline=None)
@given(ANNEXED, ANNEX_VALUES, st.integers(0, 6), st.booleans(), st.booleans())
def test_annex_as_a_statement_behaves_as_the_checked_helper(
    start, value, rounds, in_function, sites
):
    """The statement form (native.py, `append_statements`) on every kind of
    value, an unset name, and a list reaching the length limit (4 here):
    the same output, error and position, steps, census, and list left
    for the session's next program."""
    limits = Limits(max_steps=20_000, max_length=4, max_memory=60_000)
    lines = [
        "CRAFT keep(n):\n    DELIVER n",
        f"SET xs AS {start}",
        f"SWEEP k IN EXTENT({rounds}):\n    ANNEX(xs, {value})\n    EMIT(k)",
        "EMIT(xs)",
    ]
    source = program_of(lines, in_function)
    found = []
    for native in (True, False):
        program = compile_program(
            parse(source, STANDARD.keywords, limits), STANDARD, limits, native=native
        )
        if not sites:
            program.op_sites.clear()
        session = Session(limits)
        result = session.execute(program).as_dict()
        # what the session's next program finds (a list left at the limit)
        after = compile_program(parse("EMIT(xs)", STANDARD.keywords, limits), STANDARD, limits)
        found.append((result, session.meter.peak, session.execute(after).as_dict()))
    assert found[0] == found[1], source


def test_annex_as_a_statement_appends_without_a_guard():
    code = _generated("SET xs AS STRAND()\nANNEX(xs, 1)\nEMIT(ANNEX(xs, 2))")
    assert "try:\n        a_xs.append(1)\n    except _AttributeError:" in code
    assert "if _len(a_xs) > _MAXLEN:\n        _annex_over(a_xs)" in code
    assert "_s_EMIT([a_xs.append(2) if a_xs.__class__ is _list" in code  # not a statement


FLOOR_ARGUMENTS = st.sampled_from(
    [
        "5",
        "2",
        "1",
        "-3",
        "YES",
        "2.5",
        "COIL(2.0, 2000)",
        "WEAVE(0.0, COIL(2.0, 2000))",
        "FRACTURE(WEAVE(0.0, COIL(2.0, 2000)), COIL(2.0, 2000))",
        str(1 << 100),
        str((1 << BITS) - 1),
        str(-(1 << BITS) + 1),
        '"a"',
        "STRAND(1)",
        "none",
    ]
)
FLOOR_TESTS = st.sampled_from(["UNDER(n, 2)", "BENEATH(n, 2)", "UNDER(n, -5)", "UNDER(n, 1.5)"])
FLOOR_USES = st.sampled_from(
    ["WEAVE(n, 1)", "WEAVE(n, 2)", "WEAVE(n, 0.5)", "WEAVE(n, 40)", f"WEAVE(n, {1 << 70})"]
)


@settings(max_examples=examples(200), deadline=None)
@given(FLOOR_ARGUMENTS, FLOOR_TESTS, FLOOR_USES, st.sampled_from([STANDARD, MAIN]))
def test_a_difference_above_a_known_floor_behaves_as_the_checked_sum(argument, test, use, world):
    """Past `UPON UNDER(n, c): DELIVER` a parameter is a number at least c
    (or NaN) and `WEAVE(n, k)` needs no check (native.py, `_above_floor`)."""
    source = (
        f"CRAFT f(n):\n    UPON {test}:\n        DELIVER 0\n"
        f"    SET r AS KNOT({use}, {use})\n    EMIT(r)\n"
        "    SET big AS PARE(STRAND(0), 10000)\n    DELIVER r\n"
        f"EMIT(f({argument}))"
    )
    for sites in (True, False):
        assert outcome(source, world, True, sites) == outcome(source, world, False, sites), source


def test_a_difference_above_a_known_floor_compiles_to_a_plain_subtraction():
    def body(*lines: str) -> str:
        return _generated("CRAFT f(n):\n" + "".join(f"    {line}\n" for line in lines))

    plain = "return (_t := (a_n - 1))"
    assert plain in body("UPON UNDER(n, 2):", "    DELIVER n", "DELIVER WEAVE(n, 1)")
    for lines in (
        ("UPON UNDER(n, 2):", "    EMIT(n)", "DELIVER WEAVE(n, 1)"),  # may fall through
        ("UPON UNDER(n, 2):", "    DELIVER n", "SET n AS -5", "DELIVER WEAVE(n, 1)"),
        ("UPON OVER(n, 2):", "    DELIVER n", "DELIVER WEAVE(n, 1)"),
        ("UPON UNDER(n, 2):", "    DELIVER n", "LEST YES:", "    EMIT(1)", "DELIVER WEAVE(n, 1)"),
        ("DELIVER WEAVE(n, 1)", "UPON UNDER(n, 2):", "    DELIVER n"),
    ):
        assert plain not in body(*lines), lines
    # a difference that may fall below one host digit keeps its check
    far = body("UPON UNDER(n, 2):", "    DELIVER n", f"DELIVER WEAVE(n, {1 << 31})")
    assert "return _t if (_t := (a_n - 2147483648)) >=" in far


STRAINED = st.sampled_from(
    [
        "STRAND(1, 2, 3, 4)",
        "KNOT(5, 6)",
        '"abé"',
        '"abc"',
        "STRAND()",
        "7",
        "none",
        "PARE(STRAND(1), 80)",
    ]
)
PREDICATES = st.sampled_from(["odd", "pair", "deep", "fails", "7", "none", "emits"])


@settings(max_examples=examples(200), deadline=None)
@given(STRAINED, PREDICATES, st.integers(0, 3), st.booleans())
def test_strain_behaves_as_filter(seq, predicate, depth, in_function):
    """STRAIN's native helper (operations.py, `strain`): predicates of one
    and two parameters, failing, printing or recursing to the depth limit
    (4 here), values that are not functions, every kind of sequence."""
    limits = Limits(max_steps=20_000, max_depth=4, max_memory=60_000)
    lines = [
        "CRAFT odd(n):\n    DELIVER AKIN(RESIDUE(n, 2), 1)",
        "CRAFT pair(a, b):\n    DELIVER a",
        "CRAFT fails(n):\n    DELIVER SHATTER(n, none)",
        "CRAFT emits(n):\n    EMIT(n)\n    DELIVER YES",
        "CRAFT deep(n):\n    DELIVER GAUGE(STRAIN(deep, STRAND(n)))",
        f"CRAFT nest(k):\n    UPON UNDER(k, 1):\n        DELIVER STRAIN({predicate}, {seq})\n"
        "    DELIVER nest(WEAVE(k, 1))",
        f"EMIT(nest({depth}))",
    ]
    source = program_of(lines, in_function)
    found = []
    for native in (True, False):
        program = compile_program(
            parse(source, STANDARD.keywords, limits), STANDARD, limits, native=native
        )
        session = Session(limits)
        found.append((session.execute(program).as_dict(), session.meter.peak))
    assert found[0] == found[1], source


SUMMANDS = [
    "1",
    "-7",
    "YES",
    "2.5",
    "FRACTURE(WEAVE(0.0, COIL(2.0, 2000)), COIL(2.0, 2000))",
    "COIL(2.0, 2000)",
    str((1 << 30) - 1),
    str(-(1 << 30)),
    str((1 << BITS) - 1),
    str(-(1 << BITS) + 1),
    '"ab"',
    "STRAND(1, 2)",
    "PARE(STRAND(0), 70)",
    "none",
]


@pytest.mark.parametrize("op", ["SHATTER", "WEAVE"])
def test_a_delivered_sum_behaves_as_the_checked_operator(op):
    """DELIVER of a native sum (native.py, `sum_return`), every pair of
    operands: results at the one-digit and integer-size bounds, sequences
    joined, and the host's TypeError reported as the operation's."""
    for a in SUMMANDS:
        for b in SUMMANDS:
            source = (
                "CRAFT g(v):\n    DELIVER v\n"
                f"CRAFT f(x, y):\n    DELIVER {op}(g(x), g(y))\n"
                f"EMIT(f({a}, {b}))"
            )
            assert outcome(source, STANDARD, True) == outcome(source, STANDARD, False), source


def test_a_delivered_sum_compiles_to_statements():
    code = _generated("CRAFT f(x):\n    DELIVER SHATTER(f(x), f(x))")
    assert "_s = a_f(_d - 1, a_x) + a_f(_d - 1, a_x)\n        try:" in code
    assert "return _sum_rest(_s, (_s := None))" in code


def test_rebound_names_finds_every_rebinding_inside_a_body():
    tree = parse(
        "CRAFT f(a, b, c):\n"
        "    SWEEP k IN EXTENT(3):\n"
        "        SWEEP j IN EXTENT(2):\n"
        "            SET a AS k\n"
        "        CRAFT b():\n"
        "            SET k AS 1\n"
        "    DELIVER c\n"
        "SWEEP k IN EXTENT(2):\n"
        "    EMIT(k)"
    )
    found = rebound_names(tree)
    craft, top_loop = tree.body
    outer = craft.body[0]
    inner = outer.body[0]
    assert found[id(craft)] == {"a", "b"}
    assert found[id(outer)] == {"k"}
    assert found[id(inner)] == set()
    assert found[id(top_loop)] == set()


@pytest.mark.parametrize("depth", [10, 100, 450])
def test_rebound_names_visits_each_node_once_however_deep_functions_nest(depth, monkeypatch):
    """Deeply nested functions over a large body: one visit per node, so
    compiling stays linear in the program (a walk per function was not)."""
    body = "\n".join(f"SET v{i} AS SHATTER(x, {i})" for i in range(300))
    source = ""
    for level in range(depth):
        source += "    " * level + f"CRAFT f{level}(x):\n"
    source += "\n".join("    " * depth + line for line in body.splitlines())
    tree = parse(source, limits=Limits(max_tokens=10**6))
    visits = []
    children = syntax.children
    monkeypatch.setattr(syntax, "children", lambda node: visits.append(1) or children(node))
    rebound_names(tree)
    nodes, stack = 0, list(tree.body)
    while stack:
        nodes += 1
        stack.extend(children(stack.pop()))
    assert len(visits) == nodes
