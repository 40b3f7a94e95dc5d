"""Backward proof search over sequents, in a world's patched rules.

Goals are sequents (the open assumptions, a formula). `Search.prove`
tries, in order: the formula is known (a premise, an assumption, or what
cheap forward eliminations give: conjunction and double-negation
eliminations, modus ponens and instances with the problem's terms); the
introduction rule of the goal's shape; eliminations aimed at the goal
(modus ponens backwards, NOT_E for BOT, ex falso, case analysis on a known
disjunction, existential elimination, rewriting with an equation, double
negation); proving the goal at the top level instead (a world may allow a
rule only there); and "lifting" — proving it inside a box that assumes a
known formula X, then IMPL_I and IMPL_E (a world may allow a rule only inside
a box). Every rule application goes through `Oracle`, so disabled rules,
patched conclusions and side conditions on formulas and depth are exactly the
world's. Failures are memoised per sequent and budget, successes per
sequent, and the budget (the height of the proof tree) grows by iterative
deepening, so the first proof found is a shallow one.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from .formulas import (
    BOT,
    And,
    Bot,
    Eq,
    Exists,
    Fn,
    Forall,
    Formula,
    Impl,
    Name,
    Not,
    Or,
    Pred,
    Quantified,
    Term,
    children,
)
from .oracle import Context, Oracle, box, line
from .proof import Theorem
from .saturation import ground_terms
from .substitution import substitute
from .writeout import BoxRef, Node


class OutOfTime(Exception):
    """The search's time or step allowance is spent."""


WITNESSES = ("c", "d", "e", "c1", "d1", "e1", "c2", "d2", "e2")


