"""When two program outputs count as the same answer.

Trailing white space (of each line and of the whole output) is ignored, and
number literals compare by value, so `2` and `2.0` agree; everything else must
match exactly.
"""

from __future__ import annotations

import re

_NUMBER = re.compile(r"-?(?:\d+\.\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+)")


def normalise(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.rstrip().split("\n")]
    return lines if lines != [""] else []


def _tokens(line: str) -> list[object]:
    out: list[object] = []
    last = 0
    for m in _NUMBER.finditer(line):
        # a number glued to a name (x2) is text, not a literal
        if m.start() > 0 and (line[m.start() - 1].isalnum() or line[m.start() - 1] == "_"):
            continue
        out.append(line[last : m.start()])
        text = m.group()
        out.append(int(text) if re.fullmatch(r"-?\d+", text) else float(text))
        last = m.end()
    out.append(line[last:])
    return out


def _same_token(a: object, b: object) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return a == b  # int and float compare by value


def same_output(a: str, b: str) -> bool:
    la, lb = normalise(a), normalise(b)
    if len(la) != len(lb):
        return False
    for x, y in zip(la, lb):
        if x == y:
            continue
        tx, ty = _tokens(x), _tokens(y)
        if len(tx) != len(ty) or not all(_same_token(p, q) for p, q in zip(tx, ty)):
            return False
    return True
