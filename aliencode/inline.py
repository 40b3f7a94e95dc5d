"""Host code for an operator at one call site.

Checked helpers guard every operation whose cost or result could grow without
bound. Where an operand is a compile-time scalar constant, some operators are
provably safe in their native host form, which is much faster:

* a comparison with a scalar constant (a string of at most 256 characters) never
  recurses into containers and reads little;
* `+` / `-` with a numeric constant change a number additively (no blow-up)
  and refuse strings and lists with a TypeError;
* `//` and `/` by a non-zero numeric constant cannot divide by zero.

A world's rule expression is spliced into the call site in the same way when
that preserves evaluation (each operand that is not a plain name or constant
is used exactly once, in order, outside short-circuit branches); otherwise the
caller falls back to a compiled lambda.

A tree of integer operators over names and integer constants (see
`native.py`) is computed natively when a guard on its names holds, and by the
checked helpers otherwise.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from alienworlds.ruleset.compile import operator_node, to_python
from alienworlds.ruleset.expr import Call, Expr, Sym

from .native import NativeTrees

# Computes an operator on constant operands: a constant node, or None to leave
# the call for run time (an error must surface where the program runs).
Folder = Callable[[str, list[object]], ast.expr | None]

_COMPARE = {"==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, ">": ast.Gt, "<=": ast.LtE, ">=": ast.GtE}
_ADDITIVE = {"+": ast.Add, "-": ast.Sub}
_DIVISION = {"//": ast.FloorDiv, "/": ast.Div}
_SHORT = {"and", "or", "if"}
SHORT_TEXT = 256  # characters a comparison reads for one step (as the checked operators charge)


def _scalar(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and (
        node.value is None or type(node.value) in (int, float, bool, str)
    )


def _short(node: ast.expr) -> bool:
    """A scalar constant a native comparison reads in a few instructions (a
    long string would be compared uncharged, character by character)."""
    return _scalar(node) and not (type(node.value) is str and len(node.value) > SHORT_TEXT)


def _number(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) in (int, float, bool)


def operator_call(
    op: str,
    args: list[ast.expr],
    bound: int,
    fold: Folder | None = None,
    trees: NativeTrees | None = None,
) -> ast.expr:
    """Host code applying rule operator `op` to already-built operand code.

    With `fold`, an operator whose operands are all scalar constants is
    computed at compile time (when that succeeds without an error). With
    `trees`, integer operations get a guarded native form (native.py).
    """
    if fold is not None and args and all(_scalar(a) for a in args):
        folded = fold(op, [a.value for a in args])
        if folded is not None:
            return folded
    if trees is None:
        return _checked_call(op, args, bound)
    return trees.guarded(op, args, lambda operands: _checked_call(op, operands, bound))


def _checked_call(op: str, args: list[ast.expr], bound: int) -> ast.expr:
    if len(args) == 2:
        left, right = args
        if op in _COMPARE and (_short(left) or _short(right)):
            return ast.Compare(left, [_COMPARE[op]()], [right])
        if op in _ADDITIVE and (_number(left) or _number(right)):
            return _checked_sum(op, left, right, bound)
        if op in _DIVISION and _number(right) and right.value != 0:
            return ast.BinOp(left, _DIVISION[op](), right)
    if op == "not":
        return ast.UnaryOp(ast.Not(), args[0])
    return operator_node(op, args)


# Native sums hand results beyond this to `_beyond`, which checks the
# integer limit and accounts the memory of a large integer made.
NATIVE_SUM_BOUND = 1 << 64
ONE_DIGIT = (1 << 30) - 1  # the largest integer the host stores in one digit


def _checked_sum(op: str, left: ast.expr, right: ast.expr, bound: int) -> ast.expr:
    """Native `a + c`, `a - c`, `c - a` with the integer-size limit checked
    inline: `_t if (_t := a + c) < 2**64 else _beyond(_t)`. Every value
    already lies in (-2**bits, 2**bits), so adding a constant can leave that
    range on one side only, which is the side checked."""
    const = left if _number(left) else right
    grows = const.value >= 0 if (op == "+" or const is left) else const.value < 0
    total = ast.NamedExpr(ast.Name("_t", ast.Store()), ast.BinOp(left, _ADDITIVE[op](), right))
    fast = min(bound, NATIVE_SUM_BOUND)
    # The host compares two one-digit integers with a specialized instruction,
    # a larger constant the generic way: the common small result is tested
    # against a one-digit bound first (the same outcome, since it lies within).
    if grows:
        within = ast.BoolOp(
            ast.Or(),
            [
                ast.Compare(total, [ast.LtE()], [ast.Constant(min(fast - 1, ONE_DIGIT))]),
                ast.Compare(ast.Name("_t", ast.Load()), [ast.Lt()], [ast.Constant(fast)]),
            ],
        )
    else:
        within = ast.BoolOp(
            ast.Or(),
            [
                ast.Compare(total, [ast.GtE()], [ast.Constant(-min(fast - 1, ONE_DIGIT))]),
                ast.Compare(ast.Constant(-fast), [ast.Lt()], [ast.Name("_t", ast.Load())]),
            ],
        )
    beyond = ast.Call(ast.Name("_beyond", ast.Load()), [ast.Name("_t", ast.Load())], [])
    return ast.IfExp(within, ast.Name("_t", ast.Load()), beyond)


def _simple(node: ast.expr) -> bool:
    return isinstance(node, (ast.Name, ast.Constant))


def spliceable(expr: Expr, operands: dict[str, ast.expr]) -> bool:
    """Whether splicing keeps each operand's evaluation exactly as a call would."""
    order: list[str] = []
    if not _visit_operands(expr, operands, False, order):
        return False
    needed = [name for name, code in operands.items() if not _simple(code)]
    return order == needed


