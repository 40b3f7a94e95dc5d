"""The AlienCode environment: tool `run_aliencode(code)`, probe metering,
grading against the world's task bank, rule reports scored by behaviour.

Expensive facts are computed once per (world, bank) and cached for the
process: the audit (each task's rules, the worked examples' outputs), the
expected outputs of every task (inside the grader), the grades of answers
already seen, and rule-report comparisons.
"""

from __future__ import annotations

import random
import threading
from dataclasses import replace
from pathlib import Path

from alienworlds.manuals.aliencode import render, respell
from alienworlds.ruleset import RuleSyntaxError
from alienworlds.ruleset.equivalence import compare
from alienworlds.tasks.aliencode_audit import Audit, audit
from alienworlds.tasks.aliencode_disclosure import describe_inputs
from alienworlds.tasks.aliencode_grading import AlienCodeGrader
from alienworlds.tasks.bank import Bank, load_bank, own_bank_path
from alienworlds.tasks.grade import Grade

from aliencode import AlienSyntaxError, Limits, World, compile_program, execute, parse
from aliencode.metering import LOOP_FACTOR, PROBE_CAP, units
from aliencode.sites import ARITHMETIC, COMPARISON, OPERATION_BY_NAME, SITES, operand_kinds
from aliencode.walk import sites_in
from aliencode.world_schema import load

from . import answers
from .audit_cache import cached_audit
from .environment import Environment, TaskInfo, ToolOutcome, text_hash
from .protocol import FEEDBACK_CHARS, FEEDBACK_LINES

RULE_LANGUAGE = """\
A rule expression is an S-expression: (op arg ...), where the arguments are the site's
operand names, integers, floats, "strings", true, false, none, or nested expressions.
Operators (Python semantics): + - * / // % ** ^ (^ is xor on integers) neg abs;
== != > < >= <=; and or not if; get slice len reverse concat prepend append pop_left
pop_right set range zip enumerate filter sort_asc sort_desc max min sum any all list tuple;
str (printed text), join (join sep seq). Positions are 0-based, negative from the end.
IDENTITY means the manual's meaning, unchanged. Examples: the manual's PLUCK is
(get seq i), its CARVE (slice seq lo hi), SHATTER (+ a b), an integer literal n, EMIT args."""

_RESULT_NOTES = {
    "ANNEX": "the list's new contents",
    "IMPRINT": "the list's new contents",
    "EXPEL": "the position removed and returned",
    "EMIT": "the list of values printed",
    "SWEEP": "the sequence the loop walks",
    "literal.int": "the value of an integer literal written n",
    "literal.float": "the value of a float literal written n",
    "literal.str": "the value of a string literal written s",
    "literal.bool": "the value of YES/NO written x",
}

_SCOPES = {
    "function": "inside CRAFT bodies",
    "top": "at top level (outside CRAFT bodies and loops)",
    "loop": "inside SWEEP/WHILE bodies",
}

_CACHE: dict[tuple[str, ...], tuple[Audit, AlienCodeGrader]] = {}  # by audit_key
_CACHE_LOCK = threading.Lock()


def standard_expression(site: str) -> str:
    """The manual's meaning of a site as a rule expression."""
    if site in OPERATION_BY_NAME:
        return OPERATION_BY_NAME[site].standard
    return " ".join(SITES[site].operands)


def audit_key(world: World, bank: Bank, limits: Limits) -> tuple[str, ...]:
    """What an audit in the cache of audits is kept under (with the code)."""
    return (world.hash, text_hash(repr(bank)), repr(limits))


def bank_audit(world: World, bank: Bank, limits: Limits) -> Audit:
    """The audit of `bank` in `world`, from the cache of audits when this
    code audited it before (episode/audit_cache.py)."""
    return cached_audit(
        "aliencode", audit_key(world, bank, limits), lambda: audit(world, bank, limits)
    )