class Search:
    """Backward proof search for one theorem in one world (see module doc)."""

    def __init__(
        self,
        oracle: Oracle,
        theorem: Theorem,
        deadline: float | None = None,
        lift: bool = True,
        max_steps: int | None = None,
        clock: Callable[[], float] = time.process_time,
        route_guarded: bool = False,
    ) -> None:
        self.o = oracle
        # excluded middle in place of DNE: where DNE is disabled, and with
        # `route_guarded` also where its side condition refuses (detours.py
        # says why that is not the default)
        self.excluded_middle = oracle.allowed("LEM") and (
            route_guarded or not oracle.allowed("DNE")
        )
        self.clock = clock
        self.max_steps = max_steps
        self.theorem = theorem
        self.premises = tuple(dict.fromkeys(theorem.premises))
        self.deadline = deadline
        self.lift_allowed = lift
        self.failed: dict[tuple, int] = {}
        self.proved: dict[tuple, Node] = {}
        self._facts: dict[tuple[Formula, ...], dict[Formula, Node]] = {}
        self._contexts: dict[tuple[Formula, ...], Context] = {}
        self.base_terms = _ground_terms((*self.premises, theorem.goal))
        self.used_names = set().union(*(f.free for f in (*self.premises, theorem.goal)))
        self.steps = 0
        self._instances: dict[tuple[Quantified, Term], Formula] = {}
        self._terms: dict[tuple[Formula, ...], list[Term]] = {}
        self._goal_terms: dict[Formula, list[Term]] = {}

    # -- contexts ---------------------------------------------------------------

    def ctx(self, assumptions: tuple[Formula, ...]) -> Context:
        c = self._contexts.get(assumptions)
        if c is None:
            c = self._contexts[assumptions] = Context.of(self.premises, assumptions)
        return c

    def terms(self, assumptions: tuple[Formula, ...]) -> list[Term]:
        got = self._terms.get(assumptions)
        if got is None:
            got = self._terms[assumptions] = self._terms_of(assumptions)
        return got

    def _terms_of(self, assumptions: tuple[Formula, ...]) -> list[Term]:
        out = list(self.base_terms)
        for t in _ground_terms(assumptions):
            if t not in out:
                out.append(t)
        if not any(type(t) is Name for t in out):
            out.append(Name(WITNESSES[0]))
        return out

    def fresh(self, assumptions: tuple[Formula, ...], *avoid: Formula) -> Name:
        used = set(self.used_names).union(*(a.free for a in assumptions), *(f.free for f in avoid))
        for n in WITNESSES:
            if n not in used:
                return Name(n)
        i = 3
        while f"c{i}" in used:
            i += 1
        return Name(f"c{i}")

    def goal_terms(self, goal: Formula) -> list[Term]:
        got = self._goal_terms.get(goal)
        if got is None:
            got = self._goal_terms[goal] = _ground_terms((goal,))
        return got

    def instance(self, q: Quantified, t: Term) -> Formula:
        """The body of `q` with `t` for its variable (memoised: the search asks often)."""
        key = (q, t)
        got = self._instances.get(key)
        if got is None:
            got = self._instances[key] = substitute(q.body, q.var, t)
        return got

    def facts(self, assumptions: tuple[Formula, ...]) -> dict[Formula, Node]:
        """What the premises and assumptions give by cheap forward steps."""
        got = self._facts.get(assumptions)
        if got is not None:
            return got
        d = len(assumptions)
        if d == 0:
            known = {}
            for p in self.premises:
                if self.o.applies("premise", (), p, 0, self.ctx(())):
                    known[p] = Node(p, "premise", (), 0)
        else:
            known = dict(self.facts(assumptions[:-1]))
            a = assumptions[-1]
            known[a] = Node(a, "hyp", (), d)
        self._facts[assumptions] = known
        self._forward(known, assumptions, d)
        return known

    def _forward(self, known: dict[Formula, Node], assumptions, d: int) -> None:
        o, ctx = self.o, self.ctx(assumptions)
        terms = self.terms(assumptions)
        queue = deque(known.values())
        # implications by antecedent, so modus ponens costs a lookup
        waiting: dict[Formula, list[Node]] = {}
        for n in known.values():
            if type(n.formula) is Impl:
                waiting.setdefault(n.formula.left, []).append(n)

        def modus_ponens(imp: Node, ant: Node, out: list[Node]) -> None:
            for refs in ((ant, imp), (imp, ant)):
                g = o.derive("IMPL_E", tuple(line(r.formula) for r in refs), d, ctx)
                if g is not None:
                    out.append(Node(g, "IMPL_E", refs, d))
                    return

        while queue and len(known) < 300:
            node = queue.popleft()
            f = node.formula
            out: list[Node] = []
            if type(f) is And:
                for rule in ("AND_E1", "AND_E2"):
                    g = o.derive(rule, (line(f),), d, ctx)
                    if g is not None:
                        out.append(Node(g, rule, (node,), d))
            elif type(f) is Not and type(f.body) is Not:
                g = o.derive("DNE", (line(f),), d, ctx)
                if g is not None:
                    out.append(Node(g, "DNE", (node,), d))
            elif type(f) is Forall:
                for t in terms:
                    g = self.instance(f, t)
                    if g.size <= 3 * f.size and o.applies("FORALL_E", (line(f),), g, d, ctx):
                        out.append(Node(g, "FORALL_E", (node,), d))
            elif type(f) is Impl and f.left in known:
                modus_ponens(node, known[f.left], out)
            for imp in waiting.get(f, ()):
                modus_ponens(imp, node, out)
            for n in out:
                if n.formula not in known:
                    known[n.formula] = n
                    queue.append(n)
                    if type(n.formula) is Impl:
                        waiting.setdefault(n.formula.left, []).append(n)

    def _instantiate(
        self, node: Node, goal: Formula, terms: list[Term], d: int, ctx: Context, depth: int
    ) -> Node | None:
        """`goal` by FORALL_E steps from `node` (nested universals, up to `depth`)."""
        f = node.formula
        if type(f) is not Forall or depth == 0:
            return None
        for t in terms:
            g = self.instance(f, t)
            if not self.o.applies("FORALL_E", (line(f),), g, d, ctx):
                continue
            step = Node(g, "FORALL_E", (node,), d)
            if g is goal:
                return step
            deeper = self._instantiate(step, goal, terms, d, ctx, depth - 1)
            if deeper is not None:
                return deeper
        return None

    # -- search -----------------------------------------------------------------

    def _tick(self) -> None:
        self.steps += 1
        if self.max_steps is not None and self.steps > self.max_steps:
            raise OutOfTime()
        if self.deadline is not None and self.steps % 256 == 0 and self.clock() > self.deadline:
            raise OutOfTime()

    def prove(
        self, assumptions: tuple[Formula, ...], goal: Formula, budget: int, lifted: bool
    ) -> Node | None:
        key = (assumptions, goal, lifted)
        got = self.proved.get(key)
        if got is not None:
            return got
        known = self.facts(assumptions)
        if goal in known:
            return known[goal]
        if budget <= 0 or self.failed.get(key, -1) >= budget:
            return None
        self._tick()
        node = self._strategies(assumptions, goal, budget - 1, lifted, known)
        if node is None:
            self.failed[key] = budget
        else:
            self.proved[key] = node
        return node

    def _strategies(self, A, goal, b, lifted, known) -> Node | None:
        o, d, ctx = self.o, len(A), self.ctx(A)
        sub = self.prove
        # introduction by the goal's shape
        t = type(goal)
        if t is And and o.allowed("AND_I"):
            if o.derive("AND_I", (line(goal.left), line(goal.right)), d, ctx) is goal:
                left = sub(A, goal.left, b, lifted)
                if left is not None:
                    right = sub(A, goal.right, b, lifted)
                    if right is not None:
                        return Node(goal, "AND_I", (left, right), d)
        elif t is Or:
            for rule, part in (
                ("OR_I1", goal.left),
                ("OR_I2", goal.right),
                ("OR_I1", goal.right),
                ("OR_I2", goal.left),
            ):
                if o.applies(rule, (line(part),), goal, d, ctx):
                    n = sub(A, part, b, lifted)
                    if n is not None:
                        return Node(goal, rule, (n,), d)
        elif t is Impl:
            if o.applies("IMPL_I", (box(goal.left, goal.right),), goal, d, ctx):
                n = sub(A + (goal.left,), goal.right, b, lifted)
                if n is not None:
                    return Node(goal, "IMPL_I", (BoxRef(goal.left, n, d + 1),), d)
        elif t is Not:
            if o.applies("NOT_I", (box(goal.body, BOT),), goal, d, ctx):
                n = sub(A + (goal.body,), BOT, b, lifted)
                if n is not None:
                    return Node(goal, "NOT_I", (BoxRef(goal.body, n, d + 1),), d)
        elif t is Forall:
            c = self.fresh(A, goal)
            inst = self.instance(goal, c)
            if o.applies("FORALL_I", (line(inst),), goal, d, ctx):
                n = sub(A, inst, b, lifted)
                if n is not None:
                    return Node(goal, "FORALL_I", (n,), d)
        elif t is Exists:
            for term in self.terms(A):
                inst = self.instance(goal, term)
                if o.applies("EXISTS_I", (line(inst),), goal, d, ctx):
                    n = sub(A, inst, b, lifted)
                    if n is not None:
                        return Node(goal, "EXISTS_I", (n,), d)
        elif t is Eq and goal.left is goal.right:
            if o.applies("EQ_I", (), goal, d, ctx):
                return Node(goal, "EQ_I", (), d)
        # eliminations aimed at the goal
        facts = list(known.values())
        goal_terms = [x for x in self.goal_terms(goal) if x not in self.terms(A)]
        if goal_terms and o.allowed("FORALL_E"):
            for n in facts:
                if type(n.formula) is Forall:
                    m = self._instantiate(n, goal, goal_terms + self.terms(A), d, ctx, 3)
                    if m is not None:
                        return m
        for n in facts:
            f = n.formula
            if type(f) is Impl and f.left not in known:
                for order in ((f.left, f), (f, f.left)):
                    if o.derive("IMPL_E", tuple(line(x) for x in order), d, ctx) is goal:
                        m = sub(A, f.left, b, lifted)
                        if m is not None:
                            return Node(goal, "IMPL_E", (m, n) if order[0] is f.left else (n, m), d)
                        break
        if t is Bot:
            for n in facts:
                f = n.formula
                if type(f) is Not:
                    for order in ((f.body, f), (f, f.body)):
                        if o.derive("NOT_E", tuple(line(x) for x in order), d, ctx) is BOT:
                            m = known.get(f.body) or sub(A, f.body, b, lifted)
                            if m is not None:
                                return Node(
                                    BOT, "NOT_E", (m, n) if order[0] is f.body else (n, m), d
                                )
                            break
        for n in facts:
            f = n.formula
            if type(f) is Or and f.left not in A and f.right not in A:
                if (
                    o.derive("OR_E", (line(f), box(f.left, goal), box(f.right, goal)), d, ctx)
                    is goal
                ):
                    left = sub(A + (f.left,), goal, b, lifted)
                    if left is not None:
                        right = sub(A + (f.right,), goal, b, lifted)
                        if right is not None:
                            return Node(
                                goal,
                                "OR_E",
                                (n, BoxRef(f.left, left, d + 1), BoxRef(f.right, right, d + 1)),
                                d,
                            )
            elif type(f) is Exists:
                c = self.fresh(A, goal, f)
                a = self.instance(f, c)
                if a not in A and o.derive("EXISTS_E", (line(f), box(a, goal)), d, ctx) is goal:
                    m = sub(A + (a,), goal, b, lifted)
                    if m is not None:
                        return Node(goal, "EXISTS_E", (n, BoxRef(a, m, d + 1)), d)
            elif type(f) is Eq and f.left is not f.right:
                for source in _unrewrites(goal, f.left, f.right):
                    if not any(
                        o.applies("EQ_E", order, goal, d, ctx)
                        for order in ((line(source), line(f)), (line(f), line(source)))
                    ):
                        continue
                    src = known.get(source) or sub(A, source, b, lifted)
                    if src is not None:
                        for refs in ((src, n), (n, src)):
                            if o.applies(
                                "EQ_E", tuple(line(r.formula) for r in refs), goal, d, ctx
                            ):
                                return Node(goal, "EQ_E", refs, d)
        if t is not Bot and o.allowed("BOT_E") and any(type(n.formula) is Not for n in facts):
            if o.applies("BOT_E", (line(BOT),), goal, d, ctx):
                m = sub(A, BOT, b, lifted)
                if m is not None:
                    return Node(goal, "BOT_E", (m,), d)
        if o.allowed("DNE") and t is not Bot and not (t is Not and type(goal.body) is Not):
            dn = Not(Not(goal))
            if o.derive("DNE", (line(dn),), d, ctx) is goal:
                m = sub(A, dn, b, lifted)
                if m is not None:
                    return Node(goal, "DNE", (m,), d)
        # where DNE cannot give the goal, excluded middle can: OR(goal,
        # NOT(goal)) by LEM, and the goal under NOT(goal) (by ex falso)
        if t is not Bot and Not(goal) not in A and self.excluded_middle:
            lem = self._excluded_middle(A, goal, b, lifted)
            if lem is not None:
                return lem
        # the goal at the top level instead (rules a world allows only there)
        for k in range(d - 1, -1, -1):
            m = self.prove(A[:k], goal, b, lifted)
            if m is not None:
                return m
        # the goal inside a box assuming a known formula, then IMPL_I and IMPL_E
        if self.lift_allowed and not lifted:
            for n in facts:
                x = n.formula
                if x in A or x is goal:
                    continue
                imp = Impl(x, goal)
                if not o.applies("IMPL_I", (box(x, goal),), imp, d, ctx):
                    continue
                for order in ((x, imp), (imp, x)):
                    if o.derive("IMPL_E", tuple(line(y) for y in order), d, ctx) is goal:
                        m = sub(A + (x,), goal, b, True)
                        if m is not None:
                            i = Node(imp, "IMPL_I", (BoxRef(x, m, d + 1),), d)
                            return Node(goal, "IMPL_E", (n, i) if order[0] is x else (i, n), d)
                        break
                break  # one lifting formula is enough to try
        # a helper lemma at a shallower level, where the goal's introduction
        # is allowed: IMPL(X, goal) proved there, with X an open assumption or
        # the conjunction of those opened since, then X here and modus ponens
        if t in (Impl, Not) and d >= 2 and not self._introducible(goal, d, ctx):
            for k in range(d - 2, -1, -1):
                if not self._introducible(goal, k + 1, self.ctx(A[: k + 1])):
                    continue
                for x in _lemma_antecedents(A[k:]):
                    lemma = Impl(x, goal)
                    for order in ((x, lemma), (lemma, x)):
                        if o.derive("IMPL_E", tuple(line(y) for y in order), d, ctx) is not goal:
                            continue
                        proof = sub(A[:k], lemma, b, lifted)
                        if proof is None:
                            break
                        have = sub(A, x, b, lifted)
                        if have is not None:
                            return Node(
                                goal, "IMPL_E", (have, proof) if order[0] is x else (proof, have), d
                            )
                        break
        return None

    def _excluded_middle(self, A, goal: Formula, b: int, lifted: bool) -> Node | None:
        """The goal by excluded middle: itself when it is an instance, else by
        cases on OR(goal, NOT(goal)), the first box the goal itself, the
        second proving it from NOT(goal). Tried only where DNE cannot derive
        the goal."""
        o, d, ctx = self.o, len(A), self.ctx(A)
        if o.derive("DNE", (line(Not(Not(goal))),), d, ctx) is goal:
            return None
        if type(goal) is Or and o.applies("LEM", (), goal, d, ctx):
            return Node(goal, "LEM", (), d)
        neg = Not(goal)
        lem = Or(goal, neg)
        if not o.applies("LEM", (), lem, d, ctx):
            return None
        if o.derive("OR_E", (line(lem), box(goal, goal), box(neg, goal)), d, ctx) is not goal:
            return None
        m = self.prove(A + (neg,), goal, b, lifted)
        if m is None:
            return None
        cases = (
            Node(lem, "LEM", (), d),
            BoxRef(goal, Node(goal, "hyp", (), d + 1), d + 1),
            BoxRef(neg, m, d + 1),
        )
        return Node(goal, "OR_E", cases, d)

    def _introducible(self, goal: Formula, depth: int, ctx: Context) -> bool:
        """Whether the introduction rule of an implication or negation may
        derive `goal` at `depth`."""
        if type(goal) is Impl:
            return self.o.applies("IMPL_I", (box(goal.left, goal.right),), goal, depth, ctx)
        return self.o.applies("NOT_I", (box(goal.body, BOT),), goal, depth, ctx)


