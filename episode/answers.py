"""Reading rule reports (`ID: expression` lines) from free-form replies.

Replies are hostile input: everything here reads the text line by line with
string methods (`tasks.answer_text.lines`), in time linear in its length;
no regular expression runs over a whole line. Answers to held-out tasks
are read by the graders' own readers (tasks.aliencode_reader,
tasks.alienlogic_reader).
"""

from __future__ import annotations

import re

from alienworlds.tasks.answer_text import lines as text_lines


def _skip(s: str, i: int, ch: str, most: int) -> int:
    """The position after at most `most` copies of `ch` from position i."""
    while most and i < len(s) and s[i] == ch:
        i += 1
        most -= 1
    return i


def _rule_line(line: str) -> tuple[str, str] | None:
    """(id, rest) for a line `ID: rest` of a rule report: decorations
    before the id (bullets, quoting, emphasis, a table bar), emphasis and
    backticks around it, remarks in parentheses or brackets after it, then
    `:`, `=` or `|`."""
    s, i, n = line, 0, len(line)
    while i < n and s[i] in " \t>*_-+|":
        i += 1
    i = _skip(s, _skip(s, i, "`", 1), "*", 2)
    if i >= n or not (s[i].isascii() and s[i].isalpha()):
        return None
    start = i
    while i < n and s[i].isascii() and (s[i].isalnum() or s[i] in "_."):
        i += 1
    rid = s[start:i]
    i = _skip(s, _skip(s, _skip(s, i, "*", 2), "`", 1), "*", 2)
    while True:
        j = i
        while j < n and s[j] in " \t":
            j += 1
        if j < n and s[j] in "([":
            close = s.find(")" if s[j] == "(" else "]", j + 1)
            if close < 0:
                return None
            i = close + 1
            continue
        i = j
        break
    i = _skip(s, i, "*", 2)
    if i >= n or s[i] not in ":=|":
        return None
    return rid, s[i + 1 :].lstrip(" \t")


def _expression(rest: str) -> str:
    """The rule expression at the start of `rest`: a balanced (...) or one word."""
    rest = rest.strip().strip("*").strip()
    if rest.startswith("`"):
        inner = rest[1:].split("`", 1)[0]
        rest = inner.strip()
    if rest.startswith("("):
        depth, in_str, escape = 0, False, False
        for i, ch in enumerate(rest):
            if in_str:
                if escape:
                    escape = False
                elif ch == "\\":
                    escape = True
                elif ch == '"':
                    in_str = False
                continue
            if ch == '"':
                in_str = True
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    return rest[: i + 1]
        return rest  # unbalanced: let the scorer reject it
    word = re.match(r"[^\s,;|`]+", rest)
    return word.group().rstrip(".") if word else ""


def rule_lines(text: str, ids: list[str]) -> dict[str, str]:
    """`ID: expression` lines for the given ids (the last line for an id wins)."""
    wanted = {i.upper(): i for i in ids}
    out: dict[str, str] = {}
    for line in text_lines(text):
        if ":" not in line and "=" not in line and "|" not in line:
            continue
        got = _rule_line(line)
        if got is None:
            continue
        rid = wanted.get(got[0].upper())
        if rid is None:
            continue
        expr = _expression(got[1])
        if expr:
            out[rid] = expr
    return out
