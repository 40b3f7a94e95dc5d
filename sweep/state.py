"""The sweep's own record, DIR/sweep.json: every episode of the plan with
its status (`done`, `failed`, `pending`), its error, how often it was
started and how long its last run took.

The traces stay the truth: on `--resume` an episode counts as done when its
folder's report says the run ended (whatever sweep.json says, which a kill
may have left behind), and every other episode runs again.
"""

from __future__ import annotations

import json
from pathlib import Path

from alienworlds.episode.driver import REPORT_NAME, write_json

from .plan import Job
from .spec import Sweep

STATE_NAME = "sweep.json"
COPY_NAME = "sweep.toml"
FORMAT = 1


class StateError(Exception):
    """An output folder that cannot hold this sweep (without --resume)."""


def finished(folder: Path, job: Job) -> bool:
    """The episode in `folder` ran to its end, as `job` asks for it (an
    edited sweep file may ask for another condition, seed or number of
    answers: then the episode runs again, and the driver's check of the
    trace's header says what differs)."""
    try:
        report = json.loads((folder / REPORT_NAME).read_text(encoding="utf-8"))
        wanted = {"condition": job.condition, "passes": job.passes, "seed": job.seed}
        return report.get("complete") is True and all(report.get(k) == v for k, v in wanted.items())
    except (OSError, ValueError, AttributeError):
        return False


def prepare(root: Path, resume: bool) -> dict[str, dict]:
    """Check the output folder; the episodes recorded by an earlier run (on
    --resume), by key."""
    state = root / STATE_NAME
    if not resume:
        if state.exists():
            raise StateError(
                f"{root} holds a sweep already: continue it with --resume, or choose another --out"
            )
        if root.exists() and any(root.iterdir()):
            raise StateError(
                f"{root} is not empty: give a new or empty folder, or --resume a sweep in it"
            )
        return {}
    if not state.exists():
        return {}
    try:
        data = json.loads(state.read_text(encoding="utf-8"))
        return {e["key"]: e for e in data["episodes"]}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise StateError(
            f"{state} cannot be read ({type(exc).__name__}: {exc}); move it away to start the "
            "record afresh"
        ) from None


class State:
    """The record of one sweep run, written atomically after every change."""

    def __init__(
        self, root: Path, sweep: Sweep, jobs: list[Job], earlier: dict[str, dict], executor: str
    ) -> None:
        self.root = root
        self.sweep = sweep
        self.executor = executor
        self.episodes: dict[str, dict] = {}
        for job in jobs:
            old = earlier.get(job.key, {})
            self.episodes[job.key] = {
                "key": job.key,
                **job.describe(),
                "status": "pending",
                "error": old.get("error"),
                "starts": int(old.get("starts", 0)),
                "seconds": old.get("seconds"),
                "system": old.get("system"),
            }

    def mark(self, key: str, status: str, **fields: object) -> None:
        self.episodes[key].update(status=status, **fields)

    def counts(self) -> dict[str, int]:
        statuses = [e["status"] for e in self.episodes.values()]
        return {
            "episodes": len(statuses),
            **{s: statuses.count(s) for s in ("done", "failed", "pending")},
        }

    def write(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        copy = self.root / COPY_NAME
        if not copy.exists() or copy.read_text(encoding="utf-8") != self.sweep.text:
            copy.write_text(self.sweep.text, encoding="utf-8")
        write_json(
            self.root / STATE_NAME,
            {
                "format": FORMAT,
                "language": self.sweep.language,
                "sweep_file": str(self.sweep.source),
                "sweep_hash": self.sweep.hash,
                "executor": self.executor,
                "counts": self.counts(),
                "episodes": list(self.episodes.values()),
            },
        )
