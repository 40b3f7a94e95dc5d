"""Robust extraction of answers from free-form replies.

A reply may wrap its answer in prose, use several fenced blocks, forget to
close the last fence, tag the block or not, or write a one-line prediction.
Whatever cannot be read as an answer is None, and scores zero.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*$", re.M)


@dataclass(frozen=True)
class Block:
    tag: str
    body: str
    closed: bool


def fenced_blocks(text: str) -> list[Block]:
    """Every fenced block, in order; an unclosed last fence runs to the end."""
    blocks: list[Block] = []
    pos = 0
    while True:
        m = _FENCE.search(text, pos)
        if not m:
            return blocks
        fence, tag = m.group(1), m.group(2).lower()
        start = m.end() + 1
        closer = re.compile(r"^[ \t]*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$", re.M)
        end = closer.search(text, start) if start <= len(text) else None
        if end is None:
            blocks.append(Block(tag, text[start:] if start <= len(text) else "", False))
            return blocks
        blocks.append(Block(tag, text[start:end.start()].rstrip("\n"), True))
        pos = end.end()


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


_PREDICTION = re.compile(r"^[ \t>*_]*(?:PREDICTION|PREDICTED OUTPUT|OUTPUT|ANSWER)[*_ ]*:[*_ ]*(.*?)[ \t]*$", re.I | re.M)


def prediction(text: str) -> str | None:
    """A predicted output: an ```output block, else a `PREDICTION: ...` line,
    else the only fenced block."""
    block = pick_block(text, ("output", "text", "stdout", "plaintext", "console"), avoid=())
    tagged = [b for b in fenced_blocks(text) if b.tag in ("output", "text", "stdout", "plaintext", "console")]
    if tagged:
        return block
    lines = _PREDICTION.findall(text)
    if lines:
        value = lines[-1].strip()
        if len(value) >= 2 and value[0] == value[-1] == "`":
            value = value.strip("`")
        return value
    blocks = [b for b in fenced_blocks(text) if b.body.strip()]
    if len(blocks) == 1:
        return _dedent_body(blocks[0].body)
    return None


_REFUSAL = re.compile(r"^[ \t>*_]*ANSWER[*_ ]*:[*_ ]*`?UNPROVABLE`?[ \t.]*$", re.I | re.M)


def refusal(text: str) -> bool:
    """Whether the reply declines with a line `ANSWER: UNPROVABLE`."""
    return bool(_REFUSAL.search(text))


_RULE_LINE = re.compile(
    r"^[ \t>*_\-+|]*`?\*{0,2}(?P<id>[A-Za-z][A-Za-z0-9_.]*)\*{0,2}`?\*{0,2}"
    r"(?:[ \t]*\([^)\n]*\)|[ \t]*\[[^\]\n]*\])*[ \t]*\*{0,2}[:=|][ \t]*(?P<rest>.*)$",
    re.M,
)


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
                    return rest[:i + 1]
        return rest  # unbalanced: let the scorer reject it
    word = re.match(r"[^\s,;|`]+", rest)
    return word.group().rstrip(".") if word else ""


def rule_lines(text: str, ids: list[str]) -> dict[str, str]:
    """`ID: expression` lines for the given ids (the last line for an id wins)."""
    wanted = {i.upper(): i for i in ids}
    out: dict[str, str] = {}
    for m in _RULE_LINE.finditer(text):
        rid = wanted.get(m.group("id").upper())
        if rid is None:
            continue
        expr = _expression(m.group("rest"))
        if expr:
            out[rid] = expr
    return out
