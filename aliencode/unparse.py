"""Syntax tree back to AlienCode source, in a world's surface keywords.

`parse(unparse(tree, kw), kw)` gives `tree` back up to positions (and integer
literal spelling: a literal is written as its value). Programs that build
code (the porting compiler) emit source through this module, so what they
write is always something the parser reads the same way.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Mapping

from . import syntax as s

INDENT = "    "
RECURSION = 20_000  # enough for any tree the parser accepts within the interpreter's nesting limit
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0"}


class UnparseError(ValueError):
    """A tree holding something AlienCode source cannot spell (an infinite float)."""


def string_literal(value: str) -> str:
    return '"' + "".join(_ESCAPES.get(ch, ch) for ch in value) + '"'


def float_literal(value: float) -> str:
    if not math.isfinite(value):
        raise UnparseError(f"no AlienCode literal spells the float {value!r}")
    text = repr(value)
    if "." not in text and "e" not in text:
        text += ".0"
    return text


def value_literal(value: object, spell: Callable[[str], str] = lambda keyword: keyword) -> str:
    """Source that builds `value` under the manual's semantics (none, YES/NO,
    numbers, strings, lists via STRAND, tuples via KNOT), its keywords spelt
    by `spell`; raises UnparseError for anything else."""
    if value is None:
        return "none"
    if type(value) is bool:
        return spell("YES") if value else spell("NO")
    if type(value) is int:
        return str(value)
    if type(value) is float:
        return float_literal(value)
    if type(value) is str:
        return string_literal(value)
    if type(value) in (list, tuple):
        maker = spell("STRAND") if type(value) is list else spell("KNOT")
        return f"{maker}({', '.join(value_literal(v, spell) for v in value)})"
    raise UnparseError(f"no AlienCode literal builds {value!r}")


class _Writer:
    def __init__(self, keywords: Mapping[str, str]) -> None:
        self.keywords = keywords

    def kw(self, word: str) -> str:
        return self.keywords.get(word, word)

    def expr(self, e: s.Expr) -> str:
        if isinstance(e, s.IntLit):
            return e.text if e.value is None else str(e.value)
        if isinstance(e, s.FloatLit):
            return float_literal(e.value)
        if isinstance(e, s.StrLit):
            return string_literal(e.value)
        if isinstance(e, s.BoolLit):
            return self.kw("YES" if e.value else "NO")
        if isinstance(e, s.NoneLit):
            return self.kw("none")
        if isinstance(e, s.Name):
            return e.id
        if isinstance(e, s.OpCall):
            return f"{self.kw(e.op)}({', '.join(self.expr(a) for a in e.args)})"
        if isinstance(e, s.Call):
            return f"{self.expr(e.func)}({', '.join(self.expr(a) for a in e.args)})"
        raise TypeError(f"not an AlienCode expression: {e!r}")

    def block(self, body: tuple[s.Stmt, ...], depth: int) -> list[str]:
        lines: list[str] = []
        for st in body or (s.Idle(s.Pos(0, 0)),):
            lines.extend(self.stmt(st, depth))
        return lines

    def stmt(self, st: s.Stmt, depth: int) -> list[str]:
        pad = INDENT * depth
        if isinstance(st, s.Set):
            values = ", ".join(self.expr(v) for v in st.values)
            return [f"{pad}{self.kw('SET')} {', '.join(st.targets)} {self.kw('AS')} {values}"]
        if isinstance(st, s.ExprStmt):
            return [pad + self.expr(st.expr)]
        if isinstance(st, s.If):
            lines = []
            for k, (cond, body) in enumerate(st.branches):
                word = self.kw("UPON" if k == 0 else "LEST")
                lines.append(f"{pad}{word} {self.expr(cond)}:")
                lines.extend(self.block(body, depth + 1))
            if st.default is not None:
                lines.append(f"{pad}{self.kw('DEFAULT')}:")
                lines.extend(self.block(st.default, depth + 1))
            return lines
        if isinstance(st, s.Sweep):
            head = (
                f"{pad}{self.kw('SWEEP')} {', '.join(st.names)} "
                f"{self.kw('IN')} {self.expr(st.iterable)}:"
            )
            return [head, *self.block(st.body, depth + 1)]
        if isinstance(st, s.While):
            return [
                f"{pad}{self.kw('WHILE')} {self.expr(st.cond)}:",
                *self.block(st.body, depth + 1),
            ]
        if isinstance(st, s.Cease):
            return [pad + self.kw("CEASE")]
        if isinstance(st, s.Bypass):
            return [pad + self.kw("BYPASS")]
        if isinstance(st, s.Idle):
            return [pad + self.kw("IDLE")]
        if isinstance(st, s.Craft):
            head = f"{pad}{self.kw('CRAFT')} {st.name}({', '.join(st.params)}):"
            return [head, *self.block(st.body, depth + 1)]
        if isinstance(st, s.Deliver):
            word = self.kw("DELIVER")
            return [pad + word if st.value is None else f"{pad}{word} {self.expr(st.value)}"]
        raise TypeError(f"not an AlienCode statement: {st!r}")


def unparse(tree: s.Program, keywords: Mapping[str, str] | None = None) -> str:
    """The source text of `tree`, keywords spelled as in `keywords`."""
    writer = _Writer(keywords or {})
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(
        max(old_limit, RECURSION)
    )  # the writer recurses once per level of nesting
    try:
        lines = writer.block(tree.body, 0) if tree.body else []
    finally:
        sys.setrecursionlimit(old_limit)
    return "\n".join(lines) + ("\n" if lines else "")


def unparse_expr(expr: s.Expr, keywords: Mapping[str, str] | None = None) -> str:
    return _Writer(keywords or {}).expr(expr)
