"""Truth of formulas in finite interpretations.

Used to test the checker's soundness (every accepted line holds wherever the
premises and its open assumptions hold) and, later, for countermodels. Free
names in terms are constants; predicates and functions are symbols of a
given arity, so `P(a)` and `P(a, b)` use different symbols. Domains are
`range(size)` and never empty.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import product

from .formulas import (
    And,
    Bot,
    Eq,
    Exists,
    Fn,
    Forall,
    Formula,
    Impl,
    Name,
    Node,
    Not,
    Or,
    Pred,
    Term,
    children,
)


@dataclass(frozen=True)
class Signature:
    constants: tuple[str, ...]
    functions: tuple[tuple[str, int], ...]
    predicates: tuple[tuple[str, int], ...]  # arity 0: a propositional atom


@dataclass(frozen=True)
class Interpretation:
    size: int
    constants: Mapping[str, int]
    functions: Mapping[tuple[str, int], Mapping[tuple[int, ...], int]]
    predicates: Mapping[tuple[str, int], frozenset[tuple[int, ...]]]


def signature(formulas: Iterable[Formula]) -> Signature:
    """The symbols `formulas` use; names free in them count as constants."""
    constants: set[str] = set()
    functions: set[tuple[str, int]] = set()
    predicates: set[tuple[str, int]] = set()

    def visit(node: Node, bound: frozenset[str]) -> None:
        cls = type(node)
        if cls is Name:
            if node.name not in bound:
                constants.add(node.name)
            return
        if cls is Fn:
            functions.add((node.name, len(node.terms)))
        elif cls is Pred:
            predicates.add((node.name, len(node.terms)))
        elif cls is Forall or cls is Exists:
            visit(node.body, bound | {node.var})
            return
        for child in children(node):
            visit(child, bound)

    for f in formulas:
        visit(f, frozenset())
    return Signature(tuple(sorted(constants)), tuple(sorted(functions)), tuple(sorted(predicates)))


def interpretations(
    sig: Signature, max_size: int = 3, min_size: int = 1
) -> Iterator[Interpretation]:
    """Every interpretation of `sig` over domains of min_size..max_size elements."""
    for n in range(min_size, max_size + 1):
        domain = range(n)
        fn_tables = [list(product(domain, repeat=n**arity)) for _, arity in sig.functions]
        pred_sets = [list(product((False, True), repeat=n**arity)) for _, arity in sig.predicates]
        for consts in product(domain, repeat=len(sig.constants)):
            for fns in product(*fn_tables):
                for preds in product(*pred_sets):
                    yield Interpretation(
                        n,
                        dict(zip(sig.constants, consts)),
                        {
                            sym: dict(zip(product(domain, repeat=sym[1]), table))
                            for sym, table in zip(sig.functions, fns)
                        },
                        {
                            sym: frozenset(
                                t for t, bit in zip(product(domain, repeat=sym[1]), bits) if bit
                            )
                            for sym, bits in zip(sig.predicates, preds)
                        },
                    )


def value(term: Term, m: Interpretation, env: Mapping[str, int]) -> int:
    if type(term) is Name:
        return env[term.name] if term.name in env else m.constants[term.name]
    args = tuple(value(t, m, env) for t in term.terms)
    return m.functions[(term.name, len(args))][args]


def holds(f: Formula, m: Interpretation, env: Mapping[str, int] | None = None) -> bool:
    """Whether `f` is true in `m` with the variables of `env` assigned."""
    env = env or {}
    cls = type(f)
    if cls is Pred:
        return tuple(value(t, m, env) for t in f.terms) in m.predicates[(f.name, len(f.terms))]
    if cls is Bot:
        return False
    if cls is Not:
        return not holds(f.body, m, env)
    if cls is And:
        return holds(f.left, m, env) and holds(f.right, m, env)
    if cls is Or:
        return holds(f.left, m, env) or holds(f.right, m, env)
    if cls is Impl:
        return not holds(f.left, m, env) or holds(f.right, m, env)
    if cls is Eq:
        return value(f.left, m, env) == value(f.right, m, env)
    test = all if cls is Forall else any
    return test(holds(f.body, m, {**env, f.var: d}) for d in range(m.size))
