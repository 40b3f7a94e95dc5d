"""What the commands of both languages share: option definitions, exit
statuses and the JSON style, defined once so that `aliencode X` and
`alienlogic X` take the same flags with the same defaults, exit the same way
and print the same kind of JSON (tests/cli/test_command_trees.py compares
the two command trees).

Kept free of imports beyond click and json: `aliencode run` loads it.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import click

# Exit statuses of every command: 1 is the command's negative answer (a
# program stopped with an error, a proof or an answer rejected, a world with
# problems), 2 a usage error or bad input, 3 a bug of ours.
EXIT_OK, EXIT_NO, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3

Decorator = Callable[[Callable], Callable]


def world_env(language: str) -> str:
    """The environment variable naming a language's default world."""
    return f"{language.upper()}_WORLD"


def world_help(language: str) -> str:
    return (
        "A shipped world's name or a path to a world TOML file. "
        f"Default: ${world_env(language)}, else the main world `main`; `standard` is the "
        "manual's own semantics."
    )


def world_option(language: str) -> Decorator:
    """--world W: every command that reads a world defaults to the main one."""
    return click.option("--world", "world_spec", metavar="W", help=world_help(language))


def bank_option(purpose: str = "The task bank file") -> Decorator:
    return click.option(
        "--bank",
        "bank_file",
        type=click.Path(dir_okay=False),
        metavar="PATH",
        help=f"{purpose} (default: the world's own: bank.toml beside a world file, else "
        "tasks/<language>/<world>.toml).",
    )


def task_option() -> Decorator:
    return click.option(
        "--task", "task_id", metavar="ID", required=True, help="The task the answer is for."
    )


def json_option(what: str) -> Decorator:
    """--json: print `what` as one JSON document (json_text's style)."""
    return click.option("--json", "as_json", is_flag=True, help=f"Print {what} as JSON.")


def format_option() -> Decorator:
    """--format of a manual."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(["text", "md"]),
        default="text",
        show_default=True,
        help="Plain text (for models) or Markdown (for people).",
    )


def condition_option(choices: tuple[str, ...]) -> Decorator:
    return click.option(
        "--condition",
        type=click.Choice(list(choices)),
        default=None,
        help="The exploration condition (default autonomous; `episode --agent replay` takes "
        "its trace's).",
    )


def json_text(value: object) -> str:
    """The one JSON style of every --json: indented, ASCII only (any
    terminal or pipe shows it unchanged; a JSON reader restores the text)."""
    return json.dumps(value, indent=2)


def echo_json(value: object) -> None:
    click.echo(json_text(value))
