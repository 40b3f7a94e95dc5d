"""A budget-aware `self-calibrating` strategy (docs/validity.md).

The big calibrator (tasks/aliencode_calibrating.py) tests every operation
with a library far over any answer budget. This one spends only the tokens a
budget leaves beside a manual-trusting solution (the naive one or a variant):
it reroutes the operations it can afford through small helper CRAFTs, each of
which tests its operation when called and undoes the single most likely
change (positions counted from one or shifted, operands swapped, a comparison
inverted, admitting equality or the other way round, a result off by a
constant, arguments reversed, an extreme swapped, ANNEX prepending, ...), and
it replaces literals by values it can derive: integers as lengths of strings
of one repeated character (no reversal or rotation of a string literal
changes them), string literals forwards or backwards as a two-letter probe
says. Every candidate prints what the manual says under the manual.

It never reads a world's rules, a reference, a private call or an expected
output: it sees the world's keywords, the task's input names, naive solution,
variants and budget (every system sees the budget).

Why it is built the way it is:

* A helper's raw operation stands in a CRAFT body outside any loop, so every
  use of a calibrated operation is bound to one rule (scoped rules apply by
  place); a helper call is no site, and costs the same tokens as the
  operation it replaces, so only the helper's definition is paid for.
* Tests are cheap: truthiness, lengths, EXPEL and one-character strings
  (which no string literal rule changes), sometimes one other operation
  (AKIN, NADIR, ORDER), which a world may change too.
* Which helpers to include is greedy, by how likely the operation is changed
  (PRIOR, a guess about worlds in general) per token; several orders (and
  printing EMIT's values as one, and moving a whole program into a CRAFT)
  give several candidates, all within the budget.

Known gaps: no compensation for SWEEP, FUSE of one value, floats,
PLUCK counted from the end, a WEAVE that adds or multiplies when integer
literals are changed too; ANNEX prepending is undone by rotating the list
(steps grow with its length); BOND and RIFT are rerouted only where their
second operand is harmless to evaluate eagerly; helpers test on every call,
so loops cost several times the steps.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from aliencode import AlienSyntaxError, World, parse
from aliencode import syntax as s
from aliencode.unparse import UnparseError, string_literal
from aliencode.walk import StatementMapper, kept, nodes

from .aliencode_budget import Budget
from .aliencode_statement_memo import IdentityMemo, program_text
from .bank import Task

PREFIX = "zq_"
MAIN = "zq_main"
CONSTANT = "zq_c"  # numbers are zq_cK (zq_cmK for -K), the space is zq_csp
LONGEST_INT = 300  # integer literals up to this become lengths of strings
POS = s.Pos(0, 0)
# each comparison: the manual's result on equal values, and a pair of values
# the manual denies but the comparison the other way holds for
COMPARE = {
    "AKIN": (True, None),
    "APART": (False, None),
    "OVER": (False, '"a", "b"'),
    "UNDER": (False, '"b", "a"'),
    "ATOP": (True, '"a", "b"'),
    "BENEATH": (True, '"b", "a"'),
}

# How likely a world changes each operation, guessed once for all worlds:
# the order in which spare tokens are spent.
PRIOR = {
    "PLUCK": 0.8,
    "CARVE2": 0.7,
    "CARVE3": 0.8,
    "INT": 0.6,
    "EXTENT": 0.35,
    "INDEX": 0.3,
    "IMPRINT": 0.2,
    "PAIR": 0.2,
    "ANNEX": 0.2,
    "EMIT": 0.3,
    "SHATTER": 0.3,
    "WEAVE": 0.3,
    "PARE": 0.2,
    "HALVE": 0.25,
    "RESIDUE": 0.35,
    "FRACTURE": 0.3,
    "COIL": 0.3,
    "AKIN": 0.25,
    "APART": 0.25,
    "OVER": 0.3,
    "UNDER": 0.3,
    "ATOP": 0.3,
    "BENEATH": 0.3,
    "APEX1": 0.25,
    "APEX2": 0.25,
    "NADIR1": 0.25,
    "NADIR2": 0.25,
    "EVERY_OF": 0.25,
    "SOME_OF": 0.25,
    "ORDER": 0.25,
    "GATHER": 0.25,
    "GAUGE": 0.15,
    "BOND": 0.25,
    "RIFT": 0.25,
    "BOOL": 0.2,
    "STR": 0.15,
    "FUSE": 0.2,
    "KNOT": 0.2,
    "STRAND": 0.2,
    "LCAT": 0.3,
}

# Helper CRAFTs in the standard keywords, each as alternatives from the most
# thorough to the cheapest; `zq_cK` is K as a length (see _constant). Positions
# are shifted as WEAVE(x, WEAVE(y, z)), which is x - y + z even for a WEAVE
# off by a constant (the two offsets cancel), so no helper needs SHATTER;
# `@OP(` is the calibrated OP when it is included too, else the raw one.
HELPERS: dict[str, tuple[str, ...]] = {
    # the element at position 1 of ["", "x", "xx"] tells how positions are
    # shifted; the cheap form only tells counting from one from counting from 0
    "PLUCK": (
        """CRAFT zq_PLUCK(s, i):
    DELIVER PLUCK(s, @WEAVE(i, @WEAVE(GAUGE(PLUCK(STRAND("", "x", "xx"), zq_c1)), zq_c1)))""",
        """CRAFT zq_PLUCK(s, i):
    DELIVER PLUCK(s, @WEAVE(i, @WEAVE(zq_c0, PLUCK(STRAND(zq_c0, zq_c1), zq_c0))))""",
    ),
    "CARVE2": (
        """CRAFT zq_CARVE2(s, lo):
    DELIVER CARVE(s, @WEAVE(lo, @WEAVE(zq_c2, GAUGE(CARVE(STRAND("", "x", "xx"), zq_c1)))))""",
    ),
    # the last element and the length of a known slice give both shifts
    "CARVE3": (
        """CRAFT zq_CARVE3(s, lo, hi):
    SET r AS CARVE(STRAND("", "x", "xx", "xxx", "xxxx"), zq_c1, zq_c3)
    SET c AS GAUGE(r)
    SET h AS GAUGE(EXPEL(r))
    DELIVER CARVE(s, @WEAVE(lo, @WEAVE(h, c)), @WEAVE(hi, @WEAVE(h, zq_c2)))""",
    ),
    "EXTENT": (
        """CRAFT zq_EXTENT(a, b):
    UPON EXTENT(zq_c1, zq_c1):
        DELIVER EXTENT(a, @WEAVE(b, @WEAVE(zq_c1, zq_c0)))
    UPON NEGATE(EXTENT(zq_c0, zq_c1)):
        DELIVER EXTENT(@WEAVE(a, @WEAVE(zq_c1, zq_c0)), b)
    DELIVER EXTENT(a, b)""",
        """CRAFT zq_EXTENT(a, b):
    UPON EXTENT(zq_c1, zq_c1):
        DELIVER EXTENT(a, @WEAVE(b, @WEAVE(zq_c1, zq_c0)))
    DELIVER EXTENT(a, b)""",
    ),
    "INDEX": (
        """CRAFT zq_INDEX(s):
    SWEEP i, v IN INDEX("x"):
        UPON i:
            DELIVER @PAIR(@EXTENT(zq_c0, GAUGE(s)), s)
    DELIVER INDEX(s)""",
    ),
    "PAIR": (
        """CRAFT zq_PAIR(a, b):
    SWEEP i, v IN PAIR(STRAND(zq_c0), STRAND(zq_c1)):
        UPON i:
            DELIVER PAIR(b, a)
    DELIVER PAIR(a, b)""",
    ),
    "IMPRINT": (
        """CRAFT zq_IMPRINT(s, i, v):
    SET t AS STRAND(zq_c0, zq_c0)
    IMPRINT(t, zq_c1, zq_c1)
    UPON EXPEL(t):
        DELIVER IMPRINT(s, i, v)
    DELIVER IMPRINT(s, @WEAVE(i, @WEAVE(zq_c0, zq_c1)), v)""",
    ),
    # an ANNEX that prepends: then moving the last element to the front as
    # many times as the list has other elements puts the new one last
    "ANNEX": (
        """CRAFT zq_ANNEX(s, v):
    ANNEX(s, v)
    SET t AS STRAND(zq_c0)
    ANNEX(t, zq_c1)
    UPON EXPEL(t):
        DELIVER
    SET t AS GATHER(s)
    EXPEL(t)
    WHILE t:
        EXPEL(t)
        ANNEX(s, EXPEL(s))""",
    ),
    # SHATTER of lists: the raw one when SHATTER adds numbers right (lists then
    # concatenate too), else a copy of the first with the second's elements added
    "LCAT": (
        """CRAFT zq_LCAT(a, b):
    UPON NEGATE(@WEAVE(SHATTER(zq_c1, zq_c1), @WEAVE(zq_c2, zq_c0))):
        DELIVER SHATTER(a, b)
    SET r AS @GATHER(a)
    SWEEP x IN b:
        @ANNEX(r, x)
    DELIVER r""",
    ),
    # SHATTER that subtracts (1 + 1 is 0) or multiplies (2 + 0 is 0): a - (0 - b);
    # off by a constant (0 + 0 is not 0): that constant taken off
    "SHATTER": (
        """CRAFT zq_SHATTER(a, b):
    UPON NEGATE(PARE(SHATTER(zq_c1, zq_c1), SHATTER(zq_c2, zq_c0))):
        DELIVER @WEAVE(a, @WEAVE(zq_c0, b))
    UPON SHATTER(zq_c0, zq_c0):
        DELIVER @WEAVE(SHATTER(a, b), @WEAVE(SHATTER(zq_c0, zq_c0), zq_c0))
    DELIVER SHATTER(a, b)""",
        """CRAFT zq_SHATTER(a, b):
    UPON NEGATE(PARE(SHATTER(zq_c1, zq_c1), SHATTER(zq_c2, zq_c0))):
        DELIVER @WEAVE(a, @WEAVE(zq_c0, b))
    DELIVER SHATTER(a, b)""",
        """CRAFT zq_SHATTER(a, b):
    UPON NEGATE(SHATTER(zq_c2, zq_c0)):
        DELIVER @WEAVE(a, @WEAVE(zq_c0, b))
    DELIVER SHATTER(a, b)""",
    ),
    # a WEAVE that is off by a constant: (a - b + c) - ((a - a + c) - 0 + c) + c
    # is a - b; one that adds or multiplies: a + b × -1
    "WEAVE": (
        """CRAFT zq_WEAVE(a, b):
    UPON WEAVE(zq_c1, zq_c1):
        UPON WEAVE(zq_c0, zq_c0):
            DELIVER WEAVE(WEAVE(a, b), WEAVE(WEAVE(a, a), zq_c0))
        DELIVER SHATTER(a, PARE(b, -1))
    UPON WEAVE(WEAVE(zq_c1, zq_c0), zq_c1):
        DELIVER WEAVE(b, a)
    DELIVER WEAVE(a, b)""",
        """CRAFT zq_WEAVE(a, b):
    DELIVER WEAVE(WEAVE(a, b), WEAVE(WEAVE(a, a), zq_c0))""",
    ),
    "PARE": (
        """CRAFT zq_PARE(a, b):
    UPON PARE(zq_c0, zq_c0):
        DELIVER @WEAVE(PARE(a, b), @WEAVE(PARE(zq_c0, zq_c0), zq_c0))
    DELIVER PARE(a, b)""",
    ),
    "HALVE": (
        """CRAFT zq_HALVE(a, b):
    UPON HALVE(zq_c0, zq_c1):
        DELIVER @WEAVE(HALVE(a, b), @WEAVE(HALVE(zq_c0, zq_c1), zq_c0))
    UPON HALVE(zq_c1, zq_c2):
        DELIVER HALVE(b, a)
    DELIVER HALVE(a, b)""",
    ),
    "RESIDUE": (
        """CRAFT zq_RESIDUE(a, b):
    UPON RESIDUE(zq_c2, zq_c1):
        DELIVER RESIDUE(b, a)
    DELIVER RESIDUE(a, b)""",
    ),
    "FRACTURE": (
        """CRAFT zq_FRACTURE(a, b):
    UPON HALVE(FRACTURE(zq_c1, zq_c2), zq_c1):
        DELIVER FRACTURE(b, a)
    DELIVER FRACTURE(a, b)""",
    ),
    "COIL": (
        """CRAFT zq_COIL(a, b):
    UPON COIL(zq_c0, zq_c1):
        DELIVER COIL(b, a)
    DELIVER COIL(a, b)""",
    ),
    # an APEX that gives the smallest: the last of the sorted values instead;
    # a NADIR that gives the largest: the first of them
    "APEX1": (
        """CRAFT zq_APEX1(s):
    UPON APEX(STRAND(zq_c0, zq_c1)):
        DELIVER APEX(s)
    DELIVER EXPEL(@ORDER(s))""",
    ),
    "APEX2": (
        """CRAFT zq_APEX2(a, b):
    UPON APEX(zq_c0, zq_c1):
        DELIVER APEX(a, b)
    DELIVER EXPEL(@ORDER(STRAND(a, b)))""",
    ),
    "NADIR1": (
        """CRAFT zq_NADIR1(s):
    UPON NADIR(STRAND(zq_c0, zq_c1)):
        SWEEP x IN @ORDER(s):
            DELIVER x
    DELIVER NADIR(s)""",
    ),
    "NADIR2": (
        """CRAFT zq_NADIR2(a, b):
    UPON NADIR(zq_c0, zq_c1):
        SWEEP x IN @ORDER(STRAND(a, b)):
            DELIVER x
    DELIVER NADIR(a, b)""",
    ),
    # EVERY_OF and SOME_OF rebuilt from truthiness (order does not matter)
    "EVERY_OF": (
        """CRAFT zq_EVERY_OF(s):
    SWEEP x IN s:
        UPON NEGATE(x):
            DELIVER NEGATE(s)
    DELIVER NEGATE(zq_c0)""",
    ),
    "SOME_OF": (
        """CRAFT zq_SOME_OF(s):
    SWEEP x IN s:
        UPON x:
            DELIVER NEGATE(zq_c0)
    DELIVER NEGATE(zq_c1)""",
    ),
    "ORDER": (
        """CRAFT zq_ORDER(s):
    SET r AS ORDER(s)
    UPON EXPEL(ORDER(STRAND(zq_c1, zq_c0))):
        DELIVER r
    SET t AS STRAND()
    WHILE r:
        ANNEX(t, EXPEL(r))
    DELIVER t""",
    ),
    "GATHER": (
        """CRAFT zq_GATHER(s):
    SET r AS GATHER(s)
    UPON EXPEL(GATHER(STRAND(zq_c0, zq_c1))):
        DELIVER r
    SET t AS STRAND()
    WHILE r:
        ANNEX(t, EXPEL(r))
    DELIVER t""",
    ),
    "GAUGE": (
        """CRAFT zq_GAUGE(s):
    DELIVER WEAVE(GAUGE(s), GAUGE(""))""",
    ),
    # BOND and RIFT from truthiness (their second operand is then evaluated
    # eagerly, so they are rerouted only where that operand is harmless)
    "BOND": (
        """CRAFT zq_BOND(a, b):
    UPON a:
        DELIVER b
    DELIVER a""",
    ),
    "RIFT": (
        """CRAFT zq_RIFT(a, b):
    UPON a:
        DELIVER a
    DELIVER b""",
    ),
}


def _comparison(op: str) -> tuple[str, ...]:
    """A comparison that differs from the manual on equal values is its
    inverse or its other strictness, undone by negating it with operands
    swapped; one that holds on a pair the manual denies compares the other
    way. One-character strings are tested: no string literal rule changes them."""
    equal, other_way = COMPARE[op]
    on_equal = f'{op}("a", "a")' if not equal else f'NEGATE({op}("a", "a"))'
    head = f"CRAFT zq_{op}(a, b):"
    fix_equal = f"    UPON {on_equal}:\n        DELIVER NEGATE({op}(b, a))"
    last = f"    DELIVER {op}(a, b)"
    if other_way is None:
        return ("\n".join([head, fix_equal, last]),)
    fix_other = f"    UPON {op}({other_way}):\n        DELIVER {op}(b, a)"
    forms = [[fix_equal, fix_other], [fix_equal], [fix_other]]
    return tuple("\n".join([head, *fixes, last]) for fixes in forms)


HELPERS.update({op: _comparison(op) for op in COMPARE})
# Operations of any arity a world may apply to its arguments reversed: lines
# that end in a condition holding when it does ("ab" is less than "b", "ba"
# is not; a tuple's first element is read by walking it).
REORDERED = {
    "FUSE": ('UPON AKIN(NADIR(FUSE("a", "b"), "b"), "b"):',),
    "KNOT": ("SWEEP x IN KNOT(zq_c0, zq_c1):", "    CEASE", "UPON x:"),
    # the last of a list of the empty and a one-character string (no string
    # literal rule changes either, and no constant is needed)
    "STRAND": ('UPON EXPEL(STRAND("x", "")):',),
}


# Helpers whose test list must come out in the order written (the element
# or slice at a position, a copy's last element): a mended calibrator builds
# it with the calibrated STRAND (see _mend).
ORDERED_PROBES = frozenset({"PLUCK", "CARVE2", "CARVE3", "GATHER"})


# How a mended calibrator reads a test list back: by EXPEL (its last
# element), or as the last value a SWEEP over it walks (see _swept). A world
# may change one reader and not the other.
READERS = ("EXPEL", "SWEEP")


@lru_cache(maxsize=128)
def forms_of(key: str, mended: str = "") -> tuple[str, ...]:
    """The helper's forms (none for INT, BOOL, STR and EMIT, which are not
    helpers); `mended` (a reader of READERS, "" for none): their test lists
    built by the calibrated STRAND and read back by that reader."""
    op = key.rstrip("0123456789")
    if op not in REORDERED or op == key:
        forms = HELPERS.get(key, ())
        forms = tuple(map(_mend, forms)) if mended and key in ORDERED_PROBES else forms
    else:
        params = [f"a{i}" for i in range(int(key[len(op) :]))]
        test = "\n".join("    " + line for line in REORDERED[op])
        forms = (
            f"""CRAFT zq_{key}({", ".join(params)}):
{test}
        DELIVER {op}({", ".join(reversed(params))})
    DELIVER {op}({", ".join(params)})""",
        )
    return tuple(map(_swept, forms)) if mended == "SWEEP" else forms


_NUMBER = re.compile(r"\bzq_c(\d+)\b")
_USES = re.compile(r"@([A-Z_]+[0-9]*)\(")
_NEEDS = re.compile(r"\bzq_(STRAND\d+)\(")  # helpers a mended helper cannot do without
_RAW_STRAND = re.compile(r"(?<![@\w])STRAND\(")


def _mend(text: str) -> str:
    """A helper's text with each list of several values it builds made by
    the calibrated STRAND of that many values (a world that builds lists in
    another order would otherwise turn its test around)."""
    out, at = [], 0
    for found in _RAW_STRAND.finditer(text):
        depth, commas, end = 0, 0, found.end()
        while depth or text[end] != ")":
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            commas += text[end] == "," and not depth
            end += 1
        if commas:
            out.append(text[at : found.start()] + f"zq_STRAND{commas + 1}(")
            at = found.end()
    return "".join(out) + text[at:]


_TESTS = re.compile(r"^( *)(UPON |SET )", re.MULTILINE)
_EXPEL = re.compile(r"(?<![@\w])EXPEL\(")
SWEPT = "zq_x"  # the name a test's SWEEP leaves on the last value it walked


def _closing(text: str, start: int) -> int:
    """The position of the parenthesis closing the call whose arguments start at `start`."""
    depth, end = 0, start
    while depth or text[end] != ")":
        depth += {"(": 1, ")": -1}.get(text[end], 0)
        end += 1
    return end


def _swept(text: str) -> str:
    """A helper's text with each test that reads a list back by EXPEL (an
    UPON's condition or a SET's value) reading it as the last value a SWEEP
    over the list walks: the same value under the manual, but not in a
    world that changes EXPEL and leaves SWEEP alone."""
    lines = []
    for line in text.split("\n"):
        test = _TESTS.match(line)
        found = _EXPEL.search(line) if test else None
        if found is None:
            lines.append(line)
            continue
        end = _closing(line, found.end())
        indent = test.group(1)
        lines += [f"{indent}SWEEP {SWEPT} IN {line[found.end() : end]}:", f"{indent}    IDLE"]
        lines.append(line[: found.start()] + SWEPT + line[end + 1 :])
    return "\n".join(lines)


@lru_cache(maxsize=1024)
def needs(key: str, form: int, mended: str) -> tuple[str, ...]:
    """The helpers one form of `key` calls whether or not a plan includes them
    (cached: every estimate of every allocation asks, for each key)."""
    found = forms_of(key, mended)
    return tuple(dict.fromkeys(_NEEDS.findall(found[form]))) if found else ()


def closure(forms: dict[str, int], mended: str) -> dict[str, int]:
    """`forms` with every helper they need (first form), each before what needs it."""
    out: dict[str, int] = {}
    for key, form in forms.items():
        for need in needs(key, form, mended):
            out.setdefault(need, forms.get(need, 0))
        out.setdefault(key, form)
    return out


SAFE_SECOND = {"AKIN", "APART", "NEGATE"}  # BOND/RIFT operands that cannot fail (an order may)


# -- what a solution uses -------------------------------------------------------------------


def _harmless(e: s.Expr) -> bool:
    """Whether evaluating `e` eagerly can neither fail nor act (names,
    literals, and AKIN, APART and NEGATE of those)."""
    if isinstance(e, s.OpCall):
        return e.op in SAFE_SECOND and all(_harmless(a) for a in e.args)
    return not isinstance(e, s.Call)


LISTS = {"STRAND", "GATHER", "ORDER", "EXTENT", "INDEX", "PAIR", "STRAIN"}


def kind(e: s.Expr, kinds: dict[str, str]) -> str | None:
    """ "str" or "list" when the expression is surely one, as far as its syntax tells."""
    if isinstance(e, s.StrLit):
        return "str"
    if isinstance(e, s.Name):
        return kinds.get(e.id)
    if not isinstance(e, s.OpCall):
        return None
    if e.op == "FUSE":
        return "str"
    if e.op in LISTS:
        return "list"
    if e.op in ("CARVE", "SHATTER"):
        return next(filter(None, (kind(a, kinds) for a in e.args)), None)
    return None


def kinds_of(tree: s.Program) -> dict[str, str]:
    """The names every assignment gives a string, or a list (twice over, for
    names assigned from names)."""
    kinds: dict[str, str] = {}
    for _ in range(2):
        found: dict[str, set[str | None]] = {}
        for node in nodes(tree):
            if isinstance(node, s.Set) and len(node.targets) == len(node.values):
                for target, value in zip(node.targets, node.values):
                    found.setdefault(target, set()).add(kind(value, kinds))
        kinds = {name: ks.pop() for name, ks in found.items() if len(ks) == 1 and None not in ks}
    return kinds


def op_key(e: s.OpCall, kinds: dict[str, str]) -> str | None:
    """The helper that can stand for this operation call, if any: SHATTER of
    strings is FUSE's (its helper serves), of lists a concatenation's."""
    arity = len(e.args)
    if e.op == "SHATTER" and arity == 2:
        joined = kind(e, kinds)
        return {"str": "FUSE2", "list": "LCAT"}.get(joined or "", "SHATTER")
    if e.op == "CARVE":
        return f"CARVE{arity}" if arity in (2, 3) else None
    if e.op in ("APEX", "NADIR"):
        return f"{e.op}{arity}" if arity in (1, 2) else None
    if e.op == "EXTENT":
        return "EXTENT" if arity in (1, 2) else None
    if e.op in ("BOND", "RIFT"):
        return e.op if arity == 2 and _harmless(e.args[1]) else None
    if e.op == "EMIT":
        return "EMIT" if arity >= 2 else None  # one value prints the same in any order
    if e.op in REORDERED:
        return f"{e.op}{arity}" if arity >= 2 else None
    return e.op if e.op in HELPERS else None


def _int_ok(value: int | None) -> bool:
    return value is not None and -LONGEST_INT <= value <= LONGEST_INT


# -- the rewrite ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """One allocation: the helpers (each key with the index of its form), how
    EMIT prints, and whether a whole program moves into a CRAFT body."""

    forms: tuple[tuple[str, int], ...] = ()
    emit: str = "raw"  # "raw" | "joined": see _emit_modes
    wrap: bool = False
    mended: str = ""  # see Usage.mended

    @property
    def keys(self) -> frozenset[str]:
        return frozenset(self.helpers())

    def helpers(self) -> dict[str, int]:
        """The forms with every helper they need (see closure)."""
        return closure(dict(self.forms), self.mended)


def _name(ident: str) -> s.Name:
    return s.Name(ident, POS)


def _call(func: str, args: tuple[s.Expr, ...]) -> s.Call:
    return s.Call(_name(func), args, POS)


def _number(value: int) -> str:
    return f"zq_c{value}" if value >= 0 else f"zq_cm{-value}"


@dataclass
class Rewriter(StatementMapper):
    """Reroutes the plan's operations and literals; records the numbers and
    EMIT arities the library must then define."""

    keys: frozenset[str]
    kinds: dict[str, str] = field(default_factory=dict)  # see kinds_of
    numbers: set[int] = field(default_factory=set)
    emits: set[int] = field(default_factory=set)
    strings: dict[str, str] = field(default_factory=dict)  # string literal -> its constant
    names: dict[str, s.Expr] = field(default_factory=dict)  # names to write as these expressions

    def expr(self, e: s.Expr) -> s.Expr:
        if isinstance(e, s.Name) and e.id in self.names:
            return self.names[e.id]
        if isinstance(e, s.IntLit) and "INT" in self.keys and _int_ok(e.value):
            self.numbers.add(e.value)
            return _name(_number(e.value))
        if isinstance(e, s.StrLit) and "STR" in self.keys and _turnable(e.value):
            return _name(self.strings.setdefault(e.value, f"zq_s{len(self.strings)}"))
        if isinstance(e, s.BoolLit) and "BOOL" in self.keys:
            self.numbers.add(0 if e.value else 1)
            return s.OpCall("NEGATE", "", (_name(_number(0 if e.value else 1)),), POS)
        if isinstance(e, s.Call):
            func, args = self.expr(e.func), kept(tuple(self.expr(a) for a in e.args), e.args)
            return e if func is e.func and args is e.args else s.Call(func, args, e.pos)
        if not isinstance(e, s.OpCall):
            return e
        args = kept(tuple(self.expr(a) for a in e.args), e.args)
        key = op_key(e, self.kinds)
        if key not in self.keys:
            return e if args is e.args else s.OpCall(e.op, e.surface, args, e.pos)
        if key == "EXTENT" and len(args) == 1:
            self.numbers.add(0)
            args = (_name(_number(0)),) + args
        if key == "EMIT":
            self.emits.add(len(args))
            return _call(f"zq_EMIT{len(args)}", args)
        return _call(PREFIX + key, args)


@dataclass(frozen=True)
class Rewritten:
    """A solution's statements on a plan's keys, and what the Rewriter
    recorded that the library must then define."""

    body: tuple[s.Stmt, ...]
    numbers: frozenset[int]
    emits: frozenset[int]
    strings: tuple[tuple[str, str], ...]  # each string literal and its constant, as met


_REWRITTEN = IdentityMemo()


def rewritten(
    tree: s.Program, keys: frozenset[str], kinds: dict[str, str], params: tuple[str, ...] | None
) -> Rewritten:
    """The tree's statements rerouted onto `keys`, moved into a CRAFT taking
    `params` unless they are None. Kept per tree: the plans of one solution
    share their keys often (a plan that drops or adds a helper's form, or
    changes how EMIT prints, reroutes the same operations), and a statement
    rewritten once stays one object, so its token count and text are kept too.
    Keys the tree never asks about (helpers only other helpers call) are left
    out of the rewrite and of its key: plans that differ only in those share it."""
    kinds_key = tuple(sorted(kinds.items()))
    keys = keys & _asked(tree, kinds, kinds_key)

    def rewrite() -> Rewritten:
        rewriter = Rewriter(keys, kinds)
        body = rewriter.body(tree.body)
        if params is not None:
            call = s.ExprStmt(_call(MAIN, tuple(map(_name, params))), POS)
            body = (s.Craft(MAIN, params, body, POS), call)
        return Rewritten(
            body,
            frozenset(rewriter.numbers),
            frozenset(rewriter.emits),
            tuple(rewriter.strings.items()),
        )

    return _REWRITTEN.get(tree, (keys, kinds_key, params), rewrite)


_ASKED = IdentityMemo()


def _asked(
    tree: s.Program, kinds: dict[str, str], kinds_key: tuple[tuple[str, str], ...]
) -> frozenset[str]:
    """Every key a Rewriter asks about in the tree: the literal keys and the
    key of each operation call (see Rewriter.expr)."""

    def find() -> frozenset[str]:
        ops = {op_key(n, kinds) for n in nodes(tree) if isinstance(n, s.OpCall)}
        return frozenset(ops - {None}) | {"INT", "STR", "BOOL"}

    return _ASKED.get(tree, kinds_key, find)


def _emit_source(arity: int) -> str:
    """EMIT of `arity` values as one value (their texts joined by spaces), so
    no reordering of EMIT's values matters."""
    params = [f"a{i}" for i in range(arity)]
    line = params[0] if arity == 1 else f"FUSE({', zq_csp, '.join(params)})"
    return f"CRAFT zq_EMIT{arity}({', '.join(params)}):\n    EMIT({line})"


