"""Propositional satisfiability of sets of formulas, with unsatisfiable cores.

Formulas are read propositionally: NOT, AND, OR, IMPL are connectives, BOT
is false, and every other formula (an atom, a predicate application, an
equation, a quantified formula) is an opaque atom. So a set that is
unsatisfiable here is inconsistent in every logic that has the classical
propositional rules, and a satisfying assignment of a propositional set is a
countermodel.

The formulas become clauses by the Tseitin encoding (one variable per
distinct subformula; formulas are interned, so shared subformulas share a
variable), and a DPLL search with unit propagation decides them. Each
assigned literal records the given formulas its propagation used; a
conflict yields the formulas behind it, and a decision whose two branches
both conflict joins the two sets (or keeps one, when its conflict did not
involve the decision). The result for an unsatisfiable set is a core: a
subset that is itself unsatisfiable, usually small, not always minimal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .formulas import And, Bot, Formula, Impl, Not, Or


@dataclass(frozen=True)
class Outcome:
    """`core` (a tuple of the given formulas) when unsatisfiable, else
    `model`: the atoms made true by a satisfying assignment."""

    satisfiable: bool
    core: tuple[Formula, ...] = ()
    model: frozenset[Formula] = frozenset()


def atoms(formulas: Iterable[Formula]) -> list[Formula]:
    """The propositional atoms of `formulas`, in order of first occurrence."""
    out: dict[Formula, None] = {}
    stack = list(formulas)[::-1]
    seen: set[int] = set()
    while stack:
        f = stack.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        t = type(f)
        if t is Not:
            stack.append(f.body)
        elif t in (And, Or, Impl):
            stack += (f.right, f.left)
        elif t is not Bot:
            out.setdefault(f)
    return list(out)


class Solver:
    """A DPLL solver that keeps its Tseitin clauses across calls.

    Every call of `solve` asserts its formulas as the roots of the search
    (each tagged with itself), so a search that asks about many growing sets
    of formulas (a tableau's branches) encodes each formula once.
    Definitional clauses of formulas a call does not mention are harmless:
    they only say what a variable means. Decisions are made on the atoms
    under the call's formulas only; the definitions then fix every other
    variable by propagation."""

    def __init__(self, stop: Callable[[], None] | None = None) -> None:
        # called every 256 decisions; may raise to end a long search (a
        # caller's time limit: DPLL takes exponential time on some sets)
        self.stop = stop
        self.lit: dict[Formula, int] = {}
        self.atom_of: dict[int, Formula] = {}
        self.kids: dict[int, tuple[int, int]] = {}
        self.clauses: list[tuple[int, ...]] = []
        self.watch: dict[int, list[int]] = {}  # literal -> clauses containing it
        self.n = 0
        self.false = self._new()
        self.value: list[int] = []
        self.why: list[frozenset] = []
        self.trail: list[int] = []

    def _new(self) -> int:
        self.n += 1
        return self.n

    def _add(self, clause: tuple[int, ...]) -> None:
        i = len(self.clauses)
        self.clauses.append(clause)
        for lit in clause:
            self.watch.setdefault(lit, []).append(i)

    def literal(self, f: Formula) -> int:
        """The literal standing for `f`, encoding it first if need be
        (iteratively: formulas may be deep)."""
        got = self.lit.get(f)
        if got is not None:
            return got
        stack = [f]
        while stack:
            g = stack[-1]
            t = type(g)
            if g in self.lit:
                stack.pop()
            elif t is Bot:
                stack.pop()
                self.lit[g] = self.false
            elif t is Not:
                if g.body in self.lit:
                    stack.pop()
                    self.lit[g] = -self.lit[g.body]
                else:
                    stack.append(g.body)
            elif t in (And, Or, Impl):
                pending = [c for c in (g.left, g.right) if c not in self.lit]
                if pending:
                    stack += pending
                    continue
                stack.pop()
                v = self._new()
                self.lit[g] = v
                a, b = self.lit[g.left], self.lit[g.right]
                self.kids[v] = (abs(a), abs(b))
                if t is And:
                    new = ((-v, a), (-v, b), (v, -a, -b))
                elif t is Or:
                    new = ((-v, a, b), (v, -a), (v, -b))
                else:
                    new = ((-v, -a, b), (v, a), (v, -b))
                for c in new:
                    self._add(c)
            else:
                stack.pop()
                v = self._new()
                self.lit[g] = v
                self.atom_of[v] = g
        return self.lit[f]

    def solve(self, formulas: Iterable[Formula]) -> Outcome:
        given = list(dict.fromkeys(formulas))
        lits = [self.literal(f) for f in given]
        self.value = [0] * (self.n + 1)  # 1 true, -1 false, 0 unassigned
        self.why = [frozenset()] * (self.n + 1)
        self.trail = []
        self.decide = self._cone(lits)
        self._assign(-self.false, frozenset())
        queue = list(self.watch.get(self.false, ()))
        conflict = None
        for f, lit in zip(given, lits):
            v = self._lit_value(lit)
            if v < 0:
                conflict = self.why[abs(lit)] | {f}
                break
            if v == 0:
                self._assign(lit, frozenset((f,)))
                queue.extend(self.watch.get(-lit, ()))
        got = conflict if conflict is not None else self._search(queue)
        if got is None:
            model = frozenset(self.atom_of[v] for v in self.decide if self.value[v] > 0)
            return Outcome(True, (), model)
        # in the order the formulas were given: a set's order follows the
        # objects' addresses, which differ from run to run, and the prover
        # splits on the first largest formula of the core
        return Outcome(False, tuple(f for f in given if f in got))

    def _cone(self, lits: list[int]) -> list[int]:
        """The atom variables under `lits`, in order of first occurrence."""
        out: list[int] = []
        seen: set[int] = set()
        stack = [abs(x) for x in reversed(lits)]
        while stack:
            v = stack.pop()
            if v in seen:
                continue
            seen.add(v)
            kids = self.kids.get(v)
            if kids is None:
                if v in self.atom_of:
                    out.append(v)
            else:
                stack += (kids[1], kids[0])
        return out

    def _lit_value(self, lit: int) -> int:
        v = self.value[lit if lit > 0 else -lit]
        return v if lit > 0 else -v

    def _assign(self, lit: int, why: frozenset) -> None:
        var = lit if lit > 0 else -lit
        self.value[var] = 1 if lit > 0 else -1
        self.why[var] = why
        self.trail.append(var)

    def _propagate(self, queue: list[int]) -> frozenset | None:
        """Unit propagation over the clauses in `queue` and those touched by new
        assignments; a conflict returns what it rests on."""
        clauses = self.clauses
        value = self.value
        while queue:
            c = clauses[queue.pop()]
            unassigned = 0
            count = 0
            satisfied = False
            for lit in c:
                v = value[lit] if lit > 0 else -value[-lit]
                if v > 0:
                    satisfied = True
                    break
                if v == 0:
                    count += 1
                    unassigned = lit
                    if count > 1:
                        break
            if satisfied or count > 1:
                continue
            reasons = frozenset().union(*(self.why[abs(lit)] for lit in c if lit != unassigned))
            if count == 0:
                return reasons
            self._assign(unassigned, reasons)
            queue.extend(self.watch.get(-unassigned, ()))
        return None

    def _undo(self, mark: int) -> None:
        while len(self.trail) > mark:
            self.value[self.trail.pop()] = 0

    def _search(self, queue: list[int]) -> frozenset | None:
        """None when satisfiable (the assignment stays), else the support of
        the refutation: given formulas (and no decision variables).

        DPLL with an explicit stack of decisions [var, phase, trail mark,
        support of the first phase's conflict]; a conflict that does not rest
        on the latest decision skips that decision's other phase."""
        conflict = self._propagate(queue)
        stack: list[list] = []
        position = 0  # atoms before it are assigned (decisions go in order)
        decisions = 0
        while True:
            if conflict is None:
                decisions += 1
                if self.stop is not None and decisions % 256 == 0:
                    self.stop()
                while position < len(self.decide) and self.value[self.decide[position]] != 0:
                    position += 1
                if position == len(self.decide):
                    return None
                var = self.decide[position]
                stack.append([var, 0, len(self.trail), None, position])
                self._assign(var, frozenset((var,)))
                conflict = self._propagate(list(self.watch.get(-var, ())))
                continue
            while True:
                if not stack:
                    return conflict
                frame = stack[-1]
                var, phase, mark, first, position = frame
                self._undo(mark)
                if var not in conflict:
                    stack.pop()
                    continue
                if phase == 0:
                    frame[1], frame[3] = 1, conflict
                    self._assign(-var, frozenset((var,)))
                    conflict = self._propagate(list(self.watch.get(var, ())))
                    break
                stack.pop()
                conflict = (first | conflict) - {var}


def solve(formulas: Iterable[Formula], stop: Callable[[], None] | None = None) -> Outcome:
    """Whether `formulas` are jointly satisfiable (see module doc)."""
    return Solver(stop).solve(formulas)


def entails(premises: Iterable[Formula], goal: Formula) -> bool:
    """Whether `goal` follows from `premises` propositionally."""
    return not solve([*premises, Not(goal)]).satisfiable
