"""The compiler's walks of a program (nesting, names bound again, probe
units' facts) are put together from walks of each statement of the top
level, each once per statement object (aliencode/statement_memo.py): the
same results, and the same error, as one walk of the whole tree."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given

from aliencode import AlienSyntaxError, parse
from aliencode import parser as P
from aliencode import syntax as s
from aliencode.compiler import MAX_NESTING, _nesting_of, _rebound_in, check_nesting, rebound_names
from aliencode.metering import _Walk, emit_costs
from aliencode.statement_memo import StatementMemo

sys.path.insert(0, str(Path(__file__).parent))
from test_properties import PROPERTY, programs  # noqa: E402


def walk_facts(walk: _Walk) -> tuple:
    return (
        walk.definitions,
        walk.rebound,
        walk.values,
        {name: sorted(map(repr, places)) for name, places in walk.sites.items()},
        sorted((repr(node.pos), repr(place)) for node, place in walk.emits),
    )


def assert_as_whole(tree: s.Program) -> None:
    for _ in range(2):  # walked, then found
        # one walk from the program node, which stands one level above its statements
        assert check_nesting(tree) == _nesting_of(tree) - 1
        assert rebound_names(tree) == _rebound_in(tree)  # from the program: one walk
        assert walk_facts(_Walk.of(tree)) == walk_facts(_Walk(tree.body))
        assert sorted(map(repr, emit_costs(tree))) == sorted(
            repr(c) for c in emit_costs(s.Program(tuple(tree.body)))
        )


@PROPERTY
@given(programs(), programs())
def test_walks_of_statements_make_the_walk_of_the_program(first: str, second: str) -> None:
    for source in (first, second, first + "\n" + second):
        assert_as_whole(parse(source))


def test_statements_shared_by_programs() -> None:
    library = "CRAFT f(x):\n    SWEEP x IN STRAND(1):\n        EMIT(x)\n    DELIVER x\n"
    a = parse(library + "EMIT(f(1))")
    b = parse(library + "SWEEP f IN STRAND(f):\n    EMIT(f(2))")
    assert a.body[0] is b.body[0]  # the parser shares the statement
    for tree in (a, b, a):
        assert_as_whole(tree)
    assert rebound_names(a)[id(a.body[0])] == {"x"}


def test_too_deep_is_refused_each_time_and_where_the_whole_walk_finds_it() -> None:
    deep = "EMIT(" * (MAX_NESTING + 2) + "1" + ")" * (MAX_NESTING + 2)
    source = f"{deep}\nEMIT(2)\n{deep}\nEMIT(3)"
    tree = parse(source)
    for _ in range(2):
        with pytest.raises(AlienSyntaxError) as caught:
            check_nesting(tree)
        assert caught.value.line == 3  # the last deep statement: a stack walk starts there
    with pytest.raises(AlienSyntaxError) as whole:
        _nesting_of(tree)  # one walk of the whole tree
    assert whole.value.line == 3


def test_a_fact_is_computed_once_and_forgotten_with_its_statement() -> None:
    memo = StatementMemo()
    calls = []

    def count(statement):
        calls.append(statement.pos.line)
        return len(calls)

    parser = P.Parser()  # its own statement cache, dropped below
    a, b = parser.parse("EMIT(7)\nEMIT(8)").body
    assert memo.fact(a, "n", count) == 1 and memo.fact(a, "n", count) == 1
    assert memo.fact(b, "n", count) == 2 and memo.fact(a, "m", count) == 3
    assert len(memo._entries) == 2
    calls.clear()
    del a, b, parser
    assert memo._entries == {}  # the memo kept neither statement alive
