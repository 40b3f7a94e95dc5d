"""Pelletier's problems 1-46 for the AlienLogic prover, in the standard world.

The problems are F. J. Pelletier's, "Seventy-five problems for testing
automatic theorem provers", Journal of Automated Reasoning 2 (1986) 191-216:
1-17 propositional, 18-34 monadic predicate logic, 35-46 full predicate logic
without identity or function symbols. They are written here from their
published statements in AlienLogic's syntax; a biconditional a <-> b is
written AND(IMPL(a, b), IMPL(b, a)) (built by `iff` below), premises are
listed separately as in the paper.

    python benchmarks/pelletier.py                  # every problem, 10 s each
    python benchmarks/pelletier.py --only 5 12 34   # some of them
    python benchmarks/pelletier.py --seconds 30 --json
    python benchmarks/pelletier.py --worlds         # problems 1-17 in patched worlds

Each line reports whether the prover found a proof the checker accepts, the
time, the proof's length in lines and its deepest box. The test suite runs
a fast subset (tests/alienlogic/test_logic_pelletier.py).

`--worlds` runs the propositional problems 1-17 in the four worlds of
benchmarks/worlds/ that each disable one rule (DNE, LEM, NOT_I, IMPL_I) and
prints a table world x problem: `proved` (the prover's proof, checked again
by the kernel under the world's rules), `certified` (no proof exists: a
certificate the independent re-checker accepts) or `unknown`. Both searches
count their work instead of timing it (`StepClock`, a fixed number of
candidate algebras), so the table is the same on any machine; the test
suite checks it whole (tests/alienlogic/test_logic_pelletier.py).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from pathlib import Path


def iff(a: str, b: str) -> str:
    return f"AND(IMPL({a}, {b}), IMPL({b}, {a}))"


def all_(v: str, body: str) -> str:
    return f"FORALL({v}, {body})"


def ex(v: str, body: str) -> str:
    return f"EXISTS({v}, {body})"


def imp(a: str, b: str) -> str:
    return f"IMPL({a}, {b})"


def and_(*xs: str) -> str:
    """Left-nested conjunction AND(AND(a, b), c) of two or more formulas."""
    out = xs[0]
    for x in xs[1:]:
        out = f"AND({out}, {x})"
    return out


def or_(*xs: str) -> str:
    """Left-nested disjunction OR(OR(a, b), c) of two or more formulas."""
    out = xs[0]
    for x in xs[1:]:
        out = f"OR({out}, {x})"
    return out


def neg(a: str) -> str:
    return f"NOT({a})"


@dataclass(frozen=True)
class Problem:
    number: int
    premises: tuple[str, ...]
    goal: str

    @property
    def first_order(self) -> bool:
        return self.number >= 18


def _p(number: int, goal: str, *premises: str) -> Problem:
    return Problem(number, premises, goal)


P, Q, R, S = "p", "q", "r", "s"


def _problems() -> list[Problem]:
    out = [
        # -- propositional logic ------------------------------------------------
        _p(1, iff(imp(P, Q), imp(neg(Q), neg(P)))),
        _p(2, iff(neg(neg(P)), P)),
        _p(3, imp(neg(imp(P, Q)), imp(Q, P))),
        _p(4, iff(imp(neg(P), Q), imp(neg(Q), P))),
        _p(5, imp(imp(or_(P, Q), or_(P, R)), or_(P, imp(Q, R)))),
        _p(6, or_(P, neg(P))),
        _p(7, or_(P, neg(neg(neg(P))))),
        _p(8, imp(imp(imp(P, Q), P), P)),
        _p(9, imp(and_(or_(P, Q), or_(neg(P), Q), or_(P, neg(Q))), neg(or_(neg(P), neg(Q))))),
        _p(10, iff(P, Q), imp(Q, R), imp(R, and_(P, Q)), imp(P, or_(Q, R))),
        _p(11, iff(P, P)),
        _p(12, iff(iff(iff(P, Q), R), iff(P, iff(Q, R)))),
        _p(13, iff(or_(P, and_(Q, R)), and_(or_(P, Q), or_(P, R)))),
        _p(14, iff(iff(P, Q), and_(or_(Q, neg(P)), or_(neg(Q), P)))),
        _p(15, iff(imp(P, Q), or_(neg(P), Q))),
        _p(16, or_(imp(P, Q), imp(Q, P))),
        _p(17, iff(imp(and_(P, imp(Q, R)), S), and_(or_(neg(P), Q, S), or_(neg(P), neg(R), S)))),
        # -- monadic predicate logic ------------------------------------------
        _p(18, ex("y", all_("x", imp("F(y)", "F(x)")))),
        _p(19, ex("x", all_("y", all_("z", imp(imp("P(y)", "Q(z)"), imp("P(x)", "Q(x)")))))),
        _p(
            20,
            imp(
                all_(
                    "x",
                    all_("y", ex("z", all_("w", imp(and_("P(x)", "Q(y)"), and_("R(z)", "S(w)"))))),
                ),
                imp(ex("x", ex("y", and_("P(x)", "Q(y)"))), ex("z", "R(z)")),
            ),
        ),
        _p(21, ex("x", iff(P, "F(x)")), ex("x", imp(P, "F(x)")), ex("x", imp("F(x)", P))),
        _p(22, imp(all_("x", iff(P, "F(x)")), iff(P, all_("x", "F(x)")))),
        _p(23, iff(all_("x", or_(P, "F(x)")), or_(P, all_("x", "F(x)")))),
        _p(
            24,
            ex("x", and_("P(x)", "R(x)")),
            neg(ex("x", and_("S(x)", "Q(x)"))),
            all_("x", imp("P(x)", or_("Q(x)", "R(x)"))),
            imp(neg(ex("x", "P(x)")), ex("x", "Q(x)")),
            all_("x", imp(or_("Q(x)", "R(x)"), "S(x)")),
        ),
        _p(
            25,
            ex("x", and_("Q(x)", "P(x)")),
            ex("x", "P(x)"),
            all_("x", imp("F(x)", and_(neg("G(x)"), "R(x)"))),
            all_("x", imp("P(x)", and_("G(x)", "F(x)"))),
            or_(all_("x", imp("P(x)", "Q(x)")), ex("x", and_("P(x)", "R(x)"))),
        ),
        _p(
            26,
            iff(all_("x", imp("P(x)", "R(x)")), all_("x", imp("Q(x)", "S(x)"))),
            iff(ex("x", "P(x)"), ex("x", "Q(x)")),
            all_("x", all_("y", imp(and_("P(x)", "Q(y)"), iff("R(x)", "S(y)")))),
        ),
        _p(
            27,
            all_("x", imp("J(x)", neg("I(x)"))),
            ex("x", and_("F(x)", neg("G(x)"))),
            all_("x", imp("F(x)", "H(x)")),
            all_("x", imp(and_("J(x)", "I(x)"), "F(x)")),
            imp(ex("x", and_("H(x)", neg("G(x)"))), all_("x", imp("I(x)", neg("H(x)")))),
        ),
        _p(
            28,
            all_("x", imp(and_("P(x)", "F(x)"), "G(x)")),
            all_("x", imp("P(x)", all_("y", "Q(y)"))),
            imp(all_("x", or_("Q(x)", "R(x)")), ex("x", and_("Q(x)", "S(x)"))),
            imp(ex("x", "S(x)"), all_("x", imp("F(x)", "G(x)"))),
        ),
        _p(
            29,
            iff(
                and_(all_("x", imp("F(x)", "H(x)")), all_("x", imp("G(x)", "J(x)"))),
                all_("x", all_("y", imp(and_("F(x)", "G(y)"), and_("H(x)", "J(y)")))),
            ),
            ex("x", "F(x)"),
            ex("x", "G(x)"),
        ),
        _p(
            30,
            all_("x", "I(x)"),
            all_("x", imp(or_("F(x)", "G(x)"), neg("H(x)"))),
            all_("x", imp(imp("G(x)", neg("I(x)")), and_("F(x)", "H(x)"))),
        ),
        _p(
            31,
            ex("x", and_("I(x)", "J(x)")),
            neg(ex("x", and_("F(x)", or_("G(x)", "H(x)")))),
            ex("x", and_("I(x)", "F(x)")),
            all_("x", imp(neg("H(x)"), "J(x)")),
        ),
        _p(
            32,
            all_("x", imp(and_("F(x)", "K(x)"), "J(x)")),
            all_("x", imp(and_("F(x)", or_("G(x)", "H(x)")), "I(x)")),
            all_("x", imp(and_("I(x)", "H(x)"), "J(x)")),
            all_("x", imp("K(x)", "H(x)")),
        ),
        _p(
            33,
            iff(
                all_("x", imp(and_("P(a)", imp("P(x)", "P(b)")), "P(c)")),
                all_(
                    "x",
                    and_(or_(neg("P(a)"), "P(x)", "P(c)"), or_(neg("P(a)"), neg("P(b)"), "P(c)")),
                ),
            ),
        ),
        _p(
            34,
            iff(
                iff(
                    ex("x", all_("y", iff("P(x)", "P(y)"))), iff(ex("x", "Q(x)"), all_("y", "Q(y)"))
                ),
                iff(
                    ex("x", all_("y", iff("Q(x)", "Q(y)"))), iff(ex("x", "P(x)"), all_("y", "P(y)"))
                ),
            ),
        ),
        # -- full predicate logic without identity and functions -------------------
        _p(35, ex("x", ex("y", imp("P(x, y)", all_("x", all_("y", "P(x, y)")))))),
        _p(
            36,
            all_("x", ex("y", "H(x, y)")),
            all_("x", ex("y", "F(x, y)")),
            all_("x", ex("y", "G(x, y)")),
            all_(
                "x",
                all_(
                    "y",
                    imp(
                        or_("F(x, y)", "G(x, y)"),
                        all_("z", imp(or_("F(y, z)", "G(y, z)"), "H(x, z)")),
                    ),
                ),
            ),
        ),
        _p(
            37,
            all_("x", ex("y", "R(x, y)")),
            all_(
                "z",
                ex(
                    "w",
                    all_(
                        "x",
                        ex(
                            "y",
                            and_(
                                imp("P(x, z)", "P(y, w)"),
                                "P(y, z)",
                                imp("P(y, w)", ex("u", "Q(u, w)")),
                            ),
                        ),
                    ),
                ),
            ),
            all_("x", all_("z", imp(neg("P(x, z)"), ex("y", "Q(y, z)")))),
            imp(ex("x", ex("y", "Q(x, y)")), all_("x", "R(x, x)")),
        ),
        _p(
            38,
            iff(
                all_(
                    "x",
                    imp(
                        and_("P(a)", imp("P(x)", ex("y", and_("P(y)", "R(x, y)")))),
                        ex("z", ex("w", and_("P(z)", "R(x, w)", "R(w, z)"))),
                    ),
                ),
                all_(
                    "x",
                    and_(
                        or_(
                            neg("P(a)"),
                            "P(x)",
                            ex("z", ex("w", and_("P(z)", "R(x, w)", "R(w, z)"))),
                        ),
                        or_(
                            neg("P(a)"),
                            neg(ex("y", and_("P(y)", "R(x, y)"))),
                            ex("z", ex("w", and_("P(z)", "R(x, w)", "R(w, z)"))),
                        ),
                    ),
                ),
            ),
        ),
        _p(39, neg(ex("x", all_("y", iff("F(y, x)", neg("F(y, y)")))))),
        _p(
            40,
            imp(
                ex("y", all_("x", iff("F(x, y)", "F(x, x)"))),
                neg(all_("x", ex("y", all_("z", iff("F(z, y)", neg("F(z, x)")))))),
            ),
        ),
        _p(
            41,
            neg(ex("z", all_("x", "F(x, z)"))),
            all_("z", ex("y", all_("x", iff("F(x, y)", and_("F(x, z)", neg("F(x, x)")))))),
        ),
        _p(42, neg(ex("y", all_("x", iff("F(x, y)", neg(ex("z", and_("F(x, z)", "F(z, x)")))))))),
        _p(
            43,
            all_("x", all_("y", iff("Q(x, y)", "Q(y, x)"))),
            all_("x", all_("y", iff("Q(x, y)", all_("z", iff("F(z, x)", "F(z, y)"))))),
        ),
        _p(
            44,
            ex("x", and_("J(x)", neg("F(x)"))),
            all_(
                "x",
                imp(
                    "F(x)",
                    and_(ex("y", and_("G(y)", "H(x, y)")), ex("y", and_("G(y)", neg("H(x, y)")))),
                ),
            ),
            ex("x", and_("J(x)", all_("y", imp("G(y)", "H(x, y)")))),
        ),
        _p(
            45,
            ex("x", and_("F(x)", neg(ex("y", and_("G(y)", "H(x, y)"))))),
            all_(
                "x",
                imp(
                    and_("F(x)", all_("y", imp(and_("G(y)", "H(x, y)"), "J(x, y)"))),
                    all_("y", imp(and_("G(y)", "H(x, y)"), "K(y)")),
                ),
            ),
            neg(ex("y", and_("L(y)", "K(y)"))),
            ex(
                "x",
                and_(
                    "F(x)",
                    all_("y", imp("H(x, y)", "L(y)")),
                    all_("y", imp(and_("G(y)", "H(x, y)"), "J(x, y)")),
                ),
            ),
        ),
        _p(
            46,
            all_("x", imp("F(x)", "G(x)")),
            all_("x", imp(and_("F(x)", all_("y", imp(and_("F(y)", "H(y, x)"), "G(y)"))), "G(x)")),
            imp(
                ex("x", and_("F(x)", neg("G(x)"))),
                ex(
                    "x",
                    and_("F(x)", neg("G(x)"), all_("y", imp(and_("F(y)", neg("G(y)")), "J(x, y)"))),
                ),
            ),
            all_("x", all_("y", imp(and_("F(x)", "F(y)", "H(x, y)"), neg("J(y, x)")))),
        ),
    ]
    assert [p.number for p in out] == list(range(1, 47))
    return out


PROBLEMS: list[Problem] = _problems()


def theorem(problem: Problem):
    from alienlogic import Theorem, parse_formula

    return Theorem(tuple(parse_formula(p) for p in problem.premises), parse_formula(problem.goal))


def run(numbers: list[int], seconds: float) -> list[dict[str, object]]:
    from alienworlds.ruleset.world import standard_world

    from alienlogic import check
    from alienlogic.prover import prove

    world = standard_world("alienlogic")
    rows = []
    for problem in PROBLEMS:
        if numbers and problem.number not in numbers:
            continue
        t = theorem(problem)
        start = time.process_time()
        result = prove(world, t, seconds=seconds)
        cpu = time.process_time() - start
        ok = result.found and check(result.proof, world, task=t).accepted
        steps = result.proof.steps if result.proof else ()
        rows.append(
            {
                "problem": problem.number,
                "proved": ok,
                "cpu_seconds": round(cpu, 3),
                "lines": len(steps),
                "depth": max((s.depth for s in steps), default=0),
                "reason": "" if ok else result.reason,
            }
        )
    return rows


WORLDS_DIR = Path(__file__).parent / "worlds"
# the one-rule-disabled worlds, by the rule each disables
DISABLED_WORLDS = {
    rule: WORLDS_DIR / f"alienlogic_no_{rule.lower()}.toml"
    for rule in ("DNE", "LEM", "NOT_I", "IMPL_I")
}
PROPOSITIONAL = [p for p in PROBLEMS if not p.first_order]
# The work each theorem gets, counted: readings of the prover's step clock
# (one per 256 search steps, per 32 refutation steps) and candidate algebras.
PROVER_TICKS = 400
CERTIFIER_CANDIDATES = 200


@dataclass(frozen=True)
class Cell:
    """One problem in one world: its status and what backs it."""

    status: str  # proved | certified | unknown
    proof: object = None  # proved: the Proof, accepted by the kernel in the world
    certificate: dict | None = None  # certified: accepted by the re-checker
    reason: str = ""  # unknown: why neither was found

    @property
    def lines(self) -> int:
        return len(self.proof.steps) if self.proof is not None else 0

    def as_data(self) -> dict[str, object]:
        return {
            "status": self.status,
            "lines": self.lines,
            "proof": str(self.proof) if self.proof is not None else None,
            "certificate": self.certificate,
            "reason": self.reason,
        }


def world_cell(world, problem: Problem) -> Cell:
    """A proof re-checked by the kernel, else a certificate re-checked by the
    independent re-checker, else unknown (with the reasons)."""
    from alienlogic import check
    from alienlogic.certify import check_certificate, find_certificate
    from alienlogic.prover import StepClock, prove

    t = theorem(problem)
    result = prove(world, t, seconds=PROVER_TICKS, clock=StepClock())
    if result.found and check(result.proof, world, task=t).accepted:
        return Cell("proved", proof=result.proof)
    found = find_certificate(world, t, seconds=None, max_candidates=CERTIFIER_CANDIDATES)
    if found.data is not None and check_certificate(found.data, world, t).ok:
        return Cell("certified", certificate=found.data)
    return Cell("unknown", reason=f"{result.reason}; {found.summary}")


def world_table(rules: list[str], numbers: list[int]) -> dict[str, dict[int, Cell]]:
    from alienlogic import load_world

    table: dict[str, dict[int, Cell]] = {}
    for rule in rules:
        world = load_world(str(DISABLED_WORLDS[rule]))
        table[rule] = {
            p.number: world_cell(world, p)
            for p in PROPOSITIONAL
            if not numbers or p.number in numbers
        }
    return table


def print_world_table(table: dict[str, dict[int, Cell]], cpu: float) -> None:
    rules = list(table)
    numbers = sorted({n for row in table.values() for n in row})
    print("problem " + "".join(f"{'no ' + r:<14}" for r in rules))
    for n in numbers:
        cells = []
        for r in rules:
            c = table[r][n]
            cells.append(f"proved ({c.lines})" if c.status == "proved" else c.status)
        print(f"P{n:<7}" + "".join(f"{x:<14}" for x in cells))
    for r in rules:
        row = table[r].values()
        proved = sum(c.status == "proved" for c in row)
        certified = sum(c.status == "certified" for c in row)
        unknown = len(row) - proved - certified
        print(
            f"no {r}: {proved} proved, {certified} certified unprovable, {unknown} unknown "
            f"(proved/provable {proved}/{len(row) - certified}"
            + (" at most" if unknown else "")
            + ")"
        )
        for n, c in table[r].items():
            if c.status == "unknown":
                print(f"  P{n}: {c.reason}")
    print(f"total {cpu:.2f} s CPU; proofs in lines, each checked by the kernel in its world")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--only", type=int, nargs="*", default=[], help="Problem numbers to run (default: all)."
    )
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="Time limit per problem (default 10)."
    )
    parser.add_argument("--json", action="store_true", help="Print the rows as JSON.")
    parser.add_argument(
        "--worlds",
        nargs="*",
        metavar="RULE",
        choices=list(DISABLED_WORLDS),
        help="Problems 1-17 in the worlds that disable one rule each (default: all four: "
        "DNE LEM NOT_I IMPL_I): proved / certified unprovable / unknown.",
    )
    args = parser.parse_args()
    if args.worlds is not None:
        start = time.process_time()
        table = world_table(args.worlds or list(DISABLED_WORLDS), args.only)
        if args.json:
            data = {r: {n: c.as_data() for n, c in row.items()} for r, row in table.items()}
            print(json.dumps(data, indent=2))
        else:
            print_world_table(table, time.process_time() - start)
        return
    rows = run(args.only, args.seconds)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for r in rows:
        status = "proved" if r["proved"] else "NOT PROVED"
        extra = f"{r['lines']:>5} lines, depth {r['depth']}" if r["proved"] else r["reason"]
        print(f"  P{r['problem']:<3} {status:<10} {r['cpu_seconds']:7.3f} s  {extra}")
    proved = [r for r in rows if r["proved"]]
    within = [r for r in proved if r["cpu_seconds"] <= args.seconds]
    total = sum(r["cpu_seconds"] for r in rows)
    print(
        f"{len(proved)}/{len(rows)} proved ({len(within)} within {args.seconds:g} s each), "
        f"total {total:.2f} s CPU, {sum(r['lines'] for r in proved)} lines in all"
    )


if __name__ == "__main__":
    main()
