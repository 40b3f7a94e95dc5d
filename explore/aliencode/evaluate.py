"""Outcomes of many rule expressions on the same operands, shared work included.

A site's hypotheses are interned into one table of hash-consed nodes, so a
sub-expression common to many hypotheses (`(- i 1)`, `(reverse args)`) is
evaluated once per operand case. Evaluation follows the compiled rules'
semantics exactly: the same operator functions (`ruleset.operators`),
arguments left to right, `and`/`or`/`if` short-circuit with Python's values.

An outcome is what an interpreter run can tell apart: a value (frozen with
its types, so 2, 2.0 and YES differ, and marked when it *is* one of the
operands, since a later in-place change would show the difference), an error
(kind and message, which are printed), or unknown (the expression needs an
operand the recorded run never computed: a short-circuit operand it did not
force, or a function value it would have to call).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from alienworlds.ruleset import LanguageError, Limits, Meter, make_operators
from alienworlds.ruleset.equivalence import POOLS
from alienworlds.ruleset.expr import Call, Const, Expr, Sym, walk

# Pure sample predicates (of the equivalence checker) that evaluation may call;
# any other function value is program code and is never called here.
SAFE_PREDICATES = frozenset(POOLS["pred"])


class _Unforced:
    """A short-circuit operand the recorded run did not evaluate."""

    def __repr__(self) -> str:
        return "UNFORCED"


UNFORCED = _Unforced()
UNKNOWN = ("u",)
_BIG = 10**15


class Unknown(Exception):
    """The outcome cannot be decided from the recorded operands."""


def freeze(value: object) -> str:
    """A hashable, type-exact key of a value: its printed form with quotes
    (repr tells 2, 2.0, True and '2' apart, and lists from tuples); a
    function is keyed by its identity."""
    try:
        return repr(value)
    except RecursionError:  # nested beyond the host's repr: identity
        return f"<{id(value)}>"


def snapshot(value: object, depth: int = 0, copies: dict[int, object] | None = None) -> object:
    """A copy of a value that later in-place changes cannot reach. A list
    met twice (shared, or holding itself) is copied once, so the copy keeps
    the value's shape and size: copying each occurrence anew would take
    2^depth copies of a list that holds itself twice."""
    cls = type(value)
    if cls is not list and not (cls is tuple and any(type(v) in (list, tuple) for v in value)):
        return value
    copies = {} if copies is None else copies
    found = copies.get(id(value))
    if found is not None:
        return found
    if depth >= 200:
        return list(value) if cls is list else value
    if cls is list:
        copy: list = []
        copies[id(value)] = copy
        copy.extend(snapshot(v, depth + 1, copies) for v in value)
        return copy
    return tuple(snapshot(v, depth + 1, copies) for v in value)


@dataclass(frozen=True)
class Node:
    kind: str  # "sym" | "const" | "op"
    payload: object  # operand index | constant value | operator name
    children: tuple[int, ...] = ()


def _const_key(value: object) -> tuple:
    return ("const", type(value).__name__, repr(value))


class Table:
    """The hash-consed nodes of one site's hypotheses."""

    def __init__(self, operands: tuple[str, ...], lazy: str | None = None) -> None:
        self.operands = operands
        self.position = {name: k for k, name in enumerate(operands)}
        self.lazy = self.position[lazy] if lazy is not None else None
        self.nodes: list[Node] = []
        self._ids: dict[tuple, int] = {}
        self.meter = Meter(Limits(max_steps=_BIG, wall_seconds=float("inf")))
        self.ops = make_operators(self.meter)
        self._memo: dict[tuple, dict[int, tuple]] = {}

    def intern(self, expr: Expr) -> int:
        if isinstance(expr, Sym):
            key: tuple = ("sym", expr.name)
            node = Node("sym", self.position[expr.name])
        elif isinstance(expr, Const):
            key = _const_key(expr.value)
            node = Node("const", expr.value)
        elif isinstance(expr, Call):
            kids = tuple(self.intern(a) for a in expr.args)
            key = ("op", expr.op, kids)
            node = Node("op", expr.op, kids)
        else:
            raise ValueError(f"cannot intern {expr!r}")
        found = self._ids.get(key)
        if found is None:
            found = self._ids[key] = len(self.nodes)
            self.nodes.append(node)
        return found

    # -- evaluation ------------------------------------------------------------

    def outcome(self, root: int, case: tuple, key: tuple | None = None) -> tuple:
        """The outcome of hypothesis `root` on one operand case."""
        key = key if key is not None else tuple(freeze(v) for v in case)
        memo = self._memo.get(key)
        if memo is None:
            memo = self._memo[key] = {}
        state, payload, forced = self._eval(root, case, memo)
        if state == "u":
            return UNKNOWN
        if state == "e":
            return ("e", payload, forced)
        alias = next(
            (k for k, v in enumerate(case) if v is payload and type(v) in (list, tuple)), -1
        )
        return ("v", freeze(payload), alias, forced)

    def outcomes(
        self, roots: Iterable[int], cases: list[tuple], keys: list[tuple] | None = None
    ) -> dict[int, tuple]:
        """Each root's outcomes on every case, as one hashable signature
        (`keys`: the cases' frozen keys, when the caller has them)."""
        keys = keys if keys is not None else [tuple(freeze(v) for v in case) for case in cases]
        return {
            root: tuple(self.outcome(root, case, key) for case, key in zip(cases, keys))
            for root in roots
        }

    def _eval(self, n: int, case: tuple, memo: dict[int, tuple]) -> tuple:
        found = memo.get(n)
        if found is not None:
            return found
        node = self.nodes[n]
        if node.kind == "const":
            result: tuple = ("v", node.payload, False)
        elif node.kind == "sym":
            value = case[node.payload]
            lazy = node.payload == self.lazy
            result = ("u", None, True) if value is UNFORCED else ("v", value, lazy)
        else:
            result = self._apply(node, case, memo)
        memo[n] = result
        return result

    def _apply(self, node: Node, case: tuple, memo: dict[int, tuple]) -> tuple:
        op, kids = node.payload, node.children
        forced = False
        if op in ("and", "or"):
            value: object = None
            for kid in kids:
                state, value, f = self._eval(kid, case, memo)
                forced = forced or f
                if state != "v":
                    return state, value, forced
                if (op == "and" and not value) or (op == "or" and value):
                    break
            return "v", value, forced
        if op == "if":
            state, test, forced = self._eval(kids[0], case, memo)
            if state != "v":
                return state, test, forced
            state, value, f = self._eval(kids[1] if test else kids[2], case, memo)
            return state, value, forced or f
        args = []
        for kid in kids:
            state, value, f = self._eval(kid, case, memo)
            forced = forced or f
            if state != "v":
                return state, value, forced
            args.append(value)
        if op == "filter" and callable(args[0]) and args[0] not in SAFE_PREDICATES:
            return "u", None, forced  # calling a recorded function would rerun program code
        try:
            return "v", self.ops[op](*args), forced
        except LanguageError as exc:
            return "e", (exc.kind, exc.message), forced
        except RecursionError:
            return "u", None, forced


def size(expr: Expr) -> int:
    """Operators, names and constants of an expression."""
    return sum(1 for _ in walk(expr))