def _constant(value: int, keys: frozenset[str]) -> str:
    """A small integer as the length of a string of one repeated character
    (a string literal rule that reverses or rotates cannot change it); with
    the GAUGE helper, relative to the length of the empty string."""
    if value >= 0:
        gauge = "zq_GAUGE" if "GAUGE" in keys else "GAUGE"
        return f"SET {_number(value)} AS {gauge}({string_literal('x' * value)})"
    weave = "zq_WEAVE" if "WEAVE" in keys else "WEAVE"
    return f"SET {_number(value)} AS {weave}(zq_c0, {weave}(zq_c{-value}, zq_c0))"


def _needed(numbers: set[int]) -> set[int]:
    """The numbers to define: a negative one is computed from 0 and its magnitude."""
    negatives = {-v for v in numbers if v < 0}
    return numbers | negatives | ({0} if negatives else set())


def library(plan: Plan, solution: Rewritten) -> tuple[s.Stmt, ...]:
    """Helpers, then the constants everything uses (each after what it uses)."""
    keys = plan.keys
    crafts = [
        _bound(forms_of(k, plan.mended)[f], keys)
        for k, f in sorted(plan.helpers().items())
        if forms_of(k, plan.mended)
    ]
    crafts += [_emit_source(k) for k in sorted(solution.emits)]
    wanted = _needed(set(solution.numbers).union(*map(_numbers_in, crafts)))
    if plan.mended and wanted and "GAUGE" not in keys:
        # a mended calibrator's constants are lengths relative to GAUGE("")
        crafts.insert(0, HELPERS["GAUGE"][0])
        keys |= {"GAUGE"}
    lines = [_constant(v, keys) for v in sorted(wanted, key=lambda v: (v < 0, abs(v)))]
    if any("zq_csp" in craft for craft in crafts):
        lines.append('SET zq_csp AS " "')
    if solution.strings:
        lines.append(STRINGS)
        lines += [
            f"SET {name} AS zq_str({string_literal(text)}, {string_literal(text[::-1])})"
            for text, name in solution.strings
        ]
    return tuple(st for piece in crafts + lines for st in _parsed(piece))


