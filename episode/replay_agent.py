"""The `replay` agent: the replies a recorded trace holds, request by request."""

from __future__ import annotations

from pathlib import Path

from .agent import Agent, AgentError, Reply, Request
from .trace import read_trace


class ReplayAgent(Agent):
    name = "replay"
    offline = True

    def __init__(self, source: str | Path) -> None:
        self.path = Path(source)
        if self.path.is_dir():
            self.path = self.path / "trace.jsonl"
        events = read_trace(self.path)
        if not events or events[0].get("type") != "header":
            raise AgentError(f"{self.path}: not an episode trace")
        self.header = events[0]
        self.replies = {
            e["key"].removeprefix("reply/"): e for e in events if e.get("type") == "reply"
        }

    @classmethod
    def from_options(cls, env: object, seed: int, options: dict[str, object]) -> ReplayAgent:
        if not options.get("source"):
            raise AgentError("the replay agent needs a recorded trace (--from DIR)")
        return cls(str(options["source"]))

    def config(self) -> dict[str, object]:
        return {
            "name": self.name,
            "source": str(self.path),
            "source_agent": self.header.get("agent"),
        }

    def respond(self, request: Request) -> Reply:
        event = self.replies.get(request.key)
        if event is None:
            raise AgentError(
                f"the recorded trace {self.path} has no reply for request {request.key}"
            )
        return Reply(event["message"], event.get("usage") or {}, event.get("attempts", 1))
