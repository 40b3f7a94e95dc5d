"""Helpers shared by the episode tests."""

from alienworlds.episode.trace import comparable, read_trace


def events_of(directory):
    """A trace's events without wall-clock times."""
    return [comparable(e) for e in read_trace(directory / "trace.jsonl")]