# String literals stored backwards: every string constant is defined at top
# level, where a two-letter literal tells whether that happens there.
STRINGS = """SET zq_sback AS AKIN(NADIR("ab", "b"), "b")
CRAFT zq_str(text, back):
    UPON zq_sback:
        DELIVER back
    DELIVER text"""


def _turnable(text: str) -> bool:
    """Whether storing the literal backwards changes it."""
    return text != text[::-1]


def _bound(text: str, keys: frozenset[str]) -> str:
    """A helper's text, each `@OP(` the calibrated OP when it is included, else the raw one."""
    return _USES.sub(lambda m: (PREFIX if m.group(1) in keys else "") + m.group(1) + "(", text)


@lru_cache(maxsize=1024)
def _numbers_in(text: str) -> frozenset[int]:
    minus_one = {-1} if "zq_cm1" in text else set()
    return frozenset({int(v) for v in _NUMBER.findall(text)} | minus_one)


@lru_cache(maxsize=1024)
def _parsed(source: str) -> tuple[s.Stmt, ...]:
    """A library piece's statements (pieces recur across answers)."""
    return parse(source, {}).body


def build(tree: s.Program, task: Task, plan: Plan, kinds: dict[str, str]) -> s.Program:
    """The solution on the plan's helpers."""
    params = None
    if plan.wrap:
        params = tuple(task.inputs[0]) if task.inputs else ()
    solution = rewritten(tree, plan.keys, kinds, params)
    return s.Program(_inline_once(library(plan, solution) + solution.body))


