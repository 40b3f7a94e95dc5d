"""The shared entry point (cli/entry.py) on a small click group of its own,
in a fresh process each: every way a command can end gives its status and
at most one line on standard error, never a traceback."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from alienworlds.cli.entry import YOUNG_COLLECTION

GROUP = textwrap.dedent('''
    import atexit
    import gc
    import sys
    import click
    from alienworlds.cli.entry import run

    if sys.argv[2:] == ["garbage"]:  # runs after run() has ended the command
        atexit.register(lambda: print(f"frozen {gc.get_freeze_count()}", file=sys.stderr))

    @click.group()
    def group():
        """A group."""

    @group.command()
    @click.argument("how")
    def end(how):
        if how == "bug":
            raise RuntimeError("a bug")
        if how == "deep":
            def down(n):
                return down(n + 1)
            down(0)
        if how == "exit-3":
            sys.exit(3)
        if how == "exit-text":
            sys.exit("a message")
        if how == "ctx-exit-5":
            click.get_current_context().exit(5)
        if how == "click-error":
            raise click.ClickException("a click error")
        if how == "garbage":  # cycles only the cyclic collector can free
            global kept
            kept = []
            for _ in range(1000):
                cycle = []
                cycle.append(cycle)
                kept.append(cycle)
        if how == "threshold":
            click.echo(f"young collection after {gc.get_threshold()[0]}", err=True)
        if how == "interrupt":
            raise KeyboardInterrupt
        if how == "swallowed":
            try:
                print("x" * 100000)
                sys.stdout.flush()
            except BaseException:
                pass  # a handler that takes everything: the lost stream still decides the status
        click.echo("done")

    run(group, "demo", internal=9)
''')


def run(args: list[str], stdout=subprocess.PIPE) -> tuple[int, str, str]:
    process = subprocess.run(
        [sys.executable, "-c", GROUP, *args], stdout=stdout, stderr=subprocess.PIPE, timeout=120
    )
    return process.returncode, (process.stdout or b"").decode(), process.stderr.decode()


@pytest.mark.parametrize(
    "how, status, err",
    [
        ("bug", 9, "demo: internal error (RuntimeError); please report it"),
        ("deep", 9, "demo: internal error (RecursionError); please report it"),
        ("exit-3", 3, ""),
        ("exit-text", 1, "a message"),
        ("ctx-exit-5", 5, ""),
        ("click-error", 1, "demo: a click error"),
        ("interrupt", 1, "Aborted!"),
        ("fine", 0, ""),
    ],
)
def test_each_way_to_end_gives_its_status_and_at_most_one_line(how, status, err):
    code, out, error = run(["end", how])
    lines = [
        line for line in error.splitlines() if line
    ]  # on an interrupt click first ends the terminal's ^C line
    assert (code, lines) == (status, [err] if err else [])
    assert out == ("done\n" if how == "fine" else "")


def test_a_lost_stream_decides_the_status_even_when_a_handler_swallowed_it():
    with open("/dev/full", "wb") as full:
        code, _, error = run(["end", "swallowed"], stdout=full)
    assert (code, error.splitlines()) == (
        74,
        ["demo: cannot write standard output: No space left on device"],
    )


def test_a_usage_error_names_the_command_and_its_help():
    code, _, error = run(["end"])
    assert (code, error.splitlines()) == (
        2,
        ["demo end: Missing argument 'HOW'. Try 'demo end --help'."],
    )


def test_what_a_command_leaves_is_frozen_so_the_exit_does_not_trace_it():
    code, out, error = run(["end", "garbage"])
    assert (code, out) == (0, "done\n")
    frozen = int(error.split("frozen ")[1])
    assert frozen >= 1000  # at least the command's own cycles


def test_a_command_runs_with_the_young_collection_spaced_out():
    """The host's default is 700 (see cli/entry.py for why)."""
    code, _, error = run(["end", "threshold"])
    assert (code, error.splitlines()) == (0, [f"young collection after {YOUNG_COLLECTION}"])
