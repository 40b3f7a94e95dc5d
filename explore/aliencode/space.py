"""The hypothesis space of one AlienCode site: rule expressions near the manual's.

What a world may put at a site is a rule expression over the site's operands.
The engine considers a bounded set of them, each with a cost (its prior weight
is proportional to 2^-cost):

* the manual's expression (cost 0), reported as IDENTITY;
* one edit of the manual's expression (cost 1): an operand passed through a
  transform (shifted by a constant, counted from the other end, reversed,
  sorted, negated, applied only to strings, lists or tuples, ...), one
  operator replaced by another of its kind (+ by -, > by >=, max by min, any
  by all, append by prepend, ...), a constant shifted, two operands of the
  same kind swapped, the result passed through a transform, or all position
  operands shifted together (counting from one);
* two edits (cost 2): an operator replaced, operands swapped or positions
  shifted together, then another edit of a different kind (an operator, a
  swap, or a result transform with a small constant);
* small expressions over the operands (one operator over operands and the
  constants 0, 1, -1, 2), enumerated (cost 3) and kept only when they behave
  differently, on the site's sample pool, from every hypothesis before them
  and do not fail on every sample.

Constants range over [-B, B]: B is `Bounds.literal_constant` (64) for the
literal sites and `Bounds.constant` (4) elsewhere; positions shifted together
move by up to `Bounds.shift` (12); second edits use `Bounds.pair_constant`
(2). The space is the same for every world: it is built from the site alone.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import asdict, dataclass

from alienworlds.ruleset.equivalence import cases as sample_cases
from alienworlds.ruleset.expr import Call, Const, Expr, Sym, parse, to_text, walk
from alienworlds.ruleset.operators import ARITY

from aliencode.sites import ARITHMETIC, COMPARISON, OPERATION_BY_NAME, SITES, operand_kinds

from .evaluate import Table, freeze

IDENTITY_SHARE = (
    0.25  # prior mass of the manual's expression (a template rule may keep the manual's meaning)
)
SPACE_VERSION = 1


@dataclass(frozen=True)
class Bounds:
    literal_constant: int = 64
    constant: int = 4
    pair_constant: int = 2
    shift: int = 12  # positions shifted together
    pool: int = 48  # sample cases that decide whether an enumerated expression is new

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


DEFAULT_BOUNDS = Bounds()


@dataclass(frozen=True)
class Hypothesis:
    text: str  # canonical rule-expression text
    cost: int
    identity: bool = False  # the manual's own expression


@dataclass
class Space:
    """A site's hypotheses, interned in one evaluation table."""

    site: str
    hypotheses: tuple[Hypothesis, ...]
    table: Table
    roots: tuple[int, ...]  # the table node of each hypothesis
    weights: tuple[float, ...]  # prior mass of each hypothesis; they sum to 1

    def __len__(self) -> int:
        return len(self.hypotheses)


def standard_text(site: str) -> str:
    """The manual's meaning of a site as a rule expression."""
    if site in OPERATION_BY_NAME:
        return OPERATION_BY_NAME[site].standard
    return " ".join(SITES[site].operands)


