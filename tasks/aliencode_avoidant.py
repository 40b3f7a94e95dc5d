"""The `avoidant` knowledge-free strategy (docs/validity.md): manual-correct
rewrites of a task's manual-trusting solutions onto a small "safe" core.

A *core* is data: for each rewrite kind (an operation, a literal kind, the
counter idiom, the SWEEP loop) the option the rewrite uses. Every option is
an identity of the manual (what the manual itself could write instead), so a
rewritten program prints under the manual what the original prints; in a
world it steps around whatever operations the core avoids. The rewrite works
on the syntax tree (aliencode.syntax) and writes source with unparse.

Operations the core replaces by loops (PLUCK, CARVE, EXTENT, ...) become
calls of helper CRAFTs (HELPERS, written in the manual's standard spelling);
the helpers are rewritten with the same core, so they avoid what the program
avoids, except the operation a helper stands for (it never calls itself).

`answers(task, world)` reads only what a knowledge-free system sees: the
world's keywords and the task's naive solution, variants and input names. It
never reads the world's rules, the reference, the private calls or expected
outputs. Cores are deduplicated per program (two cores that agree on every
kind the program and its helpers reach write the same program).

The identities hold on the values a task's solutions compute; they may differ
from the manual where the original fails (an index out of range gives none,
not an IndexError), on a CARVE of a tuple (a list comes back) and on NaN
(a negated comparison). tests/tasks/test_aliencode_avoidant.py checks every
core on a sample of the main bank against the manual.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import cache, reduce

from aliencode import AlienSyntaxError, World, parse
from aliencode import syntax as s
from aliencode.sites import COMPARISON
from aliencode.unparse import unparse
from aliencode.walk import nodes

from .aliencode_statement_memo import IdentityMemo
from .bank import Task

WRAPPER = "avoid_main"
P = s.Pos(0, 0)  # positions of written nodes: unparse ignores them

# Rewrite kinds and their options; "keep" (the first) leaves the site alone.
OPTIONS: dict[str, tuple[str, ...]] = {
    "int": ("keep", "yes-10", "no-10", "yes-40", "list-10"),
    "counter": ("keep", "list"),
    "float": ("keep", "fracture"),
    "str": ("keep", "chars"),
    "bool": ("keep", "negate"),
    "PLUCK": ("keep", "sweep", "expel"),
    "CARVE": ("keep", "sweep", "pluck"),
    "EXTENT": ("keep", "while"),
    "INDEX": ("keep", "sweep"),
    "PAIR": ("keep", "expel"),
    "AKIN": ("keep", "negated"),
    "APART": ("keep", "negated"),
    "OVER": ("keep", "flipped", "negated"),
    "UNDER": ("keep", "flipped", "negated"),
    "ATOP": ("keep", "flipped", "negated"),
    "BENEATH": ("keep", "flipped", "negated"),
    "SHATTER": ("keep", "typed"),
    "WEAVE": ("keep", "shatter"),
    "PARE": ("keep", "swapped"),
    "RESIDUE": ("keep", "halve"),
    "BOND": ("keep", "demorgan"),
    "RIFT": ("keep", "demorgan"),
    "APEX": ("keep", "sweep"),
    "NADIR": ("keep", "sweep"),
    "SOME_OF": ("keep", "sweep"),
    "EVERY_OF": ("keep", "sweep"),
    "ORDER": ("keep", "insertion"),
    "GATHER": ("keep", "sweep"),
    "STRAIN": ("keep", "sweep"),
    "SWEEP": ("keep", "while"),
    "GAUGE": ("keep", "sweep"),
    "NEGATE": ("keep", "branch"),
    "FUSE": ("keep", "shatter"),
    "EMIT": ("keep", "fused"),
}


@dataclass(frozen=True)
class Core:
    name: str
    choices: Mapping[str, str]  # rewrite kind -> option; a kind not listed is kept

    def option(self, kind: str) -> str:
        return self.choices.get(kind, "keep")


_SAFE = {
    "int": "yes-10",
    "counter": "list",
    "PLUCK": "sweep",
    "CARVE": "sweep",
    "EXTENT": "while",
    "INDEX": "sweep",
    "PAIR": "expel",
}
# The new user's safe core; one that also negates and retypes what it keeps;
# one that walks everything with WHILE and EXPEL; two that rewrite every kind,
# with its first and with its last way.
HAND_CORES = (
    Core("safe", _SAFE),
    Core(
        "negated",
        {
            **_SAFE,
            "AKIN": "negated",
            "APART": "negated",
            "OVER": "negated",
            "UNDER": "negated",
            "ATOP": "negated",
            "BENEATH": "negated",
            "SHATTER": "typed",
            "WEAVE": "shatter",
            "str": "chars",
            "bool": "negate",
            "float": "fracture",
            "BOND": "demorgan",
            "RIFT": "demorgan",
        },
    ),
    Core(
        "while",
        {
            **_SAFE,
            "int": "no-10",
            "PLUCK": "expel",
            "SWEEP": "while",
            "OVER": "flipped",
            "UNDER": "flipped",
            "ATOP": "flipped",
            "BENEATH": "flipped",
            "APEX": "sweep",
            "NADIR": "sweep",
            "SOME_OF": "sweep",
            "EVERY_OF": "sweep",
            "ORDER": "insertion",
            "GATHER": "sweep",
            "STRAIN": "sweep",
        },
    ),
    Core("all-first", {kind: options[1] for kind, options in OPTIONS.items()}),
    Core("all-last", {kind: options[-1] for kind, options in OPTIONS.items()}),
)
N_RANDOM = 24


def random_core(k: int) -> Core:
    """Random core number k: an option drawn per kind, from a fixed seed."""
    rng = random.Random(f"avoidant-core-{k}")
    return Core(f"random-{k}", {kind: rng.choice(OPTIONS[kind]) for kind in OPTIONS})


CORES: tuple[Core, ...] = HAND_CORES + tuple(random_core(k) for k in range(N_RANDOM))

# Helper CRAFTs, in the standard spelling: name -> (the kind it stands for, source).
# They use no operation a safe core avoids, so rewriting them terminates.
HELPERS: dict[str, tuple[str, str]] = {
    "av_pluck": (
        "PLUCK",
        """
