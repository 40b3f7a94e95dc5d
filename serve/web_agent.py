"""The agent whose replies come from a participant's browser.

The driver asks it as it asks any agent; it posts the request to the
session's mailbox with the page's view and waits for the reply an HTTP
request delivers. The participant appears in traces and reports as the
system `human:<participant>`.

A person answers a held-out task once per milestone: the protocol's
further passes (answers sampled again from a model) are answered with the
person's first answer, taken from the trace, so the setting (and the
leaderboard it is ranked on) stays the agents' own.
"""

from __future__ import annotations

from collections.abc import Callable

from alienworlds.episode.agent import Agent, Reply, Request

from .mailbox import Mailbox
from .view import SessionInfo, request_view

NO_USAGE = {"prompt_tokens": 0, "completion_tokens": 0}


class WebAgent(Agent):
    name = "human"
    offline = False  # each request is recorded before it is posted, each reply fsynced

    def __init__(
        self,
        info: SessionInfo,
        mailbox: Mailbox,
        events: Callable[[], list[dict]],
        recorded: Callable[[str], dict | None],
    ) -> None:
        self.info = info
        self.mailbox = mailbox
        self.events = events
        self.recorded = recorded

    def config(self) -> dict[str, object]:
        return {"name": f"human:{self.info.participant}"}

    def respond(self, request: Request) -> Reply:
        if request.purpose == "answer" and (request.answer_pass or 1) > 1:
            first = self.recorded("reply/" + request.key.rsplit("/", 1)[0] + "/1")
            if first is not None:
                return Reply(dict(first["message"]), dict(NO_USAGE))
        return self.mailbox.ask(request.key, request_view(self.info, request, self.events()))
