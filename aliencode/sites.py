"""AlienCode's perturbable sites and the operations of the standard language.

This table is the single description of the language's operations: the
grammar's keyword list, the compiler's arity checks, the world schema's
operand names and the manual are all derived from it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Operation:
    name: str
    min_args: int
    max_args: int | None  # None: any number
    operands: tuple[str, ...]  # the site's operand names in rule expressions
    standard: str  # the manual's meaning as a rule expression (documentation and tests)
    summary: str  # one line for the manual
    example: str  # a tiny program for the manual; its output is computed, never typed
    category: str


def _ops() -> tuple[Operation, ...]:
    binary = ("a", "b")
    seq = ("seq",)
    args = ("args",)
    rows = [
        # arithmetic
        (
            "SHATTER",
            2,
            2,
            binary,
            "(+ a b)",
            "a + b (numbers; also joins two strings, lists or tuples)",
            "EMIT(SHATTER(2, 3))",
            "arithmetic",
        ),
        ("WEAVE", 2, 2, binary, "(- a b)", "a − b", "EMIT(WEAVE(7, 2))", "arithmetic"),
        (
            "PARE",
            2,
            2,
            binary,
            "(* a b)",
            "a × b (a string, list or tuple times an integer repeats it)",
            "EMIT(PARE(4, 3))",
            "arithmetic",
        ),
        (
            "FRACTURE",
            2,
            2,
            binary,
            "(/ a b)",
            "a ÷ b, true division (always a float)",
            "EMIT(FRACTURE(7, 2))",
            "arithmetic",
        ),
        ("COIL", 2, 2, binary, "(** a b)", "a to the power b", "EMIT(COIL(2, 10))", "arithmetic"),
        (
            "RESIDUE",
            2,
            2,
            binary,
            "(% a b)",
            "a modulo b; the result has the sign of b",
            "EMIT(RESIDUE(-7, 3))",
            "arithmetic",
        ),
        ("HALVE", 2, 2, binary, "(// a b)", "floor(a ÷ b)", "EMIT(HALVE(7, 2))", "arithmetic"),
        # comparison
        ("AKIN", 2, 2, binary, "(== a b)", "a equals b", "EMIT(AKIN(3, 3))", "comparison"),
        ("APART", 2, 2, binary, "(!= a b)", "a differs from b", "EMIT(APART(3, 4))", "comparison"),
        ("OVER", 2, 2, binary, "(> a b)", "a > b", "EMIT(OVER(5, 2))", "comparison"),
        ("UNDER", 2, 2, binary, "(< a b)", "a < b", "EMIT(UNDER(5, 2))", "comparison"),
        ("ATOP", 2, 2, binary, "(>= a b)", "a ≥ b", "EMIT(ATOP(2, 2))", "comparison"),
        ("BENEATH", 2, 2, binary, "(<= a b)", "a ≤ b", "EMIT(BENEATH(3, 2))", "comparison"),
        # logic
        (
            "BOND",
            2,
            2,
            binary,
            "(and a b)",
            "a and b: b is evaluated only when a is true; gives a if a is false, else b",
            "EMIT(BOND(YES, NO))",
            "logic",
        ),
        (
            "RIFT",
            2,
            2,
            binary,
            "(or a b)",
            "a or b: b is evaluated only when a is false; gives a if a is true, else b",
            "EMIT(RIFT(NO, YES))",
            "logic",
        ),
        (
            "NEGATE",
            1,
            1,
            ("x",),
            "(not x)",
            "logical not: YES when x is false, else NO",
            "EMIT(NEGATE(NO))",
            "logic",
        ),
        # construction
        (
            "STRAND",
            0,
            None,
            args,
            "args",
            "a new list of the arguments",
            "EMIT(STRAND(1, 2, 3))",
            "sequences",
        ),
        (
            "KNOT",
            0,
            None,
            args,
            "(tuple args)",
            "a new tuple of the arguments",
            "EMIT(KNOT(8))",
            "sequences",
        ),
        # positions
        (
            "PLUCK",
            2,
            2,
            ("seq", "i"),
            "(get seq i)",
            "the element at position i (0-based; negative counts from the end)",
            "EMIT(PLUCK(STRAND(4, 5, 6), 0))",
            "positions",
        ),
        (
            "CARVE",
            2,
            3,
            ("seq", "lo", "hi"),
            "(slice seq lo hi)",
            "the slice from position lo up to, not including, hi (CARVE(seq, lo): to the end)",
            'EMIT(CARVE("alien", 1, 3))',
            "positions",
        ),
        (
            "ANNEX",
            2,
            2,
            ("seq", "val"),
            "(append seq val)",
            "append val to the list in place; gives none",
            "SET xs AS STRAND(1)\nANNEX(xs, 2)\nEMIT(xs)",
            "positions",
        ),
        (
            "EXPEL",
            1,
            1,
            seq,
            "-1",
            "remove the last element of the list and give it",
            "SET xs AS STRAND(1, 2)\nEMIT(EXPEL(xs), xs)",
            "positions",
        ),
        (
            "IMPRINT",
            3,
            3,
            ("seq", "i", "val"),
            "(set seq i val)",
            "set the element at position i of the list to val, in place; gives none",
            "SET xs AS STRAND(1, 2)\nIMPRINT(xs, 0, 9)\nEMIT(xs)",
            "positions",
        ),
        # aggregation
        (
            "GAUGE",
            1,
            1,
            seq,
            "(len seq)",
            "the length of a list, tuple or string",
            'EMIT(GAUGE("alien"))',
            "aggregation",
        ),
        (
            "NADIR",
            1,
            None,
            args,
            "(min (if (== (len args) 1) (get args 0) args))",
            "the smallest argument, or the smallest element of one sequence",
            "EMIT(NADIR(4, 2, 9))",
            "aggregation",
        ),
        (
            "APEX",
            1,
            None,
            args,
            "(max (if (== (len args) 1) (get args 0) args))",
            "the largest argument, or the largest element of one sequence",
            "EMIT(APEX(STRAND(4, 2, 9)))",
            "aggregation",
        ),
        (
            "SOME_OF",
            1,
            1,
            seq,
            "(any seq)",
            "YES when some element is true",
            "EMIT(SOME_OF(STRAND(0, 3)))",
            "aggregation",
        ),
        (
            "EVERY_OF",
            1,
            1,
            seq,
            "(all seq)",
            "YES when every element is true",
            "EMIT(EVERY_OF(STRAND(0, 3)))",
            "aggregation",
        ),
        (
            "ORDER",
            1,
            1,
            seq,
            "(sort_asc seq)",
            "a sorted copy, as a list",
            "EMIT(ORDER(STRAND(3, 1, 2)))",
            "aggregation",
        ),
        (
            "GATHER",
            1,
            1,
            seq,
            "(list seq)",
            "a copy as a list",
            'EMIT(GATHER("ab"))',
            "aggregation",
        ),
        (
            "FUSE",
            0,
            None,
            args,
            '(join "" args)',
            "the text of the values joined together, as a string",
            'EMIT(FUSE("x", 1, YES))',
            "aggregation",
        ),
        # iteration helpers
        (
            "EXTENT",
            1,
            2,
            ("lo", "hi"),
            "(range lo hi)",
            "the list of integers from lo up to, not including, hi (EXTENT(n): from 0)",
            "EMIT(EXTENT(3))",
            "iteration",
        ),
        (
            "INDEX",
            1,
            1,
            seq,
            "(enumerate seq)",
            "the list of (position, element) pairs, positions from 0",
            'EMIT(INDEX("ab"))',
            "iteration",
        ),
        (
            "PAIR",
            2,
            2,
            binary,
            "(zip a b)",
            "the list of pairs of corresponding elements (as long as the shorter)",
            'EMIT(PAIR(STRAND(1, 2), "ab"))',
            "iteration",
        ),
        (
            "STRAIN",
            2,
            2,
            ("pred", "seq"),
            "(filter pred seq)",
            "the list of elements for which the function pred gives a true value",
            "CRAFT odd(n):\n    DELIVER RESIDUE(n, 2)\nEMIT(STRAIN(odd, EXTENT(5)))",
            "iteration",
        ),
        # output
        (
            "EMIT",
            0,
            None,
            args,
            "args",
            "print the values separated by one space, then a newline",
            'EMIT("n =", 3)',
            "output",
        ),
    ]
    return tuple(Operation(*row) for row in rows)


OPERATIONS: tuple[Operation, ...] = _ops()
OPERATION_BY_NAME: dict[str, Operation] = {op.name: op for op in OPERATIONS}


def operations_in(category: str) -> tuple[str, ...]:
    """The operations of a manual category, in the manual's order."""
    return tuple(op.name for op in OPERATIONS if op.category == category)


