"""Robust extraction of answers from free-form replies.

A reply may wrap its answer in prose, use several fenced blocks, forget to
close the last fence, tag the block or not, or write a one-line prediction.
Whatever cannot be read as an answer is None, and scores zero.

Replies are hostile input: everything here reads the text line by line with
string methods (`tasks.answer_text.lines`), in time linear in its length;
no regular expression runs over a whole line. AlienLogic answers (proofs
and refusals) are read by the grader's own reader, `tasks.answer_text`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from alienworlds.tasks.answer_text import lines as text_lines


@dataclass(frozen=True)
class Block:
    tag: str
    body: str
    closed: bool


def _fence(line: str) -> tuple[str, str] | None:
    """(fence, tag) when the line opens a fence: three or more backticks or
    tildes after blanks, then the tag (up to a blank or a backtick)."""
    s = line.lstrip(" \t")
    if not s or s[0] not in "`~":
        return None
    mark = s[0]
    n = len(s) - len(s.lstrip(mark))
    if n < 3:
        return None
    rest = s[n:].lstrip(" \t")
    end = 0
    while end < len(rest) and not (rest[end].isspace() or rest[end] == "`"):
        end += 1
    return s[:n], rest[:end]


def _closes(line: str, fence: str) -> bool:
    """Whether the line is only the fence's mark, at least as long, and blanks."""
    s = line.strip(" \t")
    return len(s) >= len(fence) and s.strip(fence[0]) == ""


def fenced_blocks(text: str) -> list[Block]:
    """Every fenced block, in order; an unclosed last fence runs to the end."""
    rows = text_lines(text)
    # only lines with a run of marks can open or close a fence
    marked = [i for i, row in enumerate(rows) if "```" in row or "~~~" in row]
    blocks: list[Block] = []
    k = 0
    while k < len(marked):
        i = marked[k]
        opened = _fence(rows[i])
        k += 1
        if opened is None:
            continue
        fence, tag = opened
        while k < len(marked) and not _closes(rows[marked[k]], fence):
            k += 1
        if k == len(marked):
            blocks.append(Block(tag.lower(), "\n".join(rows[i + 1 :]), False))
            return blocks
        j = marked[k]
        blocks.append(Block(tag.lower(), "\n".join(rows[i + 1 : j]).rstrip("\n"), True))
        k += 1
    return blocks


def _dedent_body(body: str) -> str:
    return body.strip("\n")


def pick_block(text: str, prefer: tuple[str, ...], avoid: tuple[str, ...] = ()) -> str | None:
    """The last block tagged with a preferred tag; else the last untagged or
    otherwise-tagged one not in `avoid`; else None."""
    blocks = [b for b in fenced_blocks(text) if b.body.strip()]
    for group in (lambda b: b.tag in prefer, lambda b: b.tag not in avoid):
        chosen = [b for b in blocks if group(b)]
        if chosen:
            return _dedent_body(chosen[-1].body)
    return None


_PREDICTION_WORDS = ("PREDICTION", "PREDICTED OUTPUT", "OUTPUT", "ANSWER")


def _prediction_line(line: str) -> str | None:
    """The value of a line `PREDICTION: value` (or OUTPUT, PREDICTED OUTPUT,
    ANSWER; any case, markdown emphasis and quoting around the word)."""
    s = line.lstrip(" \t>*_")
    upper = s[: len("PREDICTED OUTPUT")].upper()
    for word in _PREDICTION_WORDS:
        if upper.startswith(word):
            rest = s[len(word) :].lstrip("*_ ")
            if rest.startswith(":"):
                return rest[1:].lstrip("*_ ").rstrip(" \t")
            return None
    return None


def prediction(text: str) -> str | None:
    """A predicted output: an ```output block, else a `PREDICTION: ...` line,
    else the only fenced block."""
    block = pick_block(text, ("output", "text", "stdout", "plaintext", "console"), avoid=())
    tagged = [
        b
        for b in fenced_blocks(text)
        if b.tag in ("output", "text", "stdout", "plaintext", "console")
    ]
    if tagged:
        return block
    found = [
        v
        for v in (_prediction_line(row) for row in text_lines(text) if ":" in row)
        if v is not None
    ]
    if found:
        value = found[-1].strip()
        if len(value) >= 2 and value[0] == value[-1] == "`":
            value = value.strip("`")
        return value
    blocks = [b for b in fenced_blocks(text) if b.body.strip()]
    if len(blocks) == 1:
        return _dedent_body(blocks[0].body)
    return None


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