CRAFT av_pluck(seq, i):
    UPON UNDER(i, 0):
        SET i AS SHATTER(i, GAUGE(seq))
    SET k AS 0
    SWEEP x IN seq:
        UPON AKIN(k, i):
            DELIVER x
        SET k AS SHATTER(k, 1)
""",
    ),
    "av_pluck_back": (
        "PLUCK",
        """
CRAFT av_pluck_back(seq, i):
    UPON UNDER(i, 0):
        SET i AS SHATTER(i, GAUGE(seq))
    SET rest AS GATHER(seq)
    WHILE OVER(GAUGE(rest), SHATTER(i, 1)):
        EXPEL(rest)
    DELIVER EXPEL(rest)
""",
    ),
    "av_carve_pluck": (
        "CARVE",
        """
CRAFT av_carve_pluck(seq, lo, hi):
    SET n AS GAUGE(seq)
    UPON AKIN(hi, none):
        SET hi AS n
    UPON UNDER(lo, 0):
        SET lo AS SHATTER(lo, n)
    UPON UNDER(hi, 0):
        SET hi AS SHATTER(hi, n)
    UPON UNDER(lo, 0):
        SET lo AS 0
    UPON OVER(hi, n):
        SET hi AS n
    SET text AS AKIN(FUSE(seq), seq)
    SET out AS STRAND()
    SET joined AS FUSE()
    WHILE UNDER(lo, hi):
        ANNEX(out, PLUCK(seq, lo))
        UPON text:
            SET joined AS FUSE(joined, PLUCK(seq, lo))
        SET lo AS SHATTER(lo, 1)
    UPON text:
        DELIVER joined
    DELIVER out
""",
    ),
    "av_carve": (
        "CARVE",
        """
CRAFT av_carve(seq, lo, hi):
    UPON AKIN(hi, none):
        SET hi AS GAUGE(seq)
    UPON UNDER(lo, 0):
        SET lo AS SHATTER(lo, GAUGE(seq))
    UPON UNDER(hi, 0):
        SET hi AS SHATTER(hi, GAUGE(seq))
    SET text AS AKIN(FUSE(seq), seq)
    SET out AS STRAND()
    SET joined AS FUSE()
    SET k AS 0
    SWEEP x IN seq:
        UPON BOND(ATOP(k, lo), UNDER(k, hi)):
            ANNEX(out, x)
            UPON text:
                SET joined AS FUSE(joined, x)
        SET k AS SHATTER(k, 1)
    UPON text:
        DELIVER joined
    DELIVER out
""",
    ),
    "av_extent": (
        "EXTENT",
        """
