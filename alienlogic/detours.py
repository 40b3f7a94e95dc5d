"""Detours: classical rules derived from other rules, for worlds that refuse them.

The refutation stage writes proofs in the standard classical calculus. A
world may disable one of its rules or guard it with a side condition, yet
still derive the same step another way: excluded middle with a case
analysis replaces double-negation elimination and negation introduction,
and negation introduction with double-negation elimination gives excluded
middle. `route_around` rewrites a proof tree so that every step of a rule
the world disables that has a detour the world accepts is replaced by that
detour; with `guarded`, so is every step a side condition refuses (as
`Oracle` sees it: formulas and depth, layout aside). Steps without an
accepted detour stay as they are; the kernel then refuses the proof, so a
detour can never make a wrong proof look right.

Guarded steps are routed only on request: the knowledge-free strategies of
the validity battery run the prover in guarded calculi both ways (the
`-routed` styles route), and the main bank is balanced against both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .formulas import BOT, Formula, Not, Or
from .oracle import Context, Oracle, box, line
from .writeout import BoxRef, Node

# The rules each detour writes, so a world that disables one of them is
# known not to allow the detour before any proof is searched.
DETOUR_RULES: dict[str, tuple[str, ...]] = {
    "DNE": ("LEM", "OR_E", "NOT_E", "BOT_E"),
    "NOT_I": ("LEM", "OR_E", "BOT_E"),
    "LEM": ("DNE", "NOT_I", "NOT_E", "OR_I1", "OR_I2"),
}

# A detour's own steps may take one detour in turn (LEM's detour uses DNE
# and NOT_I, whose detours use LEM): one level is enough for the three
# rules, and the bound keeps the rewriting finite.
MAX_NESTING = 1


def routable(oracle: Oracle, rule: str) -> bool:
    """Whether `rule` is allowed, or has a detour whose rules are all allowed."""
    if oracle.allowed(rule):
        return True
    needed = DETOUR_RULES.get(rule)
    return needed is not None and all(oracle.allowed(r) for r in needed)


@dataclass
class _Router:
    oracle: Oracle
    ctx: Context
    guarded: bool  # route steps a side condition refuses, not only disabled rules

    def accepts(self, node: Node) -> bool:
        refs = tuple(
            box(r.assumption, r.body.formula) if isinstance(r, BoxRef) else line(r.formula)
            for r in node.refs
        )
        return self.oracle.applies(node.rule, refs, node.formula, node.depth, self.ctx)

    def step(self, node: Node, nesting: int) -> Node:
        """`node` itself when the world accepts it, else a detour it accepts
        (or `node` when there is none)."""
        build: Callable[[_Router, Node, int], Node | None] | None = _BUILDERS.get(node.rule)
        if build is None or nesting > MAX_NESTING:
            return node
        if self.oracle.allowed(node.rule) and (not self.guarded or self.accepts(node)):
            return node
        detour = build(self, node, nesting)
        return node if detour is None else detour

    def checked(self, node: Node, nesting: int) -> Node | None:
        """A new step of a detour, routed in turn; None when refused."""
        got = self.step(node, nesting + 1)
        return got if got is not node or self.accepts(node) else None

    def dne(self, node: Node, nesting: int) -> Node | None:
        # NOT(NOT(A)) ⊢ A: OR(A, NOT(A)) by LEM; case A: A; case NOT(A):
        # BOT from NOT(A) and NOT(NOT(A)), then A by BOT_E.
        (source,) = node.refs
        a, d = node.formula, node.depth
        lem = self.checked(Node(Or(a, Not(a)), "LEM", (), d), nesting)
        if lem is None:
            return None
        hyp_not = Node(Not(a), "hyp", (), d + 1)
        bot = self.checked(Node(BOT, "NOT_E", (hyp_not, source), d + 1), nesting)
        if bot is None:
            bot = self.checked(Node(BOT, "NOT_E", (source, hyp_not), d + 1), nesting)
        if bot is None:
            return None
        back = self.checked(Node(a, "BOT_E", (bot,), d + 1), nesting)
        if back is None:
            return None
        cases = (lem, BoxRef(a, Node(a, "hyp", (), d + 1), d + 1), BoxRef(Not(a), back, d + 1))
        return self.checked(Node(a, "OR_E", cases, d), nesting)

    def not_i(self, node: Node, nesting: int) -> Node | None:
        # a box A ... BOT ⊢ NOT(A): OR(A, NOT(A)) by LEM; case A: the box's
        # BOT, then NOT(A) by BOT_E; case NOT(A): NOT(A).
        (refuted,) = node.refs
        a, d = refuted.assumption, node.depth
        lem = self.checked(Node(Or(a, Not(a)), "LEM", (), d), nesting)
        if lem is None:
            return None
        back = self.checked(Node(Not(a), "BOT_E", (refuted.body,), d + 1), nesting)
        if back is None:
            return None
        cases = (lem, BoxRef(a, back, d + 1), BoxRef(Not(a), Node(Not(a), "hyp", (), d + 1), d + 1))
        return self.checked(Node(Not(a), "OR_E", cases, d), nesting)

    def lem(self, node: Node, nesting: int) -> Node | None:
        # ⊢ OR(A, NOT(A)): assume NOT(OR(A, NOT(A))); inside, assume A, get
        # OR(A, NOT(A)) and BOT, so NOT(A); then OR(A, NOT(A)) again and BOT;
        # NOT_I and DNE.
        disj, d = node.formula, node.depth
        if type(disj) is not Or or disj.right is not Not(disj.left):
            return None
        a, denial = disj.left, Not(disj)
        outer = Node(denial, "hyp", (), d + 1)
        inner = Node(a, "hyp", (), d + 2)
        first = self.checked(Node(disj, "OR_I1", (inner,), d + 2), nesting)
        if first is None:
            return None
        clash = self.checked(Node(BOT, "NOT_E", (first, outer), d + 2), nesting)
        if clash is None:
            return None
        not_a = self.checked(Node(Not(a), "NOT_I", (BoxRef(a, clash, d + 2),), d + 1), nesting)
        if not_a is None:
            return None
        second = self.checked(Node(disj, "OR_I2", (not_a,), d + 1), nesting)
        if second is None:
            return None
        bot = self.checked(Node(BOT, "NOT_E", (second, outer), d + 1), nesting)
        if bot is None:
            return None
        nn = self.checked(Node(Not(denial), "NOT_I", (BoxRef(denial, bot, d + 1),), d), nesting)
        if nn is None:
            return None
        return self.checked(Node(disj, "DNE", (nn,), d), nesting)


_BUILDERS = {"DNE": _Router.dne, "NOT_I": _Router.not_i, "LEM": _Router.lem}


def route_around(
    root: Node, oracle: Oracle, premises: tuple[Formula, ...], guarded: bool = False
) -> Node:
    """The proof tree with every step of a disabled rule (and with `guarded`,
    every step a side condition refuses) that has an accepted detour
    replaced by it; shared subtrees stay shared."""
    router = _Router(oracle, Context.of(premises), guarded)
    done: dict[int, Node] = {}
    # children before parents, without recursion (trees can be deep)
    order: list[Node] = []
    seen: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, ready = stack.pop()
        if ready:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        for r in node.refs:
            stack.append((r.body if isinstance(r, BoxRef) else r, False))
    for node in order:
        refs = tuple(
            BoxRef(r.assumption, done[id(r.body)], r.depth)
            if isinstance(r, BoxRef)
            else done[id(r)]
            for r in node.refs
        )
        done[id(node)] = router.step(Node(node.formula, node.rule, refs, node.depth), 0)
    return done[id(root)]
