"""The lexer of AlienCode's parser, driven by the terminal table that
`grammar_build.py` derives from grammar.lark (see `lalr.py` for the table).

It behaves as lark's basic lexer: at each position the terminals are tried in
lark's order of priority and the first that matches wins (not the longest);
ignored terminals are dropped; lines count the line feeds of the terminals
that may hold one. Importing lark costs a tenth of a small run's start-up,
which is why this exists.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple


class Token:
    """One token with lark's position fields (1-based lines and columns,
    0-based character offsets; an end is just past the token)."""

    __slots__ = (
        "type",
        "value",
        "start_pos",
        "line",
        "column",
        "end_line",
        "end_column",
        "end_pos",
    )

    def __init__(
        self,
        type: str,
        value: str,
        start_pos: int | None = None,
        line: int | None = None,
        column: int | None = None,
        end_line: int | None = None,
        end_column: int | None = None,
        end_pos: int | None = None,
    ) -> None:
        self.type = type
        self.value = value
        self.start_pos = start_pos
        self.line = line
        self.column = column
        self.end_line = end_line
        self.end_column = end_column
        self.end_pos = end_pos

    def retyped(self, type: str, value: str | None = None) -> Token:
        """A token of another type (and value) at this one's position."""
        return Token(
            type,
            self.value if value is None else value,
            self.start_pos,
            self.line,
            self.column,
            self.end_line,
            self.end_column,
            self.end_pos,
        )

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r}, line={self.line}, column={self.column})"


class UnexpectedCharacter(Exception):
    """No terminal matches at `pos` (line and column 1-based)."""

    def __init__(self, pos: int, line: int, column: int) -> None:
        super().__init__(f"no token at line {line}, column {column}")
        self.pos = pos
        self.line = line
        self.column = column


class Terminals(NamedTuple):
    """The lexer's table: one alternation of the terminals in priority
    order (each a group named for its terminal), the terminals it drops,
    and those whose text may span lines. (A named tuple: a frozen dataclass
    costs a run's start-up seven times as much to define.)"""

    pattern: re.Pattern[str]
    ignored: frozenset[str]
    multiline: frozenset[str]

    @classmethod
    def from_table(
        cls, ordered: list[list[str]], ignored: list[str], multiline: list[str]
    ) -> Terminals:
        alternation = "|".join(f"(?P<{name}>{regexp})" for name, regexp in ordered)
        return cls(re.compile(alternation), frozenset(ignored), frozenset(multiline))


def lex(text: str, terminals: Terminals, first_line: int = 1) -> Iterator[Token]:
    """The tokens of `text`, lazily: a bad character raises
    UnexpectedCharacter only when the tokens before it have been taken.
    `first_line`: the line `text` starts (a piece of a longer text that
    begins a line)."""
    match = terminals.pattern.match
    ignored, multiline = terminals.ignored, terminals.multiline
    pos, line, line_start = 0, first_line, 0
    end = len(text)
    while pos < end:
        found = match(text, pos)
        if found is None:
            raise UnexpectedCharacter(pos, line, pos - line_start + 1)
        kind = found.lastgroup
        value = found.group()
        start, start_line, start_column = pos, line, pos - line_start + 1
        pos = found.end()
        if kind in multiline:
            breaks = value.count("\n")
            if breaks:
                line += breaks
                line_start = start + value.rindex("\n") + 1
        if kind not in ignored:
            yield Token(
                kind, value, start, start_line, start_column, line, pos - line_start + 1, pos
            )
