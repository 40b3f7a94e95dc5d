"""The person behind a browser, as the human agent's `Player`
(episode.human_agent): each question becomes the page's view, posted to the
session's mailbox, and the participant's action on the page becomes the
answer. The human agent turns answers into the agent's replies exactly as
for a person at a terminal (a probe is a tool call, a task is answered once
per milestone and every pass repeats it), so both ways of playing write the
same trace.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from alienworlds.episode.human_agent import Player, Turn

from .mailbox import Mailbox
from .view import SessionInfo, reply_content, turn_view


@dataclass(frozen=True)
class PageAction:
    """What the participant did on the page, checked against what was asked."""

    action: str  # consent | probe | end-round | answer
    text: str = ""
    refuse: bool = False


class WebPlayer(Player):
    def __init__(
        self, info: SessionInfo, mailbox: Mailbox, events: Callable[[], list[dict]]
    ) -> None:
        self.info = info
        self.mailbox = mailbox
        self.events = events
        self._round_prompt = ""  # the latest round's prompt, shown with every probe

    def _ask(self, turn: Turn) -> PageAction:
        for message in turn.unseen:
            if message.get("role") == "user":
                self._round_prompt = str(message.get("content") or "")
        prompt = turn.prompt if turn.prompt is not None else self._round_prompt
        return self.mailbox.ask(turn.key, turn_view(self.info, turn, prompt, self.events()))

    def probe(self, turn: Turn) -> str | None:
        action = self._ask(turn)
        return None if action.action == "end-round" else action.text

    def note(self, turn: Turn) -> str:
        return self._ask(turn).text

    def rule_report(self, turn: Turn) -> str:
        return self._ask(turn).text

    def answer(self, turn: Turn) -> str:
        action = self._ask(turn)
        kind = dict(self.info.tasks).get(turn.task or "", "program")
        return reply_content("answer", kind, action.text, action.refuse)

    def stop(self) -> None:
        self.mailbox.stop()
