"""The porting compiler on small worlds made for one behaviour each."""

from __future__ import annotations

import pytest
from alienworlds.porting import Bounds, Porter, PortError
from alienworlds.ruleset import parse_world, standard_world

from aliencode import run_source
from aliencode.world_schema import SCHEMA

STANDARD = standard_world("aliencode")


def world(rules: str, keywords: str = ""):
    return parse_world(
        f'format = 1\nname = "t"\nlanguage = "aliencode"\n{keywords}\n{rules}', "t.toml", SCHEMA
    )


def rule(target: str, actual: str, scope: str = "anywhere", rid: str = "R") -> str:
    return (
        f'[[rules]]\nid = "{rid}{abs(hash((target, actual, scope))) % 10**6}"\nname = "r"\n'
        f'target = "{target}"\nactual = "{actual}"\nscope = "{scope}"\n'
    )


def agrees(w, source: str, **kw) -> str:
    ported = Porter(w).port(source, **kw)
    assert run_source(ported.source, w).text() == run_source(source, STANDARD).text()
    return ported.source


EVERYWHERE = """
EMIT(SHATTER(2, 5))
SWEEP k IN STRAND(1):
    EMIT(SHATTER(k, 5))
CRAFT f(a, b):
    EMIT(SHATTER(a, b))
    SWEEP k IN STRAND(a):
        EMIT(SHATTER(k, b))
    DELIVER SHATTER(a, b)
EMIT(f(4, 6))
"""


def test_the_same_operation_is_compensated_differently_by_scope():
    # Nothing adds; WEAVE subtracts only at top level; HALVE adds in CRAFT
    # bodies and PARE in loops.
    w = world(
        rule("SHATTER", "(* a b)")
        + rule("WEAVE", "IDENTITY", "top")
        + rule("WEAVE", "(* a b)")
        + rule("HALVE", "(+ a b)", "function")
        + rule("PARE", "(+ a b)", "loop")
    )
    ported = Porter(w).port(EVERYWHERE, examples=[])
    assert run_source(ported.source, w).text() == run_source(EVERYWHERE, STANDARD).text()
    written = {(c.line, c.place): c.written for c in ported.changes if c.site == "SHATTER"}
    assert {place for _, place in written} == {"top", "loop", "function"}
    assert len(set(written.values())) == 3


def test_literals_are_written_so_the_world_reads_them_as_meant():
    w = world(rule("literal.int", "(+ n 7)") + rule("literal.str", "(reverse s)", "function"))
    source = 'EMIT(10, "ab")\nCRAFT f():\n    DELIVER KNOT(-3, "ab")\nEMIT(f())\n'
    assert 'EMIT(3, "ab")' in agrees(w, source)


def test_an_operand_with_effects_is_evaluated_once_and_in_order():
    w = world(rule("RESIDUE", "(% b a)"))
    source = "CRAFT f(x):\n    EMIT(x)\n    DELIVER x\nEMIT(RESIDUE(f(7), f(3)))\n"
    ported = agrees(w, source, examples=[])
    assert "CRAFT port_residue" in ported


def test_short_circuit_operands_stay_lazy():
    w = world(rule("BOND", "(or a b)") + rule("RIFT", "(and a b)"))
    source = (
        "SET xs AS STRAND()\nEMIT(BOND(OVER(GAUGE(xs), 0), AKIN(PLUCK(xs, 0), 1)))\n"
        "EMIT(RIFT(AKIN(GAUGE(xs), 0), PLUCK(xs, 0)))\n"
    )
    agrees(w, source)


def test_annex_that_prepends_goes_through_a_helper():
    w = world(rule("ANNEX", "(prepend seq val)"))
    source = (
        "SET xs AS STRAND(1)\nANNEX(xs, 2)\n"
        "CRAFT f(ys):\n    SWEEP y IN STRAND(3, 4):\n        ANNEX(ys, y)\n    DELIVER ys\n"
        "EMIT(f(xs), xs)\n"
    )
    assert "CRAFT port_annex" in agrees(w, source)


def test_printing_and_argument_order():
    w = world(
        rule("EMIT", "(reverse args)", "function")
        + rule("KNOT", "(tuple (reverse args))")
        + rule("FUSE", '(join \\"\\" (reverse args))')
    )
    source = 'CRAFT f(x):\n    EMIT(x, KNOT(1, 2), FUSE("a", x))\nf("b")\nEMIT(KNOT(3, 4, 5))\n'
    agrees(w, source, examples=['f("z")'])


