"""Behavioural equivalence of rule expressions.

Two expressions behave the same at a site when, on a deterministic sample of
operand values suited to the site (small and edge-case integers, negatives,
floats, empty and nested sequences, strings), they give the same outcome:
equal values (numbers compare by value, so 8 and 8.0 agree, as graded
outputs do) or the same error kind. This judges rule reports by behaviour,
not by spelling: `(+ n 7)` and `(+ 7 n)` are equivalent.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .compile import compile_rule, operator_namespace
from .errors import LanguageError
from .expr import Expr, Identity, parse
from .limits import Limits, Meter
from .operators import make_operators
from .text import render


def _is_true(x):
    return bool(x)


def _is_odd(x):
    return type(x) is int and x % 2 == 1


def _never(x):
    return False


for _fn, _name in ((_is_true, "is_true"), (_is_odd, "is_odd"), (_never, "never")):
    _fn.alien_name = _name

INTS = (0, 1, 2, 3, -1, -2, 7, 10, 26, 27, 100, -100, 2**31, -(2**40))
FLOATS = (0.0, 0.5, -0.5, 1.0, 2.5, -3.25, 0.1, 1e10)
STRS = ("", "a", "ab", "abc", "Hello", "x y", "zz")
SEQS = (
    [],
    [1],
    [1, 2, 3],
    [3, 1, 2],
    [-1, 0, 5, 5],
    ["a", "b"],
    [[1, 2], [3]],
    (1, 2),
    (),
    "abc",
    "",
    "hello",
)
POOLS: dict[str, tuple] = {
    "int": INTS,
    "int_or_none": INTS + (None,),
    "float": FLOATS,
    "str": STRS,
    "bool": (True, False),
    "seq": SEQS,
    "value": INTS[:8] + FLOATS[:4] + STRS[:4] + (True, False, None) + SEQS[:5],
    "args": ([], [1], [1, 2], [3, 1, 2], ["a"], ["a", "b"], [[1], [2, 3]], [1.5, -2], [True, 0]),
    "pred": (_is_true, _is_odd, _never),
}
MAX_CASES = 3000


def cases(kinds: Mapping[str, str | tuple]) -> list[dict[str, object]]:
    """The deterministic operand samples for operands of the given kinds.

    A kind is the name of a pool above, or a tuple of sample values (a
    caller that knows more about an operand, such as its type, brings its
    own pool)."""
    names = list(kinds)
    pools = [kinds[n] if isinstance(kinds[n], tuple) else POOLS[kinds[n]] for n in names]
    total = math.prod(len(p) for p in pools) if pools else 1
    stride = max(1, -(-total // MAX_CASES))
    if stride == 1:
        return [dict(zip(names, combo)) for combo in itertools.product(*pools)]
    # every stride-th combination in itertools.product's order, decoded from its
    # index: walking all of them cost a world draw seconds when operands are many
    return [dict(zip(names, _combination(pools, index))) for index in range(0, total, stride)]


def _combination(pools: list[tuple], index: int) -> tuple:
    """The `index`-th combination of itertools.product(*pools) (the last pool varies fastest)."""
    combo = []
    for pool in reversed(pools):
        index, digit = divmod(index, len(pool))
        combo.append(pool[digit])
    return tuple(reversed(combo))


_NUMBERS = (int, float)
_PLAIN = frozenset({int, str, bool, type(None)})


def _same(x: object, y: object) -> bool:
    """Whether two values are the same value: numbers by value (NaN equal to
    NaN), sequences of one type element by element, anything else equal and
    of one type (a function: itself). Shortcuts, for the checker compares
    hundreds of thousands of results, mostly long lists: an object is the
    same as itself; sequences of integers, strings, booleans and none whose
    elements' types agree one by one are compared whole; elements that are
    integers or strings are compared in the loop."""
    if x is y:
        return True
    tx, ty = type(x), type(y)
    if tx in _NUMBERS and ty in _NUMBERS:
        return x == y or (tx is float and ty is float and math.isnan(x) and math.isnan(y))
    if tx is not ty:
        return False
    if tx is list or tx is tuple:
        if len(x) != len(y):
            return False
        kinds = list(map(type, x))
        if _PLAIN.issuperset(kinds) and kinds == list(map(type, y)):
            return x == y  # elements of these types are the same exactly when equal
        for a, b in zip(x, y):
            if a is b:
                continue
            ta = type(a)
            if ta is type(b) and (ta is int or ta is str):
                if a != b:
                    return False
            elif not _same(a, b):
                return False
        return True
    return x == y if tx in (str, bool, type(None)) else False


def _outcome(
    fn: Callable[..., object], case: Mapping[str, object], meter: Meter
) -> tuple[str, object]:
    meter.reset()
    try:
        return "value", fn(*case.values())
    except LanguageError as exc:
        return "error", exc.kind


@dataclass(frozen=True)
class Comparison:
    equivalent: bool
    cases: int
    counterexample: dict[str, object] | None = None
    left: tuple[str, object] | None = None
    right: tuple[str, object] | None = None

    def describe(self, left_text: str, right_text: str) -> str:
        if self.equivalent:
            return f"equivalent on all {self.cases} sample cases"
        shown = ", ".join(
            f"{k}={render(v, quoted=True)}" for k, v in (self.counterexample or {}).items()
        )

        def outcome(o):
            kind, value = o
            return f"raises {value}" if kind == "error" else f"gives {render(value, quoted=True)}"

        return (
            f"different: with {shown}, {left_text} {outcome(self.left)} "
            f"but {right_text} {outcome(self.right)}"
        )


def compare(
    left: Expr | str,
    right: Expr | str,
    kinds: Mapping[str, str | tuple],
    standard: Expr | str | None = None,
    *,
    partial: bool = False,
) -> Comparison:
    """Compare two expressions over the operands `kinds` (name -> sample kind).

    IDENTITY stands for `standard`, the site's manual semantics. With
    `partial`, a case on which `right` raises is skipped: `left` must agree
    wherever `right` is defined (what a replacement for `right` must do).
    """
    params = tuple(kinds)
    meter = Meter(Limits(max_steps=100_000))
    namespace = operator_namespace(make_operators(meter))

    def prepare(e: Expr | str):
        expr = parse(e) if isinstance(e, str) else e
        if isinstance(expr, Identity):
            if standard is None:
                raise ValueError("IDENTITY needs the site's standard expression")
            return prepare(standard)
        return compile_rule(expr, params).bind(namespace)

    f, g = prepare(left), prepare(right)
    samples = cases(kinds)
    for case in samples:
        a, b = _outcome(f, case, meter), _outcome(g, case, meter)
        if partial and b[0] == "error":
            continue
        if (
            a[0] != b[0]
            or (a[0] == "error" and a[1] != b[1])
            or (a[0] == "value" and not _same(a[1], b[1]))
        ):
            return Comparison(False, len(samples), case, a, b)
    return Comparison(True, len(samples))
