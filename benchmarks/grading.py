"""Grading and audit speed on the main AlienCode world (issue 4's goals:
the full audit under 10 s, one submission graded in under 50 ms median).

    python benchmarks/grading.py

Grades every task's reference and naive solution: `warm` reuses one grader
(expected outputs cached, as an episode does), `cold` builds a fresh grader
per submission (expected outputs recomputed, as one `aliencode grade`
process does, minus interpreter startup).
"""

from __future__ import annotations

import statistics
import time

from alienworlds.tasks.aliencode_audit import audit
from alienworlds.tasks.aliencode_grading import AlienCodeGrader
from alienworlds.tasks.bank import load_bank

from aliencode.world_schema import load


def main() -> None:
    world = load("main")
    bank = load_bank("aliencode", "main")
    start = time.perf_counter()
    report = audit(world, bank)
    print(
        f"audit: {time.perf_counter() - start:.2f} s, {len(report.problems)} problems, "
        f"references pass {report.reference_pass}/{len(report.tasks)}, naive pass "
        f"{report.naive_pass}"
    )
    submissions = [(t.id, t.reference) for t in bank.tasks if t.kind == "synthesis"]
    submissions += [(t.id, t.naive) for t in bank.tasks if t.kind == "synthesis"]
    warm = AlienCodeGrader(world, bank)
    for task in bank.tasks:
        warm.expected(task)
    for label, make in (("warm", lambda: warm), ("cold", lambda: AlienCodeGrader(world, bank))):
        times = []
        for task_id, answer in submissions:
            grader = make()
            t0 = time.perf_counter()
            grader.grade(task_id, answer)
            times.append(time.perf_counter() - t0)
        times.sort()
        print(
            f"grade ({label}, {len(times)} submissions): median "
            f"{statistics.median(times) * 1000:.1f} ms, "
            f"p90 {times[int(len(times) * 0.9)] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