# The site groups other modules pick from: one definition, here.
ARITHMETIC: tuple[str, ...] = operations_in("arithmetic")
COMPARISON: tuple[str, ...] = operations_in("comparison")


@dataclass(frozen=True)
class Site:
    name: str
    operands: tuple[str, ...]
    description: str


LITERAL_SITES = {
    "literal.int": Site("literal.int", ("n",), "every integer literal in the program text"),
    "literal.float": Site("literal.float", ("n",), "every float literal in the program text"),
    "literal.str": Site("literal.str", ("s",), "every string literal in the program text"),
    "literal.bool": Site("literal.bool", ("x",), "every YES / NO literal in the program text"),
}
SWEEP_SITE = Site("SWEEP", ("seq",), "the sequence a SWEEP loop walks")

SITES: dict[str, Site] = {
    **{op.name: Site(op.name, op.operands, op.summary) for op in OPERATIONS},
    **LITERAL_SITES,
    "SWEEP": SWEEP_SITE,
}

# Sites whose second operand is evaluated lazily (short-circuit operations).
LAZY_OPERAND = {"BOND": "b", "RIFT": "b"}
# Sites that change a list in place: their rule gives the new contents
# (ANNEX, IMPRINT) or the position removed and returned (EXPEL).
IN_PLACE = frozenset({"ANNEX", "IMPRINT", "EXPEL"})

