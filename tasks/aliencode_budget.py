"""Answer budgets: what a synthesis answer may cost (docs/validity.md).

An answer that carries its own run-time library (a self-calibrating answer
tests every operation before it uses it) or walks everything the long way
round (an avoidant answer) costs far more than a solution written by someone
who knows the world. So every synthesis task has a budget, derived from its
own solutions and stated in its prompt:

* tokens: at most TOKEN_MARGIN × T + TOKEN_SLACK tokens of source (names,
  keywords, numbers, strings, punctuation; comments and layout are free),
  T the most tokens of the reference, the naive solution and the variants;
* steps: at most STEP_MARGIN × S + STEP_SLACK steps on each private run
  (the answer's own run plus the call's, an input binding excluded), S the
  most steps any private run of the reference takes in the world, or of the
  naive solution or a variant under the manual.

Both are counted, never timed, so a verdict is the same on any machine.
The margins leave room for a correct answer written differently from the
reference: a port of the naive solution by the porting compiler, which
builds helpers and compensations, fits them on the main bank.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil

TOKEN_MARGIN = 2.5
TOKEN_SLACK = 20
STEP_MARGIN = 10
STEP_SLACK = 100


@dataclass(frozen=True)
class Budget:
    tokens: int
    steps: int

    def describe(self) -> str:
        """The sentence a task prompt states."""
        return (
            f"Answer budget: at most {self.tokens} tokens of code (names, keywords, numbers, "
            "strings "
            f"and punctuation; comments and layout are free) and at most {self.steps} steps on "
            "each "
            "run; an answer over either fails."
        )

    def as_dict(self) -> dict[str, int]:
        return {"tokens": self.tokens, "steps": self.steps}


def derive(solution_tokens: list[int], run_steps: list[int]) -> Budget:
    """The budget from the tokens of each solution and the steps of every
    private run of every solution that computes the task."""
    most_tokens = max(solution_tokens, default=0)
    most_steps = max(run_steps, default=0)
    return Budget(
        ceil(TOKEN_MARGIN * most_tokens) + TOKEN_SLACK, STEP_MARGIN * most_steps + STEP_SLACK
    )


def over_tokens(budget: Budget) -> str:
    return f"over the answer budget: more than {budget.tokens} tokens of code"


def over_steps(budget: Budget) -> str:
    return f"over the answer budget: more than {budget.steps} steps on a run"
