"""What a participant's page may see, and how the page's input becomes an
answer: pure functions of the human agent's question and the participant's
own trace.

A view carries the protocol's prompts, the participant's own probes with
their (capped) feedback, and the budget; never a verdict, an expected
output, a reference, the world or another participant's anything. The
agent's copy of the conversation is not sent either: the page rebuilds what
it shows from these fields.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from alienworlds.episode.human_agent import Turn
from alienworlds.episode.languages import language as language_entry

# how the answer box's text is wrapped so that the episode's answer reader
# (episode/answers.py, tasks.answer_text) finds it exactly as typed
FENCES = {"program": "aliencode", "output": "output", "proof": "proof"}
REFUSAL = "ANSWER: UNPROVABLE"


@dataclass(frozen=True)
class SessionInfo:
    """The public facts of one session, fixed for its whole episode."""

    participant: str
    language: str
    tool_name: str
    tool_argument: str
    rounds: int
    calls_per_round: int
    max_total_calls: int | None
    probe_cap: int | None
    milestones: tuple[str, ...]  # "M0", "M1", ...
    tasks: tuple[tuple[str, str], ...]  # (task id, answer kind: program | output | proof)
    rule_ids: tuple[str, ...]
    passes: int


def answer_kind(language: str, task_kind: str) -> str:
    if language_entry(language).proofs:
        return "proof"
    return "output" if task_kind == "prediction" else "program"


def probes(events: list[dict], argument: str) -> list[dict]:
    """The participant's probes so far, in order, with their feedback."""
    out = []
    for event in events:
        if event.get("type") != "tool":
            continue
        try:
            decoded = json.loads(event.get("arguments") or "null")
        except ValueError:
            decoded = None
        text = decoded.get(argument) if isinstance(decoded, dict) else None
        out.append(
            {
                "round": event.get("round"),
                "n": event.get("n"),
                "text": text if isinstance(text, str) else "",
                "feedback": event.get("feedback", ""),
                "counted": bool(event.get("counted")),
            }
        )
    return out


def _base(info: SessionInfo, events: list[dict], phase: str) -> dict:
    done = sum(1 for e in events if e.get("type") == "milestone")
    counted = [e for e in events if e.get("type") == "tool" and e.get("counted")]
    return {
        "participant": info.participant,
        "language": info.language,
        "tool": info.tool_name,
        "phase": phase,
        "key": None,
        "rounds": info.rounds,
        "milestones": {"done": done, "of": len(info.milestones)},
        "budget": {
            "per_round": info.calls_per_round,
            "total_used": len(counted),
            "total_max": info.max_total_calls,
            "unit_cap": info.probe_cap,
        },
        "probes": probes(events, info.tool_argument),
    }


def turn_view(info: SessionInfo, turn: Turn, prompt: str, events: list[dict]) -> dict:
    """The page for a question the human agent waits on."""
    phase = {"explore": "explore", "reflect": "reflect", "rules": "rules"}.get(
        turn.purpose, "answer"
    )
    view = _base(info, events, phase)
    view["key"] = turn.key
    view["prompt"] = prompt
    if turn.round is not None:
        view["round"] = turn.round
        used = sum(
            1
            for e in events
            if e.get("type") == "tool" and e.get("round") == turn.round and e.get("counted")
        )
        view["budget"]["round_used"] = used
    if turn.milestone is not None:
        view["milestone"] = f"M{turn.milestone}"
    if phase == "rules":
        view["rule_ids"] = list(info.rule_ids)
    if phase == "answer":
        ids = [task_id for task_id, _ in info.tasks]
        kinds = dict(info.tasks)
        view["task"] = {
            "id": turn.task,
            "number": ids.index(turn.task) + 1 if turn.task in ids else None,
            "of": len(ids),
            "kind": kinds.get(turn.task, "program"),
            "refusable": language_entry(info.language).proofs,
        }
    return view


def state_view(info: SessionInfo, events: list[dict], phase: str, message: str = "") -> dict:
    """A page that waits for no reply: starting, working, finished or failed."""
    view = _base(info, events, phase)
    if message:
        view["message"] = message
    return view


def reply_content(phase: str, kind: str | None, text: str, refuse: bool = False) -> str:
    """The assistant message text for what the participant typed."""
    if phase == "answer":
        if refuse:
            return REFUSAL
        fence = FENCES.get(kind or "program", "aliencode")
        return f"```{fence}\n{text.rstrip(chr(10))}\n```"
    return text
