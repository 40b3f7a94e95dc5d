"""Worst cases of the limits contract: peak memory, time and verdict.

Every case runs through `aliencode run --json` in its own process; the peak
resident memory and CPU time come from the kernel's accounting of that
process (os.wait4, through a small launcher so that the measuring process's own
memory is not counted). The contract: every run ends with its expected verdict
(never a crash or a traceback, never the wall-clock backstop, an error
message under 500 characters) under 512 MB and 10 s of CPU; a row that
breaks it is marked BROKEN. (Wall time is shown too; on a busy machine it
exceeds the CPU time.)

    python benchmarks/limits.py                   # the example of each class (the issue's)
    python benchmarks/limits.py --seeds 0-4       # generated worst cases, five seeds
    python benchmarks/limits.py --python OTHER    # measure another checkout's interpreter
    python benchmarks/limits.py --hog 2           # each case quiet, then beside 2 busy processes

With --hog, each case runs twice, the second time while N processes spin on
the CPU; the last column says whether everything the run printed (output,
error and steps, or the world error) was the same both times.

The cases come from tests/aliencode/worst_cases.py (the test suite runs a
fixed-seed slice of them). Not part of the test suite: timings depend on the
machine, and a busy one inflates wall time.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "aliencode"))

from worst_cases import MEMORY_BOUND_MB, SECONDS_BOUND, generate, issue_cases, run_alone  # noqa: E402


def seeds(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


@contextmanager
def hogs(count: int):
    """`count` processes spinning on the CPU while the block runs."""
    spinning = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for process in spinning:
            process.kill()
            process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--seeds",
        type=seeds,
        help="generated cases for these seeds (N or N-M) instead of the examples",
    )
    parser.add_argument(
        "--python", default=sys.executable, help="the interpreter whose alienworlds is measured"
    )
    parser.add_argument(
        "--hog", type=int, default=0, metavar="N", help="also run each case beside N busy processes"
    )
    args = parser.parse_args()
    cases = issue_cases() if args.seeds is None else [c for s in args.seeds for c in generate(s)]
    print(f"{'case':44} {'peak MB':>8} {'CPU s':>6} {'wall s':>7} {'exit':>4}  verdict")
    broken = 0
    for case in cases:
        m = run_alone(case, args.python)
        if args.hog:
            with hogs(args.hog):
                loaded = run_alone(case, args.python)
        verdict = (
            m.verdict if len(m.verdict) <= 70 else f"{m.verdict[:60]}… ({len(m.verdict)} chars)"
        )
        within = (
            m.peak_mb < MEMORY_BOUND_MB
            and m.cpu < SECONDS_BOUND
            and not m.verdict.startswith("crash")
            and "time limit" not in m.verdict
            and "InternalError" not in m.verdict
            and len(m.verdict) < 500
            and (case.expect is None or case.expect in m.verdict)
        )
        same = ""
        if args.hog:
            within = within and loaded.outcome == m.outcome
            same = (
                "  [under load: "
                f"""{
                    "same" if loaded.outcome == m.outcome else "DIFFERENT: " + loaded.verdict[:60]
                }, """
                f"{loaded.wall:.2f} s wall]"
            )
        broken += not within
        print(
            f"{case.name[:44]:44} {m.peak_mb:8.0f} {m.cpu:6.2f} {m.wall:7.2f} {m.exit_code:>4}  "
            f"{verdict}{same}"
            f"{'' if within else '  <-- BROKEN'}",
            flush=True,
        )
    print(
        f"{len(cases) - broken} of {len(cases)} cases within {MEMORY_BOUND_MB} MB and "
        f"{SECONDS_BOUND:g} s with a clean verdict"
    )


if __name__ == "__main__":
    main()
