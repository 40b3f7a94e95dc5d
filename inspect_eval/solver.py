"""The protocol as an Inspect solver: one sample, one trajectory.

The episode driver runs the whole protocol (milestone M0, the rounds, every
milestone's rule report and answers) with the model under evaluation as its
agent and the probe as an Inspect tool; epoch e runs with seed + e - 1;
`rounds` and `tasks` shrink the episode for a smoke test.
The trace goes to OUT/<language>-<world>-<condition>-seed<seed>/t<epoch>
when `out` is given (a rerun with the same `out` resumes each trajectory
from its trace, sending no request twice), else to a temporary folder.
The sample keeps the main conversation as its messages and, in its
metadata, what the scorer grades: the trace's header, milestone budgets and
milestone replies.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alienworlds.episode.driver import Episode, Settings
from alienworlds.episode.trace import read_trace
from inspect_ai.model import get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from .agent import InspectModelAgent
from .environments import environment_for
from .messages import to_inspect
from .tools import ProbeTool

RECORD = "alienworlds"  # the sample metadata key of the record the scorer grades


def grading_record(events: list[dict]) -> dict:
    """What a scorer needs to grade a trajectory again: the header, the
    milestone budgets, every milestone reply and whether the run ended."""
    kept = [
        e
        for e in events
        if e["type"] in ("header", "milestone", "end")
        or (e["type"] == "reply" and e["key"].startswith("reply/M"))
    ]
    return {"events": kept}


@contextmanager
def _trajectory_dir(out: str | None, name: str, epoch: int) -> Iterator[Path]:
    if out is not None:
        yield Path(out) / name / f"t{epoch}"
        return
    with tempfile.TemporaryDirectory(prefix="alienworlds-") as scratch:
        yield Path(scratch)


@solver
def protocol(
    language: str,
    world: str | None = None,
    bank: str | None = None,
    condition: str = "autonomous",
    passes: int = 3,
    seed: int = 0,
    out: str | None = None,
    probes_from: str | None = None,
    fixed_calls: int = 12,
    concurrency: int = 10,
    rounds: int | None = None,
    tasks: int | None = None,
) -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        env = environment_for(language, world, bank)
        own_seed = seed + state.epoch - 1
        tool = ProbeTool(env)
        agent = InspectModelAgent(get_model(), tool.tooldef, seed=own_seed, concurrency=concurrency)
        settings = Settings(
            condition=condition,
            seed=own_seed,
            probes_from=probes_from,
            fixed_per_round=fixed_calls,
            passes=passes,
            rounds=rounds,
            tasks=tasks,
        )
        smoke = "-smoke" if rounds is not None or tasks is not None else ""
        name = f"{language}-{env.world_name}-{condition}-seed{seed}{smoke}"
        with _trajectory_dir(out, name, state.epoch) as directory:
            episode = Episode(
                env, agent, directory, settings, resume=out is not None, tool_runner=tool.run
            )
            await episode.arun()
            events = read_trace(directory)
        state.metadata[RECORD] = grading_record(events)
        state.messages = [
            to_inspect(e["message"]) for e in events if e["type"] == "message"
        ]  # resumed runs too
        state.completed = True
        return state

    return solve
