"""The shared tree walks of aliencode/walk.py."""

from __future__ import annotations

from dataclasses import fields, replace

from hypothesis import given
from test_properties import PROPERTY, programs

from aliencode import parse
from aliencode import syntax as s
from aliencode.errors import AlienSyntaxError
from aliencode.walk import StatementMapper, kept, names_in, node_count


def _tree(source: str) -> s.Program | None:
    try:
        return parse(source, {})
    except AlienSyntaxError:
        return None


class Bumper(StatementMapper):
    """Adds one to every integer literal it is shown and counts them (a call
    with none under it is kept itself)."""

    def __init__(self) -> None:
        self.seen = 0

    def expr(self, e: s.Expr) -> s.Expr:
        if isinstance(e, s.IntLit):
            self.seen += 1
            return replace(e, value=e.value + 1)
        if isinstance(e, (s.OpCall, s.Call)):
            args = kept(tuple(map(self.expr, e.args)), e.args)
            func = self.expr(e.func) if isinstance(e, s.Call) else None
            if args is e.args and (func is None or func is e.func):
                return e
            mapped = replace(e, args=args)
            return replace(mapped, func=func) if isinstance(e, s.Call) else mapped
        return e


def _ints(node: object) -> list[int]:
    found, stack = [], [node]
    while stack:
        current = stack.pop()
        if isinstance(current, s.IntLit):
            found.append(current.value)
        stack.extend(s.children(current))
    return sorted(found)


@PROPERTY
@given(programs())
def test_the_identity_mapper_rebuilds_the_same_tree(source: str) -> None:
    tree = _tree(source)
    if tree is None:
        return
    assert s.Program(StatementMapper().body(tree.body)) == tree


@PROPERTY
@given(programs())
def test_statements_nothing_changed_in_are_kept_themselves(source: str) -> None:
    """The identity mapper gives back the very body; one that changes integer
    literals copies exactly the statements that hold one."""
    tree = _tree(source)
    if tree is None:
        return
    assert StatementMapper().body(tree.body) is tree.body
    mapped = Bumper().body(tree.body)
    for before, after in zip(tree.body, mapped, strict=True):
        assert (after is before) == (not _ints(before)), before


@PROPERTY
@given(programs())
def test_every_expression_of_every_statement_reaches_expr(source: str) -> None:
    tree = _tree(source)
    if tree is None:
        return
    bumper = Bumper()
    mapped = s.Program(bumper.body(tree.body))
    assert bumper.seen == len(_ints(tree))
    assert _ints(mapped) == [v + 1 for v in _ints(tree)]
    assert node_count(mapped) == node_count(tree)


def test_sweep_is_its_own_hook_and_visits_the_iterable_first() -> None:
    order: list[str] = []

    class Recorder(StatementMapper):
        def expr(self, e: s.Expr) -> s.Expr:
            if isinstance(e, s.Name):
                order.append(e.id)
            for arg in e.args if isinstance(e, s.OpCall) else ():
                self.expr(arg)
            return e

    class Reverser(StatementMapper):
        def sweep(self, st: s.Sweep) -> s.Stmt:
            body = self.body(st.body)
            return replace(st, iterable=s.OpCall("ORDER", "", (st.iterable,), st.pos), body=body)

    tree = parse("SWEEP x IN xs:\n    EMIT(y)\nEMIT(z)", {})
    Recorder().body(tree.body)
    assert order == ["xs", "y", "z"]
    swept = Reverser().body(tree.body)[0]
    assert isinstance(swept.iterable, s.OpCall) and swept.iterable.op == "ORDER"


def _sub_nodes(value: object) -> list[object]:
    """The nodes in a field's value, in order (tuples of them, If's pairs)."""
    if isinstance(value, s._Node) and not isinstance(value, s.Pos):
        return [value]
    if isinstance(value, tuple):
        return [node for item in value for node in _sub_nodes(item)]
    return []


@PROPERTY
@given(programs())
def test_a_nodes_children_are_the_nodes_of_its_fields_in_order(source):
    tree = _tree(source)
    if tree is None:
        return
    stack: list[object] = [tree]
    kinds = set()
    while stack:
        node = stack.pop()
        kinds.add(type(node))
        expected = [n for f in fields(node) for n in _sub_nodes(getattr(node, f.name))]
        assert s.children(node) == s.children_by_kind(node) == expected
        stack.extend(s.children(node))
    assert s.Program in kinds


def test_every_node_class_has_its_children_by_class():
    # a class missing from the table would still be walked, by kind, only slower
    classes = {
        cls
        for cls in vars(s).values()
        if isinstance(cls, type) and issubclass(cls, s._Node) and cls is not s._Node
    }
    assert classes == set(s._CHILDREN)


def test_names_in_gives_every_name_read_or_bound_at_any_depth():
    tree = parse(
        "SET a, b AS STRAND(1, 2)\nSWEEP x IN c:\n    UPON d:\n        EMIT(e(f))\n"
        "CRAFT g(p, q):\n    SET r AS p\n    DELIVER q\n"
    )
    assert names_in(tree.body) == set("abcdefgpqrx")
    assert names_in([]) == set()
