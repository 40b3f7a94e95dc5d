"""Shared by the calibrator tests: a one-task synthesis case in a world
written for the test, with the outcomes the manual's semantics give."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from alienworlds.tasks.aliencode_grading import manual_world, outcomes
from alienworlds.tasks.bank import Task

from aliencode import Limits, World
from aliencode.world_schema import load


@dataclass(frozen=True)
class Case:
    world: World
    task: Task
    want: object  # the naive solution's outcomes under the manual
    limits: Limits

    def outcomes(self, answer: str) -> object:
        return outcomes(self.world, self.limits, answer, self.task)


@pytest.fixture
def synthesis_case(tmp_path) -> Callable[..., Case]:
    def make(world_text: str, naive: str, example: str, calls: tuple[str, ...]) -> Case:
        path = tmp_path / "world.toml"
        path.write_text(world_text)
        world = load(str(path))
        task = Task(id="Z", kind="synthesis", prompt="", example=example, calls=calls, naive=naive)
        limits = Limits()
        return Case(world, task, outcomes(manual_world(world), limits, naive, task), limits)

    return make
