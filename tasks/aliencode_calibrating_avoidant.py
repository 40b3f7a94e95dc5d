"""The `calibrating-avoidant` knowledge-free strategy (docs/validity.md): an
answer that both avoids and calibrates.

It rewrites a manual-trusting solution (the naive one or a variant) around
the two things a world most often changes under a calibrator's feet, then
hands what is left to the mended compact calibrator
(tasks/aliencode_compact.py with `mended`):

* a list of several values is built by ANNEXes onto a one-element list (a
  helper CRAFT per number of values), so a STRAND that builds its list in
  another order is never used for it, and ANNEX, whose own test needs no
  list of several values, is calibrated first;
* a SWEEP over anything not surely a list (a string, say) walks the list of
  its characters instead, either as the values of INDEX's pairs or as a list
  built by PLUCK at each position (a helper), so a rule on how SWEEP walks a
  string is never met.

Every rewrite is an identity of the manual, so each candidate prints what
the solution prints under the manual. Like every strategy it sees only the
world's keywords, the task's solutions and input names, and its budget.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from aliencode import World, parse
from aliencode import syntax as s
from aliencode.walk import StatementMapper

from .aliencode_budget import Budget
from .aliencode_compact import calibrated, kind, kinds_of, solutions
from .bank import Task

POS = s.Pos(0, 0)
CHARS = "zq_CHARS"
INDEX_NAME = "zq_k"  # the position INDEX pairs each character with (unused)
# the list of a sequence's elements, read by PLUCK at each position
CHARS_SOURCE = """CRAFT zq_CHARS(s):
    SET r AS STRAND()
    SET i AS GAUGE(r)
    WHILE UNDER(i, GAUGE(s)):
        ANNEX(r, PLUCK(s, i))
        SET i AS WEAVE(i, -1)
    DELIVER r"""
WALKS = ("index", "chars")
# calibrated before anything else: what the rewrites lean on
FIRST = {"index": ("ANNEX",), "chars": ("ANNEX", "PLUCK", "UNDER", "INT")}


def _list_craft(arity: int) -> s.Craft:
    """zq_LIST<arity>: its arguments as a list, ANNEXed one by one onto a one-element list."""
    params = tuple(f"a{i}" for i in range(arity))
    first = s.Set(("t",), (s.OpCall("STRAND", "", (s.Name(params[0], POS),), POS),), POS)
    annexes = tuple(
        s.ExprStmt(s.OpCall("ANNEX", "", (s.Name("t", POS), s.Name(p, POS)), POS), POS)
        for p in params[1:]
    )
    return s.Craft(
        f"zq_LIST{arity}", params, (first, *annexes, s.Deliver(s.Name("t", POS), POS)), POS
    )


class Avoider(StatementMapper):
    """Rewrites one tree: lists of several values through zq_LIST helpers,
    walks of what is not surely a list by `walk` ("index", "chars" or None)."""

    def __init__(self, tree: s.Program, walk: str | None) -> None:
        self.kinds = kinds_of(tree)
        self.walk = walk
        self.arities: set[int] = set()
        self.walked = False

    def expr(self, e: s.Expr) -> s.Expr:
        if isinstance(e, s.Call):
            return replace(e, func=self.expr(e.func), args=tuple(map(self.expr, e.args)))
        if not isinstance(e, s.OpCall):
            return e
        args = tuple(map(self.expr, e.args))
        if e.op == "STRAND" and len(args) >= 2:
            self.arities.add(len(args))
            return s.Call(s.Name(f"zq_LIST{len(args)}", POS), args, e.pos)
        return replace(e, args=args)

    def sweep(self, st: s.Sweep) -> s.Sweep:
        seq = self.expr(st.iterable)
        body = self.body(st.body)
        if self.walk is None or len(st.names) != 1 or kind(st.iterable, self.kinds) == "list":
            return replace(st, iterable=seq, body=body)
        self.walked = True
        if self.walk == "index":
            pairs = s.OpCall("INDEX", "", (seq,), POS)
            return replace(st, names=(INDEX_NAME, *st.names), iterable=pairs, body=body)
        return replace(st, iterable=s.Call(s.Name(CHARS, POS), (seq,), POS), body=body)

    def program(self, tree: s.Program) -> s.Program:
        body = self.body(tree.body)
        helpers = [_list_craft(k) for k in sorted(self.arities)]
        if self.walked and self.walk == "chars":
            helpers += list(_chars_craft())
        return s.Program((*helpers, *body))


@cache
def _chars_craft() -> tuple[s.Stmt, ...]:
    return parse(CHARS_SOURCE, {}).body


def answers(task: Task, world: World, budget: Budget | None) -> list[str]:
    """Candidate answers for a synthesis task (none for a prediction): each
    solution with its lists built by ANNEX, and with each way of walking a
    sequence that is not surely a list, calibrated by the mended compact
    calibrator within the budget. A solution the rewrites leave as it is
    gives none (the mended calibrator's own answers cover it)."""
    if task.kind != "synthesis" or budget is None:
        return []
    out: list[str] = []
    for tree in solutions(task, world):
        for walk in (None, *WALKS):
            avoider = Avoider(tree, walk)
            rewritten = avoider.program(tree)
            if not avoider.arities and not avoider.walked:
                continue
            if walk is not None and not avoider.walked:
                continue  # the same as the lists-only rewrite
            first = FIRST[walk] if walk else ("ANNEX",)
            for text in calibrated([rewritten], task, world, budget, mended=True, first=first):
                if text not in out:
                    out.append(text)
    return out