CRAFT av_extent(lo, hi):
    SET out AS STRAND()
    WHILE UNDER(lo, hi):
        ANNEX(out, lo)
        SET lo AS SHATTER(lo, 1)
    DELIVER out
""",
    ),
    "av_index": (
        "INDEX",
        """
CRAFT av_index(seq):
    SET out AS STRAND()
    SET k AS 0
    SWEEP x IN seq:
        ANNEX(out, KNOT(k, x))
        SET k AS SHATTER(k, 1)
    DELIVER out
""",
    ),
    "av_pair": (
        "PAIR",
        """
CRAFT av_pair(a, b):
    SET rest AS GATHER(b)
    SET back AS STRAND()
    WHILE rest:
        ANNEX(back, EXPEL(rest))
    SET out AS STRAND()
    SWEEP x IN a:
        UPON NEGATE(back):
            CEASE
        ANNEX(out, KNOT(x, EXPEL(back)))
    DELIVER out
""",
    ),
    "av_first_char": (
        "FUSE",
        """
CRAFT av_first_char(t):
    SWEEP c IN t:
        DELIVER c
    DELIVER t
""",
    ),
    "av_join": (
        "SHATTER",
        """
CRAFT av_join(a, b):
    SET out AS GATHER(a)
    SWEEP x IN b:
        ANNEX(out, x)
    DELIVER out
""",
    ),
    # SHATTER on operands of unknown type: FUSE joins text, ANNEX joins lists,
    # WEAVE adds numbers; tuples keep SHATTER (nothing else builds a tuple).
    "av_add": (
        "SHATTER",
        """
CRAFT av_add(a, b):
    UPON AKIN(FUSE(a), a):
        DELIVER FUSE(a, b)
    SET shape AS av_first_char(FUSE(a))
    UPON AKIN(shape, av_first_char(FUSE(STRAND()))):
        SET out AS GATHER(a)
        SWEEP x IN b:
            ANNEX(out, x)
        DELIVER out
    UPON AKIN(shape, av_first_char(FUSE(KNOT()))):
        DELIVER SHATTER(a, b)
    DELIVER WEAVE(a, WEAVE(0, b))
""",
    ),
    "av_apex": (
        "APEX",
        """
CRAFT av_apex(seq):
    SET first AS YES
    SET best AS none
    SWEEP x IN seq:
        UPON RIFT(first, OVER(x, best)):
            SET best AS x
            SET first AS NO
    DELIVER best
""",
    ),
    "av_nadir": (
        "NADIR",
        """
CRAFT av_nadir(seq):
    SET first AS YES
    SET best AS none
    SWEEP x IN seq:
        UPON RIFT(first, UNDER(x, best)):
            SET best AS x
            SET first AS NO
    DELIVER best
""",
    ),
    "av_some": (
        "SOME_OF",
        """
CRAFT av_some(seq):
    SWEEP x IN seq:
        UPON x:
            DELIVER YES
    DELIVER NO
""",
    ),
    "av_every": (
        "EVERY_OF",
        """
CRAFT av_every(seq):
    SWEEP x IN seq:
        UPON NEGATE(x):
            DELIVER NO
    DELIVER YES
""",
    ),
    # insertion before the first larger element: stable, as ORDER is
    "av_order": (
        "ORDER",
        """
CRAFT av_order(seq):
    SET out AS STRAND()
    SWEEP x IN seq:
        SET grown AS STRAND()
        SET placed AS NO
        SWEEP y IN out:
            UPON BOND(NEGATE(placed), OVER(y, x)):
                ANNEX(grown, x)
                SET placed AS YES
            ANNEX(grown, y)
        UPON NEGATE(placed):
            ANNEX(grown, x)
        SET out AS grown
    DELIVER out
""",
    ),
    "av_gather": (
        "GATHER",
        """
CRAFT av_gather(seq):
    SET out AS STRAND()
    SWEEP x IN seq:
        ANNEX(out, x)
    DELIVER out
""",
    ),
    "av_gauge": (
        "GAUGE",
        """
CRAFT av_gauge(seq):
    SET n AS 0
    SWEEP x IN seq:
        SET n AS SHATTER(n, 1)
    DELIVER n
""",
    ),
    "av_not": (
        "NEGATE",
        """
CRAFT av_not(x):
    UPON x:
        DELIVER NO
    DELIVER YES
""",
    ),
    "av_strain": (
        "STRAIN",
        """
