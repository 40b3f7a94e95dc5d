"""A progress bar for terminals (silent otherwise)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """`start(total)`, `label(text)`, `advance(n)`, `close()`; draws on
    `stream` only when it is a terminal (or `enabled=True`)."""

    def __init__(self, stream: TextIO | None = None, enabled: bool | None = None, width: int = 30, prefix: str = "") -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.width = width
        self.prefix = prefix
        self.total = 0
        self.done = 0
        self.text = ""
        self._last = 0.0
        self._drawn = False

    def start(self, total: int) -> None:
        self.total = max(1, total)
        self.done = 0
        self.draw(force=True)

    def label(self, text: str) -> None:
        self.text = text
        self.draw(force=True)

    def advance(self, n: int = 1) -> None:
        self.done = min(self.total, self.done + n)
        self.draw()

    def draw(self, force: bool = False) -> None:
        if not self.enabled or not self.total:
            return
        now = time.monotonic()
        if not force and now - self._last < 0.1 and self.done < self.total:
            return
        self._last = now
        filled = int(self.width * self.done / self.total)
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r{self.prefix}[{bar}] {100 * self.done // self.total:3d}% {self.text:<16}")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self.enabled and self._drawn:
            self.draw(force=True)
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False
