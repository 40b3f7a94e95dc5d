"""Speed of the AlienLogic certifier, prover, audit and grader on the main
world (issue 6's goals: all 25 certificates found in under 60 s in total and
re-checked in under 5 s; the prover proves all 45 provable theorems in under
60 s).

    python benchmarks/logic_bank.py            # each measurement in a fresh process state
    python benchmarks/logic_bank.py --repeat 3 # best of three

Each figure is measured from cold caches: a certificate search builds its
own rule oracle, a re-check reads the certificate from disk and shares
nothing with the search, the prover starts a new search per theorem.
"""

from __future__ import annotations

import argparse
import statistics
import time

from alienlogic import load_world
from alienlogic.certify import check_certificate, find_certificate, load_certificate
from alienlogic.kernel import _WORLDS
from alienlogic.prover import prove
from alienworlds.ruleset.world import standard_world
from alienworlds.tasks.alienlogic_audit import audit
from alienworlds.tasks.alienlogic_grading import AlienLogicGrader, logic_tasks
from alienworlds.tasks.bank import load_bank


def _clear() -> None:
    from alienlogic import certify

    certify._SOUND.clear()
    _WORLDS.clear()


def measure(repeat: int) -> dict[str, float]:
    world = load_world("main")
    standard = standard_world("alienlogic")
    bank = load_bank("alienlogic", "main")
    tasks = logic_tasks(bank)
    unprovable = [t for t in tasks if not t.provable]
    provable = [t for t in tasks if t.provable]
    best: dict[str, float] = {}
    notes: dict[str, str] = {}

    def keep(name: str, seconds: float, note: str) -> None:
        if name not in best or seconds < best[name]:
            best[name], notes[name] = seconds, note

    for _ in range(repeat):
        _clear()
        t0 = time.perf_counter()
        found = [find_certificate(world, t.theorem, t.id) for t in unprovable]
        kinds = [f.data["kind"] for f in found if f.data]
        keep("certificates found", time.perf_counter() - t0,
             f"{len(kinds)}/{len(unprovable)} ({kinds.count('semantic')} semantic, {kinds.count('bounded')} bounded)")
        _clear()
        t0 = time.perf_counter()
        held = [check_certificate(load_certificate(t.certificate), world, t.theorem) for t in unprovable]
        keep("certificates re-checked", time.perf_counter() - t0, f"{sum(r.ok for r in held)}/{len(unprovable)} hold")
        _clear()
        t0 = time.perf_counter()
        proofs = [prove(world, t.theorem) for t in provable]
        times = sorted(p.seconds for p in proofs)
        keep("prover, 45 provable (world)", time.perf_counter() - t0,
             f"{sum(p.found for p in proofs)}/{len(provable)} proved; median {statistics.median(times) * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms")
        t0 = time.perf_counter()
        proofs = [prove(standard, t.theorem) for t in unprovable]
        keep("prover, 25 unprovable (standard)", time.perf_counter() - t0, f"{sum(p.found for p in proofs)}/{len(unprovable)} proved")
        t0 = time.perf_counter()
        proofs = [prove(world, t.theorem, seconds=3.0) for t in unprovable]
        keep("prover, 25 unprovable (world)", time.perf_counter() - t0, f"{sum(not p.found for p in proofs)}/{len(unprovable)} find no proof")
        _clear()
        t0 = time.perf_counter()
        report = audit(world, bank, prover=True)
        keep("audit (with prover)", time.perf_counter() - t0, f"{len(report.problems)} problems")
        t0 = time.perf_counter()
        report = audit(world, bank, prover=False)
        keep("audit (without prover)", time.perf_counter() - t0, f"{len(report.problems)} problems")
        grader = AlienLogicGrader(world, bank)
        answers = [(t.id, t.reference) for t in provable] + [(t.id, "ANSWER: UNPROVABLE") for t in unprovable]
        answers += [(t.id, t.naive) for t in tasks if t.naive]
        times = []
        for task_id, text in answers:
            t0 = time.perf_counter()
            grader.grade(task_id, text)
            times.append(time.perf_counter() - t0)
        keep("grade one answer (median)", statistics.median(times), f"{len(times)} answers, max {max(times) * 1000:.2f} ms")
    for name, seconds in best.items():
        unit = f"{seconds * 1000:.2f} ms" if seconds < 0.1 else f"{seconds:.2f} s"
        print(f"{name:<36} {unit:>10}   {notes[name]}")
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1)
    measure(parser.parse_args().repeat)


if __name__ == "__main__":
    main()
