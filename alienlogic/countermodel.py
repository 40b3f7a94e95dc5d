"""Checked countermodels: the only ground for saying "not a consequence".

A countermodel of premises ⊢ goal is a finite interpretation in which every
premise holds and the goal does not. The prover claims that a theorem is not
a classical consequence only with one in hand, and only after
`semantics.holds` — an evaluator that shares no code with the prover's
solver, tableau or grounding — has confirmed it. A search that fails, or a
model the evaluator refuses, leaves the question open.

Propositional theorems get their model from the solver's satisfying
assignment. First-order ones are looked for in small domains: the theorem is
grounded over {0, ..., n-1} (each quantifier becomes a conjunction or
disjunction of its instances) for each way to name elements by the
constants (up to renaming elements) and each set of function tables, and
the solver decides the ground formulas. The search counts the nodes it
builds and stops at `budget`, so its outcome depends on the input alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import product

from .formulas import BOT, And, Bot, Eq, Forall, Formula, Impl, Name, Not, Or, Pred, Term
from .sat import solve
from .semantics import Interpretation, Signature, holds, signature

# Nodes a first-order countermodel search may build at most: enough for the
# small theorems of banks and tests, cut short on large ones (which are then
# left undecided).
SEARCH_BUDGET = 200_000
MAX_DOMAIN = 4

_TRUE = Not(BOT)


class OverBudget(Exception):
    """The countermodel search has built `budget` nodes."""


@dataclass(frozen=True)
class Countermodel:
    """A finite interpretation verified to make the premises true and the goal false."""

    model: Interpretation

    def describe(self) -> str:
        m = self.model
        sig_atoms = sorted(m.predicates)
        if (
            m.size == 1
            and not m.constants
            and not m.functions
            and all(arity == 0 for _, arity in sig_atoms)
        ):
            parts = [
                f"{name} {'true' if m.predicates[(name, 0)] else 'false'}" for name, _ in sig_atoms
            ]
            return ", ".join(parts) or "no atoms"
        parts = [f"domain {{{', '.join(str(i) for i in range(m.size))}}}"]
        parts += [f"{c} = {v}" for c, v in sorted(m.constants.items())]
        for (name, _arity), table in sorted(m.functions.items()):
            parts.append(
                f"{name} = {{{', '.join(f'{_tuple(k)}: {v}' for k, v in sorted(table.items()))}}}"
            )
        for (name, arity), rows in sorted(m.predicates.items()):
            if arity == 0:
                parts.append(f"{name} {'true' if rows else 'false'}")
            else:
                parts.append(f"{name} = {{{', '.join(_tuple(r) for r in sorted(rows))}}}")
        return "; ".join(parts)


def _tuple(row: tuple[int, ...]) -> str:
    return str(row[0]) if len(row) == 1 else "(" + ", ".join(map(str, row)) + ")"


def verified(
    premises: Sequence[Formula], goal: Formula, model: Interpretation
) -> Countermodel | None:
    """`model` as a countermodel, if the independent evaluator confirms it."""
    sig = signature((*premises, goal))
    if (
        any(c not in model.constants for c in sig.constants)
        or any(p not in model.predicates for p in sig.predicates)
        or any(f not in model.functions for f in sig.functions)
    ):
        return None
    try:
        if all(holds(p, model) for p in premises) and not holds(goal, model):
            return Countermodel(model)
    except (KeyError, IndexError):
        pass  # a model the evaluator cannot read (a function table with a gap) is no countermodel
    return None


def propositional(
    premises: Sequence[Formula], goal: Formula, true_atoms: frozenset[Formula]
) -> Countermodel | None:
    """The valuation making `true_atoms` true (and every other atom false),
    if it is a countermodel; the atoms must be propositional letters."""
    sig = signature((*premises, goal))
    if sig.constants or sig.functions or any(arity for _, arity in sig.predicates):
        return None
    rows = {
        (name, 0): frozenset({()}) if Pred(name) in true_atoms else frozenset()
        for name, _ in sig.predicates
    }
    return verified(premises, goal, Interpretation(1, {}, {}, rows))


def search(
    premises: Sequence[Formula],
    goal: Formula,
    max_size: int = MAX_DOMAIN,
    budget: int = SEARCH_BUDGET,
    stop: Callable[[], None] | None = None,
) -> Countermodel | None:
    """A countermodel with at most `max_size` elements, or None (none there,
    or not found within `budget` nodes). `stop` is called every 1024 nodes
    and may raise to end the search (a caller's time limit)."""
    sig = signature((*premises, goal))
    counter = _Budget(budget, stop)
    try:
        for size in range(1, max_size + 1):
            for consts in _namings(len(sig.constants), size, counter):
                for tables in _function_tables(sig, size, counter):
                    found = _solve_ground(
                        premises, goal, sig, size, dict(zip(sig.constants, consts)), tables, counter
                    )
                    if found is not None:
                        return found
    except OverBudget:
        return None
    return None


class _Budget:
    def __init__(self, limit: int, stop: Callable[[], None] | None) -> None:
        self.left = limit
        self.stop = stop
        self.next_call = limit - 1024

    def spend(self, n: int = 1) -> None:
        self.left -= n
        if self.left < 0:
            raise OverBudget()
        if self.left <= self.next_call:
            self.next_call = self.left - 1024
            if self.stop is not None:
                self.stop()


def _namings(count: int, size: int, counter: _Budget) -> Iterator[tuple[int, ...]]:
    """Values of `count` constants in a domain of `size`, one per pattern of
    equalities (elements are interchangeable): each constant names an
    element already named or the next unnamed one. Iterative, and each
    prefix is paid for: a theorem may name thousands of constants."""
    stack: list[tuple[tuple[int, ...], int]] = [((), 0)]
    while stack:
        prefix, used = stack.pop()
        counter.spend(1 + len(prefix))
        if len(prefix) == count:
            yield prefix
            continue
        for v in reversed(range(min(used + 1, size))):
            stack.append((prefix + (v,), max(used, v + 1)))


def _function_tables(sig: Signature, size: int, counter: _Budget) -> Iterator[dict]:
    domain = range(size)
    keys = [list(product(domain, repeat=arity)) for _, arity in sig.functions]
    for values in product(*(product(domain, repeat=len(k)) for k in keys)):
        counter.spend()
        yield {sym: dict(zip(k, v)) for sym, k, v in zip(sig.functions, keys, values)}


def _solve_ground(
    premises,
    goal,
    sig: Signature,
    size: int,
    consts: dict[str, int],
    tables: dict,
    counter: _Budget,
) -> Countermodel | None:
    ground = _Grounder(size, consts, tables, counter)
    formulas = [ground.formula(p, {}) for p in premises] + [Not(ground.formula(goal, {}))]
    outcome = solve(formulas)
    counter.spend(sum(f.size for f in formulas))
    if not outcome.satisfiable:
        return None
    rows: dict[tuple[str, int], frozenset[tuple[int, ...]]] = {}
    for name, arity in sig.predicates:
        rows[(name, arity)] = frozenset(
            args
            for args in product(range(size), repeat=arity)
            if ground.atom(name, args) in outcome.model
        )
    return verified(premises, goal, Interpretation(size, consts, tables, rows))


class _Grounder:
    """A formula with every quantifier expanded over the domain and every
    term evaluated; ground atoms are predicates applied to element names
    ("@0", "@1", ...: no input name starts with "@")."""

    def __init__(self, size: int, consts: dict[str, int], tables: dict, counter: _Budget) -> None:
        self.size = size
        self.consts = consts
        self.tables = tables
        self.counter = counter
        self.elements = tuple(Name(f"@{i}") for i in range(size))

    def atom(self, name: str, args: tuple[int, ...]) -> Formula:
        return Pred(name, tuple(self.elements[a] for a in args))

    def term(self, t: Term, env: dict[str, int]) -> int:
        if type(t) is Name:
            return env[t.name] if t.name in env else self.consts[t.name]
        args = tuple(self.term(a, env) for a in t.terms)
        return self.tables[(t.name, len(args))][args]

    def formula(self, f: Formula, env: dict[str, int]) -> Formula:
        self.counter.spend()
        cls = type(f)
        if cls is Bot:
            return BOT
        if cls is Pred:
            return self.atom(f.name, tuple(self.term(t, env) for t in f.terms))
        if cls is Eq:
            return _TRUE if self.term(f.left, env) == self.term(f.right, env) else BOT
        if cls is Not:
            return Not(self.formula(f.body, env))
        if cls is And or cls is Or or cls is Impl:
            return cls(self.formula(f.left, env), self.formula(f.right, env))
        join = And if cls is Forall else Or
        out = self.formula(f.body, {**env, f.var: 0})
        for d in range(1, self.size):
            out = join(out, self.formula(f.body, {**env, f.var: d}))
        return out
