"""Differential test of the prover against decisions that share none of its code.

    python benchmarks/prover_differential.py  # 10,000 propositional, 1,000 first-order
    python benchmarks/prover_differential.py --propositional 500 --first-order 100 --seed 7

Random sequents (0-2 premises and a goal, BOT among the leaves) go to the
prover in the standard world with a counting clock (its answer is the same
on any machine) and to a reference decision written here:

* propositional: the truth table;
* first order, monadic (unary predicates P and Q, the constant a, no
  functions or equality): every interpretation with 1 to 4 elements. A
  satisfiable monadic sentence with k unary predicates has a model of at
  most 2^k elements (merge elements that satisfy the same predicates), so
  this decides validity;
* first order with a binary predicate R: interpretations with 1 to 3
  elements. A countermodel there decides "not valid"; finding none decides
  nothing, and such sequents are counted apart as inconclusive.

A disagreement is a claimed proof the kernel refuses or whose theorem the
reference finds invalid, or a claimed refutation whose theorem the reference
finds valid or whose countermodel fails the evaluator here. The prover may
also answer neither (out of its step allowance, or undecided): counted, not
a disagreement. Prints tried / proved / refuted / neither / disagreements
per class; exit 1 on any disagreement.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field
from itertools import product

from alienlogic import check, load_world
from alienlogic.formulas import (
    BOT,
    And,
    Bot,
    Exists,
    Forall,
    Formula,
    Impl,
    Name,
    Not,
    Or,
    Pred,
    Term,
)
from alienlogic.proof import Theorem
from alienlogic.prover import StepClock, prove
from alienlogic.semantics import Interpretation

STANDARD = load_world("standard")
PROVER_TICKS = (
    400  # readings of the counting clock: every 256 search steps, every 32 refutation steps
)
ATOMS = ("p", "q", "r")
MONADIC = ("P", "Q")


# -- generators ------------------------------------------------------------------


def propositional_formula(rng: random.Random, size: int) -> Formula:
    """About `size` connectives over p, q, r and BOT."""
    if size <= 0:
        return BOT if rng.random() < 0.12 else Pred(rng.choice(ATOMS))
    kind = rng.choice(("not", "and", "or", "impl", "impl"))
    if kind == "not":
        return Not(propositional_formula(rng, size - 1))
    left = rng.randint(0, size - 1)
    cls = {"and": And, "or": Or, "impl": Impl}[kind]
    return cls(propositional_formula(rng, left), propositional_formula(rng, size - 1 - left))


def first_order_formula(
    rng: random.Random, size: int, binary: bool, bound: tuple[str, ...] = ()
) -> Formula:
    """About `size` connectives and quantifiers; atoms apply P, Q (and R when
    `binary`) to the constant a or to bound variables."""
    if size <= 0:
        if rng.random() < 0.08:
            return BOT
        terms = [Name(v) for v in bound] + [Name("a")]

        def term() -> Term:
            return rng.choice(terms)

        if binary and rng.random() < 0.4:
            return Pred("R", (term(), term()))
        return Pred(rng.choice(MONADIC), (term(),))
    kind = rng.choice(("not", "and", "or", "impl", "impl", "forall", "exists"))
    if kind in ("forall", "exists"):
        var = "xyz"[len(bound) % 3] + ("" if len(bound) < 3 else str(len(bound)))
        cls = Forall if kind == "forall" else Exists
        return cls(var, first_order_formula(rng, size - 1, binary, bound + (var,)))
    if kind == "not":
        return Not(first_order_formula(rng, size - 1, binary, bound))
    left = rng.randint(0, size - 1)
    cls = {"and": And, "or": Or, "impl": Impl}[kind]
    return cls(
        first_order_formula(rng, left, binary, bound),
        first_order_formula(rng, size - 1 - left, binary, bound),
    )


def propositional_sequent(rng: random.Random) -> Theorem:
    premises = tuple(
        propositional_formula(rng, rng.randint(0, 3)) for _ in range(rng.randint(0, 2))
    )
    return Theorem(premises, propositional_formula(rng, rng.randint(1, 7)))


def first_order_sequent(rng: random.Random, binary: bool) -> Theorem:
    premises = tuple(
        first_order_formula(rng, rng.randint(1, 3), binary) for _ in range(rng.randint(0, 2))
    )
    return Theorem(premises, first_order_formula(rng, rng.randint(1, 5), binary))


def biased(make, rng: random.Random, plausible) -> Theorem:
    """Half the time the first of up to 30 sequents that may be valid
    (random sequents are mostly invalid; proofs need exercising too)."""
    t = make(rng)
    if rng.random() < 0.5:
        for _ in range(30):
            if plausible(t):
                return t
            t = make(rng)
    return t


# -- the reference: an evaluator of its own ---------------------------------------


def truth(f: Formula, m: Interpretation, env: dict[str, int]) -> bool:
    cls = type(f)
    if cls is Bot:
        return False
    if cls is Pred:
        row = tuple(env[t.name] if t.name in env else m.constants[t.name] for t in f.terms)
        return row in m.predicates.get((f.name, len(f.terms)), frozenset())
    if cls is Not:
        return not truth(f.body, m, env)
    if cls is And:
        return truth(f.left, m, env) and truth(f.right, m, env)
    if cls is Or:
        return truth(f.left, m, env) or truth(f.right, m, env)
    if cls is Impl:
        return (not truth(f.left, m, env)) or truth(f.right, m, env)
    if cls is Forall:
        return all(truth(f.body, m, {**env, f.var: d}) for d in range(m.size))
    if cls is Exists:
        return any(truth(f.body, m, {**env, f.var: d}) for d in range(m.size))
    raise ValueError(f"the reference does not evaluate {f}")


def is_countermodel(t: Theorem, m: Interpretation) -> bool:
    return all(truth(p, m, {}) for p in t.premises) and not truth(t.goal, m, {})


def truth_table(t: Theorem) -> bool:
    """Whether the propositional sequent is valid."""
    for row in product((False, True), repeat=len(ATOMS)):
        m = Interpretation(
            1, {}, {}, {(a, 0): frozenset({()}) if v else frozenset() for a, v in zip(ATOMS, row)}
        )
        if is_countermodel(t, m):
            return False
    return True


def small_models(binary: bool, largest: int | None = None):
    """Every interpretation of P, Q (and R) with a = element 0 (elements are
    interchangeable), 1 to `largest` elements (default 4, 3 with R)."""
    for n in range(1, (largest or (3 if binary else 4)) + 1):
        ones = list(product(range(n), repeat=1))
        pairs = list(product(range(n), repeat=2))
        r_choices = product((False, True), repeat=len(pairs)) if binary else [()]
        for r_bits in r_choices:
            r = frozenset(x for x, b in zip(pairs, r_bits) if b)
            for p_bits in product((False, True), repeat=n):
                for q_bits in product((False, True), repeat=n):
                    yield Interpretation(
                        n,
                        {"a": 0},
                        {},
                        {
                            ("P", 1): frozenset(x for x, b in zip(ones, p_bits) if b),
                            ("Q", 1): frozenset(x for x, b in zip(ones, q_bits) if b),
                            ("R", 2): r,
                        },
                    )


def small_model_decision(t: Theorem, binary: bool, largest: int | None = None) -> bool | None:
    """False with a countermodel; True when none exists (monadic only); None
    when none was found but that decides nothing (with R)."""
    if any(is_countermodel(t, m) for m in small_models(binary, largest)):
        return False
    return None if binary else True


# -- the comparison ---------------------------------------------------------------


@dataclass
class Tally:
    tried: int = 0
    proved: int = 0
    refuted: int = 0
    neither: int = 0
    inconclusive: int = 0  # the reference could not decide (binary first order)
    both_inconclusive: int = 0  # ... and the prover answered neither way
    disagreements: list[str] = field(default_factory=list)

    def line(self, name: str) -> str:
        return (
            f"{name:14} tried {self.tried:6}  proved {self.proved:6}  refuted {self.refuted:6}  "
            f"neither {self.neither:4}  reference inconclusive {self.inconclusive:4} "
            f"(neither side conclusive {self.both_inconclusive:4})  disagreements "
            f"{len(self.disagreements)}"
        )


def compare(t: Theorem, reference: bool | None, tally: Tally, ticks: int = PROVER_TICKS) -> None:
    """Run the prover on `t` and record how its answer meets `reference`
    (True valid, False invalid, None undecided)."""
    tally.tried += 1
    tally.inconclusive += reference is None
    r = prove(STANDARD, t, seconds=ticks, clock=StepClock())
    label = f"{', '.join(map(str, t.premises))} |- {t.goal}"
    if r.found:
        tally.proved += 1
        if not check(r.proof, STANDARD, task=t).accepted:
            tally.disagreements.append(f"claimed proof refused by the kernel: {label}")
        elif reference is False:
            tally.disagreements.append(f"proved but not valid: {label}")
    elif r.refuted:
        tally.refuted += 1
        if reference is True:
            tally.disagreements.append(f"refuted but valid: {label}")
        elif not is_countermodel(t, r.countermodel.model):
            tally.disagreements.append(f"countermodel fails the reference evaluator: {label}")
    else:
        tally.neither += 1
        tally.both_inconclusive += reference is None


def run_propositional(count: int, seed: int) -> Tally:
    tally = Tally()
    for i in range(count):
        rng = random.Random(f"prop-{seed}-{i}")
        t = biased(propositional_sequent, rng, truth_table)
        compare(t, truth_table(t), tally)
    return tally


def run_first_order(count: int, seed: int, binary: bool) -> Tally:
    tally = Tally()
    for i in range(count):
        rng = random.Random(f"fo-{binary}-{seed}-{i}")
        # the bias looks for no countermodel of up to 2 elements (cheap)
        t = biased(
            lambda r: first_order_sequent(r, binary),
            rng,
            lambda s: small_model_decision(s, binary, 2) is not False,
        )
        compare(t, small_model_decision(t, binary), tally)
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--propositional", type=int, default=10_000, help="propositional sequents to try"
    )
    parser.add_argument(
        "--first-order", type=int, default=1_000, help="first-order sequents to try, per class"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.process_time()
    results = [
        ("propositional", run_propositional(args.propositional, args.seed)),
        ("monadic", run_first_order(args.first_order, args.seed, binary=False)),
        ("binary", run_first_order(args.first_order, args.seed, binary=True)),
    ]
    for name, tally in results:
        print(tally.line(name))
        for d in tally.disagreements[:10]:
            print("   ", d)
    total = sum(len(t.disagreements) for _, t in results)
    print(
        f"{sum(t.tried for _, t in results)} tried, {total} disagreements, "
        f"{time.process_time() - start:.0f} s CPU"
    )
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
