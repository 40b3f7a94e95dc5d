"""Pelletier's problems (benchmarks/pelletier.py) in the standard world: a
fast subset runs here, the whole set with `python benchmarks/pelletier.py`.
Every proof the prover prints is checked again here."""

import importlib.util
import sys
import time
from pathlib import Path

import pytest

from alienlogic import check, load_world
from alienlogic.prover import prove

_SPEC = importlib.util.spec_from_file_location(
    "pelletier", Path(__file__).parents[2] / "benchmarks" / "pelletier.py"
)
pelletier = importlib.util.module_from_spec(_SPEC)
sys.modules.setdefault("pelletier", pelletier)  # dataclasses look their module up
_SPEC.loader.exec_module(pelletier)

STANDARD = load_world("standard")
# the slowest ones (a few tenths of a second up to seconds) stay in the benchmark
SLOW = {20, 36, 37, 40, 41}
FAST = [p for p in pelletier.PROBLEMS if p.number not in SLOW]


def test_the_benchmark_holds_problems_1_to_46():
    assert [p.number for p in pelletier.PROBLEMS] == list(range(1, 47))
    assert all(p.first_order == (p.number >= 18) for p in pelletier.PROBLEMS)
    # biconditionals are written out as two implications
    assert all("IFF" not in p.goal for p in pelletier.PROBLEMS)


@pytest.mark.parametrize("problem", FAST, ids=[f"P{p.number}" for p in FAST])
def test_pelletier_problem_is_proved_and_checked(problem):
    t = pelletier.theorem(problem)
    start = time.process_time()
    r = prove(STANDARD, t, seconds=10)
    assert r.found, r.reason
    assert time.process_time() - start < 10
    assert check(r.proof, STANDARD, task=t).accepted