def render(program: s.Program, keywords: dict[str, str]) -> str | None:
    """The program's source in the world's keywords (None if a float cannot be spelt)."""
    try:
        return program_text(program.body, keywords)
    except UnparseError:
        return None


def count(node: object) -> int:
    """The tokens of a tree as the grader counts its source (names, keywords,
    literals and punctuation; layout is free; an empty block gets IDLE)."""
    if isinstance(node, (s.OpCall, s.Call)):
        args = node.args
        head = 1 if isinstance(node, s.OpCall) else count(node.func)
        return head + 2 + sum(map(count, args)) + max(len(args) - 1, 0)
    if isinstance(node, s.Set):
        return 2 + 2 * len(node.targets) - 1 + sum(map(count, node.values)) + len(node.values) - 1
    if isinstance(node, s.ExprStmt):
        return count(node.expr)
    if isinstance(node, s.If):
        total = sum(2 + count(c) + _block(b) for c, b in node.branches)
        return total + (2 + _block(node.default) if node.default is not None else 0)
    if isinstance(node, s.Sweep):
        return 3 + 2 * len(node.names) - 1 + count(node.iterable) + _block(node.body)
    if isinstance(node, s.While):
        return 2 + count(node.cond) + _block(node.body)
    if isinstance(node, s.Craft):
        return 5 + 2 * len(node.params) - (1 if node.params else 0) + _block(node.body)
    if isinstance(node, s.Deliver):
        return 1 + (count(node.value) if node.value is not None else 0)
    if isinstance(node, s.Program):
        return sum(map(count, node.body))
    return 1


