"""Porting the main bank's manual-trusting solutions: they must pass.

Iterates over whatever the bank holds (no task ids here): every task with a
naive solution is ported to the main world, with what the task shows as the
only hint about argument types (its example call, or its example inputs; a
task with neither is a closed whole program), and graded on the task's
private calls or inputs by the grader.
"""

from __future__ import annotations

import pytest
from alienworlds.porting import Porter
from alienworlds.ruleset import standard_world
from alienworlds.tasks.aliencode_grading import AlienCodeGrader
from alienworlds.tasks.bank import load_bank
from bank_tasks import port_naive

from aliencode.world_schema import load


@pytest.fixture(scope="module")
def main():
    world = load("main")
    bank = load_bank("aliencode", "main")
    return world, bank, AlienCodeGrader(world, bank), Porter(world)


def test_every_ported_naive_solution_passes_its_task(main):
    world, bank, grader, porter = main
    solved = [t for t in bank.tasks if t.naive]
    assert solved, "the bank has no naive solutions to port"
    failures = []
    for task in solved:
        ported = port_naive(porter, task)
        grade = grader.grade(task.id, ported.source)
        if not grade.passed:
            failures.append((task.id, [c.reason for c in grade.calls], ported.source))
    assert not failures, failures


def test_the_naive_solutions_mostly_fail_unported(main):
    # The port is doing the work: without it, most naive solutions fail.
    world, bank, grader, _ = main
    solved = [t for t in bank.tasks if t.naive]
    passing = sum(grader.grade(t.id, t.naive).passed for t in solved)
    assert passing < len(solved) / 2


def test_porting_under_standard_is_the_identity():
    bank = load_bank("aliencode", "main")
    porter = Porter(standard_world("aliencode"))
    for task in bank.tasks:
        for source in (task.naive, task.reference, task.program):
            if source:
                ported = porter.port(source, [task.example] if task.example else [])
                assert ported.source == source and not ported.changes and not ported.helpers
