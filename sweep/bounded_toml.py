"""TOML text read within bounds fixed before parsing: its size, how deeply
its arrays and tables nest, and how long its integers are.

The standard parser recurses once per nested array or inline table, so a
file of a few kilobytes (`[[[[...]]]]`) exhausts the host stack, and where
it does depends on how deep the caller already was; it also raises a plain
ValueError for an integer of more than 4,300 digits. `nesting` counts the
depth in one pass over the text (strings and comments skipped), so the
verdict is the same on any machine and at any stack depth; `depth` measures
the parsed data without recursion, since dotted keys (`a.b.c = 1`) nest
tables without brackets.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass


@dataclass(frozen=True)
class TomlBounds:
    max_bytes: int
    max_depth: int  # arrays and tables, the top table counted as 1


class BoundsError(ValueError):
    """The text breaks a bound or is not TOML; the message says which, and
    where (a line) when it can."""


def _skip_string(text: str, start: int, quote: str) -> int:
    """The index just past the string opening at `start` (an unterminated
    string ends at the end of its line, or of the text when multi-line)."""
    triple = text.startswith(quote * 3, start)
    i = start + (3 if triple else 1)
    escapes = quote == '"'
    while i < len(text):
        char = text[i]
        if escapes and char == "\\":
            i += 2
            continue
        if triple and text.startswith(quote * 3, i):
            return i + 3
        if not triple and (char == quote or char == "\n"):
            return i + 1
        i += 1
    return i


def nesting(text: str) -> tuple[int, int]:
    """The deepest nesting of brackets and braces outside strings and
    comments, and the line where it is first reached (1-based)."""
    depth = deepest = 0
    line = where = 1
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\n":
            line += 1
        elif char == "#":
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        elif char in "\"'":
            end = _skip_string(text, i, char)
            line += text.count("\n", i, end)
            i = end
            continue
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest, where = depth, line
        elif char in "]}":
            depth = max(0, depth - 1)
        i += 1
    return deepest, where


def depth(value: object) -> int:
    """How deeply arrays and tables nest in parsed TOML (a scalar is 0)."""
    deepest = 0
    todo = [(value, 1)]
    while todo:
        item, level = todo.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, level)
        todo.extend((child, level + 1) for child in children)
    return deepest


def load(data: bytes, bounds: TomlBounds) -> tuple[str, dict]:
    """The text and the table of UTF-8 TOML `data`; raises BoundsError."""
    if len(data) > bounds.max_bytes:
        raise BoundsError(f"the file has {len(data):,} bytes, more than the {bounds.max_bytes:,} a sweep file may have")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BoundsError(f"not UTF-8 text (byte {exc.start + 1})") from None
    deepest, line = nesting(text)
    if deepest + 1 > bounds.max_depth:  # + 1: the top table
        raise BoundsError(f"line {line}: arrays and tables nest deeper than {bounds.max_depth} levels")
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BoundsError(f"not valid TOML: {exc}") from None
    except ValueError as exc:  # an integer beyond the interpreter's digit limit
        raise BoundsError(f"not usable TOML: {str(exc).split(':')[0]}") from None
    except RecursionError:  # a backstop only: `nesting` bounds what the parser recurses on
        raise BoundsError(f"arrays and tables nest deeper than {bounds.max_depth} levels") from None
    if depth(table) > bounds.max_depth:
        raise BoundsError(f"tables nest deeper than {bounds.max_depth} levels (dotted keys)")
    return text, table
