"""Python-compatible text of values, computed within a size budget and charged.

A top-level value prints like Python's `str()`, values inside lists and tuples
like `repr()`. Rendering is iterative (no host recursion; one frame per open
container, never one entry per element), refuses text beyond its budget
before building it where the size can be bounded first (a string, a large
integer), marks a container that contains itself as `[...]` / `(...)` the
way Python does, and reports its work through `charge`: one step per
element visited and one per CHARS_PER_STEP characters produced, charged as
it goes, so a long rendering reaches the run's checkpoints.
"""

from __future__ import annotations

from collections.abc import Callable

from .errors import LimitExceeded

CHARS_PER_STEP = 64
CHARGE_EVERY = 256  # elements visited between two charges
_LOG10_2 = 0.30102999566398
_SMALL = 1 << 256  # integers whose text is short enough to build unchecked


class TextTooLong(LimitExceeded):
    """The text would exceed the budget; callers name their own limit."""

    def __init__(self) -> None:
        super().__init__("output size")


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


def _least_size(value: object, quoted: bool) -> int:
    """A lower bound of the length of `_atom(value, quoted)`, known without
    building it (so a text far beyond the budget is never built)."""
    cls = type(value)
    if cls is str:
        return len(value) + 2 if quoted else len(value)
    if cls is int:
        return int(value.bit_length() * _LOG10_2)
    return 0


def _free(steps: int) -> None:
    return None


def render(
    value: object,
    *,
    quoted: bool = False,
    budget: int = 1_000_000,
    max_nesting: int = 400,
    charge: Callable[[int], None] = _free,
) -> str:
    """Text of `value`; `quoted` renders a top-level string like repr().

    Raises TextTooLong (a LimitExceeded) when the text would exceed `budget`
    characters and LimitExceeded("nesting depth") past `max_nesting` levels;
    `charge(steps)` is called with the work done (see the module docstring).
    """
    cls = type(value)
    if cls is not list and cls is not tuple:
        if _least_size(value, quoted) > budget:
            raise TextTooLong()
        text = _atom(value, quoted)
        if len(text) > budget:
            raise TextTooLong()
        charge(len(text) // CHARS_PER_STEP)
        return text
    parts: list[str] = ["[" if cls is list else "("]
    size = 1
    visited = charged_size = 0
    frames: list[list] = [[value, 0]]  # [container, index of the next element]
    active = {id(value)}  # containers on the current path: a repeat is a cycle
    append = parts.append
    while frames:
        frame = frames[-1]
        seq, i = frame
        n = len(seq)
        while i < n:
            v = seq[i]
            if i:
                append(", ")
                size += 2
            i += 1
            vc = type(v)
            if vc is float or (vc is int and -_SMALL < v < _SMALL):
                piece = repr(v)
            elif vc is str:
                if size + len(v) + 2 > budget:
                    raise TextTooLong()
                piece = repr(v)
            elif vc is list or vc is tuple:
                if id(v) in active:
                    piece = "[...]" if vc is list else "(...)"
                else:
                    if len(frames) >= max_nesting:
                        raise LimitExceeded("nesting depth")
                    active.add(id(v))
                    frame[1] = i
                    frames.append([v, 0])
                    piece = "[" if vc is list else "("
            else:
                if size + _least_size(v, True) > budget:
                    raise TextTooLong()
                piece = _atom(v, True)
            size += len(piece)
            if size > budget:
                raise TextTooLong()
            append(piece)
            visited += 1
            if not visited % CHARGE_EVERY:
                charge(CHARGE_EVERY + (size - charged_size) // CHARS_PER_STEP)
                charged_size = size
            if frames[-1] is not frame:
                break  # descend into the container just opened
        else:
            frames.pop()
            active.discard(id(seq))
            closer = "]" if type(seq) is list else (",)" if n == 1 else ")")
            append(closer)
            size += len(closer)
            if size > budget:
                raise TextTooLong()
    charge(1 + visited % CHARGE_EVERY + (size - charged_size) // CHARS_PER_STEP)
    return "".join(parts)
