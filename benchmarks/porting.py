"""Porting speed: the main bank's manual-trusting solutions ported to main.

    python benchmarks/porting.py

Ports every naive solution with one Porter (searches are shared between
programs, as when a bank is built), then grades the ported programs. Times
are CPU seconds of this process (wall time on a shared machine is noise).
"""

from __future__ import annotations

import time

from aliencode.world_schema import load
from alienworlds.porting import Porter
from alienworlds.tasks.aliencode_grading import AlienCodeGrader
from alienworlds.tasks.bank import load_bank


def main() -> None:
    world = load("main")
    bank = load_bank("aliencode", "main")
    grader = AlienCodeGrader(world, bank)
    porter = Porter(world)
    tasks = [t for t in bank.tasks if t.naive]
    start = time.process_time()
    ported = {t.id: porter.port(t.naive, [t.example] if t.example else []) for t in tasks}
    seconds = time.process_time() - start
    passed = sum(grader.grade(t.id, ported[t.id].source).passed for t in tasks)
    slowest = sorted(((p.seconds, tid) for tid, p in ported.items()), reverse=True)[:3]
    print(f"ported {len(tasks)} naive solutions in {seconds:.2f} s CPU "
          f"({porter.compensator.searches} searches); {passed}/{len(tasks)} pass their task in main")
    print("slowest (wall s): " + ", ".join(f"{tid} {s:.2f}" for s, tid in slowest))


if __name__ == "__main__":
    main()
