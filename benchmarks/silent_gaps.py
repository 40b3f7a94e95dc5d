"""The longest silence of a command: how long a user watching its output
waits without seeing a line.

    python benchmarks/silent_gaps.py [--show] [--top N] -- COMMAND [ARG...]

Runs COMMAND with standard output and standard error both pipes (as in a
log file or CI, where no progress bar is drawn), timestamps every line of
either stream as it arrives, and prints the longest gaps between
consecutive events: the start, each line, the exit. `--show` echoes every
line with its time first. The exit status is the command's own.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Event:
    """A line of output (or the start or exit), `seconds` after the start."""

    seconds: float
    stream: str
    text: str


@dataclass(frozen=True)
class Gap:
    """The silence between two consecutive events."""

    seconds: float
    before: Event
    after: Event


def gaps(events: list[Event]) -> list[Gap]:
    """The silences between consecutive events, longest first (ties keep
    their order in time)."""
    ordered = sorted(events, key=lambda e: e.seconds)
    pairs = [Gap(b.seconds - a.seconds, a, b) for a, b in zip(ordered, ordered[1:], strict=False)]
    return sorted(pairs, key=lambda g: -g.seconds)


def _pump(stream, name: str, started: float, events: list[Event], lock: threading.Lock) -> None:
    # Lines are timestamped on arrival, so each stream gets its own reader.
    for raw in iter(stream.readline, b""):
        now = time.monotonic() - started
        with lock:
            events.append(Event(now, name, raw.decode("utf-8", "replace").rstrip("\n")))


def run(command: list[str]) -> tuple[int, list[Event]]:
    """Run `command`, returning its exit status and every event."""
    events: list[Event] = [Event(0.0, "-", "(start)")]
    lock = threading.Lock()
    # PYTHONUNBUFFERED: a Python child's stdout would otherwise be block
    # buffered into a pipe, and the measure would be of the buffer.
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    started = time.monotonic()
    child = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env
    )
    readers = [
        threading.Thread(target=_pump, args=(pipe, name, started, events, lock))
        for pipe, name in ((child.stdout, "out"), (child.stderr, "err"))
    ]
    for reader in readers:
        reader.start()
    status = child.wait()
    for reader in readers:
        reader.join()
    events.append(Event(time.monotonic() - started, "-", f"(exit {status})"))
    return status, events


def _clip(text: str, width: int = 70) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="echo every line with its time")
    parser.add_argument("--top", type=int, default=3, help="how many gaps to list (default 3)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given (put it after --)")
    try:
        status, events = run(command)
    except OSError as exc:
        print(f"silent_gaps: cannot run {command[0]}: {exc.strerror}", file=sys.stderr)
        return 127
    if args.show:
        for event in sorted(events, key=lambda e: e.seconds):
            print(f"{event.seconds:8.2f}s {event.stream} {_clip(event.text, 100)}")
    total = max(e.seconds for e in events)
    print(f"command: {' '.join(command)}")
    print(f"wall {total:.1f} s · {len(events) - 2} lines · exit {status}")
    for gap in gaps(events)[: args.top]:
        print(
            f"silent {gap.seconds:5.1f} s from {gap.before.seconds:.1f} s "
            f"({_clip(gap.before.text, 40)!r}) to {gap.after.seconds:.1f} s "
            f"({_clip(gap.after.text, 40)!r})"
        )
    return status


if __name__ == "__main__":
    sys.exit(main())
