"""Progress of an episode: click's progress bar on a terminal (the steps
done of all, the phase, an ETA), one line per milestone otherwise (a log
file, CI), so a redirected run still shows where it is. The phases around
the protocol (loading a world and auditing its bank, scoring exploration,
writing reports) name themselves in either mode (`phases`)."""

from __future__ import annotations

import sys
import time
from contextlib import AbstractContextManager
from typing import TextIO

import click
from alienworlds.ruleset.phases import Phases, Timer


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


class Progress:
    """`start(total)`, `label(text)`, `advance(n)`, `milestone(name,
    accuracy)`, `phase(name)`, `close()`. `mode` is "bar", "lines" or
    "off"; by default a bar when `stream` is a terminal, else lines.
    `phases` (default: lines on `stream` unless off) names the phases."""

    def __init__(
        self,
        stream: TextIO | None = None,
        mode: str | None = None,
        prefix: str = "",
        phases: Phases | None = None,
    ) -> None:
        self.stream = stream or sys.stderr
        self.mode = mode or ("bar" if self.stream.isatty() else "lines")
        if self.mode not in ("bar", "lines", "off"):
            raise ValueError(f"unknown progress mode {self.mode!r}")
        self.prefix = prefix
        self.total = 0
        self.done = 0
        self.started = time.monotonic()
        self._bar = None
        self.phases = phases or Phases(self._line if self.mode != "off" else None, prefix)

    def _line(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()

    def phase(self, name: str, status=None) -> AbstractContextManager[Timer]:
        """A phase announcing itself (see `phases`); silent when off."""
        return self.phases.phase(name, status)

    def steps(self) -> str:
        """How far the protocol got, for a heartbeat line."""
        return f"{self.done}/{self.total} steps"

    def start(self, total: int) -> None:
        self.total = max(1, total)
        self.started = time.monotonic()
        if self.mode == "bar":
            self._bar = click.progressbar(
                length=self.total,
                label=self.prefix.strip(),
                file=self.stream,
                show_pos=True,
                show_eta=True,
                show_percent=False,
                width=24,
            )
            self._bar.__enter__()

    def label(self, text: str) -> None:
        if self._bar is not None:
            self._bar.label = f"{self.prefix}{text}"
            self._bar.render_progress()

    def advance(self, n: int = 1) -> None:
        n = max(0, min(n, self.total - self.done))
        self.done += n
        if self._bar is not None and n:
            self._bar.update(n)

    def eta(self) -> float | None:
        """Seconds left at the pace so far (None before any progress)."""
        elapsed = time.monotonic() - self.started
        if not self.done or self.done >= self.total:
            return None if not self.done else 0.0
        return elapsed * (self.total - self.done) / self.done

    def milestone(self, name: str, accuracy: float | None) -> None:
        """A milestone was reached: one line in lines mode."""
        if self.mode != "lines":
            return
        elapsed = time.monotonic() - self.started
        eta = self.eta()
        score = "" if accuracy is None else f" accuracy {accuracy:.1f}% ·"
        tail = "" if eta is None or eta < 0.5 else f" · ETA {_duration(eta)}"
        self.phases.say(  # under the phases' lock: a heartbeat may be writing
            f"{name} done ·{score} {self.done}/{self.total} steps · "
            f"{_duration(elapsed)} into the protocol{tail}"
        )

    def close(self) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
            self._bar = None
