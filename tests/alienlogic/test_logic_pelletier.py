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


# -- problems 1-17 in the worlds that disable one rule each ------------------------


def _mentions_implication(problem) -> bool:
    return any("IMPL(" in f for f in (*problem.premises, problem.goal))


@pytest.fixture(scope="module")
def world_table():
    return pelletier.world_table(list(pelletier.DISABLED_WORLDS), [])


def test_every_problem_is_proved_or_certified_in_every_one_rule_disabled_world(world_table):
    from alienlogic.certify import check_certificate

    assert list(world_table) == ["DNE", "LEM", "NOT_I", "IMPL_I"]
    for rule, row in world_table.items():
        world = load_world(str(pelletier.DISABLED_WORLDS[rule]))
        assert [(r.target, r.disabled) for r in world.rules] == [(rule, True)]
        assert sorted(row) == list(range(1, 18))
        for number, cell in row.items():
            t = pelletier.theorem(pelletier.PROBLEMS[number - 1])
            if cell.status == "proved":
                # the proof never uses the disabled rule, and the kernel accepts it
                assert rule not in {s.rule for s in cell.proof.steps}, (rule, number)
                assert check(cell.proof, world, task=t).accepted, (rule, number)
            else:
                assert cell.status == "certified", (rule, number, cell.reason)
                assert check_certificate(cell.certificate, world, t).ok, (rule, number)


def test_which_problems_stay_provable(world_table):
    # DNE and NOT_I are derivable from excluded middle by cases, and LEM from
    # NOT_I and DNE, so every classical theorem stays provable without one of
    # them. IMPL_I is the only rule that introduces an implication, and in
    # these problems every implication that occurs in a goal is one no
    # premise provides: the problems with an implication become unprovable,
    # the two without one (6 and 7) stay provable.
    for rule in ("DNE", "LEM", "NOT_I"):
        assert {c.status for c in world_table[rule].values()} == {"proved"}, rule
    for number, cell in world_table["IMPL_I"].items():
        expected = (
            "certified" if _mentions_implication(pelletier.PROBLEMS[number - 1]) else "proved"
        )
        assert cell.status == expected, number
