"""The sweep's leaderboard: DIR/leaderboard.md, .json and .html, and the
curves (DIR/curves.png, DIR/curves.svg), built with `episode.leaderboard`.

Systems are ranked within a **world family** and condition. A world named
in the sweep (shipped, or a file) is a family of its own; the worlds
generated from one entry's seeds form one family. Trajectories pool per
system, with the family's floor when its worlds share one. Episodes that failed are
counted in their row's failures column (from sweep.json), never pooled.
"""

from __future__ import annotations

import json
from pathlib import Path

from alienworlds.episode import leaderboard
from alienworlds.episode.driver import REPORT_NAME
from alienworlds.episode.plots import write_curves

from .plan import Job

BOARD_NAMES = ("leaderboard.md", "leaderboard.json", "leaderboard.html")
FAMILY = "family"  # the key a report carries, in the sweep's copy, for its world family


def family_setting(report: dict) -> dict:
    """What makes scores comparable in a sweep: language, world family,
    condition and answers per task."""
    return {
        "language": report.get("language"),
        "family": report.get(FAMILY),
        "condition": report.get("condition"),
        "passes": report.get("passes"),
    }


def job_setting(job: Job) -> dict:
    return {
        "language": job.language,
        "family": job.world_family,
        "condition": job.condition,
        "passes": job.passes,
    }


def boards(
    root: Path, jobs: list[Job], episodes: dict[str, dict], rank_by: str = "best"
) -> list[leaderboard.Board]:
    entries, failures = [], []
    for job in jobs:
        status = episodes[job.key]["status"]
        if status == "done":
            report = json.loads((root / job.key / REPORT_NAME).read_text(encoding="utf-8"))
            entries.append((job.key, {**report, FAMILY: job.world_family}))
        elif status == "failed":
            failures.append(
                (job_setting(job), episodes[job.key].get("system") or {"name": job.agent})
            )
    return leaderboard.build(entries, rank_by, family_setting, failures)


def write(root: Path, built: list[leaderboard.Board], rank_by: str = "best") -> list[Path]:
    """The leaderboard files and the curves, in `root`."""
    png, svg = write_curves(root, leaderboard.panels(built))
    paths = leaderboard.write(
        built, [root / name for name in BOARD_NAMES], rank_by, svg.read_bytes()
    )
    return [*paths, png, svg]
