"""Closed and failing standard streams, for every console script in
pyproject.toml: each case ends with exit 74 and one line on standard error
naming the stream (nothing when standard error itself is gone), never a
traceback; output that does get out is unchanged."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from alienworlds.cli.streams import EXIT_STREAM

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
# the study server's command has no `manual` and writes a data directory: its stream
# cases are in tests/serve/test_serve_cli.py
SCRIPTS = {name: target for name, target in SCRIPTS.items() if name != "alienworlds"}

# per script: a command that reads standard input, and the text it is given
READERS = {
    "aliencode": (
        ["run", "--world", "standard", "-"],
        'SWEEP k IN EXTENT(0, 3000):\n    EMIT("line of output")\n',
    ),
    "alienlogic": (
        ["check", "--world", "standard", "-"],
        "PROOF\npremises: p\ngoal: p\n1. p  [premise]\nEND\n",
    ),
}


def launcher(script: str) -> list[str]:
    """The console script `script` as pip installs it: its module's function
    called with sys.argv[0] set to its name."""
    module, function = SCRIPTS[script].split(":")
    code = f"import sys; sys.argv[0] = {script!r}; from {module} import {function}; {function}()"
    return [sys.executable, "-c", code]


def run(
    script: str, args: list[str], text: str | None, stdin: str, stdout: str, stderr: str = "pipe"
) -> tuple[int, str]:
    """Run with each stream 'pipe', 'closed', 'full' (/dev/full) or 'broken'
    (a pipe whose reader is gone); the exit status and standard error."""
    opened = []

    def target(how: str, mode: str):
        if how == "full":
            opened.append(open("/dev/full", mode))  # noqa: SIM115 - closed below
            return opened[-1]
        if how == "broken":
            read, write = os.pipe()
            os.close(read)
            opened.append(os.fdopen(write, "wb"))
            return opened[-1]
        return subprocess.PIPE if how == "pipe" else subprocess.DEVNULL

    closed = [fd for fd, how in ((0, stdin), (1, stdout), (2, stderr)) if how == "closed"]

    def close_in_child() -> None:
        for fd in closed:
            os.close(fd)

    process = subprocess.Popen(
        launcher(script) + args,
        stdin=target(stdin, "rb"),
        stdout=target(stdout, "wb"),
        stderr=target(stderr, "wb"),
        preexec_fn=close_in_child,
    )
    try:
        _, err = process.communicate(
            text.encode("utf-8") if stdin == "pipe" and text is not None else None, timeout=120
        )
    finally:
        for handle in opened:
            handle.close()
    return process.returncode, (err or b"").decode("utf-8", "replace")


def test_every_console_script_has_a_command_reading_standard_input():
    assert set(SCRIPTS) == set(READERS)


STDOUT_FAILURES = {
    "closed": "it is closed",
    "full": "No space left on device",
    "broken": "Broken pipe",
}


@pytest.mark.parametrize("script", sorted(SCRIPTS))
@pytest.mark.parametrize("how", sorted(STDOUT_FAILURES))
@pytest.mark.parametrize("command", ["reader", "help", "manual"])
def test_a_failing_standard_output_ends_in_one_line_and_exit_74(script, how, command):
    args, text = {
        "reader": READERS[script],
        "help": (["--help"], None),
        "manual": (["manual", "--world", "standard"], None),
    }[command]
    status, err = run(script, args, text, "pipe", how)
    assert status == EXIT_STREAM, err
    assert err.splitlines() == [f"{script}: cannot write standard output: {STDOUT_FAILURES[how]}"]


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_a_closed_standard_input_ends_in_one_line_and_exit_74(script):
    args, _ = READERS[script]
    status, err = run(script, args, None, "closed", "pipe")
    assert (status, err.splitlines()) == (
        EXIT_STREAM,
        [f"{script}: cannot read standard input: it is closed"],
    )


@pytest.mark.parametrize("script", sorted(SCRIPTS))
@pytest.mark.parametrize("stderr", ["closed", "full", "broken"])
def test_without_standard_error_only_the_status_tells(script, stderr):
    args, text = READERS[script]
    status, err = run(script, args, text, "pipe", "full", stderr)
    assert (status, err) == (EXIT_STREAM, "")


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_working_streams_change_nothing(script):
    args, text = READERS[script]
    process = subprocess.run(
        launcher(script) + args, input=text.encode("utf-8"), capture_output=True, timeout=120
    )
    assert process.returncode == 0 and process.stderr == b""
    assert process.stdout == (
        b"line of output\n" * 3000 if script == "aliencode" else b"accepted (1 step)\n"
    )


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_a_usage_error_is_one_line_with_exit_2(script):
    process = subprocess.run(
        launcher(script) + ["--no-such-option"], capture_output=True, timeout=120
    )
    assert process.returncode == 2
    assert process.stderr.decode().splitlines() == [
        f"{script}: No such option '--no-such-option'. Try '{script} --help'."
    ]
