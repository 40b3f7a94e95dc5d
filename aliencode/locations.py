"""Positions for generated host code that carries none of its own.

`fill_locations(tree)` gives each node without a position its parent's, as
`ast.fix_missing_locations` does, with the same result, in a loop instead of
a recursive generator walk: compiling a program spent about a quarter of its
time there (a world check compiles thousands of programs).
"""

from __future__ import annotations

import ast

_POSITIONED: dict[type, bool] = {}  # whether a node class carries a position


def _positioned(cls: type) -> bool:
    found = _POSITIONED.get(cls)
    if found is None:
        found = _POSITIONED[cls] = "lineno" in cls._attributes
    return found


def fill_locations(tree: ast.AST) -> ast.AST:
    stack: list[tuple[ast.AST, int, int, int, int]] = [(tree, 1, 0, 1, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        node, line, column, end_line, end_column = pop()
        if _positioned(node.__class__):
            own = node.__dict__
            if "lineno" in own:
                line = own["lineno"]
            else:
                node.lineno = line
            if own.get("end_lineno") is None:
                node.end_lineno = end_line
            else:
                end_line = own["end_lineno"]
            if "col_offset" in own:
                column = own["col_offset"]
            else:
                node.col_offset = column
            if own.get("end_col_offset") is None:
                node.end_col_offset = end_column
            else:
                end_column = own["end_col_offset"]
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, ast.AST):
                push((value, line, column, end_line, end_column))
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        push((item, line, column, end_line, end_column))
    return tree
