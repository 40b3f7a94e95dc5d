"""The Inspect tasks `alienworlds/aliencode` and `alienworlds/alienlogic`.

Task parameters (`-T KEY=VALUE`): world (a shipped world's name or a world
file path; default `main`, the language's main world, so that the log's
task arguments name it), condition (as `aliencode episode --condition`),
passes (answers per task and milestone), seed (the base seed; epoch e uses
seed + e - 1), bank (a bank file), trajectories (epochs, unless --epochs
says otherwise), out (keep the traces there and resume from them),
probes_from (hindsight), fixed_calls (fixed-probe), concurrency (milestone
requests in flight), smoke (a smoke test: SMOKE_TASKS held-out tasks
spread over the bands, SMOKE_ROUNDS round; `passes` still counts, so that
the log's task arguments say what ran: add passes=1 for the cheapest run).

Inspect's `--limit` counts samples, and a task has one sample (its world),
so it shrinks nothing: `smoke=true` is the small run.
"""

from __future__ import annotations

from alienworlds.episode.protocol import CALLS_PER_ROUND, CONDITIONS, PASSES
from alienworlds.sweep import limits
from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import Sample

from .environments import environment_for
from .offline import ensure_encoding
from .scorers import best_at_n, mean_at_n, milestones
from .solver import protocol

MAIN_WORLD = "main"  # the name of each language's main world
SMOKE_TASKS = 3
SMOKE_ROUNDS = 1


def _within(name: str, value: object, low: int, high: int) -> None:
    """A -T parameter in the range `aliencode episode` and sweep files allow,
    checked before any work (Inspect passes -T values as given)."""
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"-T {name}={value!r} is not an integer from {low} to {high}")


def protocol_task(
    language: str,
    world: str | None,
    condition: str,
    passes: int,
    seed: int,
    bank: str | None,
    trajectories: int,
    out: str | None,
    probes_from: str | None,
    fixed_calls: int,
    concurrency: int,
    smoke: bool = False,
) -> Task:
    if type(smoke) is not bool:
        raise ValueError(f"-T smoke={smoke!r} is not true or false")
    _within("passes", passes, *limits.PASSES)
    _within("trajectories", trajectories, *limits.TRAJECTORIES)
    _within("seed", seed, limits.SEED[0], limits.SEED[1] - trajectories + 1)
    _within("fixed_calls", fixed_calls, 1, CALLS_PER_ROUND)
    _within("concurrency", concurrency, *limits.COUNTS["concurrency"])
    if condition not in CONDITIONS:
        raise ValueError(f"unknown condition {condition!r}; one of {', '.join(CONDITIONS)}")
    if condition == "hindsight" and not probes_from:
        raise ValueError(
            "the hindsight condition replays the probes of a trace: give -T probes_from=TRACE"
        )
    ensure_encoding()  # Inspect counts tokens with it: set up here, before any download is tried
    env = environment_for(
        language, world, bank
    )  # fails here, before any model call, on a bad world or bank
    tasks = min(SMOKE_TASKS, len(env.tasks())) if smoke else len(env.tasks())
    sample = Sample(
        id=env.world_name,
        input=f"ExplorationBench episode{' (smoke test)' if smoke else ''}: {language} world "
        f"{env.world_name}, condition {condition}, "
        f"{tasks} held-out tasks answered {passes} times at each milestone.",
        metadata={
            "language": language,
            "world": env.world_name,
            "world_hash": env.world_hash,
            "bank_hash": env.bank_hash(),
            "condition": condition,
        },
    )
    return Task(
        dataset=[sample],
        solver=protocol(
            language,
            world,
            bank,
            condition,
            passes,
            seed,
            out,
            probes_from,
            fixed_calls,
            concurrency,
            SMOKE_ROUNDS if smoke else None,
            SMOKE_TASKS if smoke else None,
        ),
        scorer=milestones(language, world, bank),
        epochs=Epochs(trajectories, [best_at_n(), mean_at_n()]),
        metadata={
            "language": language,
            "world": env.world_name,
            "condition": condition,
            "passes": passes,
            "smoke": smoke,
        },
    )


@task
def aliencode(
    world: str = MAIN_WORLD,
    condition: str = "autonomous",
    passes: int = PASSES,
    seed: int = 0,
    bank: str | None = None,
    trajectories: int = 1,
    out: str | None = None,
    probes_from: str | None = None,
    fixed_calls: int = CALLS_PER_ROUND,
    concurrency: int = 10,
    smoke: bool = False,
) -> Task:
    """AlienCode: probe the world with run_aliencode, then answer held-out tasks closed-book."""
    return protocol_task(
        "aliencode",
        world,
        condition,
        passes,
        seed,
        bank,
        trajectories,
        out,
        probes_from,
        fixed_calls,
        concurrency,
        smoke,
    )


@task
def alienlogic(
    world: str = MAIN_WORLD,
    condition: str = "autonomous",
    passes: int = PASSES,
    seed: int = 0,
    bank: str | None = None,
    trajectories: int = 1,
    out: str | None = None,
    probes_from: str | None = None,
    fixed_calls: int = CALLS_PER_ROUND,
    concurrency: int = 10,
    smoke: bool = False,
) -> Task:
    """AlienLogic: probe the world with check_proof, then prove held-out theorems closed-book."""
    return protocol_task(
        "alienlogic",
        world,
        condition,
        passes,
        seed,
        bank,
        trajectories,
        out,
        probes_from,
        fixed_calls,
        concurrency,
        smoke,
    )
