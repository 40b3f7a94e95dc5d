"""Helpers of the sweep tests: a second world with its bank beside it, the
test grid, and the traces and leaderboard a sweep leaves."""

from __future__ import annotations

import json
from pathlib import Path

from alienworlds.episode.trace import TRACE_NAME, comparable, read_trace

HERE = Path(__file__).parent
REPO = HERE.parent.parent
TWO_WORLDS = '"demo", {{ path = "{twin}", label = "twin" }}'
GRID = """
worlds = [{worlds}]
agents = [{agents}]
conditions = ["direct", "autonomous"]
trajectories = 2
passes = 1
"""
BUILT_IN = '"oracle", "naive", "fixed"'


def twin_world(folder: Path) -> Path:
    """A world file with its bank beside it, as a generated world's folder
    holds them: the demo world under another name (so another hash)."""
    folder.mkdir(parents=True, exist_ok=True)
    text = (REPO / "ruleset" / "worlds" / "aliencode" / "demo.toml").read_text(encoding="utf-8")
    (folder / "world.toml").write_text(
        text.replace('name = "demo"', 'name = "twin"', 1), encoding="utf-8"
    )
    (folder / "bank.toml").write_text(
        (REPO / "tasks" / "aliencode" / "demo.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    return folder / "world.toml"


def write_sweep(
    folder: Path, twin: Path, agents: str = BUILT_IN, extra: str = "", worlds: str = TWO_WORLDS
) -> Path:
    """The test grid (2 conditions × 2 trajectories, one answer a task) over
    `worlds` (default: demo and the twin) and `agents`."""
    path = folder / "sweep.toml"
    path.write_text(
        GRID.format(worlds=worlds.format(twin=twin), agents=agents) + extra, encoding="utf-8"
    )
    return path


def traces(root: Path) -> dict[str, list[dict]]:
    """Every episode's events, without their wall-clock times, by folder."""
    return {
        p.parent.relative_to(root).as_posix(): [comparable(e) for e in read_trace(p)]
        for p in sorted(root.rglob(TRACE_NAME))
    }


def board(root: Path) -> dict:
    return json.loads((root / "leaderboard.json").read_text(encoding="utf-8"))