# What a site's result is, for result transforms.
_RESULT_KIND = {
    **{
        op: "num"
        for op in (
            *ARITHMETIC,
            "GAUGE",
            "EXPEL",
        )
    },
    **{
        op: "bool"
        for op in (
            *COMPARISON,
            "BOND",
            "RIFT",
            "NEGATE",
            "SOME_OF",
            "EVERY_OF",
            "literal.bool",
        )
    },
    **{
        op: "seq"
        for op in (
            "STRAND",
            "KNOT",
            "CARVE",
            "ANNEX",
            "IMPRINT",
            "ORDER",
            "GATHER",
            "EXTENT",
            "INDEX",
            "PAIR",
            "STRAIN",
            "SWEEP",
            "EMIT",
        )
    },
    "PLUCK": "value",
    "NADIR": "value",
    "APEX": "value",
    "FUSE": "str",
    "literal.int": "int",
    "literal.float": "float",
    "literal.str": "str",
}
# Operators a world may put in another's place.
_GROUPS = (
    ("+", "-", "*", "/", "//", "%", "**", "^", "max", "min"),
    ("==", "!=", ">", "<", ">=", "<="),
    ("and", "or"),
    ("any", "all"),
    ("sort_asc", "sort_desc", "reverse", "list", "tuple"),
    ("append", "prepend"),
    ("pop_left", "pop_right"),
)
# Position operands shifted together ("counts from one").
_JOINT = {"CARVE": ("lo", "hi"), "EXTENT": ("lo", "hi")}
# Further spellings of the manual's meaning whose parts can be edited.
_BASES = {"INDEX": ("(zip (range 0 (len seq)) seq)", ("0", "(len seq)"))}
_UNARY = (
    "neg",
    "abs",
    "not",
    "len",
    "reverse",
    "sort_asc",
    "sort_desc",
    "list",
    "tuple",
    "str",
    "sum",
    "any",
    "all",
    "max",
    "min",
    "pop_left",
    "pop_right",
    "enumerate",
    "range",
)
_BINARY = (
    "+",
    "-",
    "*",
    "/",
    "//",
    "%",
    "**",
    "^",
    "==",
    "!=",
    ">",
    "<",
    ">=",
    "<=",
    "and",
    "or",
    "get",
    "concat",
    "prepend",
    "append",
    "zip",
    "range",
    "slice",
    "max",
    "min",
)
_NUMERIC_BINARY = (
    "+",
    "-",
    "*",
    "//",
    "%",
    "^",
    "==",
    "!=",
    ">",
    "<",
    ">=",
    "<=",
    "get",
    "slice",
    "range",
)


def _c(op: str, *args: Expr) -> Call:
    return Call(op, tuple(args))


def _k(value: object) -> Const:
    return Const(value)


def _num(x: Expr, bound: int, kind: str = "int") -> list[Expr]:
    ks = [k for k in range(-bound, bound + 1) if k]
    out: list[Expr] = [_c("+", x, _k(k)) for k in ks]
    out += [_c("-", _k(k), x) for k in range(-bound, bound + 1)]
    out += [_c("*", x, _k(k)) for k in (-1, 2, 3)]
    if kind == "float":
        return out + [_c("neg", x), _c("*", x, _k(2.0)), _c("*", x, _k(0.5)), _c("abs", x)]
    return out + [_c("^", x, _k(k)) for k in range(1, bound + 1)] + [_c("abs", x)]


def _guarded(x: Expr, guard: Expr, inner: Expr) -> Expr:
    """`inner` where `guard` holds, else `x` unchanged."""
    return _c("if", guard, inner, x)


def _unless_none(x: Expr, inner: Expr) -> Expr:
    """`inner`, except that none stays none (CARVE's missing end)."""
    return _c("if", _c("==", x, _k(None)), _k(None), inner)


def _seq(x: Expr, small: bool = False) -> list[Expr]:
    out: list[Expr] = [_c("reverse", x)]
    if small:
        return out
    out += [
        _c("sort_asc", x),
        _c("sort_desc", x),
        _c("list", x),
        _c("tuple", x),
        _c("slice", x, _k(1)),
        _c("slice", x, _k(0), _k(-1)),
        _c("concat", _c("slice", x, _k(1)), _c("slice", x, _k(0), _k(1))),
        _c("concat", _c("slice", x, _k(-1)), _c("slice", x, _k(0), _k(-1))),
        _c("concat", _c("reverse", _c("slice", x, _k(0), _k(2))), _c("slice", x, _k(2))),
    ]
    empty = _c("slice", x, _k(0), _k(0))
    for shape in (
        _k(""),
        _c("list", _k("")),
        _c("tuple", _k("")),
    ):  # strings only, lists only, tuples only
        guard = _c("==", empty, shape)
        out += [_guarded(x, guard, _c(op, x)) for op in ("reverse", "sort_asc", "sort_desc")]
    return out


def _str(x: Expr, small: bool = False) -> list[Expr]:
    out: list[Expr] = [_c("reverse", x)]
    if small:
        return out
    return out + [
        _c("slice", x, _k(1)),
        _c("slice", x, _k(0), _k(-1)),
        _c("concat", x, x),
        _c("concat", _c("slice", x, _k(1)), _c("slice", x, _k(0), _k(1))),
        _c("concat", _c("slice", x, _k(-1)), _c("slice", x, _k(0), _k(-1))),
    ]


