"""The episodes of a sweep: one `Job` per world × agent × condition ×
trajectory, each with its own folder `<world>/<agent>/<condition>/tN`.

A job is plain data (it travels to a worker process or a Ray node by
pickling): a world given as a file travels as its text, with its bank's,
so a worker needs neither the driver's files nor a shared file system to
read them. Trajectory i of every cell gets seed `seed + i - 1`, as
`aliencode episode --trajectories` assigns them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import limits
from .spec import Sweep, SweepError


@dataclass(frozen=True)
class Job:
    key: str  # world/agent/condition/tN: the episode's folder below the sweep's
    language: str
    world_label: str
    world: str  # a shipped name, or the world file's name when `world_text` is given
    world_text: str | None
    bank_name: str | None  # the bank file's name, when `bank_text` is given
    bank_text: str | None
    agent_label: str
    agent: str
    agent_class: str | None
    options: dict = field(default_factory=dict)
    condition: str = "autonomous"
    trajectory: int = 1
    seed: int = 0
    passes: int = 3
    fixed_calls: int = 12
    endpoint: str | None = None  # the base URL whose in-flight limit applies
    family: str = ""  # the world's family on the leaderboard

    @property
    def world_family(self) -> str:
        return self.family or self.world_label

    def out(self, root: Path) -> Path:
        return root / self.key

    def describe(self) -> dict:
        """The job as sweep.json records it."""
        return {
            "world": self.world_label,
            "agent": self.agent_label,
            "condition": self.condition,
            "trajectory": self.trajectory,
            "seed": self.seed,
        }


def _read(path: str | None) -> tuple[str | None, str | None]:
    if path is None:
        return None, None
    return Path(path).name, Path(path).read_text(encoding="utf-8")


def plan(sweep: Sweep) -> list[Job]:
    """Every episode of the sweep, in a fixed order (world, agent, condition,
    trajectory); raises SweepError, before building any, when they are too
    many (limits.py)."""
    too_large = limits.plan_problem(
        len(sweep.worlds),
        len(sweep.agents),
        len(sweep.conditions),
        sweep.trajectories,
        sweep.passes,
    )
    if too_large is not None:
        raise SweepError([f"{sweep.source}: {too_large}"])
    jobs = []
    for world in sweep.worlds:
        if (
            world.generated and not world.spec
        ):  # its generation failed: its episodes are recorded as failed
            world_name, world_text = "", None
        else:
            world_name, world_text = (world.spec, None) if world.shipped else _read(world.spec)
        bank_name, bank_text = _read(world.bank)
        for agent in sweep.agents:
            endpoint = agent.base_url if agent.base_url in sweep.endpoints else None
            for condition in sweep.conditions:
                for index in range(1, sweep.trajectories + 1):
                    jobs.append(
                        Job(
                            key=f"{world.label}/{agent.label}/{condition}/t{index}",
                            language=sweep.language,
                            world_label=world.label,
                            world=world_name,
                            world_text=world_text,
                            bank_name=bank_name,
                            bank_text=bank_text,
                            agent_label=agent.label,
                            agent=agent.name,
                            agent_class=agent.agent_class,
                            options=dict(agent.options),
                            condition=condition,
                            trajectory=index,
                            seed=sweep.seed + index - 1,
                            passes=sweep.passes,
                            fixed_calls=sweep.fixed_calls,
                            endpoint=endpoint,
                            family=world.board_family,
                        )
                    )
    return jobs
