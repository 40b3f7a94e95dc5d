"""Errors raised while reading AlienLogic text."""

from __future__ import annotations


class ProofSyntaxError(Exception):
    """Text that is not a formula or a proof; `line` and `column` are 1-based.

    `reason_id` is the verdict id (SYNTAX or TOO_DEEP) and `step` the position
    of the proof step the error lies in, when it lies in one.
    """

    def __init__(
        self,
        message: str,
        line: int,
        column: int,
        reason_id: str = "SYNTAX",
        step: int | None = None,
    ) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.message = message
        self.line = line
        self.column = column
        self.reason_id = reason_id
        self.step = step