_COUNTED = IdentityMemo()


def tokens(program: s.Program) -> int:
    """`count(program)`, each top-level statement counted once: candidates
    share their library statements."""
    return sum(_COUNTED.get(st, None, lambda st=st: count(st)) for st in program.body)


def _block(body: tuple[s.Stmt, ...]) -> int:
    return sum(map(count, body)) if body else 1


def _inline_once(body: tuple[s.Stmt, ...]) -> tuple[s.Stmt, ...]:
    """Constants used once written where they are used: a name and its
    definition cost more tokens than the expression. Their expressions read
    lengths of one-character strings only, so no scoped rule changes them."""
    named = [_constants_named(st) for st in body]
    uses: dict[str, int] = {}
    for found in named:
        for name, n in found.items():
            uses[name] = uses.get(name, 0) + n
    # a constant's expression may name an earlier constant used once: resolved in order
    resolver = Rewriter(frozenset())
    for st in body:
        name = st.targets[0] if isinstance(st, s.Set) else ""
        if name.startswith(CONSTANT) and uses.get(name) == 1:
            resolver.names[name] = resolver.expr(st.values[0])
    if not resolver.names:
        return body
    # a statement naming no inlined constant is kept as it is (the rewrite
    # would copy it unchanged), so shared library statements stay shared
    return tuple(
        _resolved(st, found, resolver) if any(name in resolver.names for name in found) else st
        for st, found in zip(body, named)
        if not (isinstance(st, s.Set) and st.targets[0] in resolver.names)
    )