CRAFT av_strain(f, seq):
    SET out AS STRAND()
    SWEEP x IN seq:
        UPON f(x):
            ANNEX(out, x)
    DELIVER out
""",
    ),
}

# operation -> option -> helper it calls
HELPER_OF: dict[str, dict[str, str]] = {
    "PLUCK": {"sweep": "av_pluck", "expel": "av_pluck_back"},
    "CARVE": {"sweep": "av_carve", "pluck": "av_carve_pluck"},
    "EXTENT": {"while": "av_extent"},
    "INDEX": {"sweep": "av_index"},
    "PAIR": {"expel": "av_pair"},
    "SHATTER": {"typed": "av_add"},
    "APEX": {"sweep": "av_apex"},
    "NADIR": {"sweep": "av_nadir"},
    "SOME_OF": {"sweep": "av_some"},
    "EVERY_OF": {"sweep": "av_every"},
    "ORDER": {"insertion": "av_order"},
    "GATHER": {"sweep": "av_gather"},
    "STRAIN": {"sweep": "av_strain"},
    "GAUGE": {"sweep": "av_gauge"},
    "NEGATE": {"branch": "av_not"},
}
# What the syntax alone says an operation gives (PARE gives a number only
# from numbers: it also repeats text and lists).
NUMERIC = frozenset({"GAUGE", "WEAVE", "FRACTURE", "HALVE", "RESIDUE", "COIL"})
LISTY = frozenset({"STRAND", "GATHER", "ORDER", "EXTENT", "INDEX", "PAIR", "STRAIN"})
FLIPPED = {"OVER": "UNDER", "UNDER": "OVER", "ATOP": "BENEATH", "BENEATH": "ATOP"}
COMPLEMENT = {
    "OVER": "BENEATH",
    "UNDER": "ATOP",
    "ATOP": "UNDER",
    "BENEATH": "OVER",
    "AKIN": "APART",
    "APART": "AKIN",
}
BOOLISH = frozenset({*COMPARISON, "NEGATE", "SOME_OF", "EVERY_OF"})
EFFECTS = frozenset({"ANNEX", "EXPEL", "IMPRINT", "EMIT"})


# -- small builders ------------------------------------------------------------------------


def op(name: str, *args: s.Expr) -> s.OpCall:
    return s.OpCall(name, name, tuple(args), P)


def call(name: str, *args: s.Expr) -> s.Call:
    return s.Call(s.Name(name, P), tuple(args), P)


def yes_no(value: bool) -> s.BoolLit:
    return s.BoolLit(value, P)


# -- literals ------------------------------------------------------------------------------

# the element of the lists whose lengths stand for integers, per "int" option
INT_ELEMENT: dict[str, Callable[[], s.Expr]] = {
    "yes": lambda: yes_no(True),
    "no": lambda: yes_no(False),
    "list": lambda: op("STRAND"),
}


def count(n: int, option: str) -> s.Expr:
    """n >= 0 as the length of a list (numbers as lengths); beyond the
    option's cap, in base 10 with PARE and SHATTER of such lengths."""
    element, cap = option.split("-")
    if n <= int(cap):
        return op("GAUGE", op("STRAND", *(INT_ELEMENT[element]() for _ in range(n))))
    q, r = divmod(n, 10)
    return op("SHATTER", op("PARE", count(q, option), count(10, option)), count(r, option))


def int_expr(n: int, option: str) -> s.Expr:
    if option == "keep":
        return s.IntLit(n, str(n), P)
    if n < 0:
        return op("WEAVE", count(0, option), count(-n, option))
    return count(n, option)


def float_expr(lit: s.FloatLit, int_option: str) -> s.Expr:
    """A float literal as FRACTURE of two integers, when the division gives
    exactly the literal's value (it does for short decimals)."""
    try:
        exact = Fraction(Decimal(lit.text))
    except ArithmeticError:
        return lit
    num, den = exact.numerator, exact.denominator
    # repr, not ==: -0.0 must stay -0.0
    if max(abs(num), den) >= 2**53 or repr(num / den) != repr(lit.value):
        return lit
    return op("FRACTURE", int_expr(num, int_option), int_expr(den, int_option))


def str_expr(lit: s.StrLit) -> s.Expr:
    """A text as FUSE of one-character texts (a rule on string literals
    rarely changes a single character)."""
    if len(lit.value) == 1:
        return lit
    return op("FUSE", *(s.StrLit(ch, P) for ch in lit.value))


