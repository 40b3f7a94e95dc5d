"""Rule expressions: a small S-expression language, parsed into dataclasses.

`(op arg ...)`, symbols, integers, floats, double-quoted strings, `true`,
`false`, `none`, and the bare word `IDENTITY` (the manual's semantics,
unchanged). Every node remembers its 1-based column for error messages.
"""

from __future__ import annotations

import math
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
    args: tuple[Expr, ...]
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


# What a rule expression may be (world files, reported hypotheses, the
# command line): far beyond any real rule, small enough that nothing built
# from one is expensive.
MAX_TEXT = 4000  # characters of the expression
MAX_NODES = 200  # operators, symbols and constants
MAX_DEPTH = 24  # operators nested in one another
MAX_STRING = 1000  # characters of one string constant
MAX_INT_BITS = 2048  # magnitude of one integer constant (the default integer limit)
_MAX_INT_DIGITS = 620  # enough digits for any integer within MAX_INT_BITS


def _number(value: str, text: str, column: int) -> int | float:
    is_float = any(c in value for c in ".eE")
    if is_float:
        number = float(value)
        if not math.isfinite(number):
            raise RuleSyntaxError("a float constant must be finite", text, column)
        return number
    if len(value.lstrip("-")) > _MAX_INT_DIGITS or abs(number := int(value)) >> MAX_INT_BITS:
        raise RuleSyntaxError(
            f"an integer constant must lie within {MAX_INT_BITS} bits", text, column
        )
    return number


def parse(text: str) -> Expr:
    """Parse one rule expression; raise RuleSyntaxError with a column.

    Iterative, with bounds on size, nesting and constants (MAX_* above), so
    no text can make parsing, or anything done later with the expression,
    fail or run long."""
    if not isinstance(text, str):
        raise RuleSyntaxError("a rule expression must be a string", str(text)[:MAX_TEXT], 1)
    if len(text) > MAX_TEXT:
        raise RuleSyntaxError(
            f"the expression is too long (at most {MAX_TEXT} characters)",
            text[:MAX_TEXT],
            MAX_TEXT + 1,
        )
    tokens = list(_tokens(text))
    if not tokens:
        raise RuleSyntaxError("empty expression", text, 1)
    if len(tokens) > 3 * MAX_NODES:
        raise RuleSyntaxError(
            f"the expression is too large (at most {MAX_NODES} operators, names and constants)",
            text,
            tokens[3 * MAX_NODES][2],
        )
    # Each open call is [op, column, args]; a finished node joins its parent's args.
    open_calls: list[tuple[str, int, list[Expr]]] = []
    done: list[Expr] = []
    nodes = 0
    pos = 0
    while pos < len(tokens):
        kind, value, column = tokens[pos]
        pos += 1
        if done and not open_calls:
            raise RuleSyntaxError("unexpected text after the expression", text, column)
        if kind == "open":
            if pos >= len(tokens):
                raise RuleSyntaxError("unexpected end of expression after '('", text, len(text) + 1)
            okind, op, ocol = tokens[pos]
            if okind != "symbol":
                raise RuleSyntaxError("expected an operator name after '('", text, ocol)
            pos += 1
            if len(open_calls) >= MAX_DEPTH:
                raise RuleSyntaxError(
                    f"the expression is nested too deeply (at most {MAX_DEPTH} levels)",
                    text,
                    column,
                )
            open_calls.append((op, column, []))
            node: Expr | None = None
        elif kind == "close":
            if not open_calls:
                raise RuleSyntaxError("unexpected ')'", text, column)
            op, ccol, args = open_calls.pop()
            node = Call(op, tuple(args), ccol)
        elif kind == "string":
            body = _unescape(value[1:-1], text, column)
            if len(body) > MAX_STRING:
                raise RuleSyntaxError(
                    f"a string constant may hold at most {MAX_STRING} characters", text, column
                )
            node = Const(body, column)
        elif kind == "number":
            node = Const(_number(value, text, column), column)
        elif value in _CONSTANTS:
            node = Const(_CONSTANTS[value], column)
        elif value == IDENTITY_WORD:
            node = Identity(column)
        else:
            node = Sym(value, column)
        if node is None:
            continue
        nodes += 1
        if nodes > MAX_NODES:
            raise RuleSyntaxError(
                f"the expression is too large (at most {MAX_NODES} operators, names and constants)",
                text,
                column,
            )
        (open_calls[-1][2] if open_calls else done).append(node)
    if open_calls:
        raise RuleSyntaxError("unexpected end of expression: a ')' is missing", text, len(text) + 1)
    expr = done[0]
    if isinstance(expr, Identity) or not any(isinstance(n, Identity) for n in walk(expr)):
        return expr
    bad = next(n for n in walk(expr) if isinstance(n, Identity))
    raise RuleSyntaxError(
        "IDENTITY stands alone; it cannot be part of an expression", text, bad.column
    )


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
