"""A complete classical prover: goal-directed introductions, then refutation.

This is the prover's second stage, for worlds whose classical rules are the
standard ones. It is complete for classical propositional logic (every
tautology is proved, given time) and, by iterative deepening over Herbrand
levels, for first-order logic without equality.

Goals. A goal is taken apart by its introduction rule (AND_I, IMPL_I,
NOT_I, FORALL_I with a fresh constant); a disjunction or an existential
that follows propositionally from what is known by one disjunct or one
known instance is introduced by OR_I or EXISTS_I; anything else is proved
by contradiction: a box assuming its negation ends in BOT, then NOT_I and
DNE (or BOT_E when the box did not need its assumption).

Refutation (deriving BOT from the facts of a branch) is a tableau written
in natural deduction:

* saturation: conjunctions split (AND_E), double negations drop (DNE),
  negated disjunctions and implications give their parts (small boxes),
  and the two-sided rules fire as soon as one side is known: modus ponens
  and tollens, disjunctive syllogism (OR_E with BOT_E), a negated
  conjunction with one conjunct. A formula and its negation close the
  branch (NOT_E).
* splitting: when the facts are propositionally inconsistent (`sat.solve`)
  but saturation does not close the branch, an open two-sided fact of the
  unsatisfiable core is split on its first part X: a box assumes X and
  ends in BOT, NOT_I gives NOT(X), and the branch goes on with NOT(X). A
  branch that does not need its assumption is used as it is (no split).
* quantifiers, when the facts are propositionally consistent: an
  existential (or a negated universal) opens its box with a fresh witness
  (EXISTS_E; for NOT(FORALL(x, φ)), a box assuming NOT(φ[c]) whose BOT
  gives φ[c] by NOT_I and DNE, then FORALL_I and NOT_E); then every
  universal (or negated existential) is instantiated with every term of the
  branch up to the current level. A term's level is 0 for the theorem's
  constants, one more than the highest level in the formula that produced
  a witness, and one more than its arguments' for a function application;
  the search is repeated with level 0, 1, 2, ... . A branch that stays
  consistent with nothing left to add within the level cannot be closed at
  any level when no step was held back by the level: the theorem is then
  not a classical consequence, and the search says so.

Derivations are built as a DAG of `Derivation`s that record the boxes whose
assumptions they use; `to_tree` places every line at the shallowest box
depth its assumptions allow, and gives the prover's proof tree, which the
prover writes out and checks.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product

from .formulas import (
    BOT,
    And,
    Bot,
    Exists,
    Fn,
    Forall,
    Formula,
    Impl,
    Name,
    Node,
    Not,
    Or,
    Quantified,
    Term,
    children,
)
from .sat import Solver, atoms
from .saturation import ground_terms
from .substitution import substitute
from .writeout import BoxRef
from .writeout import Node as TreeNode

# Boxes nested inside one another at most (each costs a few Python frames;
# deeper branches are held back, so a failure is not final).
MAX_NESTING = 120

# Function applications made per symbol and level at most (beyond, the level
# is skipped for that symbol, and the failure is not final).
MAX_NEW_TERMS = 400


class OutOfTime(Exception):
    """The search's time allowance is spent."""


@dataclass(eq=False)
class Derivation:
    """A line: `formula` by `rule` from `refs` (derivations and boxes); `hyps`
    are the boxes whose assumptions it rests on; a box's assumption itself has
    rule "hyp" and its box's id in `box`."""

    formula: Formula
    rule: str
    refs: tuple = ()
    hyps: frozenset[int] = frozenset()
    box: int = 0


@dataclass(eq=False)
class Box:
    id: int
    assumption: Formula
    hyp: Derivation
    body: Derivation | None = None


def _comp(f: Formula) -> Formula:
    """The complement: φ for NOT(φ), else NOT(φ)."""
    return f.body if type(f) is Not else Not(f)


def _positive(f: Formula) -> Formula:
    return f.body if type(f) is Not else f


