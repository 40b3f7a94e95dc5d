"""Python-compatible text of values, computed with a size budget.

A top-level value prints like Python's `str()`, values inside lists and tuples
like `repr()`. Rendering is iterative (no host recursion), stops as soon as the
text would exceed its budget, and marks a container that contains itself as
`[...]` / `(...)` the way Python does.
"""

from __future__ import annotations

from .errors import LimitExceeded

_OPEN = object()  # stack marker: leave a container


def type_name(value: object) -> str:
    """The language's name for a value's type (used in error messages)."""
    if value is None:
        return "none"
    if value is True or value is False:
        return "bool"
    cls = type(value)
    if cls is int:
        return "int"
    if cls is float:
        return "float"
    if cls is str:
        return "str"
    if cls is list:
        return "list"
    if cls is tuple:
        return "tuple"
    if callable(value):
        return "function"
    return "value"


def function_name(fn: object) -> str:
    return getattr(fn, "alien_name", None) or "anonymous"


def _atom(value: object, quoted: bool) -> str:
    if value is True:
        return "True"
    if value is False:
        return "False"
    if value is None:
        return "None"
    cls = type(value)
    if cls is str:
        return repr(value) if quoted else value
    if cls is int or cls is float:
        return repr(value)
    if callable(value):
        return f"<function {function_name(value)}>"
    return str(value)  # a language's own value type (e.g. an AlienLogic formula) prints itself


def render(value: object, *, quoted: bool = False, budget: int = 1_000_000, max_nesting: int = 400) -> str:
    """Text of `value`; `quoted` renders a top-level string like repr().

    Raises LimitExceeded("output size") when the text would exceed `budget`
    characters and LimitExceeded("nesting depth") past `max_nesting` levels.
    """
    cls = type(value)
    if cls is not list and cls is not tuple:
        text = _atom(value, quoted)
        if len(text) > budget:
            raise LimitExceeded("output size")
        return text
    parts: list[str] = []
    size = 0
    active: set[int] = set()
    # Each entry is (value, depth) to render, a literal string, or (_OPEN, id).
    stack: list[object] = [(value, 0)]
    while stack:
        item = stack.pop()
        if type(item) is str:
            piece = item
        elif item[0] is _OPEN:
            active.discard(item[1])
            continue
        else:
            v, depth = item
            vc = type(v)
            if vc is list or vc is tuple:
                key = id(v)
                if key in active:
                    piece = "[...]" if vc is list else "(...)"
                else:
                    if depth >= max_nesting:
                        raise LimitExceeded("nesting depth")
                    active.add(key)
                    stack.append((_OPEN, key))
                    if vc is list:
                        stack.append("]")
                    else:
                        stack.append(",)" if len(v) == 1 else ")")
                    for i in range(len(v) - 1, -1, -1):
                        stack.append((v[i], depth + 1))
                        if i:
                            stack.append(", ")
                    piece = "[" if vc is list else "("
            else:
                piece = _atom(v, True)
        size += len(piece)
        if size > budget:
            raise LimitExceeded("output size")
        parts.append(piece)
    return "".join(parts)
