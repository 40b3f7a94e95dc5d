"""Questions about a syntax tree that several tools ask."""

from __future__ import annotations

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


def node_count(node: object) -> int:
    """Nodes in a tree (expression or statement), iteratively."""
    total, stack = 0, [node]
    while stack:
        current = stack.pop()
        total += 1
        stack.extend(s.children(current))
    return total