@dataclass
class Branch:
    """What one branch of the tableau knows."""

    facts: dict[Formula, Derivation]
    todo: deque = field(default_factory=deque)
    watch: dict[Formula, tuple[Formula, ...]] = field(default_factory=dict)
    deltas: frozenset[Formula] = frozenset()
    instances: frozenset[tuple[Formula, Term]] = frozenset()
    terms: dict[Term, int] = field(default_factory=dict)
    # The branch's BOT once found. A closed branch stays closed: the fact that
    # closed it has left `todo`, so a later goal on this branch (the second
    # conjunct of AND_I) would otherwise not see the contradiction again.
    closed: Derivation | None = None

    def child(self) -> Branch:
        return Branch(
            dict(self.facts),
            deque(self.todo),
            dict(self.watch),
            self.deltas,
            self.instances,
            dict(self.terms),
            self.closed,
        )


class Refuter:
    """One attempt at one Herbrand level (see module doc)."""

    def __init__(
        self,
        premises: tuple[Formula, ...],
        goal: Formula,
        level: int,
        deadline: float | None,
        clock: Callable[[], float] = time.process_time,
        solver_stop: Callable[[], None] | None = None,
    ) -> None:
        self.clock = clock
        self.premises = premises
        self.goal = goal
        self.level = level
        self.deadline = deadline
        self.boxes = 0
        self.steps = 0
        self.held_back = False
        names: set[str] = set()
        for f in (*premises, goal):
            _names(f, names)
        self.names = names
        self.functions = sorted({s for f in (*premises, goal) for s in f.free if "/" in s})
        self._fresh = 0
        self.solver = Solver(solver_stop)
        self.nesting = 0

    # -- building derivations --------------------------------------------------

    def line(self, formula: Formula, rule: str, *refs) -> Derivation:
        hyps: frozenset[int] = frozenset()
        for r in refs:
            if isinstance(r, Box):
                hyps = hyps | (r.body.hyps - {r.id})
            else:
                hyps = hyps | r.hyps
        return Derivation(formula, rule, refs, hyps)

    def open_box(self, assumption: Formula) -> Box:
        self.boxes += 1
        hyp = Derivation(assumption, "hyp", (), frozenset((self.boxes,)), self.boxes)
        return Box(self.boxes, assumption, hyp)

    def entails(self, facts: list[Formula], goal: Formula) -> bool:
        return not self.solver.solve([*facts, Not(goal)]).satisfiable

    def fresh(self) -> Name:
        while True:
            self._fresh += 1
            n = self._fresh
            name = "abcdefgh"[(n - 1) % 8] + (str((n - 1) // 8) if n > 8 else "")
            if name not in self.names:
                return Name(name)

    def tick(self) -> None:
        self.steps += 1
        if self.deadline is not None and self.steps % 32 == 0 and self.clock() > self.deadline:
            raise OutOfTime()

    # -- gadgets (each a few lines of the standard calculus) ----------------------------

    def close(self, x: Derivation, nx: Derivation) -> Derivation:
        """BOT from x and NOT(x) (NOT_E cites the formula, then its negation)."""
        return self.line(BOT, "NOT_E", x, nx)

    def intro_not(self, box: Box) -> Derivation:
        return self.line(Not(box.assumption), "NOT_I", box)

    def negation_of(self, assumption: Formula, refute) -> Derivation:
        """NOT(assumption) from a box assuming it; `refute(hyp)` gives its BOT."""
        box = self.open_box(assumption)
        box.body = refute(box.hyp)
        return self.intro_not(box)

    def alpha(self, f: Formula, d: Derivation) -> list[tuple[Formula, Derivation]]:
        t = type(f)
        if t is And:
            return [
                (f.left, self.line(f.left, "AND_E1", d)),
                (f.right, self.line(f.right, "AND_E2", d)),
            ]
        if t is not Not:
            return []
        g = f.body
        tg = type(g)
        if tg is Not:
            return [(g.body, self.line(g.body, "DNE", d))]
        if tg is Or:
            left = self.negation_of(g.left, lambda h: self.close(self.line(g, "OR_I1", h), d))
            right = self.negation_of(g.right, lambda h: self.close(self.line(g, "OR_I2", h), d))
            return [(left.formula, left), (right.formula, right)]
        if tg is Impl:
            a, b = g.left, g.right

            def no_b(hb: Derivation) -> Derivation:
                inner = self.open_box(a)
                inner.body = hb
                return self.close(self.line(g, "IMPL_I", inner), d)

            def no_a(hna: Derivation) -> Derivation:
                inner = self.open_box(a)
                inner.body = self.line(b, "BOT_E", self.close(inner.hyp, hna))
                return self.close(self.line(g, "IMPL_I", inner), d)

            nn = self.negation_of(Not(a), no_a)
            return [(a, self.line(a, "DNE", nn)), (Not(b), self.negation_of(b, no_b))]
        return []

    def fire(
        self, beta: Formula, bd: Derivation, partner: Formula, pd: Derivation
    ) -> tuple[Formula, Derivation] | None:
        """What a two-sided fact gives with one side known (None: nothing new)."""
        t = type(beta)
        if t is Impl:
            a, b = beta.left, beta.right
            if partner is a:
                return b, self.line(b, "IMPL_E", bd, pd)
            if partner is _comp(b):  # modus tollens
                nb = pd
                return Not(a), self.negation_of(
                    a, lambda h: self._clash(self.line(b, "IMPL_E", bd, h), nb)
                )
        elif t is Or:
            a, b = beta.left, beta.right
            for x, y, rule_left in ((a, b, True), (b, a, False)):
                if partner is _comp(x):
                    return y, self._syllogism(beta, bd, x, y, pd, rule_left)
        elif t is Not and type(beta.body) is And:
            a, b = beta.body.left, beta.body.right
            if partner is a:
                return Not(b), self.negation_of(
                    b, lambda h: self.close(self.line(beta.body, "AND_I", pd, h), bd)
                )
            if partner is b:
                return Not(a), self.negation_of(
                    a, lambda h: self.close(self.line(beta.body, "AND_I", h, pd), bd)
                )
        return None

    def _clash(self, x: Derivation, y: Derivation) -> Derivation:
        """BOT from two derivations of complementary formulas, in either role."""
        if y.formula is Not(x.formula):
            return self.close(x, y)
        return self.close(y, x)

    def _syllogism(
        self, disj: Formula, dd: Derivation, x: Formula, y: Formula, nx: Derivation, x_left: bool
    ) -> Derivation:
        """y from OR(x, y) (or OR(y, x)) and the complement of x: OR_E, ex falso on x's side."""
        bx = self.open_box(x)
        bx.body = self.line(y, "BOT_E", self._clash(bx.hyp, nx))
        by = self.open_box(y)
        by.body = by.hyp
        boxes = (bx, by) if x_left else (by, bx)
        return self.line(y, "OR_E", dd, *boxes)

    # -- saturation ------------------------------------------------------------------

    def add(self, br: Branch, f: Formula, d: Derivation) -> None:
        if f not in br.facts:
            br.facts[f] = d
            br.todo.append(f)

    def saturate(self, br: Branch) -> Derivation | None:
        """Close the branch (a BOT derivation) or apply every one-sided rule."""
        if br.closed is not None:
            return br.closed
        facts = br.facts
        while br.todo:
            self.tick()
            f = br.todo.popleft()
            d = facts[f]
            if type(f) is Bot:
                br.closed = d
                return d
            c = _comp(f)
            if c in facts:
                br.closed = self._clash(d, facts[c])
                return br.closed
            for g, gd in self.alpha(f, d):
                self.add(br, g, gd)
            for partner in _partners(f):
                if partner in facts:
                    got = self.fire(f, d, partner, facts[partner])
                    if got is not None:
                        self.add(br, *got)
                else:
                    br.watch[partner] = br.watch.get(partner, ()) + (f,)
            for beta in br.watch.get(f, ()):
                got = self.fire(beta, facts[beta], f, d)
                if got is not None:
                    self.add(br, *got)
        return None

    # -- the refutation loop -------------------------------------------------------------

    def refute(self, br: Branch) -> Derivation | None:
        while True:
            bot = self.saturate(br)
            if bot is not None:
                return bot
            self.tick()
            outcome = self.solver.solve(br.facts)
            if not outcome.satisfiable:
                beta = _open_beta(outcome.core, br.facts) or _open_beta(br.facts, br.facts)
                if beta is None:
                    return None
                return self.split(br, _positive(_split_part(beta)))
            step = self.quantifier_step(br)
            if step is True:
                continue
            if step is not None:
                return step
            # a two-sided fact with a quantifier inside may still hide a
            # witness or an instance; one without cannot change the verdict
            beta = _open_beta((f for f in br.facts if _quantified_inside(f)), br.facts)
            if beta is None:
                return None
            return self.split(br, _positive(_split_part(beta)))

    def nested(self, work, *args):
        """`work(*args)` one box deeper; None beyond MAX_NESTING."""
        if self.nesting >= MAX_NESTING:
            self.held_back = True
            return None
        self.nesting += 1
        try:
            return work(*args)
        finally:
            self.nesting -= 1

    def split(self, br: Branch, x: Formula) -> Derivation | None:
        inner = br.child()
        box = self.open_box(x)
        self.add(inner, x, box.hyp)
        first = self.nested(self.refute, inner)
        if first is None:
            return None
        if box.id not in first.hyps:
            return first
        box.body = first
        nx = self.intro_not(box)
        self.add(br, nx.formula, nx)
        return self.refute(br)

    def quantifier_step(self, br: Branch) -> Derivation | None | bool:
        """A witness box (its refutation), or True when instances were added,
        or None when nothing within the level is left to do."""
        delta = self._next_delta(br)
        if delta is not None:
            return self.witness(br, delta)
        return True if self.instantiate(br) else None

    def _witness_level(self, br: Branch, f: Formula) -> int:
        return 1 + max((br.terms.get(t, 0) for t in _closed_terms(f)), default=-1)

    def _next_delta(self, br: Branch) -> Formula | None:
        best = None
        for f in br.facts:
            if f in br.deltas or not (
                type(f) is Exists or (type(f) is Not and type(f.body) is Forall)
            ):
                continue
            level = self._witness_level(br, f)
            if level > self.level:
                self.held_back = True
                continue
            key = (level, f.size)
            if best is None or key < best[0]:
                best = (key, f)
        return None if best is None else best[1]

    def witness(self, br: Branch, f: Formula) -> Derivation | None:
        level = self._witness_level(br, f)
        c = self.fresh()
        inner = br.child()
        inner.deltas = br.deltas | {f}
        inner.terms[c] = level
        d = br.facts[f]
        if type(f) is Exists:
            box = self.open_box(substitute(f.body, f.var, c))
            self.add(inner, box.assumption, box.hyp)
            body = self.nested(self.refute, inner)
            if body is None or box.id not in body.hyps:
                return body
            box.body = body
            return self.line(BOT, "EXISTS_E", d, box)
        q = f.body  # NOT(FORALL(x, φ))
        instance = substitute(q.body, q.var, c)
        box = self.open_box(Not(instance))
        self.add(inner, box.assumption, box.hyp)
        body = self.nested(self.refute, inner)
        if body is None or box.id not in body.hyps:
            return body
        box.body = body
        nn = self.intro_not(box)
        general = self.line(q, "FORALL_I", self.line(instance, "DNE", nn))
        return self.close(general, d)

    def instantiate(self, br: Branch) -> bool:
        if not br.terms:
            br.terms[self.fresh()] = 0
        self._grow_terms(br)
        terms = [t for t, lv in br.terms.items() if lv <= self.level]
        added = False
        for f in list(br.facts):
            if type(f) is Forall:
                q, negated = f, False
            elif type(f) is Not and type(f.body) is Exists:
                q, negated = f.body, True
            else:
                continue
            for t in terms:
                if (f, t) in br.instances:
                    continue
                self.tick()
                br.instances = br.instances | {(f, t)}
                inst = substitute(q.body, q.var, t)
                if negated:
                    if Not(inst) in br.facts:
                        continue
                    d = br.facts[f]
                    nd = self.negation_of(
                        inst, lambda h, q=q, d=d: self.close(self.line(q, "EXISTS_I", h), d)
                    )
                    self.add(br, nd.formula, nd)
                else:
                    if inst in br.facts:
                        continue
                    self.add(br, inst, self.line(inst, "FORALL_E", br.facts[f]))
                added = True
        return added

    def _grow_terms(self, br: Branch) -> None:
        """The branch's closed terms, and function applications up to the level."""
        for f in br.facts:
            for t in _closed_terms(f):
                if t not in br.terms:
                    br.terms[t] = (
                        0
                        if type(t) is Name
                        else 1 + max((br.terms.get(a, 0) for a in t.terms), default=0)
                    )
        if not self.functions:
            return
        # function symbols make ever deeper terms: a failure at this level is
        # never final
        self.held_back = True
        base = [t for t, lv in br.terms.items() if lv < self.level]
        for sym in self.functions:
            name, arity = sym.rsplit("/", 1)
            if len(base) ** int(arity) > MAX_NEW_TERMS:
                continue
            for args in product(base, repeat=int(arity)):
                new = Fn(name, args)
                if new not in br.terms:
                    br.terms[new] = 1 + max(br.terms[a] for a in args)

    # -- goals ----------------------------------------------------------------------

    def prove(self, br: Branch, goal: Formula) -> Derivation | None:
        self.tick()
        bot = self.saturate(br)
        if bot is not None:
            return bot if goal is BOT else self.line(goal, "BOT_E", bot)
        if goal in br.facts:
            return br.facts[goal]
        t = type(goal)
        if t is Bot:
            return self.refute(br)
        if t is And:
            left = self.prove(br, goal.left)
            right = self.prove(br, goal.right) if left is not None else None
            return None if right is None else self.line(goal, "AND_I", left, right)
        if t is Impl:
            inner = br.child()
            box = self.open_box(goal.left)
            self.add(inner, goal.left, box.hyp)
            body = self.nested(self.prove, inner, goal.right)
            if body is None:
                return None
            box.body = body
            return self.line(goal, "IMPL_I", box)
        if t is Not:
            inner = br.child()
            box = self.open_box(goal.body)
            self.add(inner, goal.body, box.hyp)
            body = self.nested(self.refute, inner)
            if body is None:
                return None
            box.body = body
            return self.intro_not(box)
        if t is Forall:
            c = self.fresh()
            body = self.prove(br, substitute(goal.body, goal.var, c))
            return None if body is None else self.line(goal, "FORALL_I", body)
        known = list(br.facts)
        if t is Or:
            for part, rule in ((goal.left, "OR_I1"), (goal.right, "OR_I2")):
                if self.entails(known, part):
                    got = self.prove(br, part)
                    if got is not None:
                        return self.line(goal, rule, got)
        if t is Exists:
            for term in list(br.terms) or []:
                inst = substitute(goal.body, goal.var, term)
                if self.entails(known, inst):
                    got = self.prove(br, inst)
                    if got is not None:
                        return self.line(goal, "EXISTS_I", got)
        # by contradiction
        inner = br.child()
        box = self.open_box(Not(goal))
        self.add(inner, box.assumption, box.hyp)
        bot = self.nested(self.refute, inner)
        if bot is None:
            return None
        if box.id not in bot.hyps:
            return self.line(goal, "BOT_E", bot)
        box.body = bot
        return self.line(goal, "DNE", self.intro_not(box))

    def run(self) -> Derivation | None:
        br = Branch({})
        for p in self.premises:
            self.add(br, p, Derivation(p, "premise"))
        for t in ground_terms((*self.premises, self.goal)):
            br.terms.setdefault(
                t, 0 if type(t) is Name else 1 + max(br.terms.get(a, 0) for a in t.terms)
            )
        return self.prove(br, self.goal)


def _partners(f: Formula) -> tuple[Formula, ...]:
    """The facts that make a two-sided fact fire."""
    t = type(f)
    if t is Impl:
        return (f.left, _comp(f.right))
    if t is Or:
        return (_comp(f.left), _comp(f.right))
    if t is Not and type(f.body) is And:
        return (f.body.left, f.body.right)
    return ()


def _is_open(f: Formula, facts) -> bool:
    t = type(f)
    if t is Impl:
        return _comp(f.left) not in facts and f.right not in facts
    if t is Or:
        return f.left not in facts and f.right not in facts
    if t is Not and type(f.body) is And:
        return _comp(f.body.left) not in facts and _comp(f.body.right) not in facts
    return False


@lru_cache(maxsize=65536)
def _quantified_inside(f: Formula) -> bool:
    """Whether a quantified formula occurs in `f`'s propositional structure."""
    return any(type(a) in (Forall, Exists) for a in atoms((f,)))


def _split_part(f: Formula) -> Formula:
    return f.body.left if type(f) is Not else f.left


def _open_beta(candidates, facts) -> Formula | None:
    """The largest open two-sided formula among `candidates` (the first of
    equal size). Splitting the largest first measured shorter proofs and
    faster searches than the smallest first on Pelletier's problems."""
    best = None
    for f in candidates:
        if _is_open(f, facts) and (best is None or f.size > best.size):
            best = f
    return best


def _names(node: Node, out: set[str]) -> None:
    stack = [node]
    while stack:
        n = stack.pop()
        if type(n) is Name:
            out.add(n.name)
        elif isinstance(n, Quantified):
            out.add(n.var)
        stack.extend(children(n))


@lru_cache(maxsize=65536)
def _closed_terms(f: Formula) -> tuple[Term, ...]:
    """The closed terms of `f` (no bound variable inside), memoised: the
    search asks for every fact of every branch."""
    return tuple(ground_terms((f,)))


@dataclass
class Refutation:
    derivation: Derivation | None
    level: int
    complete: bool  # the failure is final: no level can succeed
    steps: int


def refute_search(
    premises: tuple[Formula, ...],
    goal: Formula,
    deadline: float | None = None,
    max_level: int = 8,
    clock: Callable[[], float] = time.process_time,
    solver_stop: Callable[[], None] | None = None,
) -> Refutation:
    """Iterative deepening over Herbrand levels (see module doc);
    `solver_stop` is handed to the propositional solver (`sat.Solver`)."""
    steps = 0
    for level in range(max_level + 1):
        r = Refuter(premises, goal, level, deadline, clock, solver_stop)
        try:
            got = r.run()
        finally:
            steps += r.steps
        if got is not None:
            return Refutation(got, level, False, steps)
        if not r.held_back:
            return Refutation(None, level, True, steps)
    return Refutation(None, max_level, False, steps)


def to_tree(root: Derivation) -> TreeNode:
    """The proof tree of a derivation: each line at the shallowest box depth
    its assumptions allow (a box one deeper than the line that closes it)."""
    depth_of_box: dict[int, int] = {}
    made: dict[int, TreeNode] = {}
    stack: list[tuple[Derivation, bool]] = [(root, False)]
    while stack:
        d, ready = stack.pop()
        if id(d) in made:
            continue
        if d.rule == "hyp":
            made[id(d)] = TreeNode(d.formula, "hyp", (), depth_of_box[d.box])
            continue
        if d.rule == "premise":
            made[id(d)] = TreeNode(d.formula, "premise", (), 0)
            continue
        depth = max((depth_of_box[b] for b in d.hyps), default=0)
        if not ready:
            # boxes get their depth before their contents are converted
            stack.append((d, True))
            for r in reversed(d.refs):
                if isinstance(r, Box):
                    depth_of_box[r.id] = depth + 1
                    stack.append((r.body, False))
                else:
                    stack.append((r, False))
            continue
        refs = tuple(
            BoxRef(r.assumption, made[id(r.body)], depth + 1) if isinstance(r, Box) else made[id(r)]
            for r in d.refs
        )
        made[id(d)] = TreeNode(d.formula, d.rule, refs, depth)
    return made[id(root)]
