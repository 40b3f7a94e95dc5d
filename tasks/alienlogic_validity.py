"""AlienLogic's trivial strategies (see tasks.validity).

* `refuse-all`: the refusal line on every task (scores every designated
  unprovable theorem).
* `standard-proof`: the standard calculus' proof: the bank's `naive` proof,
  else the reference when the standard calculus accepts it (a theorem that
  needs no patch).
* the adaptive strategies of `alienlogic_adaptive`: the prover's own proofs
  in knowledge-free styles, proving else refusing, and prove/refuse
  heuristics on the theorem's syntax.

AlienLogic tasks are not flagged: refusing is an answer, so its floor is the
bank's unprovable share at least. The floor is reported beside every score.
"""

from __future__ import annotations

import time

from alienworlds.ruleset.world import World, standard_world

from alienlogic import ProofSyntaxError, check

from .alienlogic_adaptive import Answerer, passes
from .alienlogic_grading import AlienLogicGrader, LogicTask
from .answer_text import REFUSAL_TEXT
from .bank import Bank
from .validity_result import Validity, tally

STRATEGIES = ("refuse-all", "standard-proof")


def standard_proof(task: LogicTask, standard: World) -> str | None:
    if task.naive:
        return task.naive
    try:
        if task.reference and check(task.reference, standard, task=task.theorem).accepted:
            return task.reference
    except ProofSyntaxError:
        return None
    return None


def battery(world: World, bank: Bank, answerer: Answerer | None = None) -> Validity:
    """The strategies' passes; `answerer` keeps the prover's answers for a caller."""
    start = time.perf_counter()
    grader = AlienLogicGrader(world, bank)
    standard = standard_world("alienlogic")
    passed: dict[str, set[str]] = {name: set() for name in STRATEGIES}
    for task_id, task in grader.tasks.items():
        if grader.grade(task_id, REFUSAL_TEXT).passed:
            passed["refuse-all"].add(task_id)
        proof = standard_proof(task, standard)
        if proof is not None and grader.grade(task_id, proof).passed:
            passed["standard-proof"].add(task_id)

    def grade(task: LogicTask, text: str) -> bool:
        return grader.grade(task.id, text).passed

    passed |= passes(list(grader.tasks.values()), grade, answerer or Answerer())
    return tally(
        [t.id for t in bank.tasks], passed, flag=False, seconds=time.perf_counter() - start
    )
