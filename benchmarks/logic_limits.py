"""Worst cases of AlienLogic's limits: CPU time, peak memory and verdict.

Every case runs the `alienlogic` command in its own process; its CPU time
and peak resident memory come from the kernel's accounting of that process
(os.wait4). The contract: `check` and `grade` of a proof over tens of
thousands of constants end within 10 s of CPU (their work is linear in the
text); `prove --seconds S` and `certify --seconds S` end within S + 1 s of
CPU, start-up included, whatever the theorem; all under 512 MB. A row that
breaks it is marked BROKEN. (Wall time is shown too; on a busy machine it
exceeds the CPU time.)

    python benchmarks/logic_limits.py                   # the review's shapes
    python benchmarks/logic_limits.py --seeds 0-4       # generated worst cases, five seeds
    python benchmarks/logic_limits.py --checkout DIR    # measure another checkout (cases are
                                                        killed after --kill-after s)

The cases come from tests/alienlogic/logic_worst_cases.py (the test suite
runs a fixed slice of them in test_logic_limits.py). AlienCode's limits
have their own benchmark (benchmarks/limits.py). Not part of the test
suite: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "alienlogic"))

from logic_worst_cases import MEMORY_BOUND_MB, generate, issue_cases, run_alone  # noqa: E402


def seeds(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--seeds",
        type=seeds,
        help="generated cases for these seeds (N or N-M) instead of the review's",
    )
    parser.add_argument(
        "--checkout", help="run the cases against this checkout's alienlogic package"
    )
    parser.add_argument(
        "--kill-after", type=float, default=600.0, help="wall seconds after which a case is killed"
    )
    args = parser.parse_args()
    cases = issue_cases() if args.seeds is None else [c for s in args.seeds for c in generate(s)]
    print(
        f"{'case':28} {'input KB':>8} {'bound s':>7} {'CPU s':>7} {'peak MB':>7} {'wall s':>7} "
        f"{'exit':>4}  output"
    )
    broken = 0
    for case in cases:
        m = run_alone(case, kill_after=args.kill_after, checkout=args.checkout)
        within = (
            m.cpu <= case.bound
            and m.peak_mb < MEMORY_BOUND_MB
            and m.exit_code in (0, 1)
            and "Traceback" not in m.output
        )
        broken += not within
        killed = " (killed)" if m.exit_code == -9 else ""
        print(
            f"{case.name[:28]:28} {case.size / 1024:8.1f} {case.bound:7.1f} {m.cpu:7.2f} "
            f"{m.peak_mb:7.0f} {m.wall:7.2f} "
            f"{m.exit_code:>4}  {m.output[:60]}{killed}{'' if within else '  <-- BROKEN'}",
            flush=True,
        )
    print(f"{len(cases) - broken} of {len(cases)} cases within their bounds")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
