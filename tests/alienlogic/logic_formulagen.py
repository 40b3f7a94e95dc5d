"""Random propositional formulas and tautologies, for the prover's properties.

Truth is decided here by truth tables through `semantics.holds` (one domain
element), independently of the prover's own satisfiability solver.
"""

from __future__ import annotations

import random
from itertools import product

from alienlogic import And, Formula, Impl, Not, Or, Pred, Theorem
from alienlogic.semantics import Interpretation, holds

ATOMS = ("p", "q", "r", "s")


def random_formula(rng: random.Random, size: int, atoms: tuple[str, ...] = ATOMS) -> Formula:
    """A formula with about `size` connectives over `atoms`."""
    if size <= 0:
        return Pred(rng.choice(atoms))
    kind = rng.choice(("not", "and", "or", "impl", "impl"))
    if kind == "not":
        return Not(random_formula(rng, size - 1, atoms))
    left = rng.randint(0, size - 1)
    cls = {"and": And, "or": Or, "impl": Impl}[kind]
    return cls(random_formula(rng, left, atoms), random_formula(rng, size - 1 - left, atoms))


def valid(premises: tuple[Formula, ...], goal: Formula, atoms: tuple[str, ...] = ATOMS) -> bool:
    """Whether every row of the truth table that makes the premises true makes the goal true."""
    for row in product((False, True), repeat=len(atoms)):
        m = Interpretation(
            1, {}, {}, {(a, 0): frozenset({()}) if v else frozenset() for a, v in zip(atoms, row)}
        )
        if all(holds(p, m) for p in premises) and not holds(goal, m):
            return False
    return True


def random_tautology(seed: int, size: int = 6) -> Theorem:
    """The first random sequent (0-2 premises and a goal) that is valid, by seed."""
    rng = random.Random(seed)
    while True:
        premises = tuple(random_formula(rng, rng.randint(0, 3)) for _ in range(rng.randint(0, 2)))
        goal = random_formula(rng, rng.randint(1, size))
        if valid(premises, goal):
            return Theorem(premises, goal)


def substituted(schema: Formula, rng: random.Random, size: int = 2) -> Formula:
    """`schema` with each atom replaced by one random formula (a tautology stays one)."""
    table: dict[str, Formula] = {}

    def walk(f: Formula) -> Formula:
        if type(f) is Pred:
            if f.name not in table:
                table[f.name] = random_formula(rng, rng.randint(0, size))
            return table[f.name]
        if type(f) is Not:
            return Not(walk(f.body))
        return type(f)(walk(f.left), walk(f.right))

    return walk(schema)