def _visit_operands(
    node: Expr, operands: dict[str, ast.expr], guarded: bool, order: list[str]
) -> bool:
    """Whether no unguarded-only operand is evaluated conditionally; appends
    the operands that are not simple in evaluation order. (A module-level
    function: a recursive closure is a reference cycle, left to the host's
    cycle collector once per compiled site.)"""
    if isinstance(node, Sym):
        if not _simple(operands[node.name]):
            if guarded:
                return False
            order.append(node.name)
        return True
    if isinstance(node, Call):
        # Only the first operand of and/or/if is always evaluated.
        return all(
            _visit_operands(arg, operands, guarded or (node.op in _SHORT and i > 0), order)
            for i, arg in enumerate(node.args)
        )
    return True


def splice(
    expr: Expr,
    operands: dict[str, ast.expr],
    bound: int,
    fold: Folder | None = None,
    used: set[str] | None = None,
    trees: NativeTrees | None = None,
) -> ast.expr:
    """Host code of `expr` with each operand replaced by its argument code
    (`used`: operands already placed elsewhere in the same tree)."""
    return to_python(
        expr, operands, lambda op, args: operator_call(op, args, bound, fold, trees), used
    )


# In-place sites whose rule has one of these shapes change the list directly
# instead of rebuilding its contents: (append seq X), (prepend seq X),
# (set seq I X) — the helper, and the parts spliced as its arguments.
_IN_PLACE_SHAPES = {
    ("ANNEX", "append"): "_s_ANNEX",
    ("ANNEX", "prepend"): "_prepend",
    ("IMPRINT", "set"): "_s_IMPRINT",
}


def in_place_form(site: str, expr: Expr) -> tuple[str, tuple[Expr, ...]] | None:
    if isinstance(expr, Call) and expr.args and expr.args[0] == Sym("seq"):
        helper = _IN_PLACE_SHAPES.get((site, expr.op))
        if helper is not None:
            return helper, expr.args
    return None
