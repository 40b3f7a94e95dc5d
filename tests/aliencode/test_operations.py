"""Every operation of the standard language (docs/aliencode.md), one table row each."""

import pytest

from aliencode import run_source


def out(src: str) -> str:
    result = run_source(src)
    assert result.error is None, result.text()
    return result.output


CASES = [
    # arithmetic
    ("EMIT(SHATTER(2, 3))", "5"),
    ("EMIT(SHATTER(2.5, 1))", "3.5"),
    ('EMIT(SHATTER("ab", "cd"))', "abcd"),
    ("EMIT(SHATTER(STRAND(1), STRAND(2)))", "[1, 2]"),
    ("EMIT(WEAVE(7, 10))", "-3"),
    ("EMIT(PARE(4, -3))", "-12"),
    ('EMIT(PARE("ab", 3))', "ababab"),
    ("EMIT(FRACTURE(7, 2), FRACTURE(4, 2))", "3.5 2.0"),
    ("EMIT(COIL(2, 100))", "1267650600228229401496703205376"),
    ("EMIT(COIL(2, -1), COIL(4, 0.5))", "0.5 2.0"),
    ("EMIT(RESIDUE(-7, 3), RESIDUE(7, -3), RESIDUE(7.5, 2))", "2 -2 1.5"),
    ("EMIT(HALVE(-7, 2), HALVE(7, 2), HALVE(7.0, 2))", "-4 3 3.0"),
    # comparison
    (
        "EMIT(AKIN(1, 1.0), AKIN(STRAND(1, 2), STRAND(1, 2)), AKIN(KNOT(1), STRAND(1)))",
        "True True False",
    ),
    ('EMIT(APART("a", "a"), APART(1, "1"))', "False True"),
    ('EMIT(OVER(3, 2), OVER("b", "a"), OVER(STRAND(1, 3), STRAND(1, 2)))', "True True True"),
    ("EMIT(UNDER(2, 3), UNDER(3, 3))", "True False"),
    ("EMIT(ATOP(3, 3), BENEATH(4, 3))", "True False"),
    # logic
    ("EMIT(BOND(1, 2), BOND(0, 2), RIFT(0, 2), RIFT(3, 2))", "2 0 2 3"),
    ("EMIT(BOND(NO, FRACTURE(1, 0)), RIFT(YES, FRACTURE(1, 0)))", "False True"),
    ('EMIT(NEGATE(0), NEGATE(""), NEGATE(STRAND(1)))', "True True False"),
    # construction
    ("EMIT(STRAND(), STRAND(1, STRAND(2)))", "[] [1, [2]]"),
    ("EMIT(KNOT(), KNOT(8), KNOT(1, 2))", "() (8,) (1, 2)"),
    # positions
    ("EMIT(PLUCK(STRAND(4, 5, 6), 0), PLUCK(STRAND(4, 5, 6), -1))", "4 6"),
    ('EMIT(PLUCK("alien", 1), PLUCK(KNOT(1, 2), 1))', "l 2"),
    ('EMIT(CARVE("alien", 1, 3), CARVE("alien", 2), CARVE(STRAND(1, 2, 3), -2))', "li ien [2, 3]"),
    ("EMIT(CARVE(STRAND(1, 2, 3), 5, 9))", "[]"),
    ("SET xs AS STRAND(1)\nEMIT(ANNEX(xs, 2))\nEMIT(xs)", "None\n[1, 2]"),
    ("SET xs AS STRAND(1, 2)\nEMIT(EXPEL(xs), xs)", "2 [1]"),
    ("SET xs AS STRAND(1, 2)\nEMIT(IMPRINT(xs, -1, 9), xs)", "None [1, 9]"),
    # aggregation
    ('EMIT(GAUGE("alien"), GAUGE(STRAND()), GAUGE(KNOT(1, 2)))', "5 0 2"),
    ('EMIT(NADIR(4, 2, 9), NADIR(STRAND(4, 2)), NADIR("bca"))', "2 2 a"),
    ("EMIT(APEX(4, 2, 9), APEX(STRAND(STRAND(1, 2), STRAND(1, 3))))", "9 [1, 3]"),
    (
        "EMIT(SOME_OF(STRAND(0, 3)), SOME_OF(STRAND()), EVERY_OF(STRAND()), EVERY_OF(STRAND(1, "
        "0)))",
        "True False True False",
    ),
    (
        'EMIT(ORDER(STRAND(3, 1, 2)), ORDER("cab"), ORDER(KNOT(2.5, 1)))',
        "[1, 2, 3] ['a', 'b', 'c'] [1, 2.5]",
    ),
    ('EMIT(GATHER("ab"), GATHER(KNOT(1)))', "['a', 'b'] [1]"),
    ('EMIT(FUSE("x", 1, YES, none, STRAND("a")))', "x1TrueNone['a']"),
    ("EMIT(FUSE())", ""),
    # iteration helpers
    ("EMIT(EXTENT(3), EXTENT(2, 5), EXTENT(-1))", "[0, 1, 2] [2, 3, 4] []"),
    ('EMIT(INDEX("ab"))', "[(0, 'a'), (1, 'b')]"),
    ('EMIT(PAIR(STRAND(1, 2, 3), "ab"))', "[(1, 'a'), (2, 'b')]"),
    ("CRAFT odd(n):\n    DELIVER RESIDUE(n, 2)\nEMIT(STRAIN(odd, EXTENT(6)))", "[1, 3, 5]"),
    # output
    ('EMIT("n =", 3)', "n = 3"),
    ("EMIT()\nEMIT(1)", "\n1"),
    ('EMIT("a")\nEMIT()\nEMIT("b")', "a\n\nb"),
]


