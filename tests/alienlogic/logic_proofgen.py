"""Random proofs built by forward application of the standard rules.

Every step the generator writes follows a rule of the standard calculus, so
its proofs are accepted (a test checks that), and they are plentiful
material for the soundness property. To test the refusals, `reckless` makes
the generator break a side condition now and then the way a lax checker
would allow (reach into closed boxes, span sibling boxes, reuse a constant
as a fresh one, instantiate with capture), `mutate` breaks one step at
random and `rederive` re-cites one step anywhere; whatever the checker
accepts of all that must still be sound.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from alienlogic import (
    BOT,
    And,
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
    Proof,
    Step,
)
from alienlogic.formulas import Node, children
from alienlogic.proof import Citation
from alienlogic.rules import RULES, Ref
from alienlogic.substitution import substitute
from alienlogic.verdict import Rejection

ATOMS = ("p", "q", "r")
PREDICATES = ("P", "Q")
CONSTANTS = ("a", "b")
VARIABLES = ("x", "y", "z")
MAX_SIZE = 14
MAX_FRESH = 1  # witnesses of EXISTS_E beyond a, b (each multiplies the models to try)


@dataclass
class _Box:
    start: int
    kind: str = "plain"  # plain | exists | or_left | or_right
    info: tuple = ()
    lines: list[int] = field(default_factory=list)


def _names(node: Node) -> set[str]:
    """Every name in `node`, bound variables included."""
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if type(n) is Name:
            out.add(n.name)
        elif type(n) in (Forall, Exists):
            out.add(n.var)
        stack.extend(children(n))
    return out


def _replace_some(node: Node, old: Name, new: Node, rng: random.Random) -> Node:
    """`node` with a random selection of the occurrences of `old` replaced."""
    if node is old:
        return new if rng.random() < 0.7 else node
    kids = children(node)
    if not kids:
        return node
    cls = type(node)
    rebuilt = tuple(_replace_some(k, old, new, rng) for k in kids)
    if cls is Pred or cls is Fn:
        return cls(node.name, rebuilt)
    if cls in (Forall, Exists):
        return cls(node.var, rebuilt[0])
    return cls(*rebuilt)


def _naive_substitute(node: Node, var: str, term: Name) -> Node:
    """Substitution that lets quantifiers capture `term` (deliberately wrong)."""
    cls = type(node)
    if cls is Name:
        return term if node.name == var else node
    if cls in (Forall, Exists):
        return node if node.var == var else cls(node.var, _naive_substitute(node.body, var, term))
    kids = tuple(_naive_substitute(k, var, term) for k in children(node))
    if cls is Pred or cls is Fn:
        return cls(node.name, kids)
    return cls(*kids) if kids else node


class ProofGen:
    def __init__(self, rng: random.Random, first_order: bool, reckless: float = 0.0) -> None:
        self.rng = rng
        self.reckless = reckless
        self.closed: list[int] = []  # lines of closed boxes
        self.previous_sibling: dict[
            int, int
        ] = {}  # depth -> first line of a sibling box closed there
        self.fo = first_order
        self.constants = list(CONSTANTS[: rng.randint(1, 2)]) if first_order else []
        self.fresh = 0
        self.premises = [self.formula(2) for _ in range(rng.randint(0, 3))]
        self.asserted: dict[Formula, int] = {}
        self.steps: list[Step] = []
        self.boxes = [_Box(0, "top")]

    # -- random formulas ------------------------------------------------------

    def term(self, scope: list[str]) -> Name:
        pool = self.constants + scope
        return Name(self.rng.choice(pool))

    def atom(self, scope: list[str]) -> Formula:
        rng = self.rng
        if rng.random() < 0.08:
            return BOT
        if not self.fo:
            return Pred(rng.choice(ATOMS))
        if rng.random() < 0.15:
            return Eq(self.term(scope), self.term(scope))
        return Pred(rng.choice(PREDICATES), (self.term(scope),))

    def formula(self, depth: int, scope: list[str] | None = None) -> Formula:
        scope = scope or []
        rng = self.rng
        if depth <= 0 or rng.random() < 0.35:
            return self.atom(scope)
        kinds = ["not", "and", "or", "impl"] + (["forall", "exists"] if self.fo else [])
        kind = rng.choice(kinds)
        if kind == "not":
            return Not(self.formula(depth - 1, scope))
        if kind in ("forall", "exists"):
            var = rng.choice(VARIABLES)
            cls = Forall if kind == "forall" else Exists
            return cls(var, self.formula(depth - 1, scope + [var]))
        cls = {"and": And, "or": Or, "impl": Impl}[kind]
        return cls(self.formula(depth - 1, scope), self.formula(depth - 1, scope))

    # -- the proof being written ----------------------------------------------

    @property
    def depth(self) -> int:
        return len(self.boxes) - 1

    def risk(self) -> bool:
        """Whether to break a side condition this time (reckless mode)."""
        return self.reckless > 0 and self.rng.random() < self.reckless

    def accessible(self) -> list[int]:
        lines = [n for box in self.boxes for n in box.lines]
        if self.closed and self.risk():
            lines.append(self.rng.choice(self.closed))
        return lines

    def pop_box(self) -> _Box:
        box = self.boxes.pop()
        self.closed.extend(box.lines)
        return box

    def f(self, n: int) -> Formula:
        return self.steps[n - 1].formula

    def emit(self, formula: Formula, rule: str, *cites: Citation) -> int:
        n = len(self.steps) + 1
        self.steps.append(Step(n, self.depth, formula, rule, tuple(cites)))
        self.boxes[-1].lines.append(n)
        return n

    def open_box(self, formula: Formula, kind: str = "plain", info: tuple = ()) -> int:
        self.boxes.append(_Box(len(self.steps) + 1, kind, info))
        return self.emit(formula, "assume")

    def pick(self, test) -> int | None:
        found = [n for n in self.accessible() if test(self.f(n))]
        return self.rng.choice(found) if found else None

    # -- actions: each writes one or more steps, or returns False -------------

    def premise(self) -> bool:
        left = [p for p in self.premises if self.asserted.get(p, 0) < self.premises.count(p)]
        if not left:
            return False
        p = self.rng.choice(left)
        self.asserted[p] = self.asserted.get(p, 0) + 1
        self.emit(p, "premise")
        return True

    def assume(self) -> bool:
        rng = self.rng
        choice = rng.random()
        impl = self.pick(lambda f: type(f) is Impl)
        if choice < 0.3 and impl:
            self.open_box(self.f(impl).left)
        elif choice < 0.5 and self.accessible():
            self.open_box(Not(self.f(rng.choice(self.accessible()))))
        else:
            self.open_box(self.formula(2))
        return True

    def close(self) -> bool:
        if self.depth == 0:
            return False
        box = self.boxes[-1]
        last = len(self.steps)
        start = box.start
        if box.kind == "plain" and self.depth in self.previous_sibling and self.risk():
            start = self.previous_sibling[self.depth]  # a range over two sibling boxes
        span = Citation(start, last, True)
        if box.kind == "or_left":
            return self.or_right(box, last)
        self.pop_box()
        if box.kind == "exists":
            ex_line, witness = box.info
            if witness not in self.f(last).free or self.risk():
                self.emit(self.f(last), "EXISTS_E", Citation(ex_line, ex_line), span)
                return True
        if box.kind == "or_right":
            or_line, left_span = box.info
            self.emit(self.f(last), "OR_E", Citation(or_line, or_line), left_span, span)
            return True
        if self.f(last) is BOT and self.rng.random() < 0.7:
            self.emit(Not(self.f(start)), "NOT_I", span)
        else:
            self.emit(Impl(self.f(start), self.f(last)), "IMPL_I", span)
        return True

    def sibling(self) -> bool:
        """Abandon the current plain box by opening a sibling at its depth."""
        if self.depth == 0 or self.boxes[-1].kind != "plain":
            return False
        depth = self.depth
        first = self.previous_sibling[depth] = self.pop_box().start
        start = self.open_box(self.formula(2))
        if self.risk():  # discharge both siblings at once: IMPL(first assumption, second)
            self.pop_box()
            self.emit(Impl(self.f(first), self.f(start)), "IMPL_I", Citation(first, start, True))
        return True

    def or_left(self) -> bool:
        n = self.pick(lambda f: type(f) is Or)
        if n is None:
            return False
        self.open_box(self.f(n).left, "or_left", (n,))
        return True

    def or_right(self, box: _Box, last: int) -> bool:
        (or_line,) = box.info
        disj = self.f(or_line)
        chi = self.f(last)
        outside = [k for b in self.boxes[:-1] for k in b.lines if self.f(k) is chi]
        self.pop_box()
        left_span = Citation(box.start, last, True)
        if outside:
            start = self.open_box(disj.right, "or_right", (or_line, left_span))
            self.emit(chi, "reit", Citation(outside[0], outside[0]))
        else:
            # End the left box with OR(χ, ψ) instead, which the right box reaches by OR_I2.
            self.boxes.append(box)
            target = Or(chi, disj.right)
            end = self.emit(target, "OR_I1", Citation(last, last))
            self.pop_box()
            left_span = Citation(box.start, end, True)
            start = self.open_box(disj.right, "or_right", (or_line, left_span))
            self.emit(target, "OR_I2", Citation(start, start))
        return self.close()

    def exists_box(self) -> bool:
        n = self.pick(lambda f: type(f) is Exists)
        if n is None or self.fresh >= MAX_FRESH:
            return False
        if self.risk():
            witness = self.rng.choice(self.constants)
        else:
            self.fresh += 1
            witness = f"c{self.fresh}"
            self.constants.append(witness)
        ex = self.f(n)
        self.open_box(substitute(ex.body, ex.var, Name(witness)), "exists", (n, witness))
        return True

    def one_line(self, rule: str) -> bool:
        rng, pick, f = self.rng, self.pick, self.f
        if rule == "reit":
            n = pick(lambda g: True)
            return n is not None and bool(self.emit(f(n), "reit", Citation(n, n)))
        if rule == "AND_I":
            acc = self.accessible()
            if not acc:
                return False
            a, b = rng.choice(acc), rng.choice(acc)
            g = And(f(a), f(b))
            return g.size <= MAX_SIZE and bool(
                self.emit(g, "AND_I", Citation(a, a), Citation(b, b))
            )
        if rule in ("AND_E1", "AND_E2"):
            n = pick(lambda g: type(g) is And)
            if n is None:
                return False
            return bool(
                self.emit(f(n).left if rule == "AND_E1" else f(n).right, rule, Citation(n, n))
            )
        if rule in ("OR_I1", "OR_I2"):
            n = pick(lambda g: g.size < MAX_SIZE - 2)
            if n is None:
                return False
            other = self.formula(1)
            g = Or(f(n), other) if rule == "OR_I1" else Or(other, f(n))
            return bool(self.emit(g, rule, Citation(n, n)))
        if rule == "IMPL_E":
            acc = self.accessible()
            for n in rng.sample(acc, len(acc)):
                g = f(n)
                if type(g) is Impl:
                    m = pick(lambda h: h is g.left)
                    if m is not None:
                        order = (Citation(n, n), Citation(m, m))
                        return bool(
                            self.emit(
                                g.right, "IMPL_E", *(order if rng.random() < 0.5 else order[::-1])
                            )
                        )
            return False
        if rule == "NOT_E":
            for n in self.accessible():
                g = f(n)
                if type(g) is Not:
                    m = pick(lambda h: h is g.body)
                    if m is not None:
                        return bool(self.emit(BOT, "NOT_E", Citation(n, n), Citation(m, m)))
            return False
        if rule == "BOT_E":
            n = pick(lambda g: g is BOT)
            return n is not None and bool(self.emit(self.formula(2), "BOT_E", Citation(n, n)))
        if rule == "DNE":
            n = pick(lambda g: type(g) is Not and type(g.body) is Not)
            return n is not None and bool(self.emit(f(n).body.body, "DNE", Citation(n, n)))
        if rule == "LEM":
            g = self.formula(1)
            return bool(self.emit(Or(g, Not(g)), "LEM"))
        return self.first_order_line(rule) if self.fo else False

    def first_order_line(self, rule: str) -> bool:
        rng, pick, f = self.rng, self.pick, self.f
        if rule == "EQ_I":
            t = Name(rng.choice(self.constants))
            return bool(self.emit(Eq(t, t), "EQ_I"))
        if rule == "FORALL_E":
            n = pick(lambda g: type(g) is Forall)
            if n is None:
                return False
            g = f(n)
            if self.risk():
                instance = _naive_substitute(g.body, g.var, Name(rng.choice(VARIABLES)))
            else:
                instance = substitute(g.body, g.var, Name(rng.choice(self.constants)))
            return bool(self.emit(instance, "FORALL_E", Citation(n, n)))
        if rule in ("EXISTS_I", "FORALL_I"):
            n = pick(lambda g: any(c in g.free for c in self.constants))
            if n is None:
                return False
            g = f(n)
            c = rng.choice([c for c in self.constants if c in g.free])
            spare = [v for v in VARIABLES if v not in _names(g)]
            if not spare:
                return False
            v = rng.choice(spare)
            if rule == "EXISTS_I":
                return bool(
                    self.emit(
                        Exists(v, _replace_some(g, Name(c), Name(v), rng)),
                        "EXISTS_I",
                        Citation(n, n),
                    )
                )
            blocked = set().union(
                *(p.free for p in self.premises), *(self.f(b.start).free for b in self.boxes[1:])
            )
            if c in blocked and not self.risk():
                return False
            return bool(self.emit(Forall(v, substitute(g, c, Name(v))), "FORALL_I", Citation(n, n)))
        if rule == "EQ_E":
            e = pick(lambda g: type(g) is Eq)
            if e is None:
                return False
            eq = f(e)
            n = pick(lambda g: eq.left.name in g.free)
            if n is None:
                return False
            g = _replace_some(f(n), eq.left, eq.right, rng)
            cites = (Citation(e, e), Citation(n, n))
            return bool(self.emit(g, "EQ_E", *(cites if rng.random() < 0.5 else cites[::-1])))
        return False

    # -- driver -----------------------------------------------------------------

    def run(self, n_steps: int) -> Proof:
        rng = self.rng
        actions = [
            (self.premise, 3),
            (self.assume, 2),
            (self.close, 2),
            (self.sibling, 1.5 if self.reckless else 0.3),
            (self.or_left, 0.7),
            (self.exists_box, 1 if self.fo else 0),
        ]
        lines = [
            "reit",
            "AND_I",
            "AND_E1",
            "AND_E2",
            "OR_I1",
            "OR_I2",
            "IMPL_E",
            "NOT_E",
            "BOT_E",
            "DNE",
            "LEM",
        ]
        if self.fo:
            lines += ["EQ_I", "FORALL_E", "EXISTS_I", "FORALL_I", "EQ_E", "FORALL_E", "EXISTS_I"]
        for name in lines:
            actions.append((lambda name=name: self.one_line(name), 1))
        weights = [w for _, w in actions]
        attempts = 0
        while len(self.steps) < n_steps and attempts < n_steps * 20:
            attempts += 1
            act = rng.choices(actions, weights)[0][0]
            act()
        while self.depth > 0:
            self.close()
        if not self.steps:
            self.emit(Or(Pred("p"), Not(Pred("p"))), "LEM")
        return Proof(tuple(self.premises), self.steps[-1].formula, tuple(self.steps))


def generate(seed: int, first_order: bool, n_steps: int = 14, reckless: float = 0.0) -> Proof:
    return ProofGen(random.Random(seed), first_order, reckless).run(n_steps)


def mutate(proof: Proof, seed: int) -> Proof:
    """`proof` with one step changed at random (a citation, a depth, a
    formula or a rule), or a step dropped or repeated."""
    rng = random.Random(seed)
    steps = list(proof.steps)
    if not steps:
        return proof
    i = rng.randrange(len(steps))
    s = steps[i]
    kind = rng.choice(["cite", "cite", "depth", "formula", "rule", "drop", "repeat", "range"])
    if kind == "cite" and s.citations:
        j = rng.randrange(len(s.citations))
        c = s.citations[j]
        k = max(1, c.first + rng.choice([-2, -1, 1, 2]))
        new = (
            Citation(k, k)
            if not c.is_range
            else Citation(k, max(k, c.last + rng.choice([-1, 0, 1])), True)
        )
        steps[i] = replace(s, citations=s.citations[:j] + (new,) + s.citations[j + 1 :])
    elif kind == "range" and s.citations:
        a, b = sorted(rng.randint(1, i + 1) for _ in range(2))
        j = rng.randrange(len(s.citations))
        steps[i] = replace(
            s, citations=s.citations[:j] + (Citation(a, b, True),) + s.citations[j + 1 :]
        )
    elif kind == "depth":
        steps[i] = replace(s, depth=max(0, s.depth + rng.choice([-1, 1])))
    elif kind == "formula":
        other = steps[rng.randrange(len(steps))].formula
        steps[i] = replace(s, formula=rng.choice([other, Not(s.formula), BOT]))
    elif kind == "rule":
        steps[i] = replace(s, rule=rng.choice(list(RULES)))
    elif kind in ("drop", "repeat"):
        if kind == "drop":
            del steps[i]
        else:
            steps.insert(i, s)
        steps = [replace(t, number=n) for n, t in enumerate(steps, start=1)]
    if not steps:
        return proof
    return Proof(
        proof.premises, steps[-1].formula if steps[-1].depth == 0 else proof.goal, tuple(steps)
    )


class _Permissive:
    """A proof context that lets every premise and constant through, so that
    `rederive` can compute what a rule would derive from any citations."""

    def premise_uses(self, formula):
        return 1, 1

    def occurs(self, name):
        return None


def rederive(proof: Proof, seed: int) -> Proof:
    """`proof` with one step given new citations, chosen among all earlier
    lines and ranges whether reachable or not, and the formula its rule
    derives from them: a proof whose only faults are in the box structure."""
    rng = random.Random(seed)
    steps = list(proof.steps)
    candidates = [i for i, s in enumerate(steps) if RULES[s.rule].citations and i > 0]
    if not candidates:
        return proof
    i = rng.choice(candidates)
    s = steps[i]
    rule = RULES[s.rule]
    cites, refs = [], []
    for kind in rule.citations:
        if kind == "box":
            a = rng.randint(1, i)
            b = rng.randint(a, i)
            cites.append(Citation(a, b, True))
            refs.append(Ref(a, b, steps[a - 1].formula, steps[b - 1].formula, True))
        else:
            k = rng.randint(1, i)
            cites.append(Citation(k, k))
            refs.append(Ref(k, k, steps[k - 1].formula, steps[k - 1].formula))
    try:
        derived = rule.check(tuple(refs), _Permissive())
    except Rejection:
        return proof
    formula = derived if isinstance(derived, Formula) else s.formula
    steps[i] = replace(s, formula=formula, citations=tuple(cites))
    if rng.random() < 0.3:
        steps[i] = replace(steps[i], depth=max(0, s.depth + rng.choice([-1, 1])))
    last = steps[-1]
    return Proof(proof.premises, last.formula if last.depth == 0 else proof.goal, tuple(steps))
