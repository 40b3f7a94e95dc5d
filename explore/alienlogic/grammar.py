"""The bounded grammar of patches the explorer can hypothesise.

For each standard inference rule, the candidates are the expressions a world
could attach to it (docs/worlds.md, *AlienLogic rules*), enumerated up to the
bounds in `BOUNDS`:

* `require` predicates over the step's vocabulary — depth limits, citation
  order, use-once and times-cited guards, premise guards, shape and size
  conditions on the cited formulas and the conclusion, and relations between
  them (equal, different, of equal size: the quantifier restrictions of
  "instantiate with constants only" are size relations);
* `conclusion` rewrites as paths: a cited formula (`(ref k)`, or `(last k)`
  of a box) followed by up to two of `left`, `right`, `sub`.

Candidates are built as expression trees (never parsed from text) and
evaluated by closures over the very functions the checker's compiled
expressions call (`alienlogic.predicates.FUNCTIONS` and the rule-expression
operators), with a meter that cannot run out, so no verdict depends on time.
A test checks them against the checker's compiled evaluation. A candidate's
cost is its number of expression nodes; the prior weighs it 2^(-cost/2).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations

from alienworlds.ruleset.errors import LanguageError
from alienworlds.ruleset.expr import Call, Const, Expr, Sym, to_text, walk
from alienworlds.ruleset.limits import Limits, Meter
from alienworlds.ruleset.operators import make_operators

from alienlogic import RULES, Formula
from alienlogic.formulas import SHAPES
from alienlogic.predicates import FUNCTIONS, OPERANDS, StepView
from alienlogic.rules import BOX

BOUNDS = {
    "requires_per_rule": 2,
    "conclusion_path_steps": 2,
    "relation_path_steps": 1,
    "depth_thresholds": [0, 1, 2],
    "size_thresholds": [1, 2, 3, 5],
    "times_cited_thresholds": [0, 1],
}

# Evaluating many candidates on one binding must never run out of steps or
# time: each expression is small and bounded on its own.
_LIMITS = Limits(max_steps=10**15, wall_seconds=10.0**9)
_PATH_STEPS = ("left", "right", "sub")


@dataclass(frozen=True)
class Candidate:
    """One patch expression a world could give a rule."""

    text: str  # canonical rule-expression text
    family: str  # depth | order | use | premise | shape | size | relation | path
    cost: int  # expression nodes
    expr: Expr

    @property
    def weight(self) -> float:
        return 2.0 ** (-self.cost / 2)


def _c(op: str, *args: Expr | str | int) -> Call:
    return Call(
        op,
        tuple(
            a if isinstance(a, (Call, Sym, Const)) else (Const(a) if isinstance(a, int) else Sym(a))
            for a in args
        ),
    )


def _candidate(expr: Expr, family: str) -> Candidate:
    return Candidate(to_text(expr), family, sum(1 for _ in walk(expr)), expr)


def subjects(rule: str) -> list[Expr]:
    """The formulas a side condition of `rule` can look at."""
    out: list[Expr] = [Sym("conclusion")]
    for k, kind in enumerate(RULES[rule].citations, start=1):
        out.append(_c("ref", k))
        if kind == BOX:
            out.append(_c("last", k))
    return out


def _paths(bases: list[Expr], steps: int) -> list[Expr]:
    out, frontier = list(bases), list(bases)
    for _ in range(steps):
        frontier = [_c(op, p) for p in frontier for op in _PATH_STEPS]
        out += frontier
    return out


def require_candidates(rule: str) -> list[Candidate]:
    cites = RULES[rule].citations
    subj = subjects(rule)
    out: list[Candidate] = []

    def add(family: str, *exprs: Expr) -> None:
        out.extend(_candidate(e, family) for e in exprs)

    for d in BOUNDS["depth_thresholds"]:
        add("depth", _c("<=", "depth", d), _c(">", "depth", d))
    for i, j in combinations(range(1, len(cites) + 1), 2):
        add(
            "order",
            _c("<", _c("refline", i), _c("refline", j)),
            _c(">", _c("refline", i), _c("refline", j)),
        )
    for k, kind in enumerate(cites, start=1):
        for t in BOUNDS["times_cited_thresholds"]:
            add("use", _c("<=", _c("times-cited", _c("refline", k)), t))
            if kind == BOX:
                add("use", _c("<=", _c("times-cited", _c("lastline", k)), t))
        if kind != BOX:
            add(
                "premise",
                _c("premise?", _c("refline", k)),
                _c("not", _c("premise?", _c("refline", k))),
            )
    for s in subj:
        for shape in SHAPES:
            add("shape", _c("is", shape, s), _c("not", _c("is", shape, s)))
        for n in BOUNDS["size_thresholds"]:
            add("size", _c("<=", _c("size", s), n), _c(">", _c("size", s), n))
    paths = _paths(subj, BOUNDS["relation_path_steps"])
    for a, b in combinations(paths, 2):
        if a in subj or b in subj:
            add("relation", _c("==", a, b), _c("!=", a, b), _c("==", _c("size", a), _c("size", b)))
    return out


def conclusion_candidates(rule: str) -> list[Candidate]:
    bases = [s for s in subjects(rule) if s != Sym("conclusion")]
    return [_candidate(e, "path") for e in _paths(bases, BOUNDS["conclusion_path_steps"])]


_OPERAND = {
    "depth": lambda v: v.depth,
    "line": lambda v: v.line,
    "nrefs": lambda v: len(v.refs),
    "conclusion": lambda v: v.conclusion,
}
assert set(_OPERAND) == set(OPERANDS)
_STEP_FUNCTIONS = frozenset({"ref", "refline", "last", "lastline", "times-cited", "premise?"})
_FAIL = object()  # an expression that failed: the checker refuses the step
_CONST, _OPERAND_CODE, _STEP, _UNARY, _BINARY = range(5)


class Program:
    """Candidate expressions evaluated together on a step: every distinct
    subexpression once, children before parents (none of the grammar's
    operators short-circuits, so this is what each compiled expression
    computes). A failing operation fails every expression above it."""

    def __init__(self, exprs: list[Expr]) -> None:
        self._ops = make_operators(Meter(_LIMITS))
        self._index: dict[Expr, int] = {}
        self.code: list[tuple[int, object, int, int]] = []
        self.roots = [self._node(e) for e in exprs]

    def _node(self, e: Expr) -> int:
        k = self._index.get(e)
        if k is not None:
            return k
        if isinstance(e, Const):
            op = (_CONST, e.value, -1, -1)
        elif isinstance(e, Sym):
            op = (
                (_CONST, e.name, -1, -1)
                if e.name in SHAPES
                else (_OPERAND_CODE, _OPERAND[e.name], -1, -1)
            )
        else:
            args = [self._node(a) for a in e.args]
            if e.op in _STEP_FUNCTIONS:
                op = (_STEP, FUNCTIONS[e.op], args[0], -1)
            else:
                fn = FUNCTIONS.get(e.op) or self._ops[e.op]
                op = (
                    (_UNARY, fn, args[0], -1) if len(args) == 1 else (_BINARY, fn, args[0], args[1])
                )
        self.code.append(op)
        k = self._index[e] = len(self.code) - 1
        return k

    def run(self, view: StepView) -> list[object]:
        vals: list[object] = []
        put = vals.append
        for code, fn, a, b in self.code:
            if code == _CONST:
                put(fn)
                continue
            try:
                if code == _OPERAND_CODE:
                    put(fn(view))
                elif code == _BINARY:
                    x, y = vals[a], vals[b]
                    put(_FAIL if x is _FAIL or y is _FAIL else fn(x, y))
                else:
                    x = vals[a]
                    put(_FAIL if x is _FAIL else (fn(view, x) if code == _STEP else fn(x)))
            except LanguageError:
                put(_FAIL)
        return vals


class RuleGrammar:
    """The candidates of one rule and their evaluation on steps."""

    def __init__(self, rule: str) -> None:
        self.rule = rule
        self.requires = tuple(require_candidates(rule))
        self.conclusions = tuple(conclusion_candidates(rule))
        self.program = Program([c.expr for c in self.requires] + [c.expr for c in self.conclusions])
        self._nreq = len(self.requires)

    def evaluate(self, view: StepView) -> tuple[list[bool], list[bool]]:
        """(whether each require candidate holds at the step — an expression that
        fails counts as false, as in the checker —, whether each conclusion
        candidate derives the step's formula)."""
        vals = self.program.run(view)
        roots = self.program.roots
        req = [(v is not _FAIL and bool(v)) for v in (vals[k] for k in roots[: self._nreq])]
        formula = view.conclusion
        conc = [vals[k] is formula for k in roots[self._nreq :]]
        return req, conc

    def conclusion_values(self, view: StepView) -> list[Formula]:
        """The formulas the conclusion candidates derive at the step (each once)."""
        vals = self.program.run(view)
        out: dict[Formula, None] = {}
        for k in self.program.roots[self._nreq :]:
            if isinstance(vals[k], Formula):
                out.setdefault(vals[k], None)
        return list(out)


@cache
def grammar(rule: str) -> RuleGrammar:
    return RuleGrammar(rule)


def size_report() -> dict[str, dict[str, int]]:
    """Candidates per rule: requires and conclusions."""
    return {
        r: {"requires": len(grammar(r).requires), "conclusions": len(grammar(r).conclusions)}
        for r in RULES
    }