@pytest.mark.parametrize("src,expected", CASES, ids=[c[0][:40] for c in CASES])
def test_operation(src, expected):
    assert out(src) == expected


ERRORS = [
    ("EMIT(FRACTURE(1, 0))", "ZeroDivisionError"),
    ("EMIT(HALVE(1, 0))", "ZeroDivisionError"),
    ("EMIT(RESIDUE(1, 0))", "ZeroDivisionError"),
    ("EMIT(COIL(0, -1))", "ZeroDivisionError"),
    ('EMIT(SHATTER(1, "a"))', "TypeError"),
    ('EMIT(RESIDUE("%s", 1))', "TypeError"),
    ("EMIT(PLUCK(STRAND(1), 1))", "IndexError"),
    ("EMIT(PLUCK(STRAND(1), 0.5))", "TypeError"),
    ("EMIT(PLUCK(5, 0))", "TypeError"),
    ("EMIT(EXPEL(STRAND()))", "IndexError"),
    ('EMIT(ANNEX("ab", 1))', "TypeError"),
    ("EMIT(IMPRINT(STRAND(1), 3, 0))", "IndexError"),
    ("EMIT(NADIR(STRAND()))", "ValueError"),
    ('EMIT(ORDER(STRAND(1, "a")))', "TypeError"),
    ('EMIT(OVER(1, "a"))', "TypeError"),
    ("EMIT(COIL(-8, 0.5))", "ValueError"),
    ("EMIT(COIL(10.0, 400))", "OverflowError"),
    ("EMIT(STRAIN(5, STRAND(1)))", "TypeError"),
    ("EMIT(EXTENT(1.5))", "TypeError"),
    ("EMIT(GAUGE(5))", "TypeError"),
]


@pytest.mark.parametrize("src,kind", ERRORS, ids=[c[0] for c in ERRORS])
def test_operation_error(src, kind):
    result = run_source(src)
    assert result.error is not None
    assert result.error.kind == kind
    assert result.error.line == 1


@pytest.mark.parametrize(
    "src,op,want",
    [
        ("EMIT(PLUCK(STRAND(1)))", "PLUCK", "takes 2 arguments but 1 was given"),
        ("EMIT(CARVE(STRAND(1), 1, 2, 3))", "CARVE", "takes 2 or 3 arguments but 4 were given"),
        ("EMIT(NADIR())", "NADIR", "takes at least 1 argument but 0 were given"),
        ("EMIT(NEGATE(1, 2))", "NEGATE", "takes 1 argument but 2 were given"),
    ],
)
def test_wrong_arity_says_so(src, op, want):
    result = run_source(src)
    assert result.error.kind == "TypeError"
    assert result.error.message == f"{op}: {want}"


def test_error_messages_name_the_operation():
    result = run_source('EMIT(SHATTER(1, "a"))')
    assert result.error.message == "SHATTER: unsupported operand types: int and str"