def bool_expr(lit: s.BoolLit) -> s.Expr:
    """YES as NEGATE of an empty list, NO as NEGATE of a non-empty one."""
    return op("NEGATE", op("STRAND") if lit.value else op("STRAND", op("STRAND")))


# -- counters: SET n AS 0 ... SET n AS SHATTER(n, 1) becomes a list of YES ----------------


def _is_int(e: s.Expr, value: int) -> bool:
    return isinstance(e, s.IntLit) and e.value == value


def _is_increment(name: str, e: s.Expr) -> bool:
    if not isinstance(e, s.OpCall) or len(e.args) != 2:
        return False
    a, b = e.args
    named = lambda x: isinstance(x, s.Name) and x.id == name  # noqa: E731
    one = lambda x: _is_int(x, 1)  # noqa: E731
    return (e.op == "SHATTER" and ((named(a) and one(b)) or (one(a) and named(b)))) or (
        e.op == "WEAVE" and named(a) and _is_int(b, -1)
    )


def counters(tree: s.Program) -> frozenset[str]:
    """Names only ever set to 0 or incremented by one, and incremented somewhere:
    never a parameter, a loop variable or anything else."""
    good: set[str] = set()
    bad: set[str] = set()
    for node in nodes(tree):
        if isinstance(node, s.Craft):
            bad.update(node.params)
            bad.add(node.name)
        elif isinstance(node, s.Sweep):
            bad.update(node.names)
        elif isinstance(node, s.Set):
            if len(node.targets) != len(node.values):
                bad.update(node.targets)
                continue
            for target, value in zip(node.targets, node.values):
                if _is_increment(target, value):
                    good.add(target)
                elif not _is_int(value, 0):
                    bad.add(target)
    return frozenset(good - bad)


def _count_reads(e: s.Expr, names: frozenset[str]) -> s.Expr:
    if isinstance(e, s.Name):
        return op("GAUGE", e) if e.id in names else e
    if isinstance(e, s.OpCall):
        return s.OpCall(e.op, e.surface, tuple(_count_reads(a, names) for a in e.args), e.pos)
    if isinstance(e, s.Call):
        args = tuple(_count_reads(a, names) for a in e.args)
        return s.Call(_count_reads(e.func, names), args, e.pos)
    return e


def _counter_stmt(st: s.Stmt, names: frozenset[str]) -> s.Stmt:
    reads = lambda e: _count_reads(e, names)  # noqa: E731
    body = lambda b: tuple(_counter_stmt(x, names) for x in b)  # noqa: E731
    if isinstance(st, s.Set):
        if len(st.targets) == 1 and st.targets[0] in names:
            if _is_int(st.values[0], 0):
                return s.Set(st.targets, (op("STRAND"),), st.pos)
            return s.ExprStmt(op("ANNEX", s.Name(st.targets[0], P), yes_no(True)), st.pos)
        values = tuple(
            op("STRAND") if t in names else reads(v) for t, v in zip(st.targets, st.values)
        )
        return s.Set(st.targets, values, st.pos)
    if isinstance(st, s.ExprStmt):
        return s.ExprStmt(reads(st.expr), st.pos)
    if isinstance(st, s.Deliver):
        return st if st.value is None else s.Deliver(reads(st.value), st.pos)
    if isinstance(st, s.If):
        branches = tuple((reads(c), body(b)) for c, b in st.branches)
        return s.If(branches, None if st.default is None else body(st.default), st.pos)
    if isinstance(st, s.Sweep):
        return s.Sweep(st.names, reads(st.iterable), body(st.body), st.pos)
    if isinstance(st, s.While):
        return s.While(reads(st.cond), body(st.body), st.pos)
    if isinstance(st, s.Craft):
        return s.Craft(st.name, st.params, body(st.body), st.pos)
    return st


def count_with_lists(tree: s.Program) -> s.Program:
    names = counters(tree)
    if not names:
        return tree
    return s.Program(tuple(_counter_stmt(st, names) for st in tree.body))


# -- the rewrite ---------------------------------------------------------------------------


def _pure(e: s.Expr) -> bool:
    """Evaluating e has no effect, so it may be evaluated twice or out of order."""
    return not any(
        isinstance(n, s.Call) or (isinstance(n, s.OpCall) and n.op in EFFECTS) for n in nodes(e)
    )


