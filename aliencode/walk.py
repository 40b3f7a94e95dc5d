"""Questions about a syntax tree that several tools ask."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from operator import is_

from . import syntax as s

LITERAL_SITES = {
    s.IntLit: "literal.int",
    s.FloatLit: "literal.float",
    s.StrLit: "literal.str",
    s.BoolLit: "literal.bool",
}


def sites_in(tree: s.Program) -> set[str]:
    """Every site the program's text reaches (rules act only at sites)."""
    found: set[str] = set()
    stack: list[object] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, s.OpCall):
            found.add(node.op)
        elif isinstance(node, s.Sweep):
            found.add("SWEEP")
        elif type(node) in LITERAL_SITES:
            found.add(LITERAL_SITES[type(node)])
        stack.extend(s.children(node))
    return found


def names_in(roots: Iterable[object]) -> set[str]:
    """Every name the nodes mention or bind, at any depth: names read, SET
    targets, loop names, CRAFT names and parameters."""
    out: set[str] = set()
    stack: list[object] = list(roots)
    while stack:
        node = stack.pop()
        if isinstance(node, s.Name):
            out.add(node.id)
        elif isinstance(node, s.Set):
            out.update(node.targets)
        elif isinstance(node, s.Sweep):
            out.update(node.names)
        elif isinstance(node, s.Craft):
            out.add(node.name)
            out.update(node.params)
        stack.extend(s.children(node))
    return out


def nodes(node: object) -> Iterator[object]:
    """The node and everything under it, in preorder (source order),
    iteratively: nested generators would cost a frame per level for every
    node."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(s.children(current)))


def node_count(node: object) -> int:
    """Nodes in a tree (expression or statement), iteratively."""
    total, stack = 0, [node]
    while stack:
        current = stack.pop()
        total += 1
        stack.extend(s.children(current))
    return total


def kept(new: tuple, old: tuple) -> tuple:
    """`old` when `new` holds the very objects `old` holds (nothing under them
    was rebuilt), else `new`."""
    return old if all(map(is_, new, old)) else new


class StatementMapper:
    """Rebuilds statements with every expression mapped by `expr` and every
    SWEEP by `sweep`; both are identities here, for subclasses to override.

    Blocks are visited in source order (a SWEEP's iterable before its body),
    since a subclass may record what it meets and name things in that order.
    Nodes are built by their classes, not by dataclasses.replace, which costs
    several times as much (the adaptive strategies rebuild trees by the
    hundred thousand). A statement whose parts all come back as they were is
    kept itself, not copied: trees are immutable, and tools that keep facts
    about a statement by its identity (tasks/aliencode_statement_memo.py)
    then find them again.
    """

    def expr(self, e: s.Expr) -> s.Expr:
        return e

    def body(self, stmts: tuple[s.Stmt, ...]) -> tuple[s.Stmt, ...]:
        return kept(tuple(self.stmt(st) for st in stmts), stmts)

    def stmt(self, st: s.Stmt) -> s.Stmt:
        if isinstance(st, s.Set):
            values = kept(tuple(self.expr(v) for v in st.values), st.values)
            return st if values is st.values else s.Set(st.targets, values, st.pos)
        if isinstance(st, s.ExprStmt):
            e = self.expr(st.expr)
            return st if e is st.expr else s.ExprStmt(e, st.pos)
        if isinstance(st, s.Deliver):
            value = None if st.value is None else self.expr(st.value)
            return st if value is st.value else s.Deliver(value, st.pos)
        if isinstance(st, s.If):
            branches = tuple((self.expr(c), self.body(b)) for c, b in st.branches)
            default = None if st.default is None else self.body(st.default)
            same = default is st.default and all(
                c is c0 and b is b0 for (c, b), (c0, b0) in zip(branches, st.branches)
            )
            return st if same else s.If(branches, default, st.pos)
        if isinstance(st, s.While):
            cond, body = self.expr(st.cond), self.body(st.body)
            return st if cond is st.cond and body is st.body else s.While(cond, body, st.pos)
        if isinstance(st, s.Sweep):
            return self.sweep(st)
        if isinstance(st, s.Craft):
            body = self.body(st.body)
            return st if body is st.body else s.Craft(st.name, st.params, body, st.pos)
        return st

    def sweep(self, st: s.Sweep) -> s.Stmt:
        iterable, body = self.expr(st.iterable), self.body(st.body)
        if iterable is st.iterable and body is st.body:
            return st
        return s.Sweep(st.names, iterable, body, st.pos)
