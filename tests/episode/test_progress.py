"""Progress: a bar with counts on a terminal, one line per milestone
(counts, elapsed, ETA) otherwise, nothing when off."""

import io
import re

import pytest
from alienworlds.cli.aliencode import main
from alienworlds.episode import progress as progress_module
from alienworlds.episode.progress import Progress
from click.testing import CliRunner


class Terminal(io.StringIO):
    def isatty(self):
        return True


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_a_bar_with_counts_on_a_terminal():
    stream = Terminal()
    bar = Progress(stream=stream, prefix="oracle ")
    assert bar.mode == "bar"
    bar.start(4)
    bar.label("M0")
    bar.advance(2)
    bar.close()
    text = stream.getvalue()
    assert "oracle M0" in text and "2/4" in text and "\r" in text


def test_one_line_per_milestone_with_counts_and_an_eta_otherwise(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(progress_module.time, "monotonic", clock)
    stream = io.StringIO()
    lines = Progress(stream=stream, prefix="fixed ")
    assert lines.mode == "lines"
    lines.start(100)
    lines.label("M0")
    clock.now += 10
    lines.advance(25)
    lines.milestone("M0", 50.0)
    clock.now += 80
    lines.advance(75)
    lines.milestone("M1", 75.5)
    lines.close()
    assert stream.getvalue().splitlines() == [
        "fixed M0 done · accuracy 50.0% · 25/100 steps · 10s into the protocol · ETA 30s",
        "fixed M1 done · accuracy 75.5% · 100/100 steps · 1m30s into the protocol",
    ]
    assert "\r" not in stream.getvalue()


def test_off_writes_nothing():
    stream = Terminal()
    quiet = Progress(stream=stream, mode="off")
    quiet.start(3)
    quiet.advance(3)
    quiet.milestone("M0", 1.0)
    quiet.close()
    assert stream.getvalue() == ""
    with pytest.raises(ValueError):
        Progress(mode="sometimes")


def test_a_redirected_episode_reports_each_milestone(tmp_path):
    result = CliRunner().invoke(
        main,
        [
            "episode",
            "--agent",
            "naive",
            "--world",
            "demo",
            "--condition",
            "direct",
            "--out",
            str(tmp_path / "run"),
        ],
    )
    assert result.exit_code == 0, result.output
    # each phase names itself; heartbeat lines ("… s so far") come only when a phase is slow
    lines = [
        line
        for line in result.stderr.splitlines()
        if not re.search(r": \d+ s so far( · .*)?$", line)
    ]
    assert [line.split(": done in ")[0] for line in lines] == [
        "aliencode: loading world demo and auditing its bank (once per command) …",
        "aliencode: loading world demo and auditing its bank (once per command)",
        "naive protocol …",
        lines[3],
        "naive protocol",
        "naive scoring exploration …",
        "naive scoring exploration",
        f"aliencode: writing the reports of naive in {tmp_path / 'run'} …",
        f"aliencode: writing the reports of naive in {tmp_path / 'run'}",
    ]
    assert re.fullmatch(
        r"naive M0 done · accuracy \d+\.\d% · (\d+)/\1 steps · \d+s into the protocol", lines[3]
    )
    ends = [line for line in lines if ": done in " in line]
    assert len(ends) == 4 and all(re.search(r": done in \d+\.\d s$", line) for line in ends)
    quiet = CliRunner().invoke(
        main,
        [
            "episode",
            "--agent",
            "naive",
            "--world",
            "demo",
            "--condition",
            "direct",
            "--out",
            str(tmp_path / "quiet"),
            "--no-progress",
        ],
    )
    assert quiet.exit_code == 0 and quiet.stderr == ""