STATEMENT_KEYWORDS = (
    "SET",
    "AS",
    "UPON",
    "LEST",
    "DEFAULT",
    "SWEEP",
    "IN",
    "WHILE",
    "CEASE",
    "BYPASS",
    "IDLE",
    "CRAFT",
    "DELIVER",
)
CONSTANT_KEYWORDS = ("YES", "NO", "none")
KEYWORDS: tuple[str, ...] = (
    STATEMENT_KEYWORDS + CONSTANT_KEYWORDS + tuple(op.name for op in OPERATIONS)
)

# The kind of sample values each site's operands take when two rule
# expressions are compared by behaviour (see ruleset.equivalence).
_OPERAND_KIND = {
    "a": "value",
    "b": "value",
    "x": "value",
    "val": "value",
    "seq": "seq",
    "i": "int",
    "lo": "int",
    "hi": "int",
    "args": "args",
    "pred": "pred",
}
_SITE_KIND_OVERRIDES = {
    ("CARVE", "hi"): "int_or_none",
    ("literal.int", "n"): "int",
    ("literal.float", "n"): "float",
    ("literal.str", "s"): "str",
    ("literal.bool", "x"): "bool",
}


def operand_kinds(site: str) -> dict[str, str]:
    """Sample kind of each operand of `site`, in operand order."""
    return {
        name: _SITE_KIND_OVERRIDES.get((site, name), _OPERAND_KIND.get(name, "value"))
        for name in SITES[site].operands
    }
