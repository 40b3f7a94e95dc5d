"""Speed-ups change no verdict: the worst-case generator's cases and every
run of the main bank's audit give the same output, error, steps, probe
units and memory peak as the code before them (recorded by invariants.py
into invariants.json, from that code)."""

from __future__ import annotations

import json

from invariants import RECORD, differences, records


def test_runs_are_unchanged_from_the_record():
    stored = json.loads(RECORD.read_text(encoding="utf-8"))
    found = records()
    assert len(found["worst_cases"]) == len(stored["worst_cases"]) > 50
    assert found["main_audit"]["runs"] > 1000
    assert differences(found, stored) == []


def test_a_changed_run_is_reported():
    stored = json.loads(RECORD.read_text(encoding="utf-8"))
    changed = json.loads(json.dumps(stored))
    key = sorted(changed["worst_cases"])[0]
    changed["worst_cases"][key] = {"steps": -1}
    changed["main_audit"]["blocks"][3] = "0" * 12
    found = differences(changed, stored)
    assert any(key in line for line in found)
    assert any("runs 300 to 399" in line for line in found)
