"""Inverse literals: which literal to write so the world reads the value meant.

A literal rule maps the written value to the one the program sees, e.g.
`(^ n 27)`. To make a program see `v`, write some `w` with `rule(w) == v`.
Candidates come from three sources, and every one is verified by running
the rule: solving the rule expression backwards along the path to its
operand (for `+ - * ^ neg not reverse concat`), walking the rule's cycle
from `v` (a permutation of finite order, such as a rotation, returns to
`v`, and the value before it is a preimage), and trying values near `v`.
"""

from __future__ import annotations

from alienworlds.ruleset.errors import LanguageError
from alienworlds.ruleset.expr import Call, Expr, Identity, Sym, walk

from .samples import same
from .semantics import Ctx, WorldView

LITERAL_TYPES = {
    "literal.int": (int,),
    "literal.float": (float,),
    "literal.str": (str,),
    "literal.bool": (bool,),
}
CYCLE_STEPS = 512
NEAR = 300


def site_of(value: object) -> str | None:
    """The literal site that writes values of this type, if any."""
    if type(value) is bool:
        return "literal.bool"
    if type(value) is int:
        return "literal.int"
    if type(value) is float:
        return "literal.float"
    if type(value) is str:
        return "literal.str"
    return None


def _const(expr: Expr, view: WorldView) -> object:
    from alienworlds.ruleset import evaluate

    return evaluate(expr, {}, view.meter)


def _solve(expr: Expr, target: object, view: WorldView) -> object:
    """The operand value making `expr` give `target` (symbol used once)."""
    while True:
        if isinstance(expr, Sym):
            return target
        if not isinstance(expr, Call):
            raise ValueError("no operand to solve for")
        holders = [k for k, a in enumerate(expr.args) if any(isinstance(n, Sym) for n in walk(a))]
        if len(holders) != 1:
            raise ValueError("operand used more than once")
        k = holders[0]
        others = [_const(a, view) for j, a in enumerate(expr.args) if j != k]
        target = _step(expr.op, k, others, target)
        expr = expr.args[k]


def _step(op: str, k: int, others: list[object], t: object) -> object:
    c = others[0] if others else None
    if op == "+":
        return t - c
    if op == "-":
        return t + c if k == 0 else c - t
    if op == "^":
        return t ^ c
    if op == "neg":
        return -t
    if op == "not":
        return not t
    if op == "reverse":
        return t[::-1]
    if op == "*":
        if type(t) is int and type(c) is int:
            if c == 0 or t % c:
                raise ValueError("not a multiple")
            return t // c
        return t / c
    if op == "concat":
        if k == 0 and t[len(t) - len(c) :] == c:
            return t[: len(t) - len(c)]
        if k == 1 and t[: len(c)] == c:
            return t[len(c) :]
        raise ValueError("the fixed part is missing")
    raise ValueError(f"cannot undo {op}")


def _candidates(expr: Expr, fn, target: object, view: WorldView):
    try:
        yield _solve(expr, target, view)
    except (ValueError, TypeError, ZeroDivisionError, OverflowError, LanguageError):
        pass
    value = target
    for _ in range(CYCLE_STEPS):
        try:
            nxt = fn(value)
        except LanguageError:
            break
        if same(nxt, target):
            yield value
            break
        value = nxt
    yield target
    if type(target) is int:
        for d in range(1, NEAR + 1):
            yield target + d
            yield target - d
    if type(target) is bool:
        yield not target


def invert(view: WorldView, site: str, ctx: Ctx, target: object) -> tuple[bool, object]:
    """(True, w) with `w` a literal the world at `ctx` reads as `target`, or
    (False, None) when none was found."""
    fn = view.fn(site, ctx)
    expr = view.actual(site, ctx)
    if isinstance(expr, Identity):
        return True, target
    types = LITERAL_TYPES[site]
    for cand in _candidates(expr, fn, target, view):
        if type(cand) not in types:
            continue
        if type(cand) is float and (cand != cand or cand in (float("inf"), float("-inf"))):
            continue
        try:
            view.reset()
            if same(fn(cand), target):
                return True, cand
        except LanguageError:
            continue
    return False, None


def written_value(view: WorldView, ctx: Ctx, target: object) -> tuple[bool, object]:
    site = site_of(target)
    if site is None:
        return False, None
    return invert(view, site, ctx, target)
