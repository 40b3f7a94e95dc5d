"""Searches that found nothing are remembered by their whole input: a
search is skipped in a world whose sites it may use do what they did, and
then answers what searching would; a world that changes one of those sites
searches again."""

from __future__ import annotations

from alienworlds.porting.compensation import Compensator, Memo
from alienworlds.porting.search import SEARCHED, Bounds
from alienworlds.porting.semantics import TOP_LEVEL, WorldView
from alienworlds.porting.types import INT
from alienworlds.ruleset import parse_world
from alienworlds.ruleset.expr import parse

from aliencode.world_schema import SCHEMA

SMALL = Bounds(max_size=3, budget=4_000, rounds=2)
NOT_SEARCHED = 'target = "EMIT"\nactual = "(reverse args)"'
SEARCHED_RULE = 'target = "WEAVE"\nactual = "(+ a b)"'


def world(*rules: str) -> WorldView:
    body = "".join(f'[[rules]]\nid = "R{k}"\nname = "r"\n{r}\n' for k, r in enumerate(rules))
    return WorldView(
        parse_world(f'format = 1\nname = "t"\nlanguage = "aliencode"\n{body}', "t.toml", SCHEMA)
    )


def test_the_sites_a_search_may_use_include_its_constants_literals():
    assert {"literal.int", "literal.str", "literal.bool", "WEAVE", "CARVE"} <= SEARCHED
    assert not {"EMIT", "SWEEP", "ANNEX", "STRAIN"} & SEARCHED


def undo(view: WorldView, memo: Memo) -> tuple[object, int]:
    compensator = Compensator(view, SMALL, memo)
    # a % 2 loses its operand: nothing undoes it on these samples
    found = compensator._undo(parse("(% a 2)"), (0, 1, 2, 3, 5), TOP_LEVEL)
    return found, compensator.searches


def test_a_fruitless_undo_is_skipped_where_the_searched_sites_agree():
    memo = Memo()
    assert undo(world(), memo) == (None, 1)
    assert undo(world(), memo) == (None, 0)
    # EMIT is no part of a search: the memo answers, as searching does
    assert undo(world(NOT_SEARCHED), memo) == (None, 0)
    assert undo(world(NOT_SEARCHED), Memo()) == (None, 1)
    # WEAVE is: the search runs again
    assert undo(world(SEARCHED_RULE), memo) == (None, 1)


def operation(view: WorldView, memo: Memo, op: str) -> tuple[object, int]:
    compensator = Compensator(view, SMALL, memo)
    return compensator.operation(op, (INT, INT), TOP_LEVEL), compensator.searches


def test_a_fruitless_operation_search_is_skipped_where_the_searched_sites_agree():
    # RESIDUE made a constant: no template of three nodes gives the remainder back
    broken = 'target = "RESIDUE"\nactual = "7"'
    memo = Memo()
    assert operation(world(broken), memo, "RESIDUE") == (None, 1)
    assert operation(world(broken, NOT_SEARCHED), memo, "RESIDUE") == (None, 0)
    assert operation(world(broken, NOT_SEARCHED), Memo(), "RESIDUE") == (None, 1)
    assert operation(world(broken, SEARCHED_RULE), memo, "RESIDUE")[1] == 1
