"""An episode environment by language, world (a name or a path) and bank,
with the errors a user can act on: a missing bank names the path where the
world's own bank would be and `--bank`."""

from __future__ import annotations

from pathlib import Path

from .environment import Environment
from .languages import language as language_entry


class MissingBank(ValueError):
    """A world without a task bank: nothing to test a system on."""


def missing_bank_message(language: str, world) -> str:
    """Where the world's own bank was looked for (see tasks.bank.own_bank_paths)."""
    from alienworlds.tasks.bank import own_bank_paths

    *beside, shipped = own_bank_paths(language, world)
    also = "".join(f", nor at {path} beside the world file" for path in beside)
    return (
        f"no task bank for world '{world.name}': none at {shipped}, where a world's own bank "
        f"ships{also}; "
        "give a bank file with --bank PATH"
    )


def make_environment(
    language: str, world: str | None = None, bank: str | Path | None = None
) -> Environment:
    """The environment of `language` for a world name or path (default: the
    language's main world) and a bank file (default: the world's own, beside
    a world file or shipped under its name);
    raises WorldError, BankError, MissingBank or ValueError (an audit that
    fails)."""
    from alienworlds.tasks.bank import own_bank_path

    entry = language_entry(language)
    loaded = entry.load_world(world)
    if bank is None:
        bank = own_bank_path(language, loaded)
        if bank is None:
            raise MissingBank(missing_bank_message(language, loaded))
    return entry.environment.load()(loaded, bank_path=bank)