def transforms(kind: str, x: Expr, bound: int, small: bool = False) -> list[Expr]:
    """What a world may do to a value of this kind before or after an operation."""
    if kind in ("int", "num"):
        return _num(x, bound)
    if kind == "float":
        return _num(x, bound, "float")
    if kind == "int_or_none":
        return [_unless_none(x, t) for t in _num(x, bound)]
    if kind == "value":
        return _num(x, bound) + [_c("not", x)]
    if kind in ("seq", "args"):
        return _seq(x, small)
    if kind == "str":
        return _str(x, small)
    if kind == "bool":
        return [_c("not", x)]
    return []


def substitute(expr: Expr, name: str, replacement: Expr) -> Expr:
    if isinstance(expr, Sym):
        return replacement if expr.name == name else expr
    if isinstance(expr, Call):
        return Call(expr.op, tuple(substitute(a, name, replacement) for a in expr.args))
    return expr


def _replace_term(expr: Expr, term: str, replacement: Expr) -> Expr:
    if to_text(expr) == term:
        return replacement
    if isinstance(expr, Call):
        return Call(expr.op, tuple(_replace_term(a, term, replacement) for a in expr.args))
    return expr


def _paths(expr: Expr, path: tuple[int, ...] = ()) -> Iterator[tuple[tuple[int, ...], Expr]]:
    yield path, expr
    if isinstance(expr, Call):
        for k, arg in enumerate(expr.args):
            yield from _paths(arg, (*path, k))


def _replace_at(expr: Expr, path: tuple[int, ...], new: Expr) -> Expr:
    if not path:
        return new
    assert isinstance(expr, Call)
    args = list(expr.args)
    args[path[0]] = _replace_at(args[path[0]], path[1:], new)
    return Call(expr.op, tuple(args))


def _fold(expr: Expr) -> Expr:
    """(+ c k) of two constants, computed (for readable reports)."""
    if isinstance(expr, Call):
        args = tuple(_fold(a) for a in expr.args)
        if expr.op == "+" and all(isinstance(a, Const) and type(a.value) is int for a in args):
            return Const(args[0].value + args[1].value)
        return Call(expr.op, args)
    return expr


def _shift(x: Expr, kind: str, k: int) -> Expr:
    moved = _c("+", x, _k(k))
    return _unless_none(x, moved) if kind == "int_or_none" else moved


