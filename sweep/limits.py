"""The bounds of a sweep, checked before anything is built: the file, the
grid's sizes and the plan they multiply into. `aliencode episode` reads the
same trajectory, pass and seed ranges. The generators' knobs and seeds are
bounded in generate/knobs.py.

Every bound holds the documented uses many times over (docs/sweeps.md); a
sweep past them would not finish in any useful time, and its plan alone
would fill the driver's memory.
"""

from __future__ import annotations

from .bounded_toml import TomlBounds

FILE = TomlBounds(max_bytes=1 << 20, max_depth=32)
TRAJECTORIES = (1, 1000)
PASSES = (1, 100)
SEED = (-(2**53 - 1), 2**53 - 1)  # every trajectory's seed an integer any JSON reader keeps exact
WORLDS = 200  # entries of `worlds`, each seed of a generated family counted
AGENTS = 100
ENDPOINTS = 100
EPISODES = 10_000  # worlds × agents × conditions × trajectories
ANSWER_ROUNDS = 100_000  # episodes × passes: the answering work the plan asks for
JOBS = 256  # episodes at once (--jobs): worker processes, or Ray tasks in flight
# the openai agent's options, in a sweep file and on `episode`'s command line
COUNTS = {"concurrency": (1, 256), "max_retries": (0, 100)}
SECONDS = {"timeout": 86400.0, "backoff": 3600.0}  # finite, above 0, at most this


def plan_problem(
    worlds: int, agents: int, conditions: int, trajectories: int, passes: int
) -> str | None:
    """Why a grid of these sizes is too large to plan, or None."""
    episodes = worlds * agents * conditions * trajectories
    if episodes > EPISODES:
        return (
            f"{worlds} worlds × {agents} agents × {conditions} conditions × {trajectories} "
            "trajectories is "
            f"{episodes:,} episodes, more than {EPISODES:,}; split the sweep"
        )
    if episodes * passes > ANSWER_ROUNDS:
        return (
            f"{episodes:,} episodes × {passes} passes is {episodes * passes:,} answering rounds, "
            "more than "
            f"{ANSWER_ROUNDS:,}; split the sweep or lower `passes`"
        )
    return None
