"""The AlienCode side of the shell: one Session whose definitions persist."""

from __future__ import annotations

from aliencode import AlienSyntaxError, Limits, Session, World, compile_program, parse
from aliencode.compiler import PREFIX
from aliencode.sites import KEYWORDS

from .lexers import aliencode_lexer
from .shell import COMPLETE, INCOMPLETE, INVALID


class AlienCodeBackend:
    language = "aliencode"
    prompt = ">>> "
    intro = "Type code and press Enter; a line ending in ':' opens a block, a blank line ends it."

    def __init__(self, world: World, limits: Limits | None = None) -> None:
        self.world = world
        self.limits = limits or Limits()
        self.reset()

    def reset(self) -> None:
        self.session = Session(self.limits)
        self.units = 0
        self.entries = 0

    def state(self, text: str) -> str:
        if not text.strip():
            return COMPLETE
        try:
            parse(text, self.world.keywords)
        except AlienSyntaxError as exc:
            return INCOMPLETE if exc.at_end else INVALID
        # A block stays open until a blank line, as in Python's shell.
        opens_block = any(line.split("#")[0].rstrip().endswith(":") for line in text.split("\n"))
        if opens_block and text.split("\n")[-1].strip():
            return INCOMPLETE
        return COMPLETE

    def run(self, text: str) -> str:
        try:
            program = compile_program(parse(text, self.world.keywords), self.world, self.limits)
        except AlienSyntaxError as exc:
            return str(exc)
        result = self.session.execute(program)
        self.units += result.units
        self.entries += 1
        shown = result.text()
        cost = f"({result.units} unit{'s' if result.units != 1 else ''})"
        return f"{shown}\n{cost}" if shown else cost

    def names(self):
        yield from (self.world.surface(k) for k in KEYWORDS)
        for key in self.session.namespace:
            if key.startswith(PREFIX):
                yield key[len(PREFIX) :]

    def lexer(self):
        return aliencode_lexer(self.world.keywords)

    def manual(self) -> str:
        from alienworlds.manuals.aliencode import render

        return render(self.world, "text")

    def world_line(self) -> str:
        return f"AlienCode, world {self.world.name} ({self.world.hash})"

    def command(self, name: str, arg: str) -> str | None:
        if name == "units":
            return f"{self.units} probe units over {self.entries} entries"
        return None

    def help_lines(self) -> list[str]:
        return [":units           probe units spent this session"]
