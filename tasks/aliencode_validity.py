"""AlienCode's trivial strategies (see tasks.validity).

* `naive`: the bank's manual-trusting solution.
* `wrapped`: that solution moved into a CRAFT body and called (a
  whole-program solution takes the task's input names as parameters); it
  escapes rules that hold only at top level. Definitions-only solutions are
  already CRAFT bodies and stay as they are.
* `literal-free`: the naive and wrapped solutions and the variants, with
  every integer literal n replaced by an expression that computes n without
  a literal
  (GAUGE(STRAND(YES, ...)), combined with PARE, SHATTER and WEAVE): manual-
  correct by construction, blind to literal rules.
* `printer`: the output the manual's semantics predicts for what the task
  shows (its example call or example inputs, or a whole program without
  inputs), printed as a string constant, at top level and inside a CRAFT; a
  function task's CRAFT delivers or prints that constant.
* `example-copy`: the output a worked example printed in the world (shown to
  every system), printed the same ways; every worked example is tried, a
  superset of the one closest to the task.
* `variants`: the bank's further manual-correct solutions.
* `self-calibrating` (tasks/aliencode_calibrating.py): the naive solution
  and the variants rewritten onto a run-time library in AlienCode that tests
  each operation and keeps the first compensation that checks out.
* `compact-calibrating` (tasks/aliencode_compact.py): calibration within
  the task's stated answer budget: small helper CRAFTs that test the likeliest
  change of each operation and undo it, chosen to fit the token budget.
* `avoidant` (tasks/aliencode_avoidant.py): the naive solution and the
  variants rewritten onto safe cores through the manual's own identities
  (five cores by hand, 24 drawn from fixed seeds), plain and in a CRAFT.
* `mended-calibrating` (tasks/aliencode_compact.py, `mended`): the compact
  calibrator mending its own tests: its test lists built by its calibrated
  STRAND, its constants lengths relative to `GAUGE("")`.
* `calibrating-avoidant` (tasks/aliencode_calibrating_avoidant.py): lists of
  several values built by ANNEX, sequences walked as lists of their
  elements, and the rest calibrated as `mended-calibrating` does.
* `sweep-mended-calibrating` (tasks/aliencode_compact.py, reader `SWEEP`):
  `mended-calibrating` reading its test lists back as the last value a SWEEP
  walks instead of by EXPEL.

A prediction task is answered with the manual's output (`naive`, `printer`)
or a worked example's output (`example-copy`).

The answers of `printer` and `example-copy` ignore the task's inputs; when two
private runs that differ only in their inputs expect different outputs, they
fail without being run (constants_fail), which keeps the battery fast.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

from aliencode import AlienSyntaxError, Limits, Session, World, compile_source, parse
from aliencode import syntax as s

from .aliencode_answer_memo import MEMO as ANSWERS
from .aliencode_answer_memo import memo_key
from .aliencode_avoidant import answers as avoiding
from .aliencode_budget import Budget
from .aliencode_calibrating import answers as calibrated
from .aliencode_calibrating import least_tokens
from .aliencode_calibrating_avoidant import answers as calibrating_avoidant
from .aliencode_compact import answers as compact
from .aliencode_grading import (
    AlienCodeGrader,
    BankProblem,
    compile_binding,
    manual_world,
    program_output,
    run_pair,
)
from .bank import Bank, Task
from .compare import normalise
from .forked_map import forked_map
from .validity_result import Validity, tally

STRATEGIES = (
    "naive",
    "wrapped",
    "literal-free",
    "printer",
    "example-copy",
    "variants",
    "self-calibrating",
    "compact-calibrating",
    "avoidant",
    "mended-calibrating",
    "calibrating-avoidant",
    "sweep-mended-calibrating",
)
WRAPPER = "trivial_main"
PRINTER = "trivial_print"
SMALL = 12  # integers up to this are written as GAUGE(STRAND(YES, ...)) directly


def string_literal(text: str) -> str:
    escaped = (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\n", "\\n")
        .replace("\t", "\\t")
        .replace("\r", "\\r")
    )
    return f'"{escaped}"'


def _indent(source: str) -> str:
    return "\n".join(
        "    " + line if line.strip() else line for line in source.strip("\n").split("\n")
    )


def _top_level_statements(source: str, world: World) -> bool:
    """Whether a solution does more at top level than define CRAFTs."""
    try:
        tree = parse(source, world.keywords)
    except AlienSyntaxError:
        return True
    return any(not isinstance(st, s.Craft) for st in tree.body)


def wrapped(task: Task, world: World) -> str | None:
    """The naive solution inside a CRAFT, called once; None when it is
    already nothing but CRAFT definitions."""
    if not _top_level_statements(task.naive, world):
        return None
    names = ", ".join(task.inputs[0]) if task.inputs else ""
    craft = world.surface("CRAFT")
    return f"{craft} {WRAPPER}({names}):\n{_indent(task.naive)}\n{WRAPPER}({names})\n"


def count_expression(n: int, world: World) -> str:
    """An expression worth n under the manual that holds no integer literal."""
    k = world.surface
    if n < 0:
        return f"{k('WEAVE')}({count_expression(0, world)}, {count_expression(-n, world)})"
    if n <= SMALL:
        return f"{k('GAUGE')}({k('STRAND')}({', '.join([k('YES')] * n)}))"
    q, r = divmod(n, 10)
    return (
        f"{k('SHATTER')}({k('PARE')}({count_expression(q, world)}, "
        f"{count_expression(10, world)}), {count_expression(r, world)})"
    )


def literal_free(source: str, world: World) -> str | None:
    """`source` with its integer literals computed instead; None when it has none."""
    try:
        tree = parse(source, world.keywords)
    except AlienSyntaxError:
        return None
    found: list[s.IntLit] = []
    stack: list[object] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, s.IntLit) and node.value is not None:
            found.append(node)
        stack.extend(s.children(node))
    if not found:
        return None
    lines = source.split("\n")
    for lit in sorted(found, key=lambda n: (n.pos.line, n.pos.column), reverse=True):
        line = lines[lit.pos.line - 1]
        start = lit.pos.column - 1
        if line[start : start + len(lit.text)] != lit.text:
            return None  # positions do not match the text (should not happen): give no candidate
        lines[lit.pos.line - 1] = (
            line[:start] + count_expression(lit.value, world) + line[start + len(lit.text) :]
        )
    return "\n".join(lines)


def _called_craft(task: Task, world: World) -> tuple[str, tuple[str, ...]] | None:
    """The CRAFT a function task's calls use, with its parameters (from the
    naive solution, which defines the interface)."""
    try:
        crafts = {
            st.name: st.params
            for st in parse(task.naive, world.keywords).body
            if isinstance(st, s.Craft)
        }
        call = parse(task.example or task.calls[0], world.keywords)
    except (AlienSyntaxError, IndexError):
        return None
    stack: list[object] = list(call.body)
    while stack:
        node = stack.pop(0)
        if isinstance(node, s.Call) and isinstance(node.func, s.Name) and node.func.id in crafts:
            return node.func.id, crafts[node.func.id]
        stack.extend(s.children(node))
    return None


def printers(text: str, task: Task, world: World) -> list[str]:
    """Answers that print `text` as a string constant, in the ways that fit the task."""
    k = world.surface
    literal = string_literal(text)
    if task.kind == "prediction":
        return [text]
    if task.whole_program:
        return [
            f"{k('EMIT')}({literal})\n",
            f"{k('CRAFT')} {PRINTER}():\n    {k('EMIT')}({literal})\n{PRINTER}()\n",
        ]
    called = _called_craft(task, world)
    if called is None:
        return []
    name, params = called
    head = f"{k('CRAFT')} {name}({', '.join(params)}):\n    "
    return [f"{head}{k('DELIVER')} {literal}\n", f"{head}{k('EMIT')}({literal})\n"]


def manual_prediction(task: Task, world: World, limits: Limits) -> str | None:
    """What the manual's semantics predicts for what the task shows: its
    example call after the naive solution, the naive whole program on the
    example inputs (or without inputs), a prediction task's program."""
    manual = manual_world(world)
    try:
        if task.kind == "prediction":
            with Session(limits) as session:
                return session.execute(compile_source(task.program, manual, limits)).text()
        naive = compile_source(task.naive, manual, limits)
        if task.calls:
            if not task.example:
                return None
            return run_pair(naive, compile_source(task.example, manual, limits), limits)[1].text()
        if task.inputs:
            if not task.example_inputs:
                return None
            return run_pair(compile_binding(task.example_inputs, world, limits), naive, limits)[
                1
            ].text()
        return run_pair(None, naive, limits)[1].text()
    except AlienSyntaxError:
        return None


