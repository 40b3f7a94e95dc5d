"""The AlienLogic side of the shell: paste or type a PROOF … END block and
see the verdict an agent would see (`:detail` adds what authors see)."""

from __future__ import annotations

from alienlogic import RULES, World, check, compile_world

from .lexers import LOGIC_KEYWORDS, AlienLogicLexer
from .shell import COMPLETE, INCOMPLETE


class AlienLogicBackend:
    language = "alienlogic"
    prompt = "proof> "
    intro = "Type or paste a proof from PROOF to END; it is checked when END is typed."

    def __init__(self, world: World) -> None:
        self.world = world
        self.compiled = compile_world(world)
        self.detail = False
        self.reset()

    def reset(self) -> None:
        self.checked = 0
        self.accepted = 0

    def state(self, text: str) -> str:
        lines = [
            line.strip()
            for line in text.split("\n")
            if line.strip() and not line.strip().startswith("#")
        ]
        if not lines:
            return COMPLETE
        if lines[0].strip("`").strip() in ("PROOF", "") and not any(
            line == "END" for line in lines
        ):
            return INCOMPLETE
        return COMPLETE

    def run(self, text: str) -> str:
        verdict = check(text.strip().strip("`"), self.compiled)
        self.checked += 1
        self.accepted += verdict.accepted
        return verdict.summary(self.detail)

    def names(self):
        yield from ("PROOF", "END", "premises:", "goal:", *LOGIC_KEYWORDS, *RULES)

    def lexer(self):
        return AlienLogicLexer()

    def manual(self) -> str:
        from alienworlds.manuals.alienlogic import render

        return render(self.world, "text")

    def world_line(self) -> str:
        return f"AlienLogic, world {self.world.name} ({self.world.hash})"

    def command(self, name: str, arg: str) -> str | None:
        if name == "detail":
            self.detail = not self.detail
            return f"author detail {'on' if self.detail else 'off'}"
        if name in ("units", "proofs"):
            return f"{self.checked} proofs checked, {self.accepted} accepted"
        return None

    def help_lines(self) -> list[str]:
        return [
            ":detail          toggle author detail (the refused rule's name and what went wrong)",
            ":units           proofs checked this session",
        ]