class _Builder:
    def __init__(self, site: str, bounds: Bounds) -> None:
        self.site = site
        self.kinds = operand_kinds(site)
        self.bound = bounds.literal_constant if site.startswith("literal.") else bounds.constant
        self.small = bounds.pair_constant
        self.shift = bounds.shift
        self.found: dict[str, Hypothesis] = {}
        self.order: list[str] = []

    def add(self, expr: Expr, cost: int, identity: bool = False) -> None:
        text = to_text(_fold(expr))
        if text not in self.found:
            self.found[text] = Hypothesis(text, cost, identity)
            self.order.append(text)

    def edits(self, base: Expr, small: bool) -> Iterator[tuple[str, Expr]]:
        bound = self.small if small else self.bound
        used = {n.name for n in walk(base) if isinstance(n, Sym)}
        for name, kind in self.kinds.items():
            if name in used:
                for t in transforms(kind, Sym(name), bound, small):
                    yield "operand", substitute(base, name, t)
        for path, node in _paths(base):
            if isinstance(node, Call):
                for group in _GROUPS:
                    if node.op in group:
                        for other in group:
                            lo, hi = ARITY[other]
                            if (
                                other != node.op
                                and lo <= len(node.args)
                                and (hi is None or len(node.args) <= hi)
                            ):
                                yield "operator", _replace_at(base, path, Call(other, node.args))
            elif isinstance(node, Const) and type(node.value) is int and path:
                for d in range(-bound, bound + 1):
                    if d:
                        yield "constant", _replace_at(base, path, Const(node.value + d))
        names = [n for n in self.kinds if n in used]
        for i, x in enumerate(names):
            for y in names[i + 1 :]:
                if self.kinds[x].removesuffix("_or_none") == self.kinds[y].removesuffix("_or_none"):
                    swapped = substitute(
                        substitute(substitute(base, x, Sym("\0")), y, Sym(x)), "\0", Sym(y)
                    )
                    yield "swap", swapped
        result = _RESULT_KIND.get(self.site, "value")
        for t in transforms(result, base, bound, small):
            yield "result", t
        if self.site in _JOINT:
            for k in range(
                -(self.small if small else self.shift), (self.small if small else self.shift) + 1
            ):
                if k:
                    moved = base
                    for name in _JOINT[self.site]:
                        moved = substitute(moved, name, _shift(Sym(name), self.kinds[name], k))
                    yield "joint", moved

    def build(self) -> None:
        standard = parse(standard_text(self.site))
        self.add(standard, 0, identity=True)
        bases = [standard]
        if self.site in _BASES:
            text, terms = _BASES[self.site]
            alt = parse(text)
            bases.append(alt)
            for k in range(-self.shift, self.shift + 1):
                if k:
                    moved = alt
                    for term in terms:
                        moved = _replace_term(moved, term, _c("+", parse(term), _k(k)))
                    self.add(moved, 1)
        firsts: list[tuple[str, Expr]] = []
        for base in bases:
            for _kind, expr in self.edits(base, small=False):
                self.add(expr, 1)
        for base in bases:
            firsts += [
                (k, e)
                for k, e in self.edits(base, small=True)
                if k in ("operator", "swap", "joint")
            ]
        for kind, first in firsts:
            for second_kind, expr in self.edits(first, small=True):
                if second_kind != kind and second_kind in ("result", "swap", "operator"):
                    self.add(expr, 2)

    def enumerated(self) -> list[Expr]:  # (none for STRAIN: its predicate is program code)
        names = [n for n, kind in self.kinds.items() if kind != "pred"]
        if len(names) != len(self.kinds):
            return []
        syms = [Sym(n) for n in names]
        consts = [_k(0), _k(1), _k(-1), _k(2)]
        out: list[Expr] = [_c(op, x) for op in _UNARY for x in syms]
        for op in _BINARY:
            for x in syms:
                for y in syms:
                    out.append(_c(op, x, y))
                if op in _NUMERIC_BINARY:
                    for c in consts:
                        out += [_c(op, x, c), _c(op, c, x)]
        return out


def _weights(hypotheses: list[Hypothesis]) -> tuple[float, ...]:
    raw = [0.0 if h.identity else 2.0**-h.cost for h in hypotheses]
    rest = sum(raw) or 1.0
    return tuple(
        IDENTITY_SHARE if h.identity else (1 - IDENTITY_SHARE) * w / rest
        for h, w in zip(hypotheses, raw)
    )


@functools.cache
def site_space(site: str, bounds: Bounds = DEFAULT_BOUNDS) -> Space:
    """The hypotheses of `site` (deterministic; cached for the process)."""
    if site not in SITES:
        raise KeyError(site)
    builder = _Builder(site, bounds)
    builder.build()
    operands = SITES[site].operands
    lazy = "b" if site in ("BOND", "RIFT") else None
    table = Table(operands, lazy)
    pool, keys = sample_pool(site, bounds.pool)
    hypotheses = [builder.found[t] for t in builder.order]
    roots = [table.intern(parse(h.text)) for h in hypotheses]
    seen = set(table.outcomes(roots, pool, keys).values()) if pool else set()
    fresh = {}
    for expr in builder.enumerated():
        text = to_text(expr)
        if text not in builder.found and text not in fresh:
            fresh[text] = table.intern(expr)
    signatures = table.outcomes(fresh.values(), pool, keys) if pool else {}
    for text, root in fresh.items():
        signature = signatures.get(root)
        if signature is None or signature in seen or all(o[0] != "v" for o in signature):
            continue
        seen.add(signature)
        hypotheses.append(Hypothesis(text, 3))
        roots.append(root)
    return Space(site, tuple(hypotheses), table, tuple(roots), _weights(hypotheses))


@functools.cache
def sample_pool(site: str, size: int) -> tuple[tuple[tuple, ...], tuple[tuple, ...]]:
    """Sample operand cases of the site (the equivalence checker's pools),
    spread over all of them, and their frozen keys."""
    kinds = operand_kinds(site)
    every = sample_cases(kinds)
    stride = max(1, len(every) // size)
    cases = tuple(tuple(case.values()) for case in every[::stride][:size])
    return cases, tuple(tuple(freeze(v) for v in case) for case in cases)
