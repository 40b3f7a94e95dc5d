"""The type analysis the porting compiler relies on."""

from __future__ import annotations

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
