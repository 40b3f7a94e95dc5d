"""Reading an AlienCode answer from a model's reply (docs/episodes.md).

A synthesis answer is a program: the last block tagged `aliencode` (or
`alien`, `alien-code`, `ac`), else the last other block not tagged as
output; a reply with no fence at all is a bare program when it parses. A
prediction answer is the predicted output: an output block, a
`PREDICTION: …` line, or the only fenced block. Whatever cannot be read
this way is no answer, and fails.
"""

from __future__ import annotations

from collections.abc import Mapping

from aliencode import AlienSyntaxError, parse

from .answer_text import pick_block, prediction
from .bank import Task
from .grade import Reading

NO_ANSWER = "no answer found in the reply"

CODE_TAGS = ("aliencode", "alien", "alien-code", "ac")
NOT_CODE_TAGS = ("output", "text", "stdout", "json")


def read_answer(task: Task, text: str, keywords: Mapping[str, str]) -> Reading:
    """The answer a reply holds for `task` (`keywords`: the world's surface
    keywords, to recognise a bare program)."""
    if not isinstance(text, str) or not text.strip():
        return Reading(problem=NO_ANSWER)
    if task.kind == "prediction":
        found = prediction(text)
        return Reading(answer=found) if found is not None else Reading(problem=NO_ANSWER)
    found = pick_block(text, CODE_TAGS, avoid=NOT_CODE_TAGS)
    if found is not None:
        return Reading(answer=found)
    if "```" in text or "~~~" in text:
        return Reading(problem=NO_ANSWER)
    # no fence at all: the whole reply is the program, if it parses
    try:
        parse(text, keywords)
    except AlienSyntaxError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return Reading(problem=f"{NO_ANSWER} (no fenced block; as a bare program: {first})")
    return Reading(answer=text.strip("\n"))
