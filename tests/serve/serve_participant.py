"""A scripted participant: what a person who knew the answer key would type.

It probes with the environment's seeded fixed-probe sequence (a set number
a round), reports the world's true rules, and answers each task with the
bank's reference (the expected output of a prediction, the reference
program of a synthesis task, the reference proof or a refusal), typed as a
person types it into the page: without fences. Played end to end, every
milestone then scores 100%, which shows that every answer travelled from
the page to the grader intact.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from alienworlds.episode.environment import Environment
from alienworlds.episode.protocol import ROUNDS


def typed_answer(env: Environment, task_id: str) -> tuple[str, bool]:
    """(the text typed into the answer box, whether 'unprovable' is pressed)."""
    task = env.bank.task(task_id)
    if env.language == "alienlogic":
        if not task.extra.get("provable", True):
            return "", True
        return task.reference.strip(), False
    if task.kind == "prediction":
        return env.expected_output(task_id), False
    return task.reference.strip("\n"), False


@dataclass
class ScriptedParticipant:
    env: Environment
    probes_per_round: int = 12
    seed: int = 0
    sequence: list[list[str]] = field(init=False)

    def __post_init__(self) -> None:
        self.sequence = self.env.fixed_probes(self.seed, ROUNDS, self.env.calls_per_round)

    def decide(self, view: dict) -> tuple[str, str, bool]:
        """(action, text, refuse) for the page's current view."""
        phase = view["phase"]
        if phase == "consent":
            return "consent", "", False
        if phase == "explore":
            used = view["budget"]["round_used"]
            batch = self.sequence[view["round"] - 1]
            if used < min(self.probes_per_round, len(batch)):
                return "probe", batch[used], False
            return "end-round", "", False
        if phase == "rules":
            return "answer", self.env.format_rule_report(self.env.true_rule_report()), False
        if phase == "reflect":
            return "answer", "No hypothesis beyond the manual yet.", False
        if phase == "answer":
            text, refuse = typed_answer(self.env, view["task"]["id"])
            return "answer", text, refuse
        raise ValueError(f"nothing to do in phase {phase!r}")
