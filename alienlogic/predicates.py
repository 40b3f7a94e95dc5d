"""The vocabulary of world side conditions (docs/worlds.md).

A `require` predicate or a `conclusion` expression is a rule expression over
one step. Operands: `depth`, `line`, `nrefs`, `conclusion`; functions
`(ref k)`, `(refline k)`, `(times-cited k)`, `(premise? k)`, `(is SHAPE f)`,
`(left f)`, `(right f)`, `(sub f)`, `(size f)`, and two additions for boxes,
`(last k)` and `(lastline k)`. Shape names (`AND`, `PRED`, ...) are constants.

Step functions need the step they look at; since compiled rule expressions
only see their parameters, `prepare` rewrites `(ref k)` into `(ref %step k)`
with `%step` a hidden parameter. Authors cannot write `%step` themselves:
expressions are validated against the public vocabulary first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from alienworlds.ruleset.compile import check, op_identifier
from alienworlds.ruleset.errors import LanguageError, RuleSyntaxError
from alienworlds.ruleset.expr import Call, Const, Expr, Sym, walk
from alienworlds.ruleset.operators import ARITY

from .formulas import SHAPES, Binary, Eq, Formula, Node, Not, Quantified
from .rules import Ref

OPERANDS = ("depth", "line", "nrefs", "conclusion")
STEP_PARAM = "%step"
PARAMS = (*OPERANDS, STEP_PARAM)
STEP_FUNCTIONS = ("ref", "refline", "last", "lastline", "times-cited", "premise?")
FORMULA_FUNCTIONS = {"is": (2, 2), "left": (1, 1), "right": (1, 1), "sub": (1, 1), "size": (1, 1)}

PUBLIC_ARITY = {**ARITY, **FORMULA_FUNCTIONS, **{name: (1, 1) for name in STEP_FUNCTIONS}}
COMPILED_ARITY = {**ARITY, **FORMULA_FUNCTIONS, **{name: (2, 2) for name in STEP_FUNCTIONS}}


@dataclass(frozen=True)
class StepView:
    """One step as side conditions see it."""

    depth: int
    line: int
    conclusion: Formula
    refs: tuple[Ref, ...]
    cited: list[int]  # times each line was cited by earlier steps
    premise_lines: list[bool]  # whether each line is a premise

    def args(self) -> tuple[object, ...]:
        """Positional arguments for a compiled expression (see PARAMS)."""
        return (self.depth, self.line, len(self.refs), self.conclusion, self)


def validate(expr: Expr, text: str) -> None:
    """Raise RuleSyntaxError unless `expr` uses only the public vocabulary."""
    for node in walk(expr):
        if isinstance(node, Call) and node.op == "is" and node.args:
            shape = node.args[0]
            if not (isinstance(shape, Sym) and shape.name in SHAPES):
                raise RuleSyntaxError(
                    f"the first operand of 'is' is a shape: one of {' '.join(SHAPES)}",
                    text,
                    node.column,
                )
    check(expr, {*OPERANDS, *SHAPES}, PUBLIC_ARITY, text)


def prepare(expr: Expr) -> Expr:
    """The expression to compile: shapes as constants, step functions given the step."""
    if isinstance(expr, Sym):
        return Const(expr.name, expr.column) if expr.name in SHAPES else expr
    if isinstance(expr, Call):
        args = tuple(prepare(a) for a in expr.args)
        if expr.op in STEP_FUNCTIONS:
            args = (Sym(STEP_PARAM), *args)
        return Call(expr.op, args, expr.column)
    return expr


def _index(k: object) -> int:
    if type(k) is not int:
        raise LanguageError("TypeError", "a citation or line number must be an integer")
    return k


def _cited(view: StepView, k: object) -> Ref | None:
    k = _index(k)
    return view.refs[k - 1] if 1 <= k <= len(view.refs) else None


def _ref(view: StepView, k: object) -> Formula | None:
    r = _cited(view, k)
    return r.first if r else None


def _refline(view: StepView, k: object) -> int | None:
    r = _cited(view, k)
    return r.start if r else None


def _last(view: StepView, k: object) -> Formula | None:
    r = _cited(view, k)
    return r.last if r else None


def _lastline(view: StepView, k: object) -> int | None:
    r = _cited(view, k)
    return r.end if r else None


def _times_cited(view: StepView, k: object) -> int:
    k = _index(k)
    return view.cited[k] if 1 <= k < len(view.cited) else 0


def _is_premise(view: StepView, k: object) -> bool:
    k = _index(k)
    return 1 <= k < len(view.premise_lines) and view.premise_lines[k]


def _is(shape: str, f: object) -> bool:
    return isinstance(f, Formula) and f.shape == shape


def _left(f: object) -> Node | None:
    return f.left if isinstance(f, (Binary, Eq)) else None


def _right(f: object) -> Node | None:
    return f.right if isinstance(f, (Binary, Eq)) else None


def _sub(f: object) -> Formula | None:
    return f.body if isinstance(f, (Not, Quantified)) else None


def _size(f: object) -> int:
    if not isinstance(f, Node):
        raise LanguageError("TypeError", "size needs a formula or a term")
    return f.size


FUNCTIONS: dict[str, Callable[..., object]] = {
    "ref": _ref,
    "refline": _refline,
    "last": _last,
    "lastline": _lastline,
    "times-cited": _times_cited,
    "premise?": _is_premise,
    "is": _is,
    "left": _left,
    "right": _right,
    "sub": _sub,
    "size": _size,
}


def namespace_entries() -> dict[str, Callable[..., object]]:
    """The functions above, keyed as compiled rule expressions call them."""
    return {op_identifier(name): fn for name, fn in FUNCTIONS.items()}