_RESOLVED = IdentityMemo()


def _resolved(st: s.Stmt, found: dict[str, int], resolver: Rewriter) -> s.Stmt:
    """`resolver.stmt(st)`, kept per statement and the expressions its
    constants become: the plans of one solution inline the same constants
    into the same statements over and over (the resolver records nothing, so
    the names are all it reads). Expressions are compared by value: the
    resolver builds them afresh for every plan."""
    inlined = tuple((name, resolver.names[name]) for name in found if name in resolver.names)
    return _RESOLVED.get(st, inlined, lambda: resolver.stmt(st))


_NAMED = IdentityMemo()


def _constants_named(st: s.Stmt) -> dict[str, int]:
    """How often each constant's name occurs in a statement."""

    def count_names() -> dict[str, int]:
        found: dict[str, int] = {}
        for node in nodes(st):
            if isinstance(node, s.Name) and node.id.startswith(CONSTANT):
                found[node.id] = found.get(node.id, 0) + 1
        return found

    return _NAMED.get(st, None, count_names)


# -- allocation: what the spare tokens buy -------------------------------------------------


@lru_cache(maxsize=1024)
def _form_tokens(key: str, form: int, mended: str = "") -> int:
    return _piece_tokens(forms_of(key, mended)[form].replace("@", ""))