def value_kind(e: s.Expr) -> str | None:
    """ "number", "text" or "list" when the syntax shows what e gives; else None."""
    if isinstance(e, (s.IntLit, s.FloatLit)):
        return "number"
    if isinstance(e, s.StrLit):
        return "text"
    if not isinstance(e, s.OpCall):
        return None
    if e.op in NUMERIC:
        return "number"
    if e.op in LISTY:
        return "list"
    if e.op == "FUSE":
        return "text"
    kinds = {value_kind(a) for a in e.args}
    if e.op == "PARE" and kinds == {"number"}:
        return "number"
    if e.op == "SHATTER":
        return next((k for k in map(value_kind, e.args) if k), None)
    return None


def typed_add(e: s.OpCall, a: s.Expr, b: s.Expr, zero: s.Expr) -> s.Expr | str:
    """SHATTER(a, b) without SHATTER: by the operands' kind when the syntax
    shows it, else the name of the helper that decides at run time."""
    kind = next((k for k in map(value_kind, e.args) if k), None)
    if kind == "number":
        return op("WEAVE", a, op("WEAVE", zero, b))
    if kind == "text":
        return op("FUSE", a, b)
    return "av_join" if kind == "list" else "av_add"


def _boolish(e: s.Expr) -> bool:
    """e is YES or NO under the manual (so De Morgan keeps its value)."""
    if isinstance(e, s.BoolLit):
        return True
    if isinstance(e, s.OpCall) and e.op in ("BOND", "RIFT"):
        return all(_boolish(a) for a in e.args)
    return isinstance(e, s.OpCall) and e.op in BOOLISH


