"""Positions for generated host code that carries none of its own.

`fill_locations(tree)` gives each node without a position its parent's, as
`ast.fix_missing_locations` does, with the same result, in a loop instead of
a recursive generator walk: compiling a program spent about a quarter of its
time there (a world check compiles thousands of programs). The standard walk
is also a recursive closure, a reference cycle left to the host's cycle
collector on every call. AlienCode's compiler and compiled rules use it.
"""

from __future__ import annotations

import ast

# Fields that hold an expression context or an operator (Load, Add, Eq, ...):
# nodes without a position or children of their own, so never walked.
_LEAVES = frozenset({"ctx", "op", "ops"})
_PLANS: dict[type, tuple[bool, tuple[str, ...]]] = {}  # class -> (positioned, child fields)


def _plan(cls: type) -> tuple[bool, tuple[str, ...]]:
    fields = () if cls is ast.Constant else tuple(f for f in cls._fields if f not in _LEAVES)
    plan = _PLANS[cls] = ("lineno" in cls._attributes, fields)
    return plan


def fill_locations(tree: ast.AST) -> ast.AST:
    stack: list[tuple[ast.AST, tuple[int, int, int, int]]] = [(tree, (1, 0, 1, 0))]
    pop, push, plans = stack.pop, stack.append, _PLANS
    while stack:
        node, where = pop()
        cls = node.__class__
        positioned, fields = plans.get(cls) or _plan(cls)
        if positioned:
            line, column, end_line, end_column = where
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
            where = (line, column, end_line, end_column)
        for name in fields:
            value = getattr(node, name, None)
            if value.__class__ is list:
                for item in value:
                    if isinstance(item, ast.AST):
                        push((item, where))
            elif isinstance(value, ast.AST):
                push((value, where))
    return tree
