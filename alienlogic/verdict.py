"""Verdicts: what the checker says about a proof (docs/alienlogic.md).

A rejection names a reason class and an id. Standard failures have the
descriptive ids of FAILURES; a world rule's failure carries only the rule's
opaque id. `detail` and `rule_name` are for authors and stay out of
`as_dict()` unless asked for. A parse error's `message` (line, column, what
was expected) depends on the text alone, never on the world, so it is public.
"""

from __future__ import annotations

from dataclasses import dataclass

PARSE_ERROR = "PARSE_ERROR"
STRUCTURE = "STRUCTURE"
UNKNOWN_RULE = "UNKNOWN_RULE"
RULE_VIOLATION = "RULE_VIOLATION"
ALIEN_AXIOM_DISABLED = "ALIEN_AXIOM_DISABLED"
ALIEN_SIDE_CONDITION = "ALIEN_SIDE_CONDITION"
ANSWER_MISMATCH = "ANSWER_MISMATCH"

REASON_CLASSES = (
    PARSE_ERROR,
    STRUCTURE,
    UNKNOWN_RULE,
    RULE_VIOLATION,
    ALIEN_AXIOM_DISABLED,
    ALIEN_SIDE_CONDITION,
    ANSWER_MISMATCH,
)

# Every standard failure: id -> (reason class, what it means).
FAILURES: dict[str, tuple[str, str]] = {
    "SYNTAX": (PARSE_ERROR, "the text is not a proof in the documented format"),
    "TOO_DEEP": (PARSE_ERROR, "a formula is nested more than 200 levels deep"),
    "LINE_NUMBER": (STRUCTURE, "steps must be numbered 1, 2, 3, ... in order"),
    "ASSUME_AT_TOP": (STRUCTURE, "an assumption opens a box, so it needs at least one |"),
    "DEPTH_JUMP": (STRUCTURE, "a line is more than one box deeper than the line before it"),
    "BOX_WITHOUT_ASSUMPTION": (
        STRUCTURE,
        "a line is deeper than the line before it but is not an assumption",
    ),
    "REF_NOT_EARLIER": (
        STRUCTURE,
        "a citation names this line, a later line or a line that does not exist",
    ),
    "REF_NOT_ACCESSIBLE": (STRUCTURE, "a cited line lies in a box that is closed at this step"),
    "RANGE_NOT_A_BOX": (
        STRUCTURE,
        "a range a-b is not exactly one box (a opens it, b is its last line)",
    ),
    "RANGE_NOT_CLOSED": (STRUCTURE, "a cited box is still open at this step"),
    "RANGE_NOT_ACCESSIBLE": (
        STRUCTURE,
        "a cited box lies inside a box that is closed at this step",
    ),
    "BOX_ENDS_IN_SUBPROOF": (
        STRUCTURE,
        "a cited box ends inside a box nested in it, not with a line of its own",
    ),
    "GOAL_NOT_REACHED": (STRUCTURE, "the last line is not the goal outside every box"),
    "UNKNOWN_RULE": (UNKNOWN_RULE, "the rule name is not one of the standard rules"),
    "CITATION_COUNT": (RULE_VIOLATION, "the rule was given the wrong number of citations"),
    "EXPECTED_LINE": (RULE_VIOLATION, "the rule needs a single line where a range was given"),
    "EXPECTED_RANGE": (
        RULE_VIOLATION,
        "the rule needs a range a-b (a box) where a single line was given",
    ),
    "NOT_A_PREMISE": (RULE_VIOLATION, "the formula is not among the proof's premises"),
    "PREMISE_REPEATED": (
        RULE_VIOLATION,
        "a premise is asserted more often than the premises list it",
    ),
    "WRONG_SHAPE": (RULE_VIOLATION, "a cited formula is not of the form the rule needs"),
    "MISMATCH": (RULE_VIOLATION, "the cited formulas do not fit together as the rule needs"),
    "WRONG_CONCLUSION": (
        RULE_VIOLATION,
        "the line is not what the rule derives from its citations",
    ),
    "NOT_AN_INSTANCE": (RULE_VIOLATION, "a formula is not the instance the quantifier rule needs"),
    "NOT_FRESH": (RULE_VIOLATION, "the generalised or witness constant is not fresh"),
    "PREMISES_MISMATCH": (ANSWER_MISMATCH, "the proof's premises are not the task's"),
    "GOAL_MISMATCH": (ANSWER_MISMATCH, "the proof's goal is not the task's"),
}


class Rejection(Exception):
    """A step (or the proof) is refused; the kernel turns it into a Verdict."""

    def __init__(
        self,
        reason_id: str,
        detail: str,
        reason_class: str | None = None,
        rule_name: str | None = None,
    ) -> None:
        super().__init__(detail)
        self.reason_id = reason_id
        self.reason_class = reason_class or FAILURES[reason_id][0]
        self.detail = detail
        self.rule_name = rule_name


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    verifier_passed: bool  # every step checked
    goal_match: bool  # ... and the proof ends in its goal (and the task's, when graded)
    rejected_step: int | None  # position of the refused step, 1-based
    reason_class: str | None
    reason_id: str | None
    n_steps: int
    detail: str | None = None  # for authors: what went wrong, in words
    rule_name: str | None = (
        None  # for authors: the refused inference rule, or the world rule's name
    )
    message: str | None = None  # public: a parse error's position and expectation

    def as_dict(self, detail: bool = False) -> dict[str, object]:
        out: dict[str, object] = {
            "accepted": self.accepted,
            "verifier_passed": self.verifier_passed,
            "goal_match": self.goal_match,
            "rejected_step": self.rejected_step,
            "reason_class": self.reason_class,
            "reason_id": self.reason_id,
            "n_steps": self.n_steps,
        }
        if self.message is not None:
            out["message"] = self.message
        if detail:
            out["detail"] = self.detail
            out["rule_name"] = self.rule_name
        return out

    def summary(self, detail: bool = False) -> str:
        """One line for people (plus author lines with `detail`)."""
        if self.accepted:
            lines = [f"accepted ({self.n_steps} step{'' if self.n_steps == 1 else 's'})"]
        else:
            where = f" at step {self.rejected_step}" if self.rejected_step is not None else ""
            lines = [f"rejected{where}: {self.reason_class} {self.reason_id}"]
            if self.message:
                lines.append(f"  {self.message}")
        if detail and not self.accepted:
            lines.append(f"  detail: {self.detail}")
            if self.rule_name:
                lines.append(f"  rule: {self.rule_name}")
        return "\n".join(lines)
