"""AlienCode's error type: what a program's user sees, with its position."""

from __future__ import annotations


class AlienError(Exception):
    """An error of an AlienCode program, printed as
    `[AlienError] <Kind>: <message> (line N)`."""

    def __init__(self, kind: str, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        where = f" (line {self.line})" if self.line is not None else ""
        return f"[AlienError] {self.kind}: {self.message}{where}"

    def as_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "message": self.message, "line": self.line, "column": self.column}


class AlienSyntaxError(AlienError):
    """`at_end`: the text stopped where more was expected (an interactive
    shell reads another line instead of reporting the error)."""

    def __init__(self, message: str, line: int | None, column: int | None, at_end: bool = False) -> None:
        super().__init__("SyntaxError", message, line, column)
        self.at_end = at_end
