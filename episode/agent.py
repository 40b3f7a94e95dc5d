"""The interface every agent implements.

An agent answers one request at a time: the conversation so far (OpenAI-style
chat messages), the tool schema, whether tools are enabled, and what the
request is for. It returns an assistant message (possibly with tool calls)
and its token usage. The driver owns the conversation, the budgets and the
trace; an agent owns nothing but its own reply.

A simple agent implements `respond` (blocking); an agent that talks to a
service implements `respond_async`, which the driver awaits, so that many
requests can be in flight at once and a stop signal cancels them.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field


class AgentError(Exception):
    """The agent cannot answer (a dead endpoint, a trace without the reply).
    The run stops; `--resume` continues it later."""


@dataclass
class Request:
    key: str  # unique within the episode, e.g. "r2/turn3", "M1/rules", "M1/T07/2"
    purpose: str  # explore | reflect | rules | answer
    messages: list[dict]
    tools: list[dict]
    tools_enabled: bool
    milestone: object = None
    round: int | None = None
    task: str | None = None
    answer_pass: int | None = None


@dataclass
class Reply:
    message: dict
    usage: dict = field(default_factory=lambda: {"prompt_tokens": 0, "completion_tokens": 0})
    attempts: int = 1

    @property
    def tokens(self) -> int:
        return int(self.usage.get("prompt_tokens") or 0) + int(
            self.usage.get("completion_tokens") or 0
        )

    def as_dict(self) -> dict[str, object]:
        return {"message": self.message, "usage": self.usage, "attempts": self.attempts}


def text_reply(content: str) -> Reply:
    return Reply({"role": "assistant", "content": content})


class Agent:
    """The one interface every agent implements."""

    name = "agent"
    concurrency = 1  # how many milestone requests may be in flight at once
    # True: answers at once and locally (the trace then records a request with its reply, one fsync)
    offline = False

    @classmethod
    def from_options(cls, env: object, seed: int, options: dict[str, object]) -> Agent:
        """Build the agent for an episode (see `episode.agent_registry.make_agent`)."""
        return cls()

    def config(self) -> dict[str, object]:
        """What the trace records about the agent (never a secret)."""
        return {"name": self.name}

    def respond(self, request: Request) -> Reply:
        raise NotImplementedError

    async def respond_async(self, request: Request) -> Reply:
        """What the driver awaits. An offline agent answers inline; a
        blocking one runs in a worker thread so the event loop stays free."""
        if self.offline:
            return self.respond(request)
        return await asyncio.to_thread(self.respond, request)

    async def aclose(self) -> None:
        """Release what is bound to the running event loop (connections)."""

    def close(self) -> None:
        pass
