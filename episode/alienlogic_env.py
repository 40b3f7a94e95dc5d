"""The AlienLogic environment: tool `check_proof(proof)` (12 proofs a
round, 48 in all; each proof one probe unit), feedback the compact public
verdict, answers graded by the proof checker with the task's premises and
goal by the bank's grader (tasks.alienlogic_grading); a designated
unprovable task scores only as a clean refusal.

AlienLogic has no rule-report score (ExplorationBench §3.3): its diagnostic
is unprovable recognition. Banks follow docs/tasks.md: `bank.toml` beside
a world given as a file, else `tasks/alienlogic/<world>.toml`, with
`kind = "proof"`, `premises` (a list of formulas, or one
comma-separated string), `goal`, `provable` (default true), a `reference`
proof (and optionally a manual-trusting `naive` one); worked examples give
their proof as `program`. A task's rules (for covered/uncovered accuracy) are
the ones the bank audit computes when the bank carries an [audit] table, else
the patched rules its proofs cite.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from alienworlds.manuals.alienlogic import EXAMPLES, render
from alienworlds.ruleset.world import World
from alienworlds.tasks.alienlogic_audit import audit
from alienworlds.tasks.alienlogic_grading import AlienLogicGrader
from alienworlds.tasks.answer_text import REFUSAL_TEXT
from alienworlds.tasks.bank import Bank, load_bank, own_bank_path
from alienworlds.tasks.grade import Grade
from alienworlds.tasks.validity import Validity

from alienlogic import Theorem, check, compile_world, load_world

from .environment import Environment, TaskInfo, ToolOutcome
from .protocol import CALLS_PER_ROUND, FEEDBACK_CHARS, FEEDBACK_LINES, ROUNDS


class AlienLogicEnvironment(Environment):
    language = "alienlogic"
    tool_name = "check_proof"
    tool_argument = "proof"
    calls_per_round = CALLS_PER_ROUND
    max_total_calls = CALLS_PER_ROUND * ROUNDS
    probe_cap = 1
    has_rule_report = False

    def __init__(
        self,
        world: World | str | None = None,
        bank: Bank | None = None,
        bank_path: str | Path | None = None,
    ) -> None:
        self.world = world if isinstance(world, World) else load_world(world)
        self.compiled = compile_world(self.world)
        self.bank = bank or load_bank(
            "alienlogic",
            self.world.name,
            Path(bank_path) if bank_path else own_bank_path("alienlogic", self.world),
        )
        self.grader = AlienLogicGrader(self.world, self.bank)
        self._theorems = {task_id: task.theorem for task_id, task in self.grader.tasks.items()}
        self._manual: str | None = None
        self._grades: dict[tuple[str, str], Grade] = {}
        self._rules: dict[str, tuple[str, ...]] | None = None
        self._validity: Validity | None = None

    def validity(self) -> Validity:
        if self._validity is None:
            from alienworlds.tasks.alienlogic_validity import battery

            self._validity = battery(self.world, self.bank)
        return self._validity

    def manual(self) -> str:
        if self._manual is None:
            self._manual = render(self.world, "text")
        return self._manual

    def _verdict_text(self, proof: str, theorem: Theorem | None = None) -> str:
        return json.dumps(check(proof, self.compiled, task=theorem).as_dict())

    def system_prompt(self, open_book: bool = False) -> str:
        parts = [
            "You are exploring an alien world: the AlienLogic proof system described by the "
            "manual below. The manual is "
            "not entirely true: the world patches some inference rules in secret (a rule may be "
            "disabled, carry an extra "
            "condition, or derive something else); elsewhere the manual is right.",
            f"You can submit proofs with the tool {self.tool_name}(proof), which returns the "
            "checker's verdict as JSON "
            f"(capped at {FEEDBACK_LINES} lines and {FEEDBACK_CHARS} characters). A rejection by "
            "a patched rule reports "
            "only its opaque rule id.",
            "The episode: study the manual and the worked proofs below. Then come 4 rounds of "
            "exploration of at most "
            f"{self.calls_per_round} proofs each ({self.max_total_calls} in all). After the "
            "worked proofs and after every "
            "round you are tested without tools on held-out theorems; some of them cannot be "
            "proved in this world, and "
            f"those are answered with the line `{REFUSAL_TEXT}`.",
            "=== MANUAL ===\n\n" + self.manual().rstrip(),
            "=== WORKED PROOFS ===\nEach is a proof this world accepts, with the checker's "
            "verdict.",
        ]
        for example in self.bank.examples:
            parts.append(
                f"Worked proof {example.id}: "
                f"{example.prompt}\n```proof\n{example.program.strip()}\n```\n"
                f"Verdict: {self._verdict_text(example.program)}"
            )
        if open_book:
            parts.append("=== THE WORLD'S RULES (disclosed) ===\n" + self.disclosure())
        return "\n\n".join(parts) + "\n"

    def tool_spec(self) -> dict[str, object]:
        return {
            "type": "function",
            "function": {
                "name": self.tool_name,
                "description": "Check a proof in this world and return the verdict as JSON (one "
                "proof per call).",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "proof": {
                            "type": "string",
                            "description": "The complete proof, PROOF ... END.",
                        }
                    },
                    "required": ["proof"],
                },
            },
        }

    def run_tool(self, arguments: object) -> ToolOutcome:
        if not isinstance(arguments, dict) or not isinstance(arguments.get("proof"), str):
            return ToolOutcome.make(
                "invalid",
                0,
                f"[rejected] {self.tool_name} takes one argument, proof: the proof text as a "
                "string. Nothing was checked.",
            )
        return ToolOutcome.make("ran", 1, self._verdict_text(arguments["proof"]))

    def task_rules(self) -> dict[str, tuple[str, ...]]:
        if self._rules is None:
            if self.bank.requirements:
                report = audit(self.world, self.bank, prover=False)
                self._rules = {t.id: tuple(t.rules) for t in report.tasks}
            else:
                self._rules = {
                    t.id: tuple(sorted(self.rules_touched(t.reference + "\n" + t.naive)))
                    for t in self.bank.tasks
                }
        return self._rules

    def tasks(self) -> list[TaskInfo]:
        rules = self.task_rules()
        return [
            TaskInfo(
                t.id,
                t.kind,
                t.band,
                t.family,
                rules.get(t.id, ()),
                not bool(t.extra.get("provable", True)),
            )
            for t in self.bank.tasks
        ]

    def task_prompt(self, task_id: str) -> str:
        task = self.bank.task(task_id)
        theorem = self._theorems[task_id]
        premises = ", ".join(str(p) for p in theorem.premises) or "(none)"
        return (
            f"Held-out task {task.id}. Tools are disabled: answer from what you know of this "
            "world.\n\n"
            f"{task.prompt.strip()}\nPremises: {premises}\nGoal: {theorem.goal}\n\n"
            "Answer with one complete proof in a fenced block:\n```proof\nPROOF\n...\nEND\n```\n"
            "or, if the goal cannot be proved in this world, with the single line "
            f"`{REFUSAL_TEXT}` and no proof."
        )

    def grade(self, task_id: str, text: str) -> Grade:
        key = (task_id, text)
        if key not in self._grades:
            self._grades[key] = self.grader.grade(task_id, text)
        return self._grades[key]

    def disclosure(self) -> str:
        lines = ["The world's patches of the standard rules (rule id: target rule — what changes):"]
        for rule in self.world.rules:
            change = (
                "disabled"
                if rule.disabled
                else "; ".join(
                    f"{k} {v}"
                    for k, v in (("requires", rule.require), ("derives", rule.conclusion))
                    if v
                )
            )
            lines.append(f"{rule.id}: {rule.target} — {change}   ({rule.name})")
        return "\n".join(lines)

    def fixed_probes(self, seed: int, rounds: int, per_round: int) -> list[list[str]]:
        rng = random.Random(f"alienlogic-fixed-probes:{seed}")
        pool = [e.proof for e in EXAMPLES]
        return [[rng.choice(pool) for _ in range(per_round)] for _ in range(rounds)]

    def reference_reply(self, task_id: str) -> str:
        task = self.bank.task(task_id)
        if not task.extra.get("provable", True):
            return REFUSAL_TEXT
        return f"```proof\n{task.reference.strip()}\n```"

    def naive_reply(self, task_id: str) -> str:
        task = self.bank.task(task_id)
        proof = task.naive or task.reference or str(task.extra.get("naive_proof", ""))
        return f"```proof\n{proof.strip()}\n```" if proof.strip() else "I cannot find a proof."

    def rules_touched(self, argument: str) -> set[str]:
        used = set(re.findall(r"\[\s*([A-Za-z_0-9]+)", argument))
        return {r.id for r in self.world.rules if r.target in used}
