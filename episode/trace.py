"""The append-only episode trace (DIR/trace.jsonl).

One JSON object per line, each with a `type` and a `key` unique within the
episode (`header`, `msg/3`, `r2/turn4`, `M1/T07/2`, ...). Every append is
flushed to the kernel before the driver goes on, so a killed process loses
at most the line it was writing, and fsynced (for the offline agents, whose
work is cheap to redo, at most every `sync_interval` seconds and at each
milestone) so that a machine crash loses no model reply. Resuming reads the trace, drops a torn last
line (a write the kill interrupted), and indexes the events by key: the
driver then runs the protocol from the start and takes every event the
trace already holds instead of redoing its work (no model request is sent
twice, nothing is written twice). Events carry a wall-clock time `at`,
which is the only field that differs between two identical runs.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

TRACE_NAME = "trace.jsonl"
# The largest trace read back: an episode of hundreds of tasks with long model
# replies writes tens of megabytes, and a file past this bound is refused
# before it is read, so no trace given to --from, --probes-from, --resume or
# `report` can take the reader's memory.
MAX_TRACE_BYTES = 256 * 2**20


class TraceError(Exception):
    """A trace that cannot be used (exists without --resume, corrupt, or
    recorded for another world, agent or condition)."""


def _dumps(event: dict) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"), sort_keys=False)


def read_trace(path: str | Path) -> list[dict]:
    """Every complete event of a trace (a torn last line is ignored)."""
    path = Path(path)
    if path.is_dir():
        path = path / TRACE_NAME
    events, _ = _parse(_read(path), path)
    return events


def _read(path: Path) -> bytes:
    """The trace's bytes, refused unread past MAX_TRACE_BYTES."""
    size = path.stat().st_size
    if size > MAX_TRACE_BYTES:
        raise TraceError(
            f"{path}: {size:,} bytes, more than a trace may hold ({MAX_TRACE_BYTES:,})"
        )
    return path.read_bytes()


def _parse(data: bytes, path: Path) -> tuple[list[dict], int]:
    """The events and the length of the intact prefix of the file."""
    events: list[dict] = []
    good = 0
    lines = data.split(b"\n")
    for number, raw in enumerate(lines):
        last = number == len(lines) - 1
        if last:
            # text after the final newline is an interrupted write
            break
        if not raw.strip():
            good += len(raw) + 1
            continue
        try:
            event = json.loads(raw)
        except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
            if number == len(lines) - 2:  # the final complete line is damaged: treat as torn
                break
            raise TraceError(f"{path}: line {number + 1} is not a JSON event") from None
        if not isinstance(event, dict) or "type" not in event:
            raise TraceError(f"{path}: line {number + 1} is not an episode event")
        events.append(event)
        good += len(raw) + 1
    return events, good


def comparable(event: dict) -> dict:
    """An event without its wall-clock time."""
    return {k: v for k, v in event.items() if k != "at"}


class Trace:
    """An open trace: `get` what is recorded, `append` what is new."""

    def __init__(
        self, path: str | Path, resume: bool = False, sync: bool = True, sync_interval: float = 0.0
    ) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.sync = sync
        self.sync_interval = (
            sync_interval  # > 0: fsync at most this often (every append is still flushed)
        )
        self._synced = time.monotonic()
        self.events: list[dict] = []
        self.index: dict[str, dict] = {}
        self.resumed = False
        self._lock = threading.Lock()
        if self.path.exists() and self.path.stat().st_size > 0:
            if not resume:
                raise TraceError(
                    f"{self.path} already exists: continue it with --resume, or choose another "
                    "--out"
                )
            data = _read(self.path)
            self.events, good = _parse(data, self.path)
            if good < len(data):
                with open(self.path, "r+b") as fh:
                    fh.truncate(good)
                    fh.flush()
                    os.fsync(fh.fileno())
            for event in self.events:
                self.index.setdefault(event.get("key", ""), event)
            self.resumed = bool(self.events)
        self._fh = open(self.path, "a", encoding="utf-8")

    def get(self, key: str) -> dict | None:
        return self.index.get(key)

    def __contains__(self, key: str) -> bool:
        return key in self.index

    @property
    def finished(self) -> bool:
        return "end" in self.index

    def append(self, *events: dict) -> list[dict]:
        """Write the events whose keys are new (one fsync); return the
        recorded version of every event, old or new."""
        out, lines = [], []
        with self._lock:
            for event in events:
                key = event["key"]
                if key in self.index:
                    out.append(self.index[key])
                    continue
                event = {**event, "at": round(time.time(), 3)}
                self.index[key] = event
                self.events.append(event)
                lines.append(_dumps(event) + "\n")
                out.append(event)
            if lines:
                self._fh.write("".join(lines))
                self._fh.flush()  # in the kernel: a killed process loses nothing written
                if self.sync and time.monotonic() - self._synced >= self.sync_interval:
                    self.fsync()
        return out

    def fsync(self) -> None:
        """Make everything written durable (against a machine crash too)."""
        if not self._fh.closed:
            self._fh.flush()
            os.fsync(self._fh.fileno())
            self._synced = time.monotonic()

    def close(self) -> None:
        if not self._fh.closed:
            if self.sync:
                self.fsync()
            self._fh.close()

    def __enter__(self) -> Trace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
