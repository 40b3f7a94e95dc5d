"""What an AlienLogic conversation shows: the worked proofs with their
verdicts (in the system prompt), each `check_proof` call with its result,
and the theorem a held-out question asks about. The explorer and the
exploration metrics read a conversation through these functions only.
"""

from __future__ import annotations

import re

from alienworlds.episode.scripted_agents import tool_calls_in

from alienlogic import ProofSyntaxError, Theorem, parse_formula, parse_formulas

TOOL = "check_proof"
ARGUMENT = "proof"

_WORKED = re.compile(r"```proof\n(.*?)\n```\nVerdict: (\{[^\n]*\})", re.S)
_PREMISES = re.compile(r"^Premises: (.*)$", re.M)
_GOAL = re.compile(r"^Goal: (.*)$", re.M)


def exchanges(
    messages: list[dict], tool: str = TOOL, argument: str = ARGUMENT
) -> list[tuple[str, str]]:
    """(proof text, verdict text) for each worked proof of the system prompt,
    then for each call of the tool with its result, in order."""
    out: list[tuple[str, str]] = []
    calls: dict[str, str] = {}
    for message in messages:
        role = message.get("role")
        content = message.get("content")
        if role == "system" and isinstance(content, str):
            worked = content.split("=== WORKED PROOFS ===", 1)
            if len(worked) == 2:
                out += [
                    (p, v)
                    for p, v in _WORKED.findall(worked[1].split("=== THE WORLD'S RULES", 1)[0])
                ]
        elif role == "assistant":
            calls.update(tool_calls_in([message], tool, argument))
        elif role == "tool" and message.get("tool_call_id") in calls and isinstance(content, str):
            out.append((calls.pop(message["tool_call_id"]), content))
    return out


def theorem_of(prompt: str) -> Theorem | None:
    """The premises and goal a task question states."""
    p, g = _PREMISES.findall(prompt), _GOAL.findall(prompt)
    if not p or not g:
        return None
    text = p[-1].strip()
    try:
        premises = () if text == "(none)" else parse_formulas(text)
        return Theorem(tuple(premises), parse_formula(g[-1].strip()))
    except (
        ProofSyntaxError,
        RecursionError,
    ):  # an unreadable question gets no theorem, never a crash
        return None
