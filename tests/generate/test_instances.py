"""The first look at whether a task is worth porting (instances.py): it
finds a naive solution the world leaves right, judges every private run,
and gives up on a loop the world makes endless after LOOK_STEPS."""

from __future__ import annotations

import alienworlds.tasks.aliencode_grading as grading
import pytest
from alienworlds.generate.aliencode.instances import LOOK_STEPS, Instantiation
from alienworlds.ruleset import Rule, World
from alienworlds.tasks.bank import Task

COUNT_UP = "SET i AS 0\nWHILE UNDER(i, n):\n    SET i AS SHATTER(i, 1)\nEMIT(i)\n"


def world(*rules: Rule) -> World:
    return World(name="look", language="aliencode", rules=rules)


def task(naive: str, ns: list[int]) -> Task:
    return Task(
        id="T",
        kind="synthesis",
        prompt="",
        naive=naive,
        reference=naive,
        inputs=tuple({"n": str(n)} for n in ns),
    )


def look(w: World, t: Task, expected: list[str]) -> bool:
    return Instantiation(w, None, "look test")._passes_unported(t, expected)


def test_a_naive_solution_no_rule_touches_passes():
    w = world(
        Rule(id="G01", name="", target="PLUCK", actual="(get seq (- i 1))", layer="positions")
    )
    assert look(w, task(COUNT_UP, [2, 3, 5]), ["2", "3", "5"])


def test_every_run_is_judged_not_only_the_first():
    # the world adds one to every sum above 3: the first run (n = 2) is right, the others are not
    bent = Rule(
        id="G01",
        name="",
        target="SHATTER",
        actual="(if (> (+ a b) 3) (+ a b 1) (+ a b))",
        layer="arithmetic",
    )
    t = task(COUNT_UP, [2, 6, 9])
    assert not look(world(bent), t, ["2", "6", "9"])
    assert look(world(), t, ["2", "6", "9"])


@pytest.mark.parametrize("loop_scope", ["anywhere", "top"])
def test_a_loop_the_world_makes_endless_stops_at_the_look_limit(monkeypatch, loop_scope):
    steps = []
    run_pair = grading.run_pair

    def counted(setup, program, limits):
        first, second = run_pair(setup, program, limits)
        steps.append(second.steps)
        return first, second

    monkeypatch.setattr(grading, "run_pair", counted)
    never = Rule(
        id="G01", name="", target="UNDER", actual="true", layer="comparison", scope=loop_scope
    )
    assert not look(world(never), task(COUNT_UP, [2, 3, 5]), ["2", "3", "5"])
    assert steps and max(steps) <= LOOK_STEPS + 1
    assert len(steps) == 1  # the first run failed: the others are not run
