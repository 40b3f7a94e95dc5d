"""The Inspect tasks `alienworlds/aliencode` and `alienworlds/alienlogic`.

Task parameters (`-T KEY=VALUE`): world (a shipped world's name or a world
file path; default the language's main world), condition (as `aliencode
episode --condition`), passes (answers per task and milestone), seed (the
base seed; epoch e uses seed + e - 1), bank (a bank file), trajectories
(epochs, unless --epochs says otherwise), out (keep the traces there and
resume from them), probes_from (hindsight), fixed_calls (fixed-probe),
concurrency (milestone requests in flight).
"""

from __future__ import annotations

from alienworlds.episode.protocol import CALLS_PER_ROUND, CONDITIONS, PASSES
from alienworlds.sweep import limits
from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import Sample

from .environments import environment_for
from .scorers import best_at_n, milestones
from .solver import protocol


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
) -> Task:
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
    env = environment_for(
        language, world, bank
    )  # fails here, before any model call, on a bad world or bank
    sample = Sample(
        id=env.world_name,
        input=f"ExplorationBench episode: {language} world {env.world_name}, condition {condition}, "
        f"{len(env.tasks())} held-out tasks answered {passes} times at each milestone.",
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
        ),
        scorer=milestones(language, world, bank),
        epochs=Epochs(trajectories, [best_at_n(), "mean"]),
        metadata={
            "language": language,
            "world": env.world_name,
            "condition": condition,
            "passes": passes,
        },
    )


@task
def aliencode(
    world: str | None = None,
    condition: str = "autonomous",
    passes: int = PASSES,
    seed: int = 0,
    bank: str | None = None,
    trajectories: int = 1,
    out: str | None = None,
    probes_from: str | None = None,
    fixed_calls: int = CALLS_PER_ROUND,
    concurrency: int = 10,
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
    )


@task
def alienlogic(
    world: str | None = None,
    condition: str = "autonomous",
    passes: int = PASSES,
    seed: int = 0,
    bank: str | None = None,
    trajectories: int = 1,
    out: str | None = None,
    probes_from: str | None = None,
    fixed_calls: int = CALLS_PER_ROUND,
    concurrency: int = 10,
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
    )
