"""What a grader returns, for either language: one `Grade`.

Both graders take the model's raw text, read it through their language's
answer reader (tasks.aliencode_reader, tasks.alienlogic_reader) and judge
what it holds. The episode, Inspect, sweeps and the `grade` commands all
call that one path, so they agree on every text.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    """What a reply holds: the answer to judge (`answer`, or `refused`
    for a refusal), or else why there is nothing to judge (`problem`: no
    answer found, or an ambiguous one)."""

    answer: str | None = None
    refused: bool = False
    problem: str = ""


@dataclass(frozen=True)
class CallGrade:
    """One private run of an AlienCode answer."""

    passed: bool
    reason: str

    def as_dict(self) -> dict[str, object]:
        return {"passed": self.passed, "reason": self.reason}


@dataclass(frozen=True)
class Grade:
    """The verdict on one answer to one task.

    `reason` says why it passed or failed (for AlienCode, the first failing
    run's reason); `answer` is what the reader took from the text, as a
    trace records it (None when there was nothing to judge); `calls` holds
    an AlienCode answer's private runs, `verdict` the AlienLogic checker's
    public verdict on a proof."""

    task: str
    passed: bool
    reason: str
    world_hash: str
    answer: str | None = None
    calls: tuple[CallGrade, ...] = ()
    verdict: dict[str, object] | None = None

    def as_dict(self) -> dict[str, object]:
        return {
            "task": self.task,
            "passed": self.passed,
            "reason": self.reason,
            "answer": self.answer,
            "calls": [c.as_dict() for c in self.calls],
            "verdict": self.verdict,
            "world_hash": self.world_hash,
        }