@dataclass
class Rewrite:
    """One core applied to one program: the helpers it calls and fresh names."""

    core: Core
    keep: str = ""  # the kind a helper stands for: never rewritten inside it
    helpers: set[str] = field(default_factory=set)
    fresh: int = 0

    def option(self, kind: str) -> str:
        return "keep" if kind == self.keep else self.core.option(kind)

    def name(self) -> str:
        self.fresh += 1
        return f"av_{self.keep.lower() or 'v'}{self.fresh}"

    def helper(self, name: str, *args: s.Expr) -> s.Expr:
        self.helpers.add(name)
        return call(name, *args)

    def expr(self, e: s.Expr) -> s.Expr:
        if isinstance(e, s.IntLit):
            return e if e.value is None else int_expr(e.value, self.option("int"))
        if isinstance(e, s.FloatLit):
            return e if self.option("float") == "keep" else float_expr(e, self.option("int"))
        if isinstance(e, s.StrLit):
            return e if self.option("str") == "keep" else str_expr(e)
        if isinstance(e, s.BoolLit):
            return e if self.option("bool") == "keep" else bool_expr(e)
        if isinstance(e, s.Call):
            return s.Call(self.expr(e.func), tuple(self.expr(a) for a in e.args), e.pos)
        if isinstance(e, s.OpCall):
            return self.operation(e, tuple(self.expr(a) for a in e.args))
        return e

    def operation(self, e: s.OpCall, args: tuple[s.Expr, ...]) -> s.Expr:
        """The core's form of operation e, its arguments already rewritten."""
        option = self.option(e.op)
        kept = s.OpCall(e.op, e.surface, args, e.pos)
        if option == "keep":
            return kept
        n = len(args)
        helper = HELPER_OF.get(e.op, {}).get(option)
        if e.op == "SHATTER" and n == 2:
            form = typed_add(e, *args, int_expr(0, self.option("int")))
            return self.helper(form, *args) if isinstance(form, str) else form
        if helper and e.op == "CARVE" and n in (2, 3):
            return self.helper(helper, *args, *([] if n == 3 else [s.NoneLit(P)]))
        if helper and e.op == "EXTENT" and n in (1, 2):
            return self.helper(
                helper, *([int_expr(0, self.option("int"))] if n == 1 else []), *args
            )
        if helper and e.op in ("APEX", "NADIR") and n >= 1:
            return self.helper(helper, args[0] if n == 1 else op("STRAND", *args))
        if helper and e.op not in ("CARVE", "EXTENT", "APEX", "NADIR"):
            return self.helper(helper, *args)
        if option == "fused" and n >= 1:
            # one text, as EMIT would print it: a rule on EMIT's arguments sees one
            spaced = [x for a in args for x in (s.StrLit(" ", P), a)][1:]
            return s.OpCall(e.op, e.surface, (op("FUSE", *spaced),), e.pos)
        if e.op == "FUSE":  # texts joined with SHATTER, when the syntax shows they are texts
            if n == 0 or not all(value_kind(a) == "text" for a in e.args):
                return kept
            return reduce(lambda x, y: op("SHATTER", x, y), args)
        if n != 2:
            return kept
        a, b = args
        # whether the operands may be evaluated twice or the other way round
        # (asked only here: most operations are kept, or rewritten otherwise)
        pure = all(_pure(x) for x in e.args)
        if option == "negated":
            return op("NEGATE", op(COMPLEMENT[e.op], a, b))
        if option == "flipped" and pure:
            return op(FLIPPED[e.op], b, a)
        if option == "swapped" and pure:
            return op(e.op, b, a)
        if e.op == "WEAVE" and option == "shatter":
            return op("SHATTER", a, op("PARE", b, int_expr(-1, self.option("int"))))
        if option == "halve" and pure:
            return op("WEAVE", a, op("PARE", op("HALVE", a, b), b))
        if option == "demorgan" and all(_boolish(x) for x in e.args):
            other = "RIFT" if e.op == "BOND" else "BOND"
            return op("NEGATE", op(other, op("NEGATE", a), op("NEGATE", b)))
        return kept

    def body(self, body: tuple[s.Stmt, ...]) -> tuple[s.Stmt, ...]:
        return tuple(out for st in body for out in self.stmt(st))

    def stmt(self, st: s.Stmt) -> tuple[s.Stmt, ...]:
        if isinstance(st, s.Set):
            return (s.Set(st.targets, tuple(self.expr(v) for v in st.values), st.pos),)
        if isinstance(st, s.ExprStmt):
            return (s.ExprStmt(self.expr(st.expr), st.pos),)
        if isinstance(st, s.Deliver):
            return (st if st.value is None else s.Deliver(self.expr(st.value), st.pos),)
        if isinstance(st, s.If):
            branches = tuple((self.expr(c), self.body(b)) for c, b in st.branches)
            default = None if st.default is None else self.body(st.default)
            return (s.If(branches, default, st.pos),)
        if isinstance(st, s.While):
            return (s.While(self.expr(st.cond), self.body(st.body), st.pos),)
        if isinstance(st, s.Craft):
            return (s.Craft(st.name, st.params, self.body(st.body), st.pos),)
        if isinstance(st, s.Sweep):
            return self.sweep(st)
        return (st,)

    def sweep(self, st: s.Sweep) -> tuple[s.Stmt, ...]:
        """SWEEP x IN e as a WHILE that EXPELs from a reversed copy of e."""
        iterable, body = self.expr(st.iterable), self.body(st.body)
        if self.option("SWEEP") == "keep" or len(st.names) != 1:
            return (s.Sweep(st.names, iterable, body, st.pos),)
        copy, back = s.Name(self.name(), P), s.Name(self.name(), P)
        return (
            s.Set((copy.id,), (op("GATHER", iterable),), P),
            s.Set((back.id,), (op("STRAND"),), P),
            s.While(copy, (s.ExprStmt(op("ANNEX", back, op("EXPEL", copy)), P),), P),
            s.While(back, (s.Set(st.names, (op("EXPEL", back),), P), *body), P),
        )


@cache
def helper_program(name: str) -> s.Program:
    return parse(HELPERS[name][1], {})


@cache
def _helper_tree(name: str, choices: tuple[tuple[str, str], ...]) -> tuple[s.Stmt, frozenset[str]]:
    """Helper `name` on the core of these choices, and the helpers it calls
    (cached: every program on the same core uses the same helpers)."""
    kind = HELPERS[name][0]
    core = Core("helper", dict(choices))
    tree = helper_program(name)
    if core.option("counter") == "list" and kind != "GAUGE":  # counters read with GAUGE
        tree = count_with_lists(tree)
    work = Rewrite(core, keep=kind)
    calls = {
        n.func.id
        for n in nodes(tree)
        if isinstance(n, s.Call) and isinstance(n.func, s.Name) and n.func.id in HELPERS
    }
    return work.body(tree.body)[0], frozenset(work.helpers | calls)


def _choices(core: Core) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(core.choices.items()))


_WITH_LISTS = IdentityMemo()


