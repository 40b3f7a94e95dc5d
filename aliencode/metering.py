"""Probe metering (docs/aliencode.md), computed on the syntax tree.

Each EMIT call costs its number of top-level arguments (at least 1), times 3
when it stands lexically inside a SWEEP or WHILE body. Strings and comments
cost nothing; a program's cost does not depend on how often a loop runs.
"""

from __future__ import annotations

from . import syntax as s

PROBE_CAP = 5
LOOP_FACTOR = 3


def units(program: s.Program) -> int:
    total = 0
    stack: list[tuple[object, bool]] = [(node, False) for node in program.body]
    while stack:
        node, in_loop = stack.pop()
        if isinstance(node, s.OpCall) and node.op == "EMIT":
            total += max(1, len(node.args)) * (LOOP_FACTOR if in_loop else 1)
        if isinstance(node, (s.Sweep, s.While)):
            head = node.iterable if isinstance(node, s.Sweep) else node.cond
            stack.append((head, in_loop))
            stack.extend((child, True) for child in node.body)
            continue
        stack.extend((child, in_loop) for child in s.children(node))
    return total
