"""The worst cases of every class of the limits contract, generated from a
fixed seed (worst_cases.py), run in child processes under the kernel's
resource accounting: each ends with its expected verdict, never a crash, an
internal error or the wall-clock backstop, within 10 s of CPU and 512 MB of
peak memory. Light families share one child; the heavy cases run alone
(through `aliencode run`), so each one's peak is its own.

`python benchmarks/limits.py` runs more seeds and prints the measurements.
"""

from __future__ import annotations

import pytest
from machine_speed import scaled
from worst_cases import (
    MEMORY_BOUND_MB,
    SECONDS_BOUND,
    Case,
    Measured,
    generate,
    run_alone,
    run_batch,
)

SEED = 13
LIGHT = [
    "fold",
    "render",
    "compare",
    "fold-budget",
    "world",
    "output",
    "characters",
    "layout",
    "sorting",
    "functions",
    "depth",
]
HEAVY = {
    "memory": ["extents-of-big-integers", "waiting-results", "pairs"],
    "compile": ["nested-splices", "dense-program", "over-the-token-cap", "many-arguments"],
    "splicing": ["sites-under-a-31-node-rule"],
}


def check(case: Case, measured: Measured) -> None:
    verdict = measured.verdict
    assert not verdict.startswith("crash"), f"{case.name}: {verdict}"
    assert not verdict.startswith("InternalError"), f"{case.name}: {verdict}"
    assert "time limit" not in verdict, f"{case.name}: stopped by the wall-clock backstop"
    if case.expect is not None:
        assert case.expect in verdict, f"{case.name}: expected {case.expect!r}, got {verdict!r}"
    assert measured.cpu < scaled(SECONDS_BOUND), f"{case.name}: {measured.cpu:.1f} s of CPU"
    assert measured.peak_mb < MEMORY_BOUND_MB, f"{case.name}: {measured.peak_mb:.0f} MB"


def test_light_families_in_one_child():
    cases = generate(SEED, LIGHT)
    assert {c.family for c in cases} == set(LIGHT)
    measured, peak = run_batch(cases)
    assert [m.case for m in measured] == [c.name for c in cases]
    for case, m in zip(cases, measured):
        check(case, m)
    assert peak < MEMORY_BOUND_MB


@pytest.mark.parametrize("family,name", [(f, n) for f, names in HEAVY.items() for n in names])
def test_heavy_cases_alone(family, name):
    case = next(c for c in generate(SEED, [family]) if c.name == name)
    measured = run_alone(case)
    check(case, measured)
    assert measured.exit_code == (0 if measured.verdict == "ok" else 1)


def test_the_generator_is_seeded():
    assert generate(SEED) == generate(SEED)
    assert generate(SEED) != generate(SEED + 1)
