"""Compensation templates: AlienCode expressions with holes for the operands.

A template replaces one operation call. Its operations run under the
world's semantics at the call's place, its holes stand for the call's
(already ported) arguments and its literals are written so that the world
reads the value the template means. A template becomes source (`build`), a
rule expression over the site's operands (`to_rule`, for the behavioural
equivalence checker), or a value on sample operands (`evaluate`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from alienworlds.ruleset.expr import Call, Const, Expr, Identity, Sym, to_text

from aliencode import syntax as s
from aliencode.sites import LAZY_OPERAND, SITES
from aliencode.unparse import unparse_expr

from .semantics import STANDARD, Ctx, WorldView, operands

NOWHERE = s.Pos(0, 0)
VARIADIC = frozenset(
    op for op, site in SITES.items() if site.operands == ("args",) and op != "EMIT"
)


@dataclass(frozen=True)
class Hole:
    index: int


@dataclass(frozen=True)
class Lit:
    value: object  # what the template means
    written: object  # the literal that makes the world read `value`


@dataclass(frozen=True)
class Op:
    op: str
    args: tuple[Node, ...]


Node = Hole | Lit | Op


def size(node: Node) -> int:
    """Nodes, counting a variadic operation over all the holes in order as
    2 (one argument list), as the enumeration does."""
    if isinstance(node, Op):
        if (
            node.op in VARIADIC
            and len(node.args) >= 2
            and all(isinstance(a, Hole) and a.index == k for k, a in enumerate(node.args))
        ):
            return 2
        return 1 + sum(size(a) for a in node.args)
    return 1


def hole_order(node: Node) -> list[int]:
    """The holes in the order the template evaluates them (left to right)."""
    if isinstance(node, Hole):
        return [node.index]
    if isinstance(node, Op):
        return [h for a in node.args for h in hole_order(a)]
    return []


def linear(node: Node, n: int) -> bool:
    """Each operand evaluated exactly once, in the call's order."""
    return hole_order(node) == list(range(n))


def literal_node(value: object) -> s.Expr:
    if value is None:
        return s.NoneLit(NOWHERE)
    if type(value) is bool:
        return s.BoolLit(value, NOWHERE)
    if type(value) is int:
        return s.IntLit(value, str(value), NOWHERE)
    if type(value) is float:
        return s.FloatLit(value, repr(value), NOWHERE)
    if type(value) is str:
        return s.StrLit(value, NOWHERE)
    raise TypeError(f"no literal for {value!r}")


def build(
    node: Node, args: list[s.Expr], keywords: Mapping[str, str], pos: s.Pos = NOWHERE
) -> s.Expr:
    """The template as AlienCode syntax, holes filled with `args`."""
    if isinstance(node, Hole):
        return args[node.index]
    if isinstance(node, Lit):
        return literal_node(node.written)
    return s.OpCall(
        node.op,
        keywords.get(node.op, node.op),
        tuple(build(a, args, keywords) for a in node.args),
        pos,
    )


def show(node: Node, names: list[str], keywords: Mapping[str, str] | None = None) -> str:
    """Readable text of a template, holes shown by name."""
    return unparse_expr(
        build(node, [s.Name(n, NOWHERE) for n in names], keywords or {}), keywords or {}
    )


def _list_expr(items: list[Expr]) -> Expr:
    out: Expr = Call("list", (Const(""),))
    for item in items:
        out = Call("append", (out, item))
    return out


def substitute(expr: Expr, env: Mapping[str, Expr]) -> Expr:
    if isinstance(expr, Sym):
        return env[expr.name]
    if isinstance(expr, Call):
        return Call(expr.op, tuple(substitute(a, env) for a in expr.args))
    return expr


def hole_exprs(op: str, n: int) -> list[Expr]:
    """How each call argument appears among the site's operands."""
    names = SITES[op].operands
    if names == ("args",):
        return [Call("get", (Sym("args"), Const(k))) for k in range(n)]
    if op == "EXTENT" and n == 1:
        return [Sym("hi")]
    return [Sym(names[k]) for k in range(n)]


def to_rule(node: Node, view: WorldView, ctx: Ctx, holes: list[Expr]) -> Expr:
    """The rule expression the template computes, over the site's operands."""
    if isinstance(node, Hole):
        return holes[node.index]
    if isinstance(node, Lit):
        return Const(node.value)
    children = [to_rule(a, view, ctx, holes) for a in node.args]
    actual = view.actual(node.op, ctx)
    if isinstance(actual, Identity):
        from alienworlds.ruleset.expr import parse

        actual = parse(STANDARD[node.op])
    names = SITES[node.op].operands
    if names == ("args",):
        values: list[Expr] = [_list_expr(children)]
    elif node.op == "EXTENT" and len(children) == 1:
        values = [Const(0), children[0]]
    elif node.op == "CARVE" and len(children) == 2:
        values = [*children, Const(None)]
    else:
        values = children
    return substitute(actual, dict(zip(names, values)))


def rule_text(node: Node, view: WorldView, ctx: Ctx, op: str, n: int) -> str:
    return to_text(to_rule(node, view, ctx, hole_exprs(op, n)))


def evaluate(
    node: Node, case: tuple, view: WorldView, ctx: Ctx, on_hole: Callable[[int], None] | None = None
) -> object:
    """The template's value on operand values `case` (BOND and RIFT evaluate
    their second argument only when the world's rule asks for it).
    `on_hole(k)` is told each time hole k is evaluated."""
    if isinstance(node, Hole):
        if on_hole is not None:
            on_hole(node.index)
        return case[node.index]
    if isinstance(node, Lit):
        return node.value
    fn = view.fn(node.op, ctx)
    if node.op in LAZY_OPERAND:
        first = evaluate(node.args[0], case, view, ctx, on_hole)
        box: list[object] = []

        def second():
            if not box:
                box.append(evaluate(node.args[1], case, view, ctx, on_hole))
            return box[0]

        return fn(first, second)
    args = [evaluate(a, case, view, ctx, on_hole) for a in node.args]
    return fn(*operands(node.op, args))
