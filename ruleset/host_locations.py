"""Positions for generated host code that carries none of its own.

`fill_locations(tree)` gives each node without a position its parent's
start (line and column), as `ast.fix_missing_locations` does for the start,
in a loop instead of a recursive generator walk: compiling a program spent
about a quarter of its time there (a world check compiles thousands of
programs). The standard walk is also a recursive closure, a reference cycle
left to the host's cycle collector on every call. End positions are left
out: the host's compiler then ends a node where it starts, and nothing reads
them (the runtime reports an error at the start of the instruction that
failed, runtime.py); leaving them out halves the attributes written here and
read again by the host's compile. AlienCode's compiler and compiled rules
use it.
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
    stack: list[tuple[ast.AST, int, int]] = [(tree, 1, 0)]
    pop, push, plans = stack.pop, stack.append, _PLANS
    while stack:
        node, line, column = pop()
        cls = node.__class__
        positioned, fields = plans.get(cls) or _plan(cls)
        if positioned:
            own = node.__dict__
            if "lineno" in own:
                line = own["lineno"]
            else:
                node.lineno = line
            if "col_offset" in own:
                column = own["col_offset"]
            else:
                node.col_offset = column
        for name in fields:
            value = getattr(node, name, None)
            if value.__class__ is list:
                for item in value:
                    if isinstance(item, ast.AST):
                        push((item, line, column))
            elif isinstance(value, ast.AST):
                push((value, line, column))
    return tree