def _piece_tokens(piece: str) -> int:
    return sum(map(count, _parsed(piece)))


@lru_cache(maxsize=1024)
def _form_numbers(key: str, form: int, mended: str = "") -> frozenset[int]:
    return frozenset(_numbers_in(forms_of(key, mended)[form]))


def _constant_tokens(value: int) -> int:
    # SET k AS GAUGE("x..") · SET k AS WEAVE(zq_c0, WEAVE(zq_cV, zq_c0))
    return 7 if value >= 0 else 14


@dataclass(frozen=True)
class Usage:
    """What a solution uses that a plan may reroute, and what that costs."""

    counts: dict[str, int]  # reroutable keys (INT, BOOL for literals) and their uses
    ints: frozenset[int]  # the integer literals that would become lengths
    extent1: int  # one-argument EXTENTs (they gain an argument)
    emit_arities: frozenset[int]  # of EMITs of several values
    kinds: dict[str, str]  # see kinds_of
    strings: int  # distinct string literals that read differently backwards
    # a calibrator that mends its own tests: test lists by the calibrated
    # STRAND (see _mend) read back by this reader of READERS ("" for an
    # unmended one), constants relative to GAUGE("") (see library)
    mended: str = ""
    # what the helpers of each forms add to the solution's tokens: every
    # allocation and fitting of a solution asks for the same forms again, in
    # any order (the sum does not depend on it)
    added: dict[frozenset[tuple[str, int]], int] = field(
        default_factory=dict, compare=False, repr=False
    )

    def estimate(self, base: int, forms: dict[str, int]) -> int:
        """The answer's tokens for helpers `forms`, `base` being those of the solution as it is."""
        key = frozenset(forms.items())
        if key not in self.added:
            self.added[key] = self._helpers_tokens(forms)
        return base + self.added[key]

    def _helpers_tokens(self, forms: dict[str, int]) -> int:
        total = 0
        numbers: set[int] = set()
        for key, form in closure(forms, self.mended).items():
            if key == "INT":
                numbers |= self.ints
            elif key == "BOOL":
                total += 3 * self.counts["BOOL"]
                numbers |= {0, 1}
            elif key == "STR":
                total += _piece_tokens(STRINGS) + 9 * self.strings
            elif key == "EMIT":
                total += 4 + sum(_piece_tokens(_emit_source(k)) for k in self.emit_arities)
            else:
                total += _form_tokens(key, form, self.mended)
                numbers |= _form_numbers(key, form, self.mended)
            if key == "EXTENT":
                total += 2 * self.extent1
                numbers.add(0)
        if self.mended and numbers and "GAUGE" not in forms:
            total += _form_tokens("GAUGE", 0)
        return total + sum(_constant_tokens(v) for v in _needed(numbers))


def usage(tree: s.Program, mended: str = "") -> Usage:
    counts: dict[str, int] = {}
    ints: set[int] = set()
    extent1 = 0
    arities: set[int] = set()
    strings: set[str] = set()
    kinds = kinds_of(tree)
    for node in nodes(tree):
        key = None
        if isinstance(node, s.OpCall):
            key = op_key(node, kinds)
            extent1 += key == "EXTENT" and len(node.args) == 1
            if key == "EMIT":
                arities.add(len(node.args))
        elif isinstance(node, s.IntLit) and _int_ok(node.value):
            key = "INT"
            ints.add(node.value)
        elif isinstance(node, s.BoolLit):
            key = "BOOL"
        elif isinstance(node, s.StrLit) and _turnable(node.value):
            key = "STR"
            strings.add(node.value)
        if key:
            counts[key] = counts.get(key, 0) + 1
    # what the helpers use themselves (WEAVE to shift positions): calibrating it helps them too
    for key in list(counts):
        for form in forms_of(key, mended):
            for used in _USES.findall(form):
                counts.setdefault(used, 0)
    return Usage(counts, frozenset(ints), extent1, frozenset(arities), kinds, len(strings), mended)


