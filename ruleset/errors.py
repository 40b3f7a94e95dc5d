"""Errors of the rule layer.

Two families: problems with the *text* of a rule expression or world file
(found before anything runs), and language errors raised while a value is
computed. The second family is what interpreters report to their users as
`[AlienError] <kind>: <message>`; it never carries host detail.
"""

from __future__ import annotations


class RuleSyntaxError(Exception):
    """A rule expression that does not parse; `column` is 1-based."""

    def __init__(self, message: str, text: str, column: int) -> None:
        super().__init__(f"{message} (column {column})")
        self.message = message
        self.text = text
        self.column = column


class LanguageError(Exception):
    """An error of the computed language: a kind such as TypeError and a message.

    Interpreters add the position; the rule layer does not know about source
    lines.
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


class LimitExceeded(LanguageError):
    """A resource limit was reached; `which` names the limit."""

    def __init__(self, which: str) -> None:
        super().__init__("LimitExceeded", which)
        self.which = which


def type_error(message: str) -> LanguageError:
    return LanguageError("TypeError", message)


def value_error(message: str) -> LanguageError:
    return LanguageError("ValueError", message)


def index_error(message: str) -> LanguageError:
    return LanguageError("IndexError", message)


def zero_division(message: str) -> LanguageError:
    return LanguageError("ZeroDivisionError", message)
