"""Speed: checking is linear in proof length (issue 5's targets, with the
figures measured by the same code as these tests). Times are the process's
CPU time, so that a busy machine does not fail them."""

import gc
import time

from machine_speed import scaled

from alienlogic import check, load_world, parse_proof

TEN_LINES = """PROOF
premises: IMPL(p, q), IMPL(q, r), AND(p, s)
goal: AND(r, s)
1. IMPL(p, q)        [premise]
2. IMPL(q, r)        [premise]
3. AND(p, s)         [premise]
4. p                 [AND_E1 3]
5. q                 [IMPL_E 1, 4]
6. r                 [IMPL_E 2, 5]
7. s                 [AND_E2 3]
8. | NOT(r)          [assume]
9. | BOT             [NOT_E 8, 6]
10. AND(r, s)        [AND_I 6, 7]
END
"""


def long_proof(blocks: int) -> str:
    """A valid proof of 10 * blocks + 8 lines mixing boxes, quantifiers and
    citations reaching back to the premises."""
    lines = [
        "PROOF",
        "premises: FORALL(x, IMPL(P(x), Q(x))), EXISTS(x, P(x)), p",
        "goal: EXISTS(y, Q(y))",
        "1. FORALL(x, IMPL(P(x), Q(x)))  [premise]",
        "2. EXISTS(x, P(x))  [premise]",
        "3. p  [premise]",
    ]
    n = 3
    for _ in range(blocks):
        lines += [
            f"{n + 1}. | P(c)  [assume]",
            f"{n + 2}. | IMPL(P(c), Q(c))  [FORALL_E 1]",
            f"{n + 3}. | Q(c)  [IMPL_E {n + 2}, {n + 1}]",
            f"{n + 4}. | AND(P(c), Q(c))  [AND_I {n + 1}, {n + 3}]",
            f"{n + 5}. | Q(c)  [AND_E2 {n + 4}]",
            f"{n + 6}. IMPL(P(c), Q(c))  [IMPL_I {n + 1}-{n + 5}]",
            f"{n + 7}. FORALL(z, IMPL(P(z), Q(z)))  [FORALL_I {n + 6}]",
            f"{n + 8}. OR(p, NOT(p))  [LEM]",
            f"{n + 9}. AND(p, OR(p, NOT(p)))  [AND_I 3, {n + 8}]",
            f"{n + 10}. p  [AND_E1 {n + 9}]",
        ]
        n += 10
    lines += [
        f"{n + 1}. | P(d)  [assume]",
        f"{n + 2}. | IMPL(P(d), Q(d))  [FORALL_E 1]",
        f"{n + 3}. | Q(d)  [IMPL_E {n + 2}, {n + 1}]",
        f"{n + 4}. | EXISTS(y, Q(y))  [EXISTS_I {n + 3}]",
        f"{n + 5}. EXISTS(y, Q(y))  [EXISTS_E 2, {n + 1}-{n + 4}]",
        "END",
    ]
    return "\n".join(lines) + "\n"


def best_of(runs: int, fn) -> float:
    """The least CPU time of `runs` calls, each without the host's cycle
    collector: when a collection falls depends on what else the process
    holds (the suite tunes it, cli/entry.py), not on the checker's work."""
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            fn()
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    return best


def test_five_thousand_lines_check_in_under_a_second():
    text = long_proof(500)
    assert len(parse_proof(text).steps) == 5008
    assert check(text).accepted
    assert best_of(3, lambda: check(text)) < scaled(
        1.0
    )  # parse + check; about 0.3 s on the development machine (machine_speed.py)


def test_a_typical_ten_line_proof_checks_in_under_2_ms():
    assert check(TEN_LINES).accepted
    demo = load_world("demo")
    for world in (None, demo):
        check(TEN_LINES, world)
        times = []
        for _ in range(300):
            start = time.process_time()
            check(TEN_LINES, world)
            times.append(time.process_time() - start)
        # the lowest decile: the checker's own cost, which another job on the machine
        # only ever raises (the median failed once in CI under load; a checker that is
        # over the bound moves every decile past it)
        # about 0.6 ms on the development machine (machine_speed.py)
        assert sorted(times)[len(times) // 10] < scaled(0.002)


def test_checking_time_grows_linearly():
    small, large = parse_proof(long_proof(250)), parse_proof(long_proof(1000))
    # the two sizes timed in turn, so that a busy spell of the machine slows both
    least = {"small": float("inf"), "large": float("inf")}
    for _ in range(5):
        for name, proof in (("small", small), ("large", large)):
            least[name] = min(least[name], best_of(1, lambda proof=proof: check(proof)))
    ratio = least["large"] / least["small"]
    # 4x the lines: a linear checker takes about 4x (3.95 on the development machine),
    # a quadratic one about 16x; 8, their geometric mean, tells them apart (a bound of
    # 6 failed once in CI, at 6.09, with the sizes timed one after the other)
    assert ratio < 8
