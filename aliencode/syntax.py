"""The AlienCode syntax tree: frozen dataclasses with positions, no semantics.

Operation names are stored in their standard spelling, whatever the world's
surface keywords are, so everything after parsing is keyword-independent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass, fields
from operator import attrgetter
from typing import ClassVar

_set = object.__setattr__  # how __init__ sets a field past the refusing __setattr__


class _Node:
    """What @dataclass(frozen=True) gives each node class besides __init__,
    __eq__ and __hash__ (see `_node`): the dataclass repr, and no field
    assigned or deleted after __init__."""

    _fields: ClassVar[tuple[str, ...]]

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{self.__class__.__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


def _node(cls: type) -> type:
    """`cls` as a frozen dataclass at a twentieth of the import cost:
    @dataclass(frozen=True) compiles six methods per class from source
    (9 ms for these twenty classes, a tenth of a run's start-up). Here
    dataclass only collects the fields (for fields, replace and match);
    equality and hashing go by the tuple of the fields, as a dataclass's."""
    cls = dataclass(init=False, repr=False, eq=False)(cls)
    names = tuple(f.name for f in fields(cls))
    if len(names) > 1:
        values = attrgetter(*names)
    else:
        one = attrgetter(names[0])  # a bare value for a single name: made a tuple

        def values(node: object) -> tuple:
            return (one(node),)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(values(self))

    cls._fields = names
    cls.__eq__ = __eq__
    cls.__hash__ = __hash__
    return cls


@_node
class Pos(_Node):
    """A place in the source: 1-based line and column."""

    line: int
    column: int

    def __init__(self, line: int, column: int) -> None:
        _set(self, "line", line)
        _set(self, "column", column)


# -- expressions -------------------------------------------------------------


@_node
class IntLit(_Node):
    """An integer literal."""

    value: int | None  # None when the literal is too large to represent
    text: str
    pos: Pos

    def __init__(self, value: int | None, text: str, pos: Pos) -> None:
        _set(self, "value", value)
        _set(self, "text", text)
        _set(self, "pos", pos)


@_node
class FloatLit(_Node):
    """A number literal with a point or an exponent."""

    value: float
    text: str
    pos: Pos

    def __init__(self, value: float, text: str, pos: Pos) -> None:
        _set(self, "value", value)
        _set(self, "text", text)
        _set(self, "pos", pos)


@_node
class StrLit(_Node):
    """A string literal, its escapes resolved."""

    value: str
    pos: Pos

    def __init__(self, value: str, pos: Pos) -> None:
        _set(self, "value", value)
        _set(self, "pos", pos)


@_node
class BoolLit(_Node):
    """YES or NO."""

    value: bool
    pos: Pos

    def __init__(self, value: bool, pos: Pos) -> None:
        _set(self, "value", value)
        _set(self, "pos", pos)


@_node
class NoneLit(_Node):
    """The literal none."""

    pos: Pos

    def __init__(self, pos: Pos) -> None:
        _set(self, "pos", pos)


@_node
class Name(_Node):
    """A name read."""

    id: str
    pos: Pos

    def __init__(self, id: str, pos: Pos) -> None:
        _set(self, "id", id)
        _set(self, "pos", pos)


@_node
class OpCall(_Node):
    """An operation applied to its arguments."""

    op: str  # standard name, e.g. "PLUCK"
    surface: str  # as written in this world
    args: tuple[Expr, ...]
    pos: Pos

    def __init__(self, op: str, surface: str, args: tuple[Expr, ...], pos: Pos) -> None:
        _set(self, "op", op)
        _set(self, "surface", surface)
        _set(self, "args", args)
        _set(self, "pos", pos)


@_node
class Call(_Node):
    """A call of a crafted function (or of any value)."""

    func: Expr
    args: tuple[Expr, ...]
    pos: Pos

    def __init__(self, func: Expr, args: tuple[Expr, ...], pos: Pos) -> None:
        _set(self, "func", func)
        _set(self, "args", args)
        _set(self, "pos", pos)


Expr = IntLit | FloatLit | StrLit | BoolLit | NoneLit | Name | OpCall | Call

# -- statements --------------------------------------------------------------


@_node
class Set(_Node):
    """SET names AS values."""

    targets: tuple[str, ...]
    values: tuple[Expr, ...]
    pos: Pos

    def __init__(self, targets: tuple[str, ...], values: tuple[Expr, ...], pos: Pos) -> None:
        _set(self, "targets", targets)
        _set(self, "values", values)
        _set(self, "pos", pos)


@_node
class ExprStmt(_Node):
    """An expression evaluated for its effect."""

    expr: Expr
    pos: Pos

    def __init__(self, expr: Expr, pos: Pos) -> None:
        _set(self, "expr", expr)
        _set(self, "pos", pos)


@_node
class If(_Node):
    """UPON, its LEST branches and DEFAULT."""

    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]  # UPON, then each LEST
    default: tuple[Stmt, ...] | None
    pos: Pos

    def __init__(
        self,
        branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...],
        default: tuple[Stmt, ...] | None,
        pos: Pos,
    ) -> None:
        _set(self, "branches", branches)
        _set(self, "default", default)
        _set(self, "pos", pos)


