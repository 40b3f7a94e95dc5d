"""A click group whose `episode`, `report` and `sweep` commands load only
when used, so the language CLIs (`aliencode run`, `alienlogic check`) start
fast."""

from __future__ import annotations

from importlib import import_module

import click

LAZY = {
    "episode": ".episode",
    "report": ".episode",
    "sweep": ".sweep",
    "play": ".play",
}  # command -> module whose register() adds it


def episode_commands(language: str) -> type[click.Group]:
    """The click group class for `language`'s top-level command."""

    class Commands(click.Group):
        def list_commands(self, ctx: click.Context) -> list[str]:
            return sorted({*super().list_commands(ctx), *LAZY})

        def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
            if name in LAZY and name not in self.commands:
                import_module(LAZY[name], __package__).register(self, language)
            return super().get_command(ctx, name)

    return Commands