def _rewrite(tree: s.Program, core: Core) -> tuple[tuple[str, ...], tuple[s.Stmt, ...]]:
    """The helpers `tree` needs on `core` (and theirs), and its rewritten body."""
    if core.option("counter") == "list":
        # the same for every core that makes counters lists: kept per tree
        tree = _WITH_LISTS.get(tree, None, lambda: count_with_lists(tree))
    work = Rewrite(core)
    body = work.body(tree.body)
    defined: set[str] = set()
    todo = sorted(work.helpers)
    while todo:
        name = todo.pop()
        if name not in defined:
            defined.add(name)
            todo.extend(sorted(_helper_tree(name, _choices(core))[1]))
    return tuple(sorted(defined)), body


def rewrite_tree(tree: s.Program, core: Core) -> s.Program:
    """`tree` on `core`, the helpers it needs defined first."""
    helpers, body = _rewrite(tree, core)
    return s.Program((*(_helper_tree(n, _choices(core))[0] for n in helpers), *body))


def wrap_body(body: tuple[s.Stmt, ...], params: tuple[str, ...]) -> tuple[s.Stmt, ...] | None:
    """The statements moved into a CRAFT, called once; None when they are
    nothing but CRAFTs."""
    if all(isinstance(st, s.Craft) for st in body):
        return None
    names = tuple(s.Name(p, P) for p in params)
    return (s.Craft(WRAPPER, params, body, P), s.ExprStmt(s.Call(s.Name(WRAPPER, P), names, P), P))


@cache
def _helper_text(
    name: str, choices: tuple[tuple[str, str], ...], keywords: tuple[tuple[str, str], ...]
) -> str:
    return unparse(s.Program((_helper_tree(name, choices)[0],)), dict(keywords))


# -- answers -------------------------------------------------------------------------------


def _kinds_used(tree: s.Program) -> frozenset[str]:
    """The rewrite kinds that can change this program."""
    kinds: set[str] = set()
    for node in nodes(tree):
        if isinstance(node, s.OpCall):
            kinds.add(node.op)
        elif isinstance(node, (s.IntLit, s.FloatLit, s.StrLit, s.BoolLit)):
            kinds.add(
                {s.IntLit: "int", s.FloatLit: "float", s.StrLit: "str", s.BoolLit: "bool"}[
                    type(node)
                ]
            )
        elif isinstance(node, s.Sweep):
            kinds.add("SWEEP")
    return frozenset(kinds)


@cache
def helper_kinds(name: str) -> frozenset[str]:
    return _kinds_used(helper_program(name))


def relevant(core: Core, kinds: frozenset[str]) -> tuple[tuple[str, str], ...]:
    """The part of a core that can act on a program using `kinds` (and on the
    helpers it brings in): two cores with the same part write the same
    program. Integers count always: rewrites write 0 and -1 of their own; a
    counter made a list is grown with YES."""
    reach = set(kinds | {"counter", "int"})
    if core.option("counter") == "list":
        reach.add("bool")
    size = -1
    while size != len(reach):
        size = len(reach)
        for kind, helpers in HELPER_OF.items():
            if kind in reach and core.option(kind) in helpers:
                reach |= helper_kinds(helpers[core.option(kind)])
    return tuple(sorted((k, core.option(k)) for k in reach if core.option(k) != "keep"))


def rewrites(
    source: str, world: World, params: tuple[str, ...], cores: tuple[Core, ...] = CORES
) -> list[str]:
    """`source` rewritten on each core, and each rewrite wrapped in a CRAFT."""
    try:
        tree = parse(source, world.keywords)
    except AlienSyntaxError:
        return []
    kinds = _kinds_used(tree)
    seen: set[tuple] = set()
    out: list[str] = []
    for core in cores:
        key = relevant(core, kinds)
        if key in seen:
            continue
        seen.add(key)
        helpers, body = _rewrite(tree, core)
        if not helpers and body == tree.body:
            continue  # unchanged: the naive, wrapped and variants strategies run it already
        keywords = tuple(sorted(world.keywords.items()))
        head = "".join(_helper_text(name, _choices(core), keywords) for name in helpers)
        wrapped = wrap_body(body, params)
        out.extend(
            head + unparse(s.Program(b), world.keywords) for b in (body, wrapped) if b is not None
        )
    return out


def answers(task: Task, world: World, cores: tuple[Core, ...] = CORES) -> list[str]:
    """Candidate answers for a synthesis task (none for a prediction task):
    the naive solution and every variant on every core, plain and wrapped."""
    if task.kind != "synthesis":
        return []
    params = tuple(task.inputs[0]) if task.inputs else ()
    found = (
        x for source in (task.naive, *task.variants) for x in rewrites(source, world, params, cores)
    )
    return list(dict.fromkeys(found))
