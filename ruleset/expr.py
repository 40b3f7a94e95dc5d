"""Rule expressions: a small S-expression language, parsed into dataclasses.

`(op arg ...)`, symbols, integers, floats, double-quoted strings, `true`,
`false`, `none`, and the bare word `IDENTITY` (the manual's semantics,
unchanged). Every node remembers its 1-based column for error messages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import RuleSyntaxError


@dataclass(frozen=True)
class Sym:
    name: str
    column: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Const:
    value: object
    column: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Call:
    op: str
    args: tuple["Expr", ...]
    column: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Identity:
    column: int = field(default=0, compare=False)


Expr = Sym | Const | Call | Identity

IDENTITY_WORD = "IDENTITY"

_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<number>-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?(?![^\s()]))
  | (?P<symbol>[^\s()"]+)
  | (?P<bad>.)
    """,
    re.VERBOSE | re.DOTALL,
)

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "0": "\0"}
_CONSTANTS = {"true": True, "false": False, "none": None}


def _unescape(body: str, text: str, column: int) -> str:
    out = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            nxt = body[i + 1]
            if nxt not in _ESCAPES:
                raise RuleSyntaxError(f"unknown escape \\{nxt} in a string", text, column + i + 1)
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _tokens(text: str):
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind == "space":
            continue
        column = m.start() + 1
        if kind == "bad":
            if m.group() == '"':
                raise RuleSyntaxError("unterminated string", text, column)
            raise RuleSyntaxError(f"unexpected character {m.group()!r}", text, column)
        yield kind, m.group(), column


def parse(text: str) -> Expr:
    """Parse one rule expression; raise RuleSyntaxError with a column."""
    if not isinstance(text, str):
        raise RuleSyntaxError("a rule expression must be a string", str(text), 1)
    tokens = list(_tokens(text))
    if not tokens:
        raise RuleSyntaxError("empty expression", text, 1)
    pos = 0

    def node() -> Expr:
        nonlocal pos
        if pos >= len(tokens):
            raise RuleSyntaxError("unexpected end of expression: a ')' is missing", text, len(text) + 1)
        kind, value, column = tokens[pos]
        pos += 1
        if kind == "open":
            if pos >= len(tokens):
                raise RuleSyntaxError("unexpected end of expression after '('", text, len(text) + 1)
            okind, op, ocol = tokens[pos]
            if okind != "symbol":
                raise RuleSyntaxError("expected an operator name after '('", text, ocol)
            pos += 1
            args = []
            while True:
                if pos >= len(tokens):
                    raise RuleSyntaxError("unexpected end of expression: a ')' is missing", text, len(text) + 1)
                if tokens[pos][0] == "close":
                    pos += 1
                    return Call(op, tuple(args), column)
                args.append(node())
        if kind == "close":
            raise RuleSyntaxError("unexpected ')'", text, column)
        if kind == "string":
            return Const(_unescape(value[1:-1], text, column), column)
        if kind == "number":
            is_float = any(c in value for c in ".eE")
            return Const(float(value) if is_float else int(value), column)
        if value in _CONSTANTS:
            return Const(_CONSTANTS[value], column)
        if value == IDENTITY_WORD:
            return Identity(column)
        return Sym(value, column)

    expr = node()
    if pos != len(tokens):
        raise RuleSyntaxError("unexpected text after the expression", text, tokens[pos][2])
    if isinstance(expr, Identity) or not any(isinstance(n, Identity) for n in walk(expr)):
        return expr
    bad = next(n for n in walk(expr) if isinstance(n, Identity))
    raise RuleSyntaxError("IDENTITY stands alone; it cannot be part of an expression", text, bad.column)


def walk(expr: Expr):
    """Every node of `expr`, parents before children."""
    stack = [expr]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, Call):
            stack.extend(reversed(n.args))


def _const_text(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "none"
    if isinstance(value, str):
        body = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        body = body.replace("\t", "\\t").replace("\r", "\\r").replace("\0", "\\0")
        return f'"{body}"'
    return repr(value)


def to_text(expr: Expr) -> str:
    """Canonical text: single spaces, canonical numbers and strings."""
    if isinstance(expr, Identity):
        return IDENTITY_WORD
    if isinstance(expr, Sym):
        return expr.name
    if isinstance(expr, Const):
        return _const_text(expr.value)
    return "(" + " ".join([expr.op, *(to_text(a) for a in expr.args)]) + ")"


def symbols(expr: Expr) -> set[str]:
    return {n.name for n in walk(expr) if isinstance(n, Sym)}