def _worth(key: str, use: Usage) -> float:
    """Calibrating `key` removes a chance PRIOR[key] of failing; per token spent."""
    if forms_of(key, use.mended):
        cost = _form_tokens(key, len(forms_of(key, use.mended)) - 1, use.mended)
    else:
        cost = use.estimate(0, {key: 0})
    return -math.log(1 - _prior(key)) / max(cost, 1)


def _prior(key: str) -> float:
    return PRIOR.get(key, PRIOR.get(key.rstrip("0123456789"), 0.2))


FIRSTS = 6  # further allocations each start with one of this many likeliest changes


def orders(use: Usage) -> list[list[str]]:
    """The orders in which keys are added: by worth per token, by prior alone,
    and by worth after one of the likeliest (a budget too small for all of
    them then still buys each in some candidate)."""

    # a key the solution does not use itself (WEAVE for the helpers) comes last but once
    def rank(score):
        return sorted(use.counts, key=lambda k: (not use.counts[k], -score(k)))

    worth, likeliest = rank(lambda k: _worth(k, use)), rank(_prior)
    firsts = [k for k in likeliest if use.counts[k]][:FIRSTS]
    firsts += [k for k in worth if not use.counts[k]][:1]
    return [worth, likeliest] + [[k] + [o for o in worth if o != k] for k in firsts]


def allocate(use: Usage, base: int, budget: int, order: list[str]) -> dict[str, int]:
    """Greedily the most thorough form of each key, in order, that keeps the estimate in budget."""
    forms: dict[str, int] = {}
    for key in order:
        for form in range(len(forms_of(key, use.mended)) or 1):
            if use.estimate(base, {**forms, key: form}) <= budget:
                forms[key] = form
                break
    return forms


def _emit_modes(use: Usage) -> tuple[str, ...]:
    """EMIT as it is ("raw"), or, when it prints several values, through a
    helper printing them as one value joined by FUSE ("joined"). (Printing an
    empty value first would survive a world whose EMIT drops its first value,
    but it is not what the manual prints, so it is not tried.)"""
    return ("raw", "joined") if use.emit_arities else ("raw",)


def solutions(task: Task, world: World) -> list[s.Program]:
    """The trees of the naive solution and the variants (those that parse)."""
    trees = []
    for source in [task.naive, *task.variants]:
        try:
            trees.append(parse(source, world.keywords))
        except AlienSyntaxError:
            continue
    return trees


def answers(
    task: Task, world: World, budget: Budget | None, mended: bool = False, reader: str = "EXPEL"
) -> list[str]:
    """Candidate answers for a synthesis task (none for a prediction), each
    within the token budget (its steps are not checked): the naive solution
    and each variant, with helpers added in each order of `orders`, printing
    each way of `_emit_modes`, in place or (a whole program) in a CRAFT.
    `mended`: helpers that mend their own tests, reading their test lists
    back by `reader` (see Usage.mended)."""
    if task.kind != "synthesis" or budget is None:
        return []
    return calibrated(solutions(task, world), task, world, budget, mended, reader=reader)


def calibrated(
    trees: list[s.Program],
    task: Task,
    world: World,
    budget: Budget,
    mended: bool = False,
    first: tuple[str, ...] = (),
    reader: str = "EXPEL",
) -> list[str]:
    """`answers` for these trees; `first`: helpers every allocation tries before the rest."""
    if reader not in READERS:
        raise ValueError(f"unknown reader {reader!r}: one of {', '.join(READERS)}")
    mend = reader if mended else ""
    out: list[str] = []
    for tree in trees:
        use = usage(tree, mend)
        for wrap in (False, True) if task.whole_program else (False,):
            base = tokens(build(tree, task, Plan((), "raw", wrap), use.kinds))
            tried: set[Plan] = set()
            for by in orders(use):
                by = [*first, *(k for k in by if k not in first)]
                for emit in _emit_modes(use):
                    order = [k for k in by if k != "EMIT" or emit != "raw"]
                    forms = allocate(use, base, budget.tokens, order)
                    plan = Plan(tuple(forms.items()), emit, wrap, mend)
                    if plan in tried:
                        continue
                    tried.add(plan)
                    program = _fitting(tree, task, budget, plan, order, use, base)
                    text = render(program, world.keywords) if program is not None else None
                    if text is not None and text not in out:
                        out.append(text)
    return out


SHORTFALL = 24  # how far over its estimate a plan may be and still fit once written out


def _fitting(
    tree: s.Program, task: Task, budget: Budget, plan: Plan, order: list[str], use: Usage, base: int
) -> s.Program | None:
    """The plan's answer, dropping its last helpers while it is over the
    budget, then adding helpers it left out that fit once written out (the
    estimate does not count constants written in place)."""
    forms = list(plan.forms)
    program = build(tree, task, plan, use.kinds)
    while tokens(program) > budget.tokens:
        if not forms:
            return None
        forms.pop()
        program = build(tree, task, replace(plan, forms=tuple(forms)), use.kinds)
    for key in order:
        if key in dict(forms):
            continue
        for form in range(len(forms_of(key, use.mended)) or 1):
            trial = replace(plan, forms=tuple(forms) + ((key, form),))
            if use.estimate(base, dict(trial.forms)) > budget.tokens + SHORTFALL:
                continue
            more = build(tree, task, trial, use.kinds)
            if tokens(more) <= budget.tokens:
                forms, program = list(trial.forms), more
                break
    return program
