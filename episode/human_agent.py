"""A person as an agent: the protocol's requests become questions to a
`Player`, and the player's actions become the agent's replies.

The driver is unchanged: it asks the human agent exactly what it asks a
model (the same system prompt, rounds, budgets, caps and milestones), and
the trace records the person's replies as it records a model's. What is
particular to a person lives here:

* a probe is a tool call the agent builds from the text the person gives,
  and no probe ends the round;
* the person sees each conversation message once (a resumed session shows
  the recorded conversation first, so nothing is missed);
* a person answers a task once per milestone: the answer is the reply to
  every pass (asking again would measure patience, not knowledge), read
  back from the trace after a resume.

How the person is asked (a terminal, a web page) is the `Player`'s
business; the terminal's is `episode.human_terminal`.
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path

from .agent import Agent, AgentError, Reply, Request, text_reply
from .environment import Environment
from .trace import read_trace

HUMAN_PREFIX = "human:"
PLAYER_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
END_OF_ROUND = "I have no further probe for this round."


class PlayerIdError(ValueError):
    """A player id outside the allowed characters or length."""


def check_player_id(player_id: str) -> str:
    """The id, when it is 1-40 letters, digits, '_', '.' or '-' (starting
    with a letter or digit): it names the system in reports and a folder."""
    if not PLAYER_ID.fullmatch(player_id or ""):
        raise PlayerIdError(
            f"player id {player_id!r}: use 1 to 40 letters, digits, '_', '.' or '-', "
            "starting with a letter or digit"
        )
    return player_id


def is_human(agent: dict | None) -> bool:
    """Whether a trace header's agent is a person."""
    return str((agent or {}).get("name", "")).startswith(HUMAN_PREFIX)


@dataclass(frozen=True)
class Turn:
    """One thing a person is asked for."""

    key: str  # the request's key, e.g. "r2/turn3", "M1/T07/1"
    purpose: str  # explore | reflect | rules | answer
    unseen: list[dict]  # conversation messages the person has not been shown yet
    prompt: str | None  # the milestone's question (rules, answer), with any disclosure; else None
    round: int | None
    milestone: object
    task: str | None
    probes_made: int  # explore: tool calls already made in this round
    probes_allowed: int  # explore: tool calls this round may make (the total cap included)
    tool_name: str


class Player(ABC):
    """How a person is asked. Each method blocks until the person acts."""

    @abstractmethod
    def probe(self, turn: Turn) -> str | None:
        """The next probe's text (the tool's one argument), or None to end the round."""

    @abstractmethod
    def note(self, turn: Turn) -> str:
        """Free text: the person's hypotheses (rounds without a tool)."""

    @abstractmethod
    def rule_report(self, turn: Turn) -> str:
        """The milestone's rule report, in the format `turn.prompt` asks for."""

    @abstractmethod
    def answer(self, turn: Turn) -> str:
        """The reply to one held-out task, in the format `turn.prompt` asks for."""

    @abstractmethod
    def stop(self) -> None:
        """Give up any wait for the person (the session is ending)."""


def _main_length(request: Request) -> int:
    """How many of the request's messages are the main conversation: a
    milestone request appends its question (and a disclosure) as trailing
    user messages, which the main conversation never ends with there."""
    messages = request.messages
    if request.purpose not in ("rules", "answer"):
        return len(messages)
    end = len(messages)
    while end > 0 and messages[end - 1].get("role") == "user":
        end -= 1
    return end


def _calls_since_last_user(messages: list[dict]) -> int:
    made = 0
    for message in reversed(messages):
        if message.get("role") == "user":
            break
        made += len(message.get("tool_calls") or ())
    return made


def earlier_answers(trace: str | Path) -> dict[tuple[str, str], str]:
    """(milestone name, task) -> the reply a person gave to its first pass,
    from a trace being resumed (empty when there is none yet)."""
    path = Path(trace)
    if not path.exists() or path.stat().st_size == 0:
        return {}
    found = {}
    for event in read_trace(path):
        parts = str(event.get("key", "")).split("/")
        if event.get("type") == "reply" and len(parts) == 4 and parts[3] == "1":
            found[parts[1], parts[2]] = (event.get("message") or {}).get("content") or ""
    return found


class HumanAgent(Agent):
    """The agent whose replies a person gives through a `Player`."""

    name = "human"
    offline = False  # a person's reply is expensive: the request is recorded before it is asked

    def __init__(
        self,
        env: Environment,
        player: Player,
        player_id: str,
        answered: dict[tuple[str, str], str] | None = None,
    ) -> None:
        self.env = env
        self.player = player
        self.player_id = check_player_id(player_id)
        self.answered = dict(answered or {})
        self._seen = 0  # main-conversation messages already shown to the person

    @classmethod
    def from_options(cls, env: Environment, seed: int, options: dict[str, object]) -> HumanAgent:
        player, player_id = options.get("player"), options.get("player_id")
        if not isinstance(player, Player) or not isinstance(player_id, str):
            raise AgentError(
                "the human agent needs a person to ask: play with `aliencode play` "
                "or `alienlogic play`"
            )
        trace = options.get("trace")
        return cls(env, player, player_id, earlier_answers(trace) if trace else None)

    def config(self) -> dict[str, object]:
        return {"name": f"{HUMAN_PREFIX}{self.player_id}"}

    def _turn(self, request: Request) -> Turn:
        main = _main_length(request)
        unseen = request.messages[self._seen : main]
        self._seen = main
        # a milestone's question, after the disclosed rules in the open-book milestone
        extra = [str(m.get("content") or "") for m in request.messages[main:]]
        prompt = "\n\n".join(extra) if extra else None
        made = _calls_since_last_user(request.messages)
        allowed = self.env.calls_per_round
        if self.env.max_total_calls is not None:
            total = sum(len(m.get("tool_calls") or ()) for m in request.messages)
            allowed = min(allowed, made + max(0, self.env.max_total_calls - total))
        return Turn(
            request.key,
            request.purpose,
            unseen,
            prompt,
            request.round,
            request.milestone,
            request.task,
            made,
            allowed,
            self.env.tool_name,
        )

    def respond(self, request: Request) -> Reply:
        turn = self._turn(request)
        if request.purpose == "explore":
            return self._probe(turn)
        if request.purpose == "rules":
            return text_reply(self.player.rule_report(turn))
        if request.purpose == "answer":
            return text_reply(self._answer(turn))
        reply = text_reply(self.player.note(turn))
        self._seen += 1  # the note joins the conversation; the person wrote it
        return reply

    def _probe(self, turn: Turn) -> Reply:
        text = self.player.probe(turn)
        self._seen += 1  # the reply joins the conversation; the person wrote it
        if text is None:
            return text_reply(END_OF_ROUND)
        call = {
            "id": f"call_human_{turn.key.replace('/', '_')}",  # one call a turn: the key is unique
            "type": "function",
            "function": {
                "name": self.env.tool_name,
                "arguments": json.dumps({self.env.tool_argument: text}, ensure_ascii=False),
            },
        }
        return Reply({"role": "assistant", "content": None, "tool_calls": [call]})

    def _answer(self, turn: Turn) -> str:
        slot = (f"M{turn.milestone}", str(turn.task))
        if slot not in self.answered:
            self.answered[slot] = self.player.answer(turn)
        return self.answered[slot]

    async def aclose(self) -> None:
        self.player.stop()
