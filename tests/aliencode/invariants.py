"""What a speed-up of the interpreter must not change, recorded from the code
before it: for every run, the output, the error, the steps, the probe units
and the memory census's peak.

Two sets of runs:

* the worst-case generator's cases (worst_cases.py) for fixed seeds, plus
  the cases the audits that found them gave;
* every program run while auditing the main world's task bank (references,
  naive solutions, the validity battery), in the order the audit runs them,
  and the audit's verdicts (`world check main --json` without its timing).

    python tests/aliencode/invariants.py --write   # record (before a change)
    python tests/aliencode/invariants.py           # compare with the record

test_invariants.py compares the same records with the stored ones. Each run
is kept as a short digest of what it did (the audit's runs in blocks of
BLOCK), so the record stays small and a difference names where it is.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from alienworlds.ruleset import WorldError, parse_world

from aliencode import Limits, Session, run_source
from aliencode.world_schema import SCHEMA, load

sys.path.insert(0, str(Path(__file__).parent))
from worst_cases import generate, issue_25_cases, issue_cases  # noqa: E402

RECORD = Path(__file__).with_name("invariants.json")
SEEDS = (13, 14)
# Cases that need hundreds of MB or seconds of compiling each are left to
# test_worst_cases.py: on a busy machine the largest compile past the
# wall-clock backstop, which would make the record depend on the machine.
HEAVY_FAMILIES = ("memory", "compile", "splicing")
BLOCK = 100  # audit runs per digest


def _digest(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:12]


def describe(result, session: Session | None) -> dict[str, object]:
    """What a run did: everything a verdict or a grade can read."""
    error = result.error.as_dict() if result.error else None
    peak = session.meter.peak if session is not None else None
    return {
        "output": _digest(result.output),
        "error": error["kind"] + ": " + error["message"] if error else None,
        "steps": result.steps,
        "units": result.units,
        "peak": peak,
    }


def worst_case_records() -> dict[str, dict[str, object]]:
    cases = [c for seed in SEEDS for c in generate(seed)] + issue_cases() + issue_25_cases()
    cases = [c for c in cases if c.family not in HEAVY_FAMILIES]
    records: dict[str, dict[str, object]] = {}
    for case in cases:
        key = f"{case.family}/{case.name}/{_digest(case.source, case.world, case.world_text)}"
        try:
            world = (
                parse_world(case.world_text, "hostile.toml", SCHEMA)
                if case.world_text
                else load(case.world)
            )
        except WorldError as exc:
            records[key] = {"world error": _digest(str(exc))}
            continue
        with recorded_sessions() as runs:
            result = run_source(case.source, world)
        records[key] = describe(result, runs[-1][1] if runs else None)
    return records


@contextmanager
def recorded_sessions() -> Iterator[list[tuple[object, Session]]]:
    """Every Session.execute inside the block, with its result, in order."""
    runs: list[tuple[object, Session]] = []
    original: Callable = Session.execute

    def execute(self, program, *args, **kwargs):
        result = original(self, program, *args, **kwargs)
        runs.append((result, self))
        return result

    Session.execute = execute
    try:
        yield runs
    finally:
        Session.execute = original


def audit_records() -> dict[str, object]:
    from alienworlds.episode.aliencode_env import audit_key
    from alienworlds.episode.audit_cache import cached_audit
    from alienworlds.tasks.aliencode_audit import audit
    from alienworlds.tasks.bank import load_bank, own_bank_path

    world = load("main")
    bank = load_bank("aliencode", world.name, own_bank_path("aliencode", world))
    with recorded_sessions() as runs:
        report = audit(world, bank)
    # kept for the environments of the test run, which would audit main again
    cached_audit("aliencode", audit_key(world, bank, Limits()), lambda: report)
    verdicts = {
        "ok": not report.problems,
        "problems": report.problems,
        "tasks": [t.as_dict() for t in report.tasks],
        "reference_pass": report.reference_pass,
        "naive_pass": report.naive_pass,
        "validity": report.validity.as_dict() if report.validity else None,
    }
    described = [describe(result, session) for result, session in runs]
    blocks = [described[i : i + BLOCK] for i in range(0, len(described), BLOCK)]
    return {
        "verdicts": _digest(verdicts),
        "runs": len(described),
        "blocks": [_digest(block) for block in blocks],
        "steps": sum(result.steps for result, _ in runs),
    }


def records() -> dict[str, object]:
    # the audit first: the test run's environments read it from the cache once it is there
    audited = audit_records()
    return {"worst_cases": worst_case_records(), "main_audit": audited}


def differences(found: dict[str, object], stored: dict[str, object]) -> list[str]:
    """What changed, one line each (empty when nothing did)."""
    out = []
    cases, before = found["worst_cases"], stored["worst_cases"]
    for key in sorted(set(cases) | set(before)):
        if cases.get(key) != before.get(key):
            out.append(f"worst case {key}: {before.get(key)} -> {cases.get(key)}")
    audit, was = found["main_audit"], stored["main_audit"]
    if audit["verdicts"] != was["verdicts"]:
        out.append("main audit: the verdicts changed")
    if audit["runs"] != was["runs"]:
        out.append(f"main audit: {was['runs']} runs -> {audit['runs']}")
    for i, (now, then) in enumerate(zip(audit["blocks"], was["blocks"], strict=False)):
        if now != then:
            out.append(f"main audit: runs {i * BLOCK} to {(i + 1) * BLOCK - 1}: something changed")
            break
    if audit["steps"] != was["steps"]:
        out.append(f"main audit: {was['steps']} steps in all -> {audit['steps']}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--write", action="store_true", help=f"record into {RECORD.name}")
    args = parser.parse_args()
    found = records()
    if args.write:
        RECORD.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(
            f"recorded {len(found['worst_cases'])} worst cases and "
            f"{found['main_audit']['runs']} audit runs"
        )
        return
    changed = differences(found, json.loads(RECORD.read_text(encoding="utf-8")))
    print("\n".join(changed) or "unchanged")
    sys.exit(1 if changed else 0)


if __name__ == "__main__":
    main()
