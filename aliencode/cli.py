"""The `aliencode` command line."""

from __future__ import annotations

import json
import sys

import click

from ruleset import Limits, WorldError

from . import __version__, run_source
from .world_schema import DEFAULT_WORLD_ENV, load

EXIT_OK, EXIT_ERROR, EXIT_BAD_INPUT = 0, 1, 2

WORLD_HELP = (
    "A shipped world's name or a path to a world TOML file. "
    f"Default: ${DEFAULT_WORLD_ENV}, else the standard world (the manual's own semantics)."
)


def read_source(path: str) -> str:
    """The text of FILE or standard input ('-'); exit 2 when unreadable."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
        return data.decode("utf-8")
    except FileNotFoundError:
        fail(f"no such file: {path}")
    except IsADirectoryError:
        fail(f"{path} is a directory, not a program file")
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror or exc.__class__.__name__}")
    except UnicodeDecodeError:
        fail(f"{path} is not UTF-8 text")
    raise AssertionError("unreachable")


def fail(message: str) -> None:
    click.echo(f"aliencode: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


def load_world_or_exit(spec: str | None):
    try:
        return load(spec)
    except WorldError as exc:
        for problem in exc.problems:
            click.echo(f"aliencode: {problem}", err=True)
        sys.exit(EXIT_BAD_INPUT)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="aliencode")
def main() -> None:
    """AlienCode: a small calculation language whose worlds hide their real rules.

    Run programs under a world's hidden semantics. See `aliencode COMMAND --help`.
    """


@main.command()
@click.argument("file", default="-", metavar="[FILE|-]")
@click.option("--world", "world_spec", metavar="W", help=WORLD_HELP)
@click.option("--json", "as_json", is_flag=True, help='Print {"output", "error", "steps", "units"} as JSON.')
@click.option("--max-steps", type=click.IntRange(min=1), metavar="N", help=f"Step budget (default {Limits().max_steps:,}).")
def run(file: str, world_spec: str | None, as_json: bool, max_steps: int | None) -> None:
    """Run an AlienCode program from FILE (or standard input).

    Prints what the program EMITs; an error prints as
    `[AlienError] <Kind>: <message> (line N)` after the output already
    produced. Exit status: 0 ran, 1 stopped with an AlienError, 2 bad input.
    """
    source = read_source(file)
    world = load_world_or_exit(world_spec)
    limits = Limits(max_steps=max_steps) if max_steps else Limits()
    result = run_source(source, world, limits)
    if as_json:
        click.echo(json.dumps(result.as_dict(), ensure_ascii=False))
    else:
        text = result.text()
        if text:
            click.echo(text)
    sys.exit(EXIT_ERROR if result.error else EXIT_OK)