@_node
class Sweep(_Node):
    """SWEEP names IN iterable: body."""

    names: tuple[str, ...]  # one name, or two for SWEEP i, v IN ...
    iterable: Expr
    body: tuple[Stmt, ...]
    pos: Pos

    def __init__(
        self, names: tuple[str, ...], iterable: Expr, body: tuple[Stmt, ...], pos: Pos
    ) -> None:
        _set(self, "names", names)
        _set(self, "iterable", iterable)
        _set(self, "body", body)
        _set(self, "pos", pos)


@_node
class While(_Node):
    """WHILE cond: body."""

    cond: Expr
    body: tuple[Stmt, ...]
    pos: Pos

    def __init__(self, cond: Expr, body: tuple[Stmt, ...], pos: Pos) -> None:
        _set(self, "cond", cond)
        _set(self, "body", body)
        _set(self, "pos", pos)


@_node
class Cease(_Node):
    """CEASE: leave the loop."""

    pos: Pos

    def __init__(self, pos: Pos) -> None:
        _set(self, "pos", pos)


@_node
class Bypass(_Node):
    """BYPASS: next iteration."""

    pos: Pos

    def __init__(self, pos: Pos) -> None:
        _set(self, "pos", pos)


@_node
class Idle(_Node):
    """IDLE: do nothing."""

    pos: Pos

    def __init__(self, pos: Pos) -> None:
        _set(self, "pos", pos)


@_node
class Craft(_Node):
    """CRAFT name(params): body."""

    name: str
    params: tuple[str, ...]
    body: tuple[Stmt, ...]
    pos: Pos

    def __init__(
        self, name: str, params: tuple[str, ...], body: tuple[Stmt, ...], pos: Pos
    ) -> None:
        _set(self, "name", name)
        _set(self, "params", params)
        _set(self, "body", body)
        _set(self, "pos", pos)


@_node
class Deliver(_Node):
    """DELIVER a value (or none)."""

    value: Expr | None
    pos: Pos

    def __init__(self, value: Expr | None, pos: Pos) -> None:
        _set(self, "value", value)
        _set(self, "pos", pos)


Stmt = Set | ExprStmt | If | Sweep | While | Cease | Bypass | Idle | Craft | Deliver


@_node
class Program(_Node):
    """A whole program."""

    body: tuple[Stmt, ...]

    def __init__(self, body: tuple[Stmt, ...]) -> None:
        _set(self, "body", body)


def children(node: object) -> list[object]:
    """Direct sub-nodes (expressions and statements) of a node: found by the
    node's class (every walk of the compiler asks this of every node, most
    of them leaves), or by kind for a class of no table's (a subclass)."""
    found = _CHILDREN.get(node.__class__)
    return found(node) if found is not None else children_by_kind(node)


def _if_children(node: If) -> list[object]:
    out: list[object] = []
    for cond, body in node.branches:
        out.append(cond)
        out.extend(body)
    if node.default:
        out.extend(node.default)
    return out


def _no_children(node: object) -> list[object]:
    return []


_CHILDREN: dict[type, Callable[..., list[object]]] = {
    OpCall: lambda node: list(node.args),
    Call: lambda node: [node.func, *node.args],
    Set: lambda node: list(node.values),
    ExprStmt: lambda node: [node.expr],
    If: _if_children,
    Sweep: lambda node: [node.iterable, *node.body],
    While: lambda node: [node.cond, *node.body],
    Craft: lambda node: list(node.body),
    Deliver: lambda node: [node.value] if node.value is not None else [],
    Program: lambda node: list(node.body),
    **{
        leaf: _no_children
        for leaf in (IntLit, FloatLit, StrLit, BoolLit, NoneLit, Name, Cease, Bypass, Idle, Pos)
    },
}


def children_by_kind(node: object) -> list[object]:
    """`children`, asked of the node's kind (isinstance)."""
    for cls, found in _CHILDREN.items():
        if isinstance(node, cls):
            return found(node)
    return []