CONSTANT = ("printer", "example-copy")  # strategies whose answers ignore the inputs


def _pure(node: object) -> bool:
    """An argument whose evaluation prints nothing and calls no function."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, s.Call) or (isinstance(n, s.OpCall) and n.op == "EMIT"):
            return False
        stack.extend(s.children(n))
    return True


def _shape(node: object) -> tuple:
    """A node without positions, and without the arguments of function calls."""
    if isinstance(node, s.Call):
        return ("Call", _shape(node.func), len(node.args))
    scalars = tuple(
        (k, v)
        for k, v in vars(node).items()
        if k != "pos"
        and (
            v is None
            or isinstance(v, (str, int, float, bool))
            or (isinstance(v, tuple) and all(isinstance(x, str) for x in v))
        )
    )
    return (type(node).__name__, scalars, tuple(_shape(c) for c in s.children(node)))


def call_shape(call: str, world: World) -> tuple | None:
    """What a call prints when the function it calls ignores its arguments
    depends only on this shape; None when an argument could print or call."""
    try:
        tree = parse(call, world.keywords)
    except AlienSyntaxError:
        return None
    stack: list[object] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, s.Call) and not all(_pure(a) for a in node.args):
            return None
        stack.extend(s.children(node))
    return tuple(_shape(st) for st in tree.body)


def constants_fail(task: Task, expected: list[str], world: World) -> bool:
    """Whether every answer that ignores the task's inputs must fail: two
    private runs that differ only in their inputs expect different outputs
    (a whole program that ignores its bindings, or a CRAFT with a constant
    body, prints the same on both)."""
    if task.kind == "prediction":
        return False
    if task.whole_program:
        return len({tuple(normalise(o)) for o in expected}) > 1
    groups: dict[tuple, set[tuple[str, ...]]] = {}
    for call, want in zip(task.calls, expected):
        shape = call_shape(call, world)
        if shape is not None:
            groups.setdefault(shape, set()).add(tuple(normalise(want)))
    return any(len(outputs) > 1 for outputs in groups.values())


def candidates(
    task: Task,
    world: World,
    limits: Limits,
    worked_outputs: list[str],
    strategies: tuple[str, ...] = STRATEGIES,
    budget: Budget | None = None,
) -> dict[str, list[str]]:
    """Each named strategy's candidate answers for one task (`budget`: the
    answer budget its prompt states, which a strategy may use)."""
    out: dict[str, list[str]] = {name: [] for name in STRATEGIES}
    # a strategy's answers are made only when asked for: the generator runs the
    # battery in stages, one adaptive strategy at a time
    wanted = set(strategies)
    printing = {"naive", "printer"} if task.kind == "prediction" else {"printer"}
    predicted = manual_prediction(task, world, limits) if wanted & printing else None
    if task.kind == "prediction":
        if predicted is not None:
            out["naive"] = [predicted]
            out["printer"] = [predicted]
        out["example-copy"] = list(dict.fromkeys(worked_outputs))
        return {name: answers for name, answers in out.items() if name in strategies}
    out["naive"] = [task.naive]
    wrap = wrapped(task, world) if wanted & {"wrapped", "literal-free"} else None
    out["wrapped"] = [wrap if wrap is not None else task.naive]
    if "literal-free" in wanted:
        sources = [task.naive, *([wrap] if wrap else []), *task.variants]
        out["literal-free"] = [x for x in (literal_free(source, world) for source in sources) if x]
    if predicted is not None:
        out["printer"] = printers(predicted, task, world)
    if "example-copy" in wanted:
        out["example-copy"] = [
            answer
            for text in dict.fromkeys(worked_outputs)
            for answer in printers(text, task, world)
        ]
    out["variants"] = list(task.variants)
    # the adaptive writers know nothing of the world but what its manual
    # shows: they are handed the manual spelled in its keywords, no rules
    manual = manual_world(world)
    writers: dict[str, Callable[[], list[str]]] = {
        "self-calibrating": lambda: calibrated(task, manual),
        "compact-calibrating": lambda: compact(task, manual, budget),
        "avoidant": lambda: avoiding(task, manual),
        "mended-calibrating": lambda: compact(task, manual, budget, mended=True),
        "calibrating-avoidant": lambda: calibrating_avoidant(task, manual, budget),
        "sweep-mended-calibrating": lambda: compact(
            task, manual, budget, mended=True, reader="SWEEP"
        ),
    }
    # the adaptive writers' answers, found again when the same task is judged
    # again (a generation's audit of its own bank, or the same task in a world
    # drawn again with the same keywords: aliencode_answer_memo.py)
    key = memo_key(task, manual, budget) if wanted & set(writers) else ()
    for name, write in writers.items():
        if name in wanted:
            out[name] = ANSWERS.answers((name, *key), write)
    return {name: answers for name, answers in out.items() if name in strategies}


def battery(
    world: World,
    bank: Bank,
    limits: Limits | None = None,
    grader: AlienCodeGrader | None = None,
    worked_outputs: list[str] | None = None,
    strategies: tuple[str, ...] = STRATEGIES,
    reported: tuple[str, ...] = (),
    jobs: int = 1,
) -> Validity:
    """The named strategies on every task; every task some strategy passes
    is flagged, unless only `reported` strategies pass it. `jobs`: worker
    processes judging tasks at once (the verdicts are the same)."""
    start = time.perf_counter()
    limits = limits or Limits()
    grader = grader or AlienCodeGrader(world, bank, limits)
    if worked_outputs is None:
        worked_outputs = [program_output(world, limits, e.program) for e in bank.examples]
    judged = judge(world, limits, grader, worked_outputs, strategies)
    verdicts = forked_map(judged, bank.tasks, jobs)
    return scored(bank, verdicts, strategies, time.perf_counter() - start, reported)


def judge(
    world: World,
    limits: Limits,
    grader: AlienCodeGrader,
    worked_outputs: list[str],
    strategies: tuple[str, ...] = STRATEGIES,
) -> Callable[[Task], list[str]]:
    """The strategies among `strategies` that pass a task (`passing`)."""
    return partial(
        passing,
        world=world,
        limits=limits,
        grader=grader,
        worked_outputs=worked_outputs,
        strategies=strategies,
    )


def scored(
    bank: Bank,
    verdicts: list[list[str]],
    strategies: tuple[str, ...],
    seconds: float,
    reported: tuple[str, ...] = (),
) -> Validity:
    """The battery's result from what passed each task of `bank`, in order."""
    passed: dict[str, set[str]] = {name: set() for name in strategies}
    for task, names in zip(bank.tasks, verdicts, strict=True):
        for name in names:
            passed[name].add(task.id)
    return tally([t.id for t in bank.tasks], passed, flag=True, seconds=seconds, reported=reported)


def passing(
    task: Task,
    world: World,
    limits: Limits,
    grader: AlienCodeGrader,
    worked_outputs: list[str],
    strategies: tuple[str, ...],
) -> list[str]:
    """The named strategies that pass `task` (none for a broken task: that
    is the audit's problem, nothing to measure)."""
    try:
        expected = grader.expected(task)
    except BankProblem:
        return []
    skip_constants = bool(set(CONSTANT) & set(strategies)) and constants_fail(task, expected, world)
    budget = grader.budget(task)
    # every self-calibrating answer is over a budget below its kernel: it
    # fails uncompiled, so its answers are not even written
    hopeless = budget is not None and budget.tokens < least_tokens()
    made = tuple(n for n in strategies if not (hopeless and n == "self-calibrating"))
    shown = candidates(task, world, limits, worked_outputs, made, budget)
    names = []
    for name, answers in shown.items():
        if name in CONSTANT and skip_constants:
            continue  # they fail, provably (see constants_fail)
        if any(grader.passes(task.id, answer) for answer in answers):
            names.append(name)
    return names
