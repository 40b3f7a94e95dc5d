"""The task bank a command works on: --bank, else the world's own."""

from __future__ import annotations

import sys
from pathlib import Path

import click

EXIT_BAD_INPUT = 2


def bank_or_exit(language: str, world, bank_file: str | None, required: bool):
    """The bank of `world` (--bank, else bank.toml beside a world given as
    a file, else tasks/<language>/<world>.toml);
    None when there is none and none is required; else exit 2 with every
    problem, or with where the bank was expected."""
    from alienworlds.episode.environments import missing_bank_message
    from alienworlds.tasks.bank import BankError, load_bank, world_bank_path

    path = Path(bank_file) if bank_file else world_bank_path(language, world.name, world.source)
    if not bank_file and not path.exists():
        if not required:
            return None
        click.echo(f"{language}: {missing_bank_message(language, world.name)}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    try:
        return load_bank(language, world.name, path)
    except BankError as exc:
        for problem in exc.problems:
            click.echo(f"{language}: {problem}", err=True)
        sys.exit(EXIT_BAD_INPUT)


def skipped_audit_note(language: str, world) -> str:
    """What `world check` says when the world has no bank to audit."""
    from alienworlds.tasks.bank import bank_path

    return (f"bank: none (the world's own would be {bank_path(language, world.name)}); "
            "the bank audit was skipped: give a bank with --bank PATH")
