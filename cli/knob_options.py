"""The `world generate` options read from the generators' one table of
knobs (generate/knobs.py): each option's range is checked by click and
named in --help (the seed's type is param_types.SeedText)."""

from __future__ import annotations

from collections.abc import Callable

import click
from alienworlds.generate.knobs import MAX_SEED_CHARS, KnobTable

SEED_HELP = (
    f"The seed: any text of 1 to {MAX_SEED_CHARS} characters without control characters. "
    "Keep it private: it is the world."
)


def knob_options(table: KnobTable) -> Callable:
    """A decorator adding a generator's knob options to a command."""

    def add(command: Callable) -> Callable:
        for knob in reversed(table.knobs):
            command = click.option(
                knob.option,
                knob.name,
                type=click.IntRange(knob.low, knob.high),
                default=knob.default,
                show_default=True,
                metavar="N",
                help=knob.help,
            )(command)
        return command

    return add
