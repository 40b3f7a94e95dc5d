"""The AlienCode syntax tree: plain dataclasses with positions, no semantics.

Operation names are stored in their standard spelling, whatever the world's
surface keywords are, so everything after parsing is keyword-independent.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pos:
    line: int
    column: int


# -- expressions -------------------------------------------------------------


@dataclass(frozen=True)
class IntLit:
    value: int | None  # None when the literal is too large to represent
    text: str
    pos: Pos


@dataclass(frozen=True)
class FloatLit:
    value: float
    text: str
    pos: Pos


@dataclass(frozen=True)
class StrLit:
    value: str
    pos: Pos


@dataclass(frozen=True)
class BoolLit:
    value: bool
    pos: Pos


@dataclass(frozen=True)
class NoneLit:
    pos: Pos


@dataclass(frozen=True)
class Name:
    id: str
    pos: Pos


@dataclass(frozen=True)
class OpCall:
    op: str  # standard name, e.g. "PLUCK"
    surface: str  # as written in this world
    args: tuple[Expr, ...]
    pos: Pos


@dataclass(frozen=True)
class Call:
    func: Expr
    args: tuple[Expr, ...]
    pos: Pos


Expr = IntLit | FloatLit | StrLit | BoolLit | NoneLit | Name | OpCall | Call

# -- statements --------------------------------------------------------------


@dataclass(frozen=True)
class Set:
    targets: tuple[str, ...]
    values: tuple[Expr, ...]
    pos: Pos


@dataclass(frozen=True)
class ExprStmt:
    expr: Expr
    pos: Pos


@dataclass(frozen=True)
class If:
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]  # UPON, then each LEST
    default: tuple[Stmt, ...] | None
    pos: Pos


@dataclass(frozen=True)
class Sweep:
    names: tuple[str, ...]  # one name, or two for SWEEP i, v IN ...
    iterable: Expr
    body: tuple[Stmt, ...]
    pos: Pos


@dataclass(frozen=True)
class While:
    cond: Expr
    body: tuple[Stmt, ...]
    pos: Pos


@dataclass(frozen=True)
class Cease:
    pos: Pos


@dataclass(frozen=True)
class Bypass:
    pos: Pos


@dataclass(frozen=True)
class Idle:
    pos: Pos


@dataclass(frozen=True)
class Craft:
    name: str
    params: tuple[str, ...]
    body: tuple[Stmt, ...]
    pos: Pos


@dataclass(frozen=True)
class Deliver:
    value: Expr | None
    pos: Pos


Stmt = Set | ExprStmt | If | Sweep | While | Cease | Bypass | Idle | Craft | Deliver


@dataclass(frozen=True)
class Program:
    body: tuple[Stmt, ...]


def children(node: object) -> list[object]:
    """Direct sub-nodes (expressions and statements) of a node."""
    if isinstance(node, (OpCall,)):
        return list(node.args)
    if isinstance(node, Call):
        return [node.func, *node.args]
    if isinstance(node, Set):
        return list(node.values)
    if isinstance(node, ExprStmt):
        return [node.expr]
    if isinstance(node, If):
        out: list[object] = []
        for cond, body in node.branches:
            out.append(cond)
            out.extend(body)
        if node.default:
            out.extend(node.default)
        return out
    if isinstance(node, Sweep):
        return [node.iterable, *node.body]
    if isinstance(node, While):
        return [node.cond, *node.body]
    if isinstance(node, Craft):
        return list(node.body)
    if isinstance(node, Deliver):
        return [node.value] if node.value is not None else []
    if isinstance(node, Program):
        return list(node.body)
    return []
