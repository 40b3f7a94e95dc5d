"""The task bank a command works on: --bank, else the world's own."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from alienworlds.cli.shared import EXIT_BAD_INPUT


def bank_or_exit(language: str, world, bank_file: str | None, required: bool):
    """The bank of `world` (--bank, else the world's own: bank.toml beside
    its file, else tasks/<language>/<world>.toml);
    None when there is none and none is required; else exit 2 with every
    problem, or with where the bank was expected."""
    from alienworlds.episode.environment_loader import missing_bank_message
    from alienworlds.tasks.bank import BankError, load_bank, own_bank_path

    path = Path(bank_file) if bank_file else own_bank_path(language, world)
    if path is None:
        if not required:
            return None
        click.echo(f"{language}: {missing_bank_message(language, world)}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    try:
        return load_bank(language, world.name, path)
    except BankError as exc:
        for problem in exc.problems:
            click.echo(f"{language}: {problem}", err=True)
        sys.exit(EXIT_BAD_INPUT)


def skipped_audit_note(language: str, world) -> str:
    """What `world check` says when the world has no bank to audit."""
    from alienworlds.tasks.bank import own_bank_paths

    places = " or ".join(str(path) for path in reversed(own_bank_paths(language, world)))
    return (
        f"bank: none (the world's own would be {places}); "
        "the bank audit was skipped: give a bank with --bank PATH"
    )
