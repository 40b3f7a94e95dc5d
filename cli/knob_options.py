"""The `world generate` options read from the generators' one table of
knobs (generate/knobs.py): each option's range is checked by click and
named in --help, and a seed is refused before any work when it cannot name
a world."""

from __future__ import annotations

from collections.abc import Callable

import click

from alienworlds.generate.knobs import KNOBS, MAX_SEED_CHARS, seed_problem


class SeedText(click.ParamType):
    """Text of 1 to MAX_SEED_CHARS characters, no control characters,
    encodable as UTF-8 (argv bytes that are not UTF-8 are refused)."""

    name = "seed"

    def convert(self, value, param, ctx) -> str:
        problem = seed_problem(str(value))
        if problem is not None:
            self.fail(problem, param, ctx)
        return str(value)


SEED_HELP = (f"The seed: any text of 1 to {MAX_SEED_CHARS} characters without control characters. "
             "Keep it private: it is the world.")


def knob_options(language: str) -> Callable:
    """A decorator adding `language`'s knob options to a command."""

    def add(command: Callable) -> Callable:
        for knob in reversed(KNOBS[language]):
            command = click.option(knob.option, knob.name, type=click.IntRange(knob.low, knob.high), default=knob.default,
                                   show_default=True, metavar="N",
                                   help=knob.help)(command)
        return command

    return add
