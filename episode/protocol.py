"""The ExplorationBench protocol's constants, conditions and feedback cap
(docs/episodes.md).

An episode: the manual and the fixed worked examples in the system prompt;
milestone M0; then ROUNDS rounds of exploration, each followed by a
milestone. At a milestone, tool-disabled copies of the conversation give a
rule report and answer every held-out task PASSES times; the copies are
discarded.
"""

from __future__ import annotations

from dataclasses import dataclass

ROUNDS = 4
CALLS_PER_ROUND = 12
PASSES = 3
FEEDBACK_LINES = 15
FEEDBACK_CHARS = 600
TRACE_FORMAT = 1


@dataclass(frozen=True)
class Condition:
    name: str
    summary: str
    rounds: int  # exploration rounds (milestones are rounds + 1)
    exploration: str  # autonomous | injected | reflect-only | none
    open_book: str | None = None  # "m0": rules in the system prompt; "m4": disclosed after M4


CONDITIONS: dict[str, Condition] = {
    c.name: c
    for c in (
        Condition("autonomous", "the system chooses its own probes", ROUNDS, "autonomous"),
        Condition(
            "hindsight",
            "the probes of a given trace are replayed (live) through the tool interface",
            ROUNDS,
            "injected",
        ),
        Condition(
            "fixed-probe",
            "a seeded sequence of grammar-valid template probes, the same for every system",
            ROUNDS,
            "injected",
        ),
        Condition(
            "without-tool",
            "one model turn per round, without any environment feedback",
            ROUNDS,
            "reflect-only",
        ),
        Condition("direct", "no model turns after M0: milestone M0 only", 0, "none"),
        Condition(
            "open-book-m0",
            "the complete rule set in the system prompt; milestone M0 only (O@M0)",
            0,
            "none",
            "m0",
        ),
        Condition(
            "open-book-m4",
            "autonomous exploration, then the rules disclosed and one more milestone (A4+O)",
            ROUNDS,
            "autonomous",
            "m4",
        ),
    )
}

OPEN_BOOK_MILESTONE = "4+O"


def milestone_labels(condition: Condition) -> list[object]:
    """The milestones of a condition in order: 0, 1, ..., rounds (and 4+O)."""
    labels: list[object] = list(range(condition.rounds + 1))
    if condition.open_book == "m4":
        labels.append(OPEN_BOOK_MILESTONE)
    return labels


TRUNCATION_NOTE = "[feedback truncated]"


def cap_feedback(
    text: str, max_lines: int = FEEDBACK_LINES, max_chars: int = FEEDBACK_CHARS
) -> str:
    """Tool feedback capped at `max_lines` lines and `max_chars` characters,
    with a visible note when anything was cut. The note is outside the cap
    and says only that the output was cut: how much was withheld is itself
    information past the cap."""
    lines = text.split("\n")
    cut = False
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        cut = True
    kept = "\n".join(lines)
    if len(kept) > max_chars:
        kept = kept[:max_chars]
        cut = True
    return f"{kept}\n{TRUNCATION_NOTE}" if cut else text
