"""TOML text read within bounds fixed before parsing: its size, how deeply
its arrays and tables nest, and how long its integers are.

The standard parser recurses once per nested array or inline table, so a
file of a few kilobytes (`[[[[...]]]]`) exhausts the host stack, and where
it does depends on how deep the caller already was; its time grows with the
square of a dotted key's parts (`a.a.a...`: 40,000 parts take 20 s); and it
raises a plain ValueError for an integer of more than 4,300 digits. `shape`
counts nesting and key parts in one pass over the text (strings and
comments skipped), so the verdict is the same on any machine and at any
stack depth; `depth` measures the parsed data without recursion, since a
table header and the dotted keys under it nest tables together.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass


@dataclass(frozen=True)
class TomlBounds:
    max_bytes: int
    max_depth: int  # arrays and tables, the top table counted as 1


class BoundsError(ValueError):
    """The text breaks a bound or is not TOML; the message says which, and
    where (a line) when it can."""


_SPECIAL = re.compile(r"""[\n=,\[\]{}#"'.]""")  # what `shape` looks at; the rest is skipped in C
_BASIC_STOP = re.compile(r'[\\"\n]')
_LITERAL_STOP = re.compile(r"['\n]")


def _skip_string(text: str, start: int, quote: str) -> int:
    """The index just past the string opening at `start` (an unterminated
    string ends at the end of its line, or of the text when multi-line)."""
    triple = text.startswith(quote * 3, start)
    i = start + (3 if triple else 1)
    if quote == "'":  # literal strings have no escapes
        if triple:
            end = text.find("'''", i)
            return len(text) if end < 0 else end + 3
        found = _LITERAL_STOP.search(text, i)
        return len(text) if found is None else found.start() + 1
    while True:
        found = _BASIC_STOP.search(text, i)
        if found is None:
            return len(text)
        i = found.start()
        char = text[i]
        if char == "\\":
            i += 2
        elif char == "\n":
            if not triple:
                return i + 1
            i += 1
        elif not triple:
            return i + 1
        elif text.startswith('"""', i):
            return i + 3
        else:
            i += 1


@dataclass(frozen=True)
class Shape:
    """What the text nests: the deepest brackets and braces, and the most
    parts of one dotted key (or table header), each with the line (1-based)
    where it is first reached."""

    depth: int
    depth_line: int
    key_parts: int
    key_line: int


def shape(text: str) -> Shape:
    """The Shape of `text`, in one pass; strings and comments are skipped.
    Dots are counted between delimiters (a line end, '=', ',', a bracket or
    a brace), so a float or a date counts one and a key `a.b.c` counts two."""
    depth = deepest = dots = most_dots = 0
    line = depth_line = key_line = 1
    i = 0
    while True:
        found = _SPECIAL.search(text, i)
        if found is None:
            break
        i = found.start()
        char = text[i]
        if char in "\n=,[]{}":
            dots = 0
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
        elif char == ".":
            dots += 1
            if dots > most_dots:
                most_dots, key_line = dots, line
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest, depth_line = depth, line
        elif char in "]}":
            depth = max(0, depth - 1)
        i += 1
    return Shape(deepest, depth_line, most_dots + 1, key_line)


def depth(value: object) -> int:
    """How deeply arrays and tables nest in parsed TOML (a scalar is 0)."""
    deepest = 0
    todo = [(value, 1)]
    while todo:
        item, level = todo.pop()
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        )
        if children is None:
            continue
        deepest = max(deepest, level)
        todo.extend((child, level + 1) for child in children)
    return deepest


def load(data: bytes, bounds: TomlBounds) -> tuple[str, dict]:
    """The text and the table of UTF-8 TOML `data`; raises BoundsError."""
    if len(data) > bounds.max_bytes:
        raise BoundsError(
            f"the file has {len(data):,} bytes, more than the {bounds.max_bytes:,} a sweep file "
            "may have"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BoundsError(f"not UTF-8 text (byte {exc.start + 1})") from None
    found = shape(text)
    if found.depth + 1 > bounds.max_depth:  # + 1: the top table
        raise BoundsError(
            f"line {found.depth_line}: arrays and tables nest deeper than {bounds.max_depth} levels"
        )
    if (
        found.key_parts > bounds.max_depth
    ):  # the parser's time grows with the square of a key's parts
        raise BoundsError(
            f"line {found.key_line}: a dotted key of more than {bounds.max_depth} parts"
        )
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
