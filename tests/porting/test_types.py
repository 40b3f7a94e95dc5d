"""The type analysis the porting compiler relies on."""

from __future__ import annotations

import random

import pytest
from alienworlds.porting.differential import WALK_ROUTES, walk_changing_program
from alienworlds.porting.fresh import fresh_at_loops
from alienworlds.porting.types import BOOL, INT, STR, TOP, infer, list_of

from aliencode import parse
from aliencode import syntax as s


def last_emitted(source: str, examples=None, world_callers=True):
    tree = parse(source)
    types = infer(
        tree, [parse(e) for e in examples] if examples is not None else None, world_callers
    )
    stack, found = list(tree.body), None
    while stack:
        node = stack.pop(0)
        if isinstance(node, s.OpCall) and node.op == "EMIT":
            found = node.args[0]
        stack.extend(s.children(node))
    return types.of(found)


def test_variables_take_every_value_assigned():
    assert (
        last_emitted('SET r AS ""\nSWEEP c IN "abc":\n    SET r AS SHATTER(c, r)\nEMIT(r)\n') == STR
    )
    assert (
        last_emitted("SET t AS 0\nSWEEP x IN STRAND(1, 2):\n    SET t AS SHATTER(t, x)\nEMIT(t)\n")
        == INT
    )


def test_parameters_are_anything_unless_the_program_is_closed():
    source = "CRAFT f(xs):\n    EMIT(PLUCK(xs, 0))\n"
    assert last_emitted(source).top
    assert last_emitted(source, ["f(STRAND(YES, NO))"]) == BOOL
    assert last_emitted(source + "f(STRAND(1))\n", []) == INT


def test_a_function_passed_as_a_value_may_be_called_with_anything():
    source = (
        "CRAFT odd(n):\n    EMIT(n)\n    DELIVER RESIDUE(n, 2)\nSET q AS STRAIN(odd, STRAND(1))\n"
    )
    assert last_emitted(source, []) == TOP


def test_tuples_a_caller_builds_with_knot_are_marked():
    source = "CRAFT f(p):\n    EMIT(p)\n"
    assert last_emitted(source, ["f(KNOT(1, 2))"]).made == INT
    assert last_emitted(source, ["f(KNOT(1, 2))"], world_callers=False).tuples == INT


def test_lists_changed_through_an_expression_widen_every_element():
    source = 'SET m AS STRAND(STRAND(1))\nANNEX(PLUCK(m, 0), "s")\nEMIT(PLUCK(PLUCK(m, 0), 1))\n'
    assert last_emitted(source) == INT | STR
    assert last_emitted("SET xs AS STRAND(1)\nANNEX(xs, YES)\nEMIT(xs)\n") == list_of(INT | BOOL)


def walked_may_change(source: str, closed: bool = True) -> bool:
    tree = parse(source)
    types = infer(tree, [] if closed else None)
    fresh = fresh_at_loops([tree])
    stack = list(tree.body)
    while stack:
        node = stack.pop(0)
        if isinstance(node, s.Sweep):
            return types.may_change_walked(node, fresh[id(node)])
        stack.extend(s.children(node))
    raise AssertionError("no SWEEP")


@pytest.mark.parametrize("route", sorted(WALK_ROUTES))
@pytest.mark.parametrize("seed", range(3))
def test_a_body_that_changes_the_walked_list_is_seen_by_every_route(route, seed):
    rng = random.Random(seed)
    source = walk_changing_program(rng, route)
    assert walked_may_change(source) == WALK_ROUTES[route].changes_walked, source


def test_a_walk_of_a_new_list_may_not_change():
    source = "SET w AS STRAND(1)\nSWEEP x IN GATHER(w):\n    ANNEX(w, x)\n"
    assert not walked_may_change(source)
    assert walked_may_change(source.replace("GATHER(w)", "w"))


def test_a_call_of_code_out_of_view_may_change_any_list_that_left_the_program():
    # Open: anyone may call f, with a function that changes the list it is given.
    source = "CRAFT f(g, w):\n    SWEEP x IN w:\n        g(STRAND())\n    DELIVER 0\n"
    assert walked_may_change(source, closed=False)
    # A CRAFT parameter named like a CRAFT still holds whatever the caller passed.
    shadowed = (
        "CRAFT f(q):\n    DELIVER 0\nCRAFT h(p):\n    ANNEX(p, 1)\n    DELIVER 0\n"
        "CRAFT walk(f, w):\n    SWEEP x IN w:\n        f(w)\n    DELIVER 0\n"
        "SET w AS STRAND(1)\nEMIT(walk(h, w))\n"
    )
    assert walked_may_change(shadowed)
