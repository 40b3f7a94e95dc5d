"""The `alienlogic` command line."""

from __future__ import annotations

import json
import sys

import click

from ruleset.world import World, WorldError

from . import __version__
from .kernel import check as check_proof
from .worlds import DEFAULT_WORLD_ENV, audit, load_world

EXIT_OK, EXIT_REJECTED, EXIT_BAD_INPUT = 0, 1, 2

WORLD_HELP = (
    "A shipped world's name or a path to a world TOML file. "
    f"Default: ${DEFAULT_WORLD_ENV}, else the main world, else (while none ships) the standard world."
)


def fail(message: str) -> None:
    click.echo(f"alienlogic: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


def read_text(path: str) -> str:
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
        fail(f"{path} is a directory, not a proof file")
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror or exc.__class__.__name__}")
    except UnicodeDecodeError:
        fail(f"{path} is not UTF-8 text")
    raise AssertionError("unreachable")


def world_or_exit(spec: str | None) -> World:
    try:
        return load_world(spec)
    except WorldError as exc:
        for problem in exc.problems:
            click.echo(f"alienlogic: {problem}", err=True)
        sys.exit(EXIT_BAD_INPUT)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="alienlogic")
def cli() -> None:
    """AlienLogic: a Fitch-style proof checker whose worlds patch the rules.

    Check proofs under a world's hidden side conditions. See `alienlogic COMMAND --help`.
    """


@cli.command()
@click.argument("file", default="-", metavar="[FILE|-]")
@click.option("--world", "world_spec", metavar="W", help=WORLD_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@click.option("--detail", is_flag=True, help="Also show what went wrong and the rule's name (for authors).")
def check(file: str, world_spec: str | None, as_json: bool, detail: bool) -> None:
    """Check a proof from FILE (or standard input).

    Exit status: 0 accepted, 1 rejected (a parse error included), 2 bad input.
    """
    text = read_text(file)
    world = world_or_exit(world_spec)
    verdict = check_proof(text, world)
    if as_json:
        click.echo(json.dumps(verdict.as_dict(detail), ensure_ascii=False))
    else:
        click.echo(verdict.summary(detail))
    sys.exit(EXIT_OK if verdict.accepted else EXIT_REJECTED)


@cli.command()
@click.option("--world", "world_spec", metavar="W", help=WORLD_HELP)
@click.option("--format", "fmt", type=click.Choice(["text", "md"]), default="text", show_default=True)
def manual(world_spec: str | None, fmt: str) -> None:
    """Print the manual of a world (it states the standard rules only)."""
    from manuals.alienlogic import render  # manuals depend on the language, not the reverse

    click.echo(render(world_or_exit(world_spec), fmt), nl=False)


@cli.group()
def world() -> None:
    """Inspect world files."""


@world.command("check")
@click.argument("spec", metavar="PATH|NAME")
@click.option("--json", "as_json", is_flag=True, help='Print {"world", "hash", "ok", "problems", "rules"} as JSON.')
def world_check(spec: str, as_json: bool) -> None:
    """Validate and audit a world.

    Exit status: 0 valid, 1 valid but with problems (rules that never apply),
    2 not a valid world (every problem is listed).
    """
    try:
        w = load_world(spec)
    except WorldError as exc:
        problems = [str(p) for p in exc.problems]
        if as_json:
            click.echo(json.dumps({"world": spec, "hash": None, "ok": False, "problems": problems, "rules": []}, indent=2))
        else:
            for p in problems:
                click.echo(f"alienlogic: {p}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    problems = audit(w)
    rules = [
        {"id": r.id, "name": r.name, "target": r.target, "disabled": r.disabled, "require": r.require, "conclusion": r.conclusion}
        for r in w.rules
    ]
    if as_json:
        click.echo(json.dumps({"world": w.name, "hash": w.hash, "ok": not problems, "problems": problems, "rules": rules}, indent=2))
    else:
        click.echo(f"world {w.name} ({w.hash}): {len(rules)} rule{'s' if len(rules) != 1 else ''}")
        for r in rules:
            parts = ["disabled"] if r["disabled"] else []
            parts += [f"{k} {r[k]}" for k in ("require", "conclusion") if r[k]]
            click.echo(f"  {r['id']:<6} {r['target']:<9} {'; '.join(parts)}")
        for p in problems:
            click.echo(f"problem: {p}")
        click.echo("ok" if not problems else f"{len(problems)} problem{'s' if len(problems) != 1 else ''}")
    sys.exit(EXIT_OK if not problems else EXIT_REJECTED)


def main(argv: list[str] | None = None) -> None:
    """Entry point: the CLI, with a last guard so no traceback ever reaches a user."""
    try:
        cli.main(args=argv, prog_name="alienlogic")
    except Exception as exc:  # noqa: BLE001 - a bug must still end in a clean message
        click.echo(f"alienlogic: internal error ({exc.__class__.__name__}); please report it", err=True)
        sys.exit(EXIT_BAD_INPUT)


@cli.command()
@click.option("--world", "world_spec", metavar="W", help=WORLD_HELP)
def repl(world_spec: str | None) -> None:
    """Check proofs by hand: type or paste PROOF … END and see the verdict an
    agent would see. :detail toggles author detail; :help lists commands.

    Without a terminal, lines are read from standard input (scriptable).
    """
    from repl.alienlogic_backend import AlienLogicBackend
    from repl.shell import start

    start(AlienLogicBackend(world_or_exit(world_spec)))