class AlienCodeEnvironment(Environment):
    language = "aliencode"
    tool_name = "run_aliencode"
    tool_argument = "code"
    probe_cap = PROBE_CAP

    def __init__(
        self,
        world: World | str | None = None,
        bank: Bank | None = None,
        bank_path: str | Path | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.world = world if isinstance(world, World) else load(world)
        self.bank = bank or load_bank(
            "aliencode",
            self.world.name,
            Path(bank_path) if bank_path else own_bank_path("aliencode", self.world),
        )
        self.limits = limits or Limits()
        key = audit_key(self.world, self.bank, self.limits)  # the disk cache's key too
        with _CACHE_LOCK:
            if key not in _CACHE:
                report = bank_audit(self.world, self.bank, self.limits)
                if report.problems:
                    raise ValueError(
                        "the task bank does not pass its audit:\n" + "\n".join(report.problems)
                    )
                _CACHE[key] = (report, AlienCodeGrader(self.world, self.bank, self.limits))
            self._audit, self._grader = _CACHE[key]
        self._task_rules = {t.id: tuple(t.rules) for t in self._audit.tasks}
        self._examples = {e["id"]: e for e in self._audit.examples}
        self._grades: dict[tuple[str, str], Grade] = {}
        self._equivalence: dict[tuple[str, str], bool] = {}
        self._manual: str | None = None
        self._lock = threading.Lock()

    # -- identity -----------------------------------------------------------
    def validity(self):
        return self._audit.validity

    def manual(self) -> str:
        if self._manual is None:
            self._manual = render(self.world, "text")
        return self._manual

    # -- the system prompt ----------------------------------------------------
    def _code(self, text: str) -> str:
        return respell(text, self.world)

    def worked_examples(self) -> list[dict[str, str]]:
        out = []
        for example in self.bank.examples:
            out.append(
                {
                    "id": example.id,
                    "band": example.band,
                    "prompt": example.prompt,
                    "program": example.program.strip("\n"),
                    "output": self._examples[example.id]["output"],
                }
            )
        return out

    def system_prompt(self, open_book: bool = False) -> str:
        run = self.tool_name
        parts = [
            "You are exploring an alien world: the AlienCode language described by the manual "
            "below. The manual is "
            "not entirely true. The world follows hidden rules that differ from the manual in "
            "some places; elsewhere "
            "the manual is right.",
            f"You can run programs in the world with the tool {run}(code). It returns exactly "
            "what the program prints "
            f"(errors included), capped at {FEEDBACK_LINES} lines and {FEEDBACK_CHARS} "
            "characters. Each program may "
            f'cost at most {PROBE_CAP} probe units (see "Probe budget" in the manual); a program '
            "over the cap is "
            "rejected whole and runs nothing.",
            "The episode: study the manual and the worked examples below. Then come 4 rounds of "
            "exploration of at "
            f"most {self.calls_per_round} tool calls each. After the worked examples and after "
            "every round you are "
            "tested without tools: you report the rules you believe the world follows, and you "
            "solve held-out "
            "programming tasks whose answers are run in this world.",
            "=== MANUAL ===\n\n" + self.manual().rstrip(),
            "=== WORKED EXAMPLES ===\nEach example is a task, a program that solves it in this "
            "world, and the output "
            "this world printed for that program.",
        ]
        for ex in self.worked_examples():
            parts.append(
                f"Worked example {ex['id']} ({ex['band']}): "
                f"{ex['prompt']}\nProgram:\n```aliencode\n{self._code(ex['program'])}\n```\n"
                f"Output in this world:\n```output\n{ex['output']}\n```"
            )
        if open_book:
            parts.append("=== THE WORLD'S RULES (disclosed) ===\n" + self.disclosure())
        return "\n\n".join(parts) + "\n"

    def tool_spec(self) -> dict[str, object]:
        return {
            "type": "function",
            "function": {
                "name": self.tool_name,
                "description": (
                    "Run an AlienCode program in this world and return what it prints (at most "
                    f"{PROBE_CAP} "
                    f"probe units per program; feedback capped at {FEEDBACK_LINES} lines and "
                    f"{FEEDBACK_CHARS} characters)."
                ),
                "parameters": {
                    "type": "object",
                    "properties": {
                        "code": {"type": "string", "description": "The complete AlienCode program."}
                    },
                    "required": ["code"],
                },
            },
        }

    # -- the tool ----------------------------------------------------------------
    def run_tool(self, arguments: object) -> ToolOutcome:
        if not isinstance(arguments, dict) or not isinstance(arguments.get("code"), str):
            return ToolOutcome.make(
                "invalid",
                0,
                f"[rejected] {self.tool_name} takes one argument, code: the program text as a "
                "string. Nothing was run.",
            )
        code = arguments["code"]
        try:
            tree = parse(code, self.world.keywords)
        except AlienSyntaxError as exc:
            return ToolOutcome.make("ran", 0, str(exc))
        cost = units(tree)
        if cost > PROBE_CAP:
            return ToolOutcome.make(
                "rejected",
                0,
                f"[rejected] this program costs {cost} probe units; a call may cost at most "
                f"{PROBE_CAP}. Nothing was run.",
            )
        try:
            program = compile_program(tree, self.world, self.limits)
        except AlienSyntaxError as exc:
            return ToolOutcome.make("ran", cost, str(exc))
        text = execute(program).text()
        return ToolOutcome.make("ran", cost, text if text else "(no output)")

    # -- tasks ------------------------------------------------------------------
    def tasks(self) -> list[TaskInfo]:
        return [
            TaskInfo(t.id, t.kind, t.band, t.family, self._task_rules.get(t.id, ()))
            for t in self.bank.tasks
        ]

    def task_prompt(self, task_id: str) -> str:
        task = self.bank.task(task_id)
        head = (
            f"Held-out task {task.id}. Tools are disabled: "
            f"answer from what you know of this world.\n\n{task.prompt.strip()}"
        )
        if task.kind == "prediction":
            return (
                f"{head}\n\n```aliencode\n{task.program.strip()}\n```\n\nGive the exact output "
                "this program prints "
                "in this world, in one fenced block:\n```output\n...\n```\n(For a one-line "
                "output you may instead "
                "write a single line `PREDICTION: <output>`.)"
            )
        if task.whole_program and task.inputs:
            names = ", ".join(task.inputs[0])
            how = (
                "Your answer is a whole program, run in this world once for each of several "
                "private inputs. Before "
                f"each run the names {names} are bound to that input's values (plain values, as "
                "the manual prints "
                "them; no rule of this world touches them). What it prints is compared with the "
                "expected output."
            )
            if task.example_inputs:
                how += (
                    "\nExample input: "
                    f"{describe_inputs(task.example_inputs, self.world, self.limits)}"
                )
        elif task.whole_program:
            how = (
                "Your answer is a whole program, run in this world; "
                "what it prints is compared with the expected output."
            )
        else:
            how = (
                "Your answer is run in this world, followed by private calls like the example "
                "below; only what those "
                "calls print is compared with the expected output."
            )
            if task.example:
                how += f"\nExample call:\n```aliencode\n{task.example.strip()}\n```"
        budget = self._grader.budget(task)
        return (
            f"{head}\n\n{how}\n\n{budget.describe()}\n\n"
            "Answer with your complete program in one fenced block:\n```aliencode\n...\n```"
        )

    def grade(self, task_id: str, text: str) -> Grade:
        key = (task_id, text)
        with self._lock:
            if key in self._grades:
                return self._grades[key]
        grade = self._grader.grade(task_id, text)
        with self._lock:
            self._grades[key] = grade
        return grade

    # -- rule reports ------------------------------------------------------------------
    def rule_ids(self) -> list[str]:
        return [r.id for r in self.world.rules]

    def _scope_label(self, index: int) -> str:
        rule = self.world.rules[index]
        if rule.scope != "anywhere":
            return _SCOPES[rule.scope]
        earlier = any(r.target == rule.target for r in self.world.rules[:index])
        return "everywhere else" if earlier else "everywhere"

    def rule_template(self) -> list[str]:
        """One line per rule id: the site, its operands, where it applies and
        the manual's meaning (never the world's actual expression)."""
        lines = []
        for index, rule in enumerate(self.world.rules):
            site = rule.target
            shown = self.world.surface(site) if site in OPERATION_BY_NAME else site
            operands = ", ".join(SITES[site].operands)
            note = f"; the result is {_RESULT_NOTES[site]}" if site in _RESULT_NOTES else ""
            lines.append(
                f"{rule.id}: {shown} (operands: {operands}{note}) — {self._scope_label(index)} — "
                f"manual: {standard_expression(site)}"
            )
        return lines

    def rule_report_prompt(self) -> str:
        template = "\n".join(self.rule_template())
        return (
            "Milestone rule report. Tools are disabled. Report the rules you believe this world "
            "follows.\n\n"
            "Below is the world's rule inventory: one rule id per line, with the operation "
            "(site) it concerns, its "
            "operands, where in a program it applies, and the manual's meaning. Some rules keep "
            "the manual's meaning. "
            "For every id write one line\n\n    ID: EXPRESSION\n\nwhere EXPRESSION is a rule "
            "expression for what the "
            "site really produces in this world, IDENTITY (the manual's meaning holds), or "
            "UNKNOWN.\n\n"
            f"{RULE_LANGUAGE}\n\nRule inventory:\n{template}"
        )

    def parse_rule_report(self, text: str) -> dict[str, str]:
        return answers.rule_lines(text or "", self.rule_ids())

    def rule_correct(self, rule_id: str, expression: str) -> bool:
        """Whether a reported expression behaves as the rule's actual one."""
        if not expression or expression.strip().upper() == "UNKNOWN":
            return False
        key = (rule_id, expression)
        with self._lock:
            if key in self._equivalence:
                return self._equivalence[key]
        rule = self.world.rule(rule_id)
        text = "IDENTITY" if expression.strip() == "IDENTITY" else expression
        try:
            ok = compare(
                text,
                rule.actual,
                operand_kinds(rule.target),
                standard=standard_expression(rule.target),
            ).equivalent
        except (
            RuleSyntaxError,
            ValueError,
            TypeError,
            KeyError,
            RecursionError,
            ArithmeticError,
            Exception,
        ):  # noqa: B014 - any bad report scores 0
            ok = False
        with self._lock:
            self._equivalence[key] = ok
        return ok

    def score_rule_report(self, report: dict[str, str]) -> dict[str, bool]:
        return {rid: self.rule_correct(rid, report.get(rid, "UNKNOWN")) for rid in self.rule_ids()}

    def disclosure(self) -> str:
        lines = [
            "Each rule gives what a site really produces, as a rule expression over its "
            "operands; for each site "
            "and place in a program the first matching rule in this list applies, and sites "
            "without a rule follow "
            "the manual.",
            "",
            RULE_LANGUAGE,
            "",
        ]
        for index, rule in enumerate(self.world.rules):
            site = (
                self.world.surface(rule.target) if rule.target in OPERATION_BY_NAME else rule.target
            )
            lines.append(
                f"{rule.id}: {site}, {self._scope_label(index)}: {rule.actual}   ({rule.name})"
            )
        return "\n".join(lines)

    # -- the answer key ------------------------------------------------------------
    def expected_output(self, task_id: str) -> str:
        return self._grader.expected(self.bank.task(task_id))[0]

    def reference_reply(self, task_id: str) -> str:
        task = self.bank.task(task_id)
        if task.kind == "prediction":
            return f"```output\n{self.expected_output(task_id)}\n```"
        return f"```aliencode\n{task.reference.strip(chr(10))}\n```"

    def naive_reply(self, task_id: str) -> str:
        task = self.bank.task(task_id)
        if task.kind == "prediction":
            from alienworlds.ruleset import standard_world

            from aliencode import run_source

            surface = replace(standard_world("aliencode"), keywords=self.world.keywords)
            return f"```output\n{run_source(task.program, surface, self.limits).text()}\n```"
        return f"```aliencode\n{task.naive.strip(chr(10))}\n```"

    def true_rule_report(self) -> dict[str, str]:
        return {r.id: r.actual for r in self.world.rules}

    def rules_touched(self, argument: str) -> set[str]:
        try:
            used = sites_in(parse(argument, self.world.keywords))
        except AlienSyntaxError:
            return set()
        return {r.id for r in self.world.rules if r.target in used}

    # -- fixed probes -------------------------------------------------------------
    def fixed_probes(self, seed: int, rounds: int, per_round: int) -> list[list[str]]:
        rng = random.Random(f"aliencode-fixed-probes:{seed}")
        out = []
        for _ in range(rounds):
            batch = []
            for _ in range(per_round):
                code = self._code(fixed_probe(rng))
                batch.append(code)
            out.append(batch)
        return out


# -- fixed-probe templates -------------------------------------------------------------


def _ints(rng: random.Random, n: int, lo: int = -3, hi: int = 9) -> list[int]:
    return [rng.randint(lo, hi) for _ in range(n)]


def _strand(values: list[object]) -> str:
    return "STRAND(" + ", ".join(_lit(v) for v in values) + ")"


def _lit(v: object) -> str:
    if isinstance(v, bool):
        return "YES" if v else "NO"
    if isinstance(v, str):
        return '"' + v + '"'
    return str(v)


_WORDS = ("ab", "abc", "alien", "xy", "hello", "q")


def _expression_probe(rng: random.Random) -> str:
    """One EMIT-able expression exercising a site chosen at random."""
    op = rng.choice(sorted(SITES))
    a, b, c, d = _ints(rng, 4)
    seq = _strand(_ints(rng, rng.randint(2, 4)))
    word = rng.choice(_WORDS)
    if op in ARITHMETIC:
        if op in ("RESIDUE", "HALVE", "FRACTURE") and b == 0:
            b = 2
        if op == "COIL":
            a, b = rng.randint(0, 4), rng.randint(0, 3)
        return f"{op}({a}, {b})"
    if op in COMPARISON:
        if rng.random() < 0.3:
            b = a
        return f"{op}({a}, {b})"
    if op in ("BOND", "RIFT"):
        return f"{op}({_lit(rng.random() < 0.5)}, {_lit(rng.random() < 0.5)})"
    if op == "NEGATE":
        return f"NEGATE({_lit(rng.random() < 0.5)})"
    if op in ("STRAND", "KNOT", "NADIR", "APEX", "FUSE"):
        args = ", ".join(str(v) for v in _ints(rng, rng.randint(1, 3)))
        if op == "FUSE":
            args = f'"{word}", {a}'
        return f"{op}({args})"
    if op == "PLUCK":
        return (
            f"PLUCK({seq}, {rng.randint(-1, 2)})"
            if rng.random() < 0.7
            else f'PLUCK("{word}", {rng.randint(0, 1)})'
        )
    if op == "CARVE":
        return f"CARVE({_strand(_ints(rng, 5))}, {rng.randint(0, 2)}, {rng.randint(2, 4)})"
    if op in ("ANNEX", "EXPEL", "IMPRINT"):
        return ""  # statement templates below
    if op in ("GAUGE", "ORDER", "GATHER", "SOME_OF", "EVERY_OF", "INDEX"):
        arg = seq if rng.random() < 0.7 else f'"{word}"'
        if op in ("SOME_OF", "EVERY_OF"):
            arg = _strand([rng.choice([0, 1, 2]) for _ in range(3)])
        return f"{op}({arg})"
    if op == "EXTENT":
        return (
            f"EXTENT({rng.randint(0, 4)})"
            if rng.random() < 0.5
            else f"EXTENT({rng.randint(-2, 2)}, {rng.randint(3, 6)})"
        )
    if op == "PAIR":
        return f'PAIR({_strand(_ints(rng, 2))}, "{word}")'
    if op == "STRAIN":
        return ""  # needs a definition
    if op == "EMIT":
        return f"{a}, {b}"  # EMIT itself: two arguments
    if op == "literal.int":
        return str(a * 10 + b)
    if op == "literal.float":
        return f"{a}.5"
    if op == "literal.str":
        return f'"{word}"'
    if op == "literal.bool":
        return _lit(rng.random() < 0.5)
    return ""  # SWEEP: a statement template


def fixed_probe(rng: random.Random) -> str:
    """A grammar-valid probe of at most PROBE_CAP units (standard keywords)."""
    op_or_expr = _expression_probe(rng)
    place = rng.choice(("top", "top", "function", "loop"))
    if not op_or_expr:
        a, b = _ints(rng, 2)
        body = rng.choice(
            [
                f"SET xs AS {_strand(_ints(rng, 2))}\nANNEX(xs, {a})\nEMIT(xs)",
                f"SET xs AS {_strand(_ints(rng, 3))}\nEMIT(EXPEL(xs), xs)",
                f"SET xs AS {_strand(_ints(rng, 3))}\nIMPRINT(xs, {rng.randint(0, 2)}, "
                f"{b})\nEMIT(xs)",
                f"CRAFT keep(n):\n    DELIVER OVER(n, {a})\nEMIT(STRAIN(keep, "
                f"{_strand(_ints(rng, 4))}))",
                f"SWEEP x IN {_strand(_ints(rng, 2))}:\n    EMIT(x)",
                f'SWEEP c IN "{rng.choice(_WORDS)}":\n    EMIT(c)',
            ]
        )
        place = "top"
    else:
        body = f"EMIT({op_or_expr})"
    if place == "function":
        indented = "\n".join("    " + line for line in body.splitlines())
        body = f"CRAFT probe():\n{indented}\nprobe()"
    elif (
        place == "loop"
        and body.count("EMIT(") == 1
        and body.startswith("EMIT(")
        and "\n" not in body
    ):
        cost = max(1, _emit_args(body))
        if cost * LOOP_FACTOR <= PROBE_CAP:
            body = f"SWEEP k IN STRAND(0):\n    {body}"
    return body


def _emit_args(body: str) -> int:
    try:
        return units(parse(body))
    except AlienSyntaxError:
        return PROBE_CAP
