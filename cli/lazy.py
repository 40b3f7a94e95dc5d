"""A click group whose `episode` and `report` commands load only when used,
so the language CLIs (`aliencode run`, `alienlogic check`) start fast."""

from __future__ import annotations

import click


def episode_commands(language: str) -> type[click.Group]:
    """The click group class for `language`'s top-level command."""

    class Commands(click.Group):
        LAZY = ("episode", "report")

        def list_commands(self, ctx: click.Context) -> list[str]:
            return sorted({*super().list_commands(ctx), *self.LAZY})

        def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
            if name in self.LAZY and name not in self.commands:
                from .episode import register

                register(self, language)
            return super().get_command(ctx, name)

    return Commands
