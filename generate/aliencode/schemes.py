"""The library of perturbation schemes a generated world draws its rules from.

Each scheme proposes rules for some sites, with parameters drawn from the
generator's random source: a `Draft` is a target site, the rule expression
that really happens there, a name for reports and the layer the manual and
reports group it under. Whether a draft is kept (it must differ from the
manual, differ from every other rule, and stay portable) is decided by the
generator, not here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from aliencode.operations import SAME_AS_OPERATOR
from aliencode.sites import ARITHMETIC as ARITHMETIC_SITES

LITERAL = "literal"
INDEXING = "indexing"
ARITHMETIC = "arithmetic"
COMPARISON = "comparison"
ORDER = "argument order"
PRINTING = "printing"
AGGREGATION = "aggregation"
LOGIC = "logic"
SCOPED = "scope-limited"
RED_HERRING = "red herring"
KEYWORDS = "keyword renaming"
RESISTANT = "calibration-resistant"


@dataclass(frozen=True)
class Draft:
    scheme: str
    target: str
    actual: str
    name: str
    layer: str
    scope: str | None = None  # the scope the scheme asks for; None lets the drawer choose


Proposer = Callable[[random.Random], Draft]

# the arithmetic sites' operators, in aliencode/sites.py's order (the draw picks from it)
_ARITH = {site: SAME_AS_OPERATOR[site] for site in ARITHMETIC_SITES}
_ARITH_WORDS = {
    "+": "adds",
    "-": "subtracts",
    "*": "multiplies",
    "/": "divides",
    "**": "raises to a power",
    "%": "takes the remainder",
    "//": "divides and rounds down",
}
_COMPARE = {"AKIN": "==", "APART": "!=", "OVER": ">", "UNDER": "<", "ATOP": ">=", "BENEATH": "<="}
_COMPARE_WORDS = {
    "==": "equality",
    "!=": "difference",
    ">": "greater-than",
    "<": "less-than",
    ">=": "greater-or-equal",
    "<=": "less-or-equal",
}
_NON_STRICT = {">": ">=", "<": "<=", ">=": ">", "<=": "<"}
_INVERSE = {">": "<=", "<": ">=", ">=": "<", "<=": ">", "==": "!=", "!=": "=="}
_FLIPPED = {">": "<", "<": ">", ">=": "<=", "<=": ">="}


def _literal(rng: random.Random) -> Draft:
    kind = rng.choice(["int", "int", "int", "str", "bool", "float"])
    if kind == "int":
        form = rng.choice(["shift", "xor", "reflect"])
        if form == "shift":
            k = rng.choice([d for d in range(-40, 41) if abs(d) >= 2])
            return Draft(
                LITERAL,
                "literal.int",
                f"(+ n {k})",
                f"Integer literals are {abs(k)} {'larger' if k > 0 else 'smaller'}",
                "literals",
            )
        if form == "xor":
            k = rng.randrange(3, 64)
            return Draft(
                LITERAL, "literal.int", f"(^ n {k})", "Integer literals are encoded", "literals"
            )
        k = rng.randrange(5, 61)
        return Draft(
            LITERAL,
            "literal.int",
            f"(- {k} n)",
            f"Integer literals are counted down from {k}",
            "literals",
        )
    if kind == "str":
        form = rng.choice(["reverse", "rotate"])
        if form == "reverse":
            return Draft(
                LITERAL,
                "literal.str",
                "(reverse s)",
                "String literals are stored backwards",
                "literals",
            )
        return Draft(
            LITERAL,
            "literal.str",
            "(concat (slice s 1) (slice s 0 1))",
            "String literals start at their second character",
            "literals",
        )
    if kind == "bool":
        return Draft(LITERAL, "literal.bool", "(not x)", "YES and NO are swapped", "literals")
    form = rng.choice(["neg", "double"])
    if form == "neg":
        return Draft(LITERAL, "literal.float", "(neg n)", "Float literals change sign", "literals")
    return Draft(LITERAL, "literal.float", "(* n 2.0)", "Float literals are doubled", "literals")


# (weight, target, actual, name, layer)
_PLUCK = (
    (2, "PLUCK", "(get seq (- i 1))", "PLUCK counts from one", "positions"),
    (1, "PLUCK", "(get seq (+ i 1))", "PLUCK skips a position", "positions"),
    (1, "PLUCK", "(get seq (- -1 i))", "PLUCK counts from the end", "positions"),
)
_CARVE = (
    (
        2,
        "CARVE",
        "(slice seq (- lo 1) (if (== hi none) none (- hi 1)))",
        "CARVE counts from one",
        "positions",
    ),
    (
        1,
        "CARVE",
        "(slice seq lo (if (== hi none) none (+ hi 1)))",
        "CARVE includes its end",
        "positions",
    ),
    (1, "CARVE", "(slice seq (+ lo 1) hi)", "CARVE starts one later", "positions"),
)
_INDEXING = (
    (1, "EXTENT", "(range lo (+ hi 1))", "EXTENT includes its upper bound", "iteration"),
    (1, "EXTENT", "(range (+ lo 1) hi)", "EXTENT starts one later", "iteration"),
    (1, "INDEX", "(zip (range 1 (+ (len seq) 1)) seq)", "INDEX counts from 1", "iteration"),
    (1, "INDEX", "(zip (range 10 (+ (len seq) 10)) seq)", "INDEX counts from 10", "iteration"),
    (1, "IMPRINT", "(set seq (- i 1) val)", "IMPRINT counts from one", "positions"),
)


def _variant(scheme: str, table: tuple, rng: random.Random) -> Draft:
    weight, target, actual, name, layer = rng.choices(table, [row[0] for row in table])[0]
    return Draft(scheme, target, actual, name, layer)


def pluck(rng: random.Random) -> Draft:
    return _variant(INDEXING, _PLUCK, rng)


def carve(rng: random.Random) -> Draft:
    return _variant(INDEXING, _CARVE, rng)


def _indexing(rng: random.Random) -> Draft:
    return _variant(INDEXING, _INDEXING, rng)


def _arithmetic(rng: random.Random) -> Draft:
    """Swapped operands (of the operations where order matters), a result
    off by a constant, or another of + - * (the only operations with
    stand-ins: a world whose HALVE adds has no floor division left)."""
    op = rng.choice(list(_ARITH))
    std = _ARITH[op]
    forms = ["offset"] if std in ("+", "-", "*", "//") else []
    if std not in ("+", "*"):
        forms.append("swapped")
    if std in ("+", "-", "*"):
        forms.append("other")
    form = rng.choice(forms)
    if form == "swapped":
        return Draft(
            ARITHMETIC, op, f"({std} b a)", f"{op} takes its operands the other way", "arithmetic"
        )
    if form == "offset":
        k = rng.choice([1, 2, 3, -1])
        return Draft(ARITHMETIC, op, f"(+ ({std} a b) {k})", f"{op} is off by {k}", "arithmetic")
    other = rng.choice([o for o in ("+", "-", "*") if o != std])
    return Draft(ARITHMETIC, op, f"({other} a b)", f"{op} {_ARITH_WORDS[other]}", "arithmetic")


def _comparison(rng: random.Random) -> Draft:
    op = rng.choice(list(_COMPARE))
    std = _COMPARE[op]
    choices = [("inverted", _INVERSE[std])]
    if std in _NON_STRICT:
        choices.append(("strictness", _NON_STRICT[std]))
        choices.append(("flipped", _FLIPPED[std]))
    form, new = rng.choice(choices)
    words = {
        "inverted": f"{op} is inverted",
        "strictness": f"{op} is {_COMPARE_WORDS[new]}",
        "flipped": f"{op} compares the other way",
    }
    return Draft(COMPARISON, op, f"({new} a b)", words[form], "comparison")


_ORDER = (
    (1, "PAIR", "(zip b a)", "PAIR puts the second sequence first", "iteration"),
    (1, "FUSE", '(join "" (reverse args))', "FUSE joins from the last value", "aggregation"),
    (1, "KNOT", "(tuple (reverse args))", "KNOT stores its arguments backwards", "sequences"),
    (1, "STRAND", "(reverse args)", "STRAND stores its arguments backwards", "sequences"),
    (1, "ANNEX", "(prepend seq val)", "ANNEX puts the value first", "positions"),
)
_PRINTING = (
    (1, "EMIT", "(reverse args)", "EMIT prints backwards", "output"),
    (
        1,
        "EMIT",
        "(concat (slice args 1) (slice args 0 1))",
        "EMIT prints its first value last",
        "output",
    ),
    (
        1,
        "EMIT",
        "(concat (reverse (slice args 0 2)) (slice args 2))",
        "EMIT swaps its first two values",
        "output",
    ),
    (1, "EMIT", "(slice args 1)", "EMIT leaves out its first value", "output"),
)
_ONE = "(if (== (len args) 1) (get args 0) args)"
_AGGREGATION = (
    (1, "APEX", f"(min {_ONE})", "APEX gives the smallest", "aggregation"),
    (1, "NADIR", f"(max {_ONE})", "NADIR gives the largest", "aggregation"),
    (1, "EVERY_OF", "(any seq)", "EVERY_OF needs only one", "aggregation"),
    (1, "SOME_OF", "(all seq)", "SOME_OF needs all", "aggregation"),
    (1, "ORDER", "(sort_desc seq)", "ORDER sorts downwards", "aggregation"),
    (1, "GATHER", "(reverse (list seq))", "GATHER copies backwards", "aggregation"),
    (1, "GAUGE", "(+ (len seq) 1)", "GAUGE counts one more", "aggregation"),
)
_LOGIC = (
    (1, "BOND", "(or a b)", "BOND is or", "logic"),
    (1, "RIFT", "(and a b)", "RIFT is and", "logic"),
)


# Changes a run-time calibrator cannot see by testing (docs/generated-worlds.md):
# to the operations it builds its tests from, inside the CRAFT bodies its
# helpers are (a STRAND built backwards turns its probe lists around), or to
# strings alone, so a test on lists sees the manual's meaning. Each is one
# edit of the manual's expression in the explorer's hypothesis space, and the
# porting compiler compensates each (the drawer still checks).
# (weight, target, actual, name, layer, scope)
_STRINGS_BACKWARDS = '(if (== (slice seq 0 0) "") (reverse seq) seq)'
_RESISTANT = (
    (
        4,
        "STRAND",
        "(reverse args)",
        "STRAND stores its arguments backwards",
        "sequences",
        "function",
    ),
    (3, "SWEEP", _STRINGS_BACKWARDS, "SWEEP walks strings backwards", "iteration", "anywhere"),
    (
        1,
        "INDEX",
        f"(enumerate {_STRINGS_BACKWARDS})",
        "INDEX walks strings backwards",
        "iteration",
        "anywhere",
    ),
    (1, "GATHER", "(reverse (list seq))", "GATHER copies backwards", "aggregation", "function"),
    (1, "ANNEX", "(prepend seq val)", "ANNEX puts the value first", "positions", "function"),
    (1, "GAUGE", "(+ (len seq) 1)", "GAUGE counts one more", "aggregation", "function"),
    (
        1,
        "FUSE",
        '(join "" (reverse args))',
        "FUSE joins from the last value",
        "aggregation",
        "function",
    ),
)


# The one every world gets when its scoped rules allow: every CRAFT that
# delivers a list of two or more values built by STRAND meets it.
STRAND_IN_CRAFTS = Draft(RESISTANT, *_RESISTANT[0][1:])


def is_resistant(target: str, actual: str, scope: str) -> bool:
    """Whether a world's rule is one of the calibration-resistant scheme's."""
    return any(row[1:3] == (target, actual) and row[5] == scope for row in _RESISTANT)


def resistant(rng: random.Random, scoped: bool) -> Draft:
    """A calibration-resistant change; one limited to a scope only when
    `scoped` (the world's scoped rules are a knob)."""
    table = tuple(row for row in _RESISTANT if scoped or row[5] == "anywhere")
    weight, target, actual, name, layer, scope = rng.choices(table, [row[0] for row in table])[0]
    return Draft(RESISTANT, target, actual, name, layer, scope)


def _order(rng: random.Random) -> Draft:
    return _variant(ORDER, _ORDER, rng)


def _printing(rng: random.Random) -> Draft:
    return _variant(PRINTING, _PRINTING, rng)


def _aggregation(rng: random.Random) -> Draft:
    return _variant(AGGREGATION, _AGGREGATION, rng)


def _logic(rng: random.Random) -> Draft:
    return _variant(LOGIC, _LOGIC, rng)


# scheme -> (weight, proposer), drawn for the rules beyond the keystone pair.
SCHEMES: dict[str, tuple[int, Proposer]] = {
    LITERAL: (3, _literal),
    INDEXING: (2, _indexing),
    ARITHMETIC: (4, _arithmetic),
    COMPARISON: (3, _comparison),
    ORDER: (2, _order),
    PRINTING: (1, _printing),
    AGGREGATION: (3, _aggregation),
    LOGIC: (1, _logic),
}


def propose(rng: random.Random) -> Draft:
    names = list(SCHEMES)
    weights = [SCHEMES[n][0] for n in names]
    scheme = rng.choices(names, weights)[0]
    return SCHEMES[scheme][1](rng)


SYLLABLES = (
    "KA",
    "RO",
    "MI",
    "VEL",
    "TU",
    "ZAR",
    "NO",
    "QUI",
    "DRA",
    "SO",
    "LUN",
    "PE",
    "GRO",
    "XI",
    "BRA",
    "TOR",
)


def invented_word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.choice([2, 2, 3])))
