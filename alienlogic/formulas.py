"""Terms and formulas of AlienLogic, hash-consed.

Every node is interned: building a node equal to an existing one returns the
existing object, so structural equality is identity (O(1)) and nodes are
cheap dictionary keys. The intern table holds nodes weakly, so a long-running
grader does not accumulate every formula it ever saw.

Names are not split into variables and constants by the syntax: a name bound
by an enclosing quantifier is a variable, any other name in a term is a
constant. `str()` prints a node in the input syntax.
"""

from __future__ import annotations

from typing import ClassVar
from weakref import WeakValueDictionary

_TABLE: WeakValueDictionary[tuple, Node] = WeakValueDictionary()

# The largest set of free names a node keeps (see `Node.free`).
FREE_KEPT = 64


class Node:
    """A term or formula. Immutable; construct it like a dataclass."""

    __slots__ = ("__weakref__", "height", "size", "_free")
    _fields: ClassVar[tuple[str, ...]] = ()
    # The shape name rule expressions use, as in `(is AND f)`; None for terms.
    shape: ClassVar[str | None] = None

    height: int  # longest path to a leaf, counting this node (a leaf is 1)
    size: int  # nodes: connectives, quantifiers, predicates, BOT, EQ and term nodes

    def __new__(cls, *args: object) -> Node:
        key = (cls, *args)
        node = _TABLE.get(key)
        if node is None:
            node = object.__new__(cls)
            height = size = 0
            for name, value in zip(cls._fields, args):
                object.__setattr__(node, name, value)
                for child in value if type(value) is tuple else (value,):
                    if isinstance(child, Node):
                        size += child.size
                        if child.height > height:
                            height = child.height
            object.__setattr__(node, "height", height + 1)
            object.__setattr__(node, "size", size + 1)
            object.__setattr__(node, "_free", None)
            _TABLE[key] = node
        return node

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self):
        return (type(self), self.args)

    @property
    def args(self) -> tuple:
        return tuple(getattr(self, f) for f in self._fields)

    @property
    def free(self) -> frozenset[str]:
        """Symbols occurring free: constant and free-variable names, and
        function symbols written `name/arity` (a different symbol from a
        constant of the same name). Kept on the node when it has at most
        FREE_KEPT members, else gathered again on each request (see
        `_gather_free`)."""
        free = self._free
        if free is None:
            free = self._gather_free()
            if len(free) <= FREE_KEPT:
                object.__setattr__(self, "_free", free)
        return free

    def has_free(self, name: str, memo: dict[int, bool] | None = None) -> bool:
        """Whether `name` occurs free in this node. Callers that ask about
        many nodes of one formula (substitution walks it top down) share a
        `memo`, so each node is looked at once even when its set of free
        names is too large to be kept."""
        free = self._free
        if free is not None:
            return name in free
        if memo is None:
            return name in self.free
        got = memo.get(id(self))
        if got is None:
            got = self._has_free(name, memo)
            memo[id(self)] = got
        return got

    def _has_free(self, name: str, memo: dict[int, bool]) -> bool:
        return any(child.has_free(name, memo) for child in children(self))

    def _gather_free(self) -> frozenset[str]:
        # One walk down to the nearest nodes that keep their sets, into one
        # set: a node holding the union of its children's sets at every level
        # made memory grow as height × names (a chain of 200 conjunctions of
        # wide atoms), and a union per argument made time quadratic.
        out: set[str] = set()
        stack: list[tuple[Node, frozenset[str]]] = [(self, frozenset())]
        while stack:
            node, bound = stack.pop()
            kept = node._free
            if kept is not None:
                out.update(kept - bound if bound else kept)
                continue
            cls = type(node)
            if cls is Name:
                if node.name not in bound:
                    out.add(node.name)
                continue
            if cls is Fn:
                out.add(f"{node.name}/{len(node.terms)}")
            if isinstance(node, Quantified):
                stack.append((node.body, bound | {node.var}))
                continue
            stack.extend((child, bound) for child in children(node))
        return frozenset(out)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self}>"

    def __str__(self) -> str:
        parts: list[str] = []
        _write(self, parts)
        return "".join(parts)


# -- terms --------------------------------------------------------------------


class Term(Node):
    __slots__ = ()


class Name(Term):
    """A variable or constant: `x`, `alice`."""

    __slots__ = ("name",)
    _fields = ("name",)
    name: str

    def __new__(cls, name: str) -> Name:
        return super().__new__(cls, name)

    def _has_free(self, name: str, memo: dict[int, bool]) -> bool:
        return self.name == name