def _lemma_antecedents(opened: tuple[Formula, ...]) -> list[Formula]:
    """What a helper lemma may assume: each assumption opened at or below its
    level (latest first), then all of them as one left-nested conjunction."""
    out = list(dict.fromkeys(reversed(opened)))
    if len(opened) > 1:
        conj = opened[0]
        for a in opened[1:]:
            conj = And(conj, a)
        out.append(conj)
    return out


def _unrewrites(goal: Formula, s: Term, t: Term) -> list[Formula]:
    """Formulas from which EQ_E with EQ(s, t) could give `goal`: the goal with
    every occurrence of t, or one of them, put back to s."""
    out: dict[Formula, None] = {}
    total = _replace(goal, t, s, None)
    if total is not goal:
        out[total] = None
    count = _count(goal, t)
    if count > 1:
        for i in range(count):
            out.setdefault(_replace(goal, t, s, [i]))
    return list(out)


def _count(node, t: Term) -> int:
    if node is t:
        return 1
    return sum(_count(c, t) for c in children(node))


def _replace(node, old: Term, new: Term, which: list[int] | None):
    """`node` with occurrences of `old` replaced by `new` (all, or the one
    whose index in left-to-right order is which[0]; which counts down)."""
    if node is old:
        if which is None:
            return new
        hit = which[0] == 0
        which[0] -= 1
        return new if hit else node
    kids = children(node)
    if not kids:
        return node
    if isinstance(node, Quantified):
        if node.var in old.free or node.var in new.free:
            return node
        return type(node)(node.var, _replace(node.body, old, new, which))
    if isinstance(node, (Pred, Fn)):
        return type(node)(node.name, tuple(_replace(c, old, new, which) for c in node.terms))
    return type(node)(*(_replace(c, old, new, which) for c in kids))


def _ground_terms(formulas) -> list[Term]:
    """The closed terms of `formulas`, smallest first (the order terms are tried)."""
    return sorted(ground_terms(formulas), key=lambda t: (t.size, str(t)))