def test_keywords_are_read_in_the_worlds_spelling_and_written_in_it():
    w = world(rule("PLUCK", "(get seq (- i 1))"), '[keywords]\nPLUCK = "GRAB"\nSET = "LET"')
    ported = Porter(w).port("LET xs AS STRAND(4, 5)\nEMIT(GRAB(xs, 0))\n")
    assert (
        "GRAB(xs, 1)" in ported.source and run_source(ported.source, w).text() == "4"
    )  # folded to one literal
    from_standard = Porter(w).port("SET xs AS STRAND(4, 5)\nEMIT(PLUCK(xs, 0))\n", keywords={})
    assert from_standard.source == ported.source


def test_types_from_examples_narrow_what_a_function_must_handle():
    w = world(rule("SHATTER", "(* a b)"))
    source = "CRAFT add(a, b):\n    DELIVER SHATTER(a, b)\n"
    with pytest.raises(PortError) as caught:
        Porter(w, Bounds(budget=30_000)).port(
            source
        )  # any value: lists and tuples cannot be joined in this world
    assert caught.value.site == "SHATTER" and caught.value.place == "function"
    assert (caught.value.line, caught.value.column) == (2, 13)
    agrees(w, source + "EMIT(add(2, 3))\n", examples=["EMIT(add(2, 3))"])


def test_no_compensation_within_the_bounds_names_the_site_and_scope():
    # In loops every integer literal reads as 0: a large number cannot be
    # written there (a small one can: GAUGE(FUSE(NO)) is 5).
    w = world(rule("literal.int", "(* n 0)", "loop"))
    agrees(w, "SWEEP k IN STRAND(1, 2):\n    EMIT(k, 5)\n")
    with pytest.raises(PortError) as caught:
        Porter(w).port("SWEEP k IN STRAND(0):\n    EMIT(1000003)\n")
    assert caught.value.site == "literal.int" and caught.value.place == "loop"
    assert (caught.value.line, caught.value.column) == (2, 10) and "1000003" in caught.value.message


def test_the_size_bound_limits_the_search():
    w = world(rule("PLUCK", "(get seq (- i 1))"))
    source = "SET xs AS STRAND(1, 2)\nEMIT(PLUCK(xs, 0))\n"
    with pytest.raises(PortError, match="within size 2"):
        Porter(w, Bounds(max_size=2)).port(source)
    agrees(w, source)


def test_de_morgan_builds_and_from_or():
    w = world(rule("BOND", "(or a b)"))  # nothing computes `and`, at any place
    agrees(
        w,
        "SET xs AS STRAND()\nEMIT(BOND(AKIN(GAUGE(xs), 1), AKIN(PLUCK(xs, 0), 5)), BOND(YES, "
        "NO))\n",
    )


def test_an_unparsable_program_is_a_syntax_error():
    from aliencode import AlienSyntaxError

    with pytest.raises(AlienSyntaxError):
        Porter(STANDARD).port("EMIT(")


def test_expel_that_pops_elsewhere_goes_through_a_helper():
    w = world(rule("EXPEL", "0"))
    source = (
        "SET xs AS STRAND(1, 2, 3)\nEMIT(EXPEL(xs), xs)\n"
        "CRAFT f(ys):\n    DELIVER EXPEL(ys)\nEMIT(f(xs), xs)\n"
    )
    assert "CRAFT port_expel" in agrees(w, source)


def test_imprint_counting_from_one_gets_its_index_shifted():
    w = world(rule("IMPRINT", "(set seq (- i 1) val)"))
    ported = agrees(
        w, "SET xs AS STRAND(1, 2, 3)\nIMPRINT(xs, 0, 9)\nIMPRINT(xs, -1, 7)\nEMIT(xs)\n"
    )
    assert "IMPRINT(xs, 1, 9)" in ported and "CRAFT" not in ported


def test_names_bound_before_the_program_get_their_types_from_examples():
    w = world(rule("SHATTER", "(* a b)"))
    source = "EMIT(SHATTER(PLUCK(xs, 0), n))\n"
    with pytest.raises(PortError):
        Porter(w, Bounds(budget=30_000)).port(source)  # xs and n could be anything
    ported = Porter(w).port(
        source, examples=["SET xs AS STRAND(1, 2)", "SET n AS 4"], callers="manual"
    )
    assert run_source("SET xs AS STRAND(1, 2)\nSET n AS 4\n" + ported.source, w).text() == "5"
