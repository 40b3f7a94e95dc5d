"""AlienCode's error type: what a program's user sees, with its position."""

from __future__ import annotations

# Error messages are bounded: a name or token quoted in one is cut at
# NAME_CHARS characters, and a whole message at MESSAGE_CHARS.
NAME_CHARS = 40
MESSAGE_CHARS = 400


def short(text: str, limit: int = NAME_CHARS) -> str:
    """`text` cut to at most `limit` characters, marked with '…' when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class AlienError(Exception):
    """An error of an AlienCode program, printed as
    `[AlienError] <Kind>: <message> (line N)`."""

    def __init__(
        self, kind: str, message: str, line: int | None = None, column: int | None = None
    ) -> None:
        message = short(message, MESSAGE_CHARS)
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        where = f" (line {self.line})" if self.line is not None else ""
        return f"[AlienError] {self.kind}: {self.message}{where}"

    def as_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "message": self.message,
            "line": self.line,
            "column": self.column,
        }


class AlienSyntaxError(AlienError):
    """A program refused before it runs (by the parser or the compiler).

    `kind` is SyntaxError, or LimitExceeded for a program beyond the source
    limits (size, tokens, the wall-clock backstop while compiling), or
    InternalError for a failure of ours. `at_end`: the text stopped where
    more was expected (an interactive shell reads another line instead of
    reporting the error)."""

    def __init__(
        self,
        message: str,
        line: int | None,
        column: int | None,
        at_end: bool = False,
        kind: str = "SyntaxError",
    ) -> None:
        super().__init__(kind, message, line, column)
        self.at_end = at_end
