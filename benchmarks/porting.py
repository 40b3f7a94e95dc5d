"""Porting speed: the main bank's manual-trusting solutions ported to main.

    python benchmarks/porting.py

Ports every naive solution with one Porter (searches are shared between
programs, as when a bank is built), with what the task shows of its inputs
(its example call; or its example input bindings, computed under the
manual's semantics; or nothing, for a closed whole program), then grades the
ported programs. Times are CPU seconds of this process (wall time on a
shared machine is noise).
"""

from __future__ import annotations

import time

from alienworlds.porting import Ported, Porter
from alienworlds.tasks.aliencode_grading import AlienCodeGrader
from alienworlds.tasks.bank import load_bank

from aliencode.world_schema import load


def port_naive(porter: Porter, task) -> Ported:
    """Port a task's naive solution with what the task shows of its inputs."""
    if task.calls:
        return porter.port(task.naive, [task.example] if task.example else [])
    inputs = task.inputs or task.extra.get("inputs") or ()
    if inputs:
        shown = task.example_inputs or task.extra.get("example_inputs") or inputs[0]
        return porter.port(
            task.naive, [f"SET {name} AS {expr}" for name, expr in shown.items()], callers="manual"
        )
    return porter.port(task.naive, [])


def main() -> None:
    world = load("main")
    bank = load_bank("aliencode", "main")
    grader = AlienCodeGrader(world, bank)
    porter = Porter(world)
    tasks = [t for t in bank.tasks if t.naive]
    start = time.process_time()
    ported = {t.id: port_naive(porter, t) for t in tasks}
    seconds = time.process_time() - start
    passed = sum(grader.grade_answer(t.id, ported[t.id].source).passed for t in tasks)
    slowest = sorted(((p.seconds, tid) for tid, p in ported.items()), reverse=True)[:3]
    print(
        f"ported {len(tasks)} naive solutions in {seconds:.2f} s CPU "
        f"({porter.compensator.searches} searches); {passed}/{len(tasks)} pass their task in main"
    )
    print("slowest (wall s): " + ", ".join(f"{tid} {s:.2f}" for s, tid in slowest))


if __name__ == "__main__":
    main()