class Fn(Term):
    """A function application `f(t, ...)` (at least one argument)."""

    __slots__ = ("name", "terms")
    _fields = ("name", "terms")
    name: str
    terms: tuple[Term, ...]

    def __new__(cls, name: str, terms: tuple[Term, ...]) -> Fn:
        return super().__new__(cls, name, tuple(terms))

    def _has_free(self, name: str, memo: dict[int, bool]) -> bool:
        return name == f"{self.name}/{len(self.terms)}" or super()._has_free(name, memo)


# -- formulas -----------------------------------------------------------------


class Formula(Node):
    __slots__ = ()


class Bot(Formula):
    __slots__ = ()
    shape = "BOT"

    def __new__(cls) -> Bot:
        return super().__new__(cls)


class Pred(Formula):
    """An atom `p` (no terms) or a predicate application `Likes(a, b)`."""

    __slots__ = ("name", "terms")
    _fields = ("name", "terms")
    name: str
    terms: tuple[Term, ...]

    def __new__(cls, name: str, terms: tuple[Term, ...] = ()) -> Pred:
        return super().__new__(cls, name, tuple(terms))

    @property
    def shape(self) -> str:  # type: ignore[override]
        return "PRED" if self.terms else "ATOM"


class Not(Formula):
    __slots__ = ("body",)
    _fields = ("body",)
    shape = "NOT"
    body: Formula

    def __new__(cls, body: Formula) -> Not:
        return super().__new__(cls, body)


class Binary(Formula):
    __slots__ = ("left", "right")
    _fields = ("left", "right")
    left: Formula
    right: Formula

    def __new__(cls, left: Formula, right: Formula):
        return super().__new__(cls, left, right)


class And(Binary):
    __slots__ = ()
    shape = "AND"


class Or(Binary):
    __slots__ = ()
    shape = "OR"


class Impl(Binary):
    __slots__ = ()
    shape = "IMPL"


class Quantified(Formula):
    __slots__ = ("var", "body")
    _fields = ("var", "body")
    var: str
    body: Formula

    def __new__(cls, var: str, body: Formula):
        return super().__new__(cls, var, body)

    def _has_free(self, name: str, memo: dict[int, bool]) -> bool:
        return name != self.var and self.body.has_free(name, memo)


class Forall(Quantified):
    __slots__ = ()
    shape = "FORALL"


class Exists(Quantified):
    __slots__ = ()
    shape = "EXISTS"


class Eq(Formula):
    """`EQ(s, t)`: the terms s and t denote the same object."""

    __slots__ = ("left", "right")
    _fields = ("left", "right")
    shape = "EQ"
    left: Term
    right: Term

    def __new__(cls, left: Term, right: Term) -> Eq:
        return super().__new__(cls, left, right)


BOT = Bot()
SHAPES = ("ATOM", "BOT", "NOT", "AND", "OR", "IMPL", "FORALL", "EXISTS", "EQ", "PRED")
KEYWORDS = {
    Not: "NOT",
    And: "AND",
    Or: "OR",
    Impl: "IMPL",
    Forall: "FORALL",
    Exists: "EXISTS",
    Eq: "EQ",
}


def _write(node: Node, out: list[str]) -> None:
    """Append the input-syntax text of `node` (recursion is bounded by the
    parser's nesting limit)."""
    cls = type(node)
    if cls is Name:
        out.append(node.name)
    elif cls is Bot:
        out.append("BOT")
    elif cls is Pred or cls is Fn:
        out.append(node.name)
        if node.terms:
            out.append("(")
            for i, t in enumerate(node.terms):
                if i:
                    out.append(", ")
                _write(t, out)
            out.append(")")
    elif cls is Not:
        out.append("NOT(")
        _write(node.body, out)
        out.append(")")
    elif cls is Forall or cls is Exists:
        out.append(f"{KEYWORDS[cls]}({node.var}, ")
        _write(node.body, out)
        out.append(")")
    else:
        out.append(KEYWORDS[cls] + "(")
        _write(node.left, out)
        out.append(", ")
        _write(node.right, out)
        out.append(")")


def children(node: Node) -> tuple[Node, ...]:
    """The direct subterms and subformulas of `node`, left to right."""
    out: list[Node] = []
    for value in node.args:
        for child in value if type(value) is tuple else (value,):
            if isinstance(child, Node):
                out.append(child)
    return tuple(out)
