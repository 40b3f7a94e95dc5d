"""The main AlienCode world and its bank keep their promises (issue 4):
the audit runs clean, with the counts computed here rather than trusted."""

from collections import Counter

import pytest

from aliencode.world_schema import load
from alienworlds.tasks.aliencode_audit import audit
from alienworlds.tasks.bank import load_bank


@pytest.fixture(scope="module")
def report():
    return audit(load("main"), load_bank("aliencode", "main"))


def test_audit_is_clean(report):
    assert report.problems == []


def test_world_shape(report):
    rules = report.world.rules
    assert len(rules) == 31
    assert sum(r.red_herring for r in rules) == 8
    assert sum(r.scope != "anywhere" and not r.red_herring for r in rules) >= 2
    by_target = {r.target: r.actual for r in rules if not r.red_herring}
    assert by_target["literal.int"] == "(^ n 27)"
    assert by_target["PLUCK"] == "(get seq (- i 1))"
    assert by_target["SHATTER"] == "(* a b)"


def test_bank_counts(report):
    tasks = report.tasks
    assert len(tasks) == 70 and report.reference_pass == 70
    assert report.naive_pass <= 10
    assert Counter(t.family for t in tasks) == {"base": 37, "nested": 15, "ceiling": 8, "coverage": 10}
    assert Counter(t.kind for t in tasks) == {"synthesis": 69, "prediction": 1}
    keystone = {r.id for r in report.world.rules if r.target in ("PLUCK", "CARVE")}
    assert sum(bool(keystone & set(t.rules)) for t in tasks) >= 45
    assert all(t.n_calls == 5 for t in tasks if t.band in ("engineer", "algorithm"))
    listed = {r for t in tasks for r in t.rules}
    assert listed == {r.id for r in report.world.rules}
    assert Counter(e["band"] for e in report.examples) == {b: 2 for b in ("apply", "interact", "scope", "engineer", "algorithm")}


def test_no_primitive_adds():
    from aliencode import run_source

    world = load("main")
    for op in ("SHATTER", "WEAVE", "PARE", "FRACTURE", "COIL", "RESIDUE", "HALVE"):
        # 26 and 25 are the world's spellings of 1 and 2
        assert run_source(f"EMIT({op}(26, 25))", world).output != "3", op
