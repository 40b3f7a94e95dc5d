"""The `aliencode` command line: AlienCode's part of the shared commands
(cli/scaffold.py) and its own, `run`, `port` and `world compare`."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click
from alienworlds.cli import scaffold, shared
from alienworlds.cli.entry import run as run_cli
from alienworlds.cli.scaffold import BadInput, LanguageCommands, Refused, Report
from alienworlds.cli.shared import EXIT_INTERNAL, EXIT_OK
from alienworlds.cli.shared import EXIT_NO as EXIT_ERROR
from alienworlds.generate.knobs import ALIENCODE_KNOBS
from alienworlds.ruleset import Limits

from aliencode import __version__, run_source
from aliencode.errors import AlienError
from aliencode.runtime import RunResult
from aliencode.world_schema import load

if TYPE_CHECKING:
    from alienworlds.ruleset.phases import Phases
    from alienworlds.ruleset.world import World
    from alienworlds.tasks.bank import Bank
    from alienworlds.tasks.grade import Grade

# Ten times the default: a run this long still ends on its step count, well
# before the wall-clock backstop, so its verdict does not depend on the machine.
MOST_STEPS = 10 * Limits().max_steps

fail = partial(scaffold.fail, "aliencode")
read_source = partial(scaffold.read_answer, "aliencode", kind="program")


def load_world_or_exit(spec: str | None) -> World:
    return scaffold.world_or_exit(COMMANDS, spec)


def _render_manual(world: World, fmt: str) -> str:
    from alienworlds.manuals.aliencode import render

    return render(world, fmt)


def _repl_backend(world: World) -> object:
    from alienworlds.repl.aliencode_backend import AlienCodeBackend

    return AlienCodeBackend(world)


def _task_rows(world: World, bank: Bank) -> list[dict]:
    from alienworlds.tasks.aliencode_disclosure import describe_inputs
    from alienworlds.tasks.aliencode_grading import AlienCodeGrader, BankProblem

    grader = AlienCodeGrader(world, bank)

    def budget(task) -> dict[str, object]:
        try:
            found = grader.budget(task)
        except BankProblem:
            return {}
        return {"budget": found.as_dict()} if found is not None else {}

    return [
        {
            "id": t.id,
            "kind": t.kind,
            "band": t.band,
            "family": t.family,
            "prompt": t.prompt,
            **({"example": t.example} if t.example else {}),
            **({"program": t.program} if t.kind == "prediction" else {}),
            **({"inputs": list(t.inputs[0])} if t.inputs else {}),
            **(
                {"example_inputs": describe_inputs(t.example_inputs, world, Limits())}
                if t.example_inputs
                else {}
            ),
            **budget(t),
        }
        for t in bank.tasks
    ]


def _task_lines(t: dict) -> list[str]:
    lines = [f"{t['id']} [{t['kind']}, {t['band']}] {t['prompt']}"]
    if t.get("example"):
        lines.append(f"    example: {t['example']}")
    if t.get("inputs"):
        lines.append(
            f"    inputs: {', '.join(t['inputs'])}"
            + (f" (example: {t['example_inputs']})" if t.get("example_inputs") else "")
        )
    if t.get("budget"):
        lines.append(
            f"    budget: {t['budget']['tokens']} tokens of code, {t['budget']['steps']} "
            "steps per run"
        )
    if t.get("program"):
        lines.append(
            "    program:\n"
            + "\n".join("      " + line for line in str(t["program"]).strip().splitlines())
        )
    return lines


def _grade(world: World, bank: Bank, task_id: str, answer: str) -> Grade:
    from alienworlds.tasks.aliencode_grading import AlienCodeGrader, BankProblem

    try:
        return AlienCodeGrader(world, bank).grade(task_id, answer)
    except BankProblem as exc:
        raise BadInput(f"the task bank is broken: {exc}") from None


def _grade_lines(result: Grade, bank: Bank) -> list[str]:
    lines = [f"{result.task}: {'pass' if result.passed else 'fail'}"]
    if not result.calls:
        lines.append(f"  the answer: {result.reason}")
    prediction = bank.task(result.task).kind == "prediction"
    for i, call in enumerate(result.calls, 1):
        label = "prediction" if prediction else f"call {i}"
        lines.append(f"  {label}: {'pass' if call.passed else 'fail'} ({call.reason})")
    return lines


def _describe_world(world: World) -> Report:
    from aliencode.shadowing import inert_rules

    rules = scaffold.rule_rows(world, ("id", "name", "target", "actual", "scope", "red_herring"))
    lines = [f"world {world.name} ({world.hash}): {len(rules)} rules"]
    for r in rules:
        scope = "" if r["scope"] == "anywhere" else f"  [scope: {r['scope']}]"
        lines.append(f"  {r['id']:<6} {r['target']:<14} {r['actual']}{scope}")
    for standard, renamed in sorted(world.keywords.items()):
        lines.append(f"  keyword {standard} is spelled {renamed}")
    return Report(
        problems=[i.message() for i in inert_rules(world)],
        fields={"rules": rules, "keywords": dict(sorted(world.keywords.items()))},
        lines=lines,
    )


def _audit_bank(
    world: World, bank: Bank, problems: list[str], options: Mapping[str, object]
) -> Report:
    from alienworlds.tasks.aliencode_audit import audit
    from alienworlds.tasks.forked_map import usable_cores

    # the audit repeats the world's own problems (inert rules) among its own
    report = audit(world, bank, jobs=options["jobs"] or usable_cores())
    n = len(report.tasks)
    lines = [
        f"bank: {n} tasks, {len(report.examples)} worked examples; references pass "
        f"{report.reference_pass}/{n}, "
        f"naive solutions pass {report.naive_pass}/{n} in the world; audited in "
        f"{report.seconds:.2f} s"
    ]
    for t in report.tasks:
        lines.append(
            f"  {t.id:<5} {t.kind:<10} {t.band:<9} {t.family:<8} {','.join(t.rules) or '-'}"
        )
    synthesis = [t for t in report.tasks if t.kind == "synthesis"]
    covered = sum(bool(t.unavoidable) for t in synthesis)
    lines.append(
        f"route coverage: {covered}/{len(synthesis)} synthesis tasks use an operation or "
        "literal that no manual route computes without an altered rule"
    )
    if report.validity is not None:
        lines.append(report.validity.summary())
    return Report(
        problems=report.problems,
        fields={
            "tasks": [t.as_dict() for t in report.tasks],
            "worked_examples": [
                {"id": e["id"], "band": e["band"], "rules": e["rules"]} for e in report.examples
            ],
            "reference_pass": report.reference_pass,
            "naive_pass": report.naive_pass,
            "validity": report.validity.as_dict() if report.validity else None,
            "seconds": round(report.seconds, 3),
        },
        lines=lines,
    )


def _generate(
    seed: str, knobs: dict[str, int], out_dir: str, options: Mapping[str, object], phases: Phases
) -> Report:
    import time

    from alienworlds.generate.aliencode import GenerationError, Knobs, generate
    from alienworlds.generate.aliencode.generator import OUTPUTS, write
    from alienworlds.generate.audited_files import check_free
    from alienworlds.tasks.aliencode_verdict_memo import VERDICTS

    from aliencode.cache_room import roomy

    out = Path(out_dir)
    try:
        Knobs(**knobs).check()
        check_free(out, OUTPUTS, bool(options["force"]))
    except (GenerationError, FileExistsError) as exc:
        raise BadInput(str(exc)) from None
    start = time.process_time()
    # the audit meets the generation's candidate answers again: kept compiled,
    # and their verdicts kept
    with roomy(), VERDICTS.kept():
        try:
            result = generate(seed, Knobs(**knobs), phases)
            generated_at = time.process_time()
            with phases.phase("auditing the files before they are written"):
                audited = write(result, out, force=bool(options["force"]))
        except FileExistsError as exc:
            raise BadInput(str(exc)) from None
        except OSError as exc:
            raise BadInput(
                f"cannot write into {out}: {exc.strerror or exc.__class__.__name__}"
            ) from None
        except GenerationError as exc:
            raise Refused(f"cannot generate: {exc}") from None
    summary = {
        "world": result.world.name,
        "hash": result.world.hash,
        "path": str(out / "world.toml"),
        "bank": str(out / "bank.toml"),
        "tasks": len(result.bank.tasks),
        "schemes": dict(sorted(result.by_scheme.items())),
        "draws": result.draws,
        "rejected": dict(sorted(result.rejected.items())),
        "world_draws": result.world_draws,
        "worlds_rejected": dict(sorted(result.worlds_rejected.items())),
        "templates_tried": result.templates_tried,
        "templates_discarded": dict(sorted(result.templates_discarded.items())),
        "seconds": round(result.seconds, 2),
        "cpu_seconds": {
            "generating": round(generated_at - start, 1),
            "auditing": round(time.process_time() - generated_at, 1),
        },
        "validity": audited.validity.as_dict() if audited.validity else None,
    }
    worlds = f"{result.world_draws} world{'s' if result.world_draws != 1 else ''} drawn"
    cpu = summary["cpu_seconds"]
    return Report(
        fields=summary,
        lines=[
            f"wrote {summary['path']}: world {result.world.name} ({result.world.hash}), "
            f"{len(result.world.rules)} rules, {result.draws} draws "
            f"({sum(result.rejected.values())} rejected)",
            f"wrote {summary['bank']}: {len(result.bank.tasks)} tasks, "
            f"{len(result.bank.examples)} worked examples ({worlds})",
            "audit: ok (the same as `aliencode world check DIR/world.toml`); "
            + (audited.validity.summary() if audited.validity else "no battery"),
            f"CPU seconds: generating {cpu['generating']}, auditing {cpu['auditing']}",
        ],
    )


COMMANDS = LanguageCommands(
    name="aliencode",
    version=__version__,
    summary="""AlienCode: a small calculation language whose worlds hide their real rules.

    Run programs under a world's hidden semantics. See `aliencode COMMAND --help`.
    """,
    answer_kind="program",
    load_world=load,
    manual_help="""Print the world's manual: the standard language in the world's keywords.

    The manual never reveals a world's rules; it is the same for every world
    that spells its keywords the same way.
    """,
    render_manual=_render_manual,
    repl_help="""Explore a world by hand: definitions persist between entries, each
    entry shows its output and probe-unit cost. Type :help inside.

    Without a terminal, lines are read from standard input (scriptable).
    Entries are kept in $XDG_DATA_HOME/alienworlds/aliencode_history
    (~/.local/share/... by default); :history lists them.
    """,
    repl_backend=_repl_backend,
    tasks_help="""List a world's held-out tasks: prompts, interfaces and answer budgets.

    Solutions, private calls and private inputs are never shown; a
    whole-program task names the inputs its program reads. A synthesis
    task's budget (tokens of code, steps per run) is what its prompt states
    and its grader enforces.
    """,
    task_rows=_task_rows,
    task_lines=_task_lines,
    grade_help="""Grade a reply to a task, from FILE or standard input, read as the
    episode reads a model's reply: a program (synthesis) in a fenced block
    or bare; a prediction in an ```output block or a `PREDICTION: ...` line.

    Exit status: 0 pass, 1 fail, 2 bad input (unknown task or world).
    """,
    grade_json='{"task", "passed", "reason", "answer", "calls": [{"passed", "reason"}], '
    '"verdict", "world_hash"}',
    task_ids=lambda bank: [t.id for t in bank.tasks],
    grade=_grade,
    grade_lines=_grade_lines,
    world_help="Inspect and compare worlds.",
    check_options=(
        click.option(
            "--jobs",
            type=click.IntRange(1, 256),
            default=None,
            metavar="N",
            help="Processes judging the battery's answers at once (default: the number of "
            "cores); the report is the same for any N.",
        ),
    ),
    check_help="""
    Validate a world file, list its rules and keyword renamings, and audit its task bank.

    A rule no program can observe is a problem: a red herring (IDENTITY)
    must come before an altered rule of its site with a wider scope.

    The audit runs every reference and naive solution, computes expected
    outputs and each task's rules, checks the bank's promises, and runs the
    battery of trivial and adaptive strategies that know nothing of the
    world (naive, wrapped, literal-free, printer, example-copy, variants and
    six that calibrate or avoid at run time; docs/validity.md lists them):
    a task any of them passes is flagged.
    Exit status: 0 all good, 1 the audit found problems, 2 the world or bank
    is malformed (every problem is listed, naming the file, rule and key).
    """,
    describe_world=_describe_world,
    audit_bank=_audit_bank,
    generate_help="""Generate a fresh world and its task bank from a seed: DIR/world.toml
    and DIR/bank.toml.

    The same seed, knobs and generator version give the same files, byte for
    byte. Every altered operation stays portable (the porting compiler ports
    probe programs using it at top level, in a CRAFT and in loops), no two
    rules behave alike, and indexing (PLUCK) and slicing (CARVE) are always
    altered. The bank's tasks come from a template library written in the
    manual's semantics; each reference is its template ported to the world.
    The files are written only once they pass the same audit as `world check`
    (in this process, which has compiled most of the battery's answers
    already). `episode --world DIR/world.toml` and `world check
    DIR/world.toml` find the bank beside the world. Exit status: 0 written,
    1 the knobs cannot be met by any world drawn (or the audit failed), 2 bad
    input (a knob out of its range, knobs that contradict each other, a seed
    --seed refuses, DIR already holding world.toml or bank.toml without
    --force).
    """,
    knobs=ALIENCODE_KNOBS,
    out_help="Directory to write world.toml and bank.toml into (created if missing).",
    generate_json="Print what was generated (name, hash, rules by perturbation scheme, draws, "
    "rejections, the bank's draws, the battery's scores, CPU seconds) as JSON.",
    generate=_generate,
    generate_options=(
        click.option(
            "--force", is_flag=True, help="Replace the world.toml and bank.toml already in DIR."
        ),
    ),
)

main = scaffold.language_group(COMMANDS)
WORLD = main.commands["world"]


@main.command()
@click.argument("file", default="-", metavar="[FILE|-]")
@shared.world_option("aliencode")
@shared.json_option('{"output", "error", "steps", "units"}')
@click.option(
    "--max-steps",
    type=click.IntRange(1, MOST_STEPS),
    metavar="N",
    help=f"Step budget (default {Limits().max_steps:,}; at most {MOST_STEPS:,}).",
)
def run(file: str, world_spec: str | None, as_json: bool, max_steps: int | None) -> None:
    """Run an AlienCode program from FILE (or standard input).

    Prints what the program EMITs, byte for byte (UTF-8, control characters
    included, whether or not standard output is a terminal); an error prints
    as `[AlienError] <Kind>: <message> (line N)` after the output already
    produced. Exit status: 0 ran, 1 stopped with an AlienError, 2 bad input,
    3 internal error (a failure of the interpreter itself, never of the
    program; reported as InternalError, without a traceback).
    """
    source = read_source(file)
    world = load_world_or_exit(world_spec)
    limits = Limits(max_steps=max_steps) if max_steps else Limits()
    try:
        result = run_source(source, world, limits)
    except Exception as exc:  # noqa: BLE001 - run_source promises not to raise; if it does, no traceback
        result = RunResult(
            "", AlienError("InternalError", f"the interpreter failed ({type(exc).__name__})"), 0, 0
        )
    if as_json:
        write_out(shared.json_text(result.as_dict()) + "\n")
    else:
        text = result.text()
        if text:
            write_out(text + "\n")
    if result.error is None:
        sys.exit(EXIT_OK)
    sys.exit(EXIT_INTERNAL if result.error.kind == "InternalError" else EXIT_ERROR)


def write_out(text: str) -> None:
    """Write `text` to standard output as UTF-8, exactly: not through
    click.echo, which strips ANSI sequences when the output is not a
    terminal (so piped output would differ from the program's)."""
    stream = sys.stdout
    stream.flush()
    buffer = getattr(stream, "buffer", None)
    if buffer is None:  # a text-only stream (a test harness)
        stream.write(text)
    else:
        buffer.write(text.encode("utf-8", "surrogateescape"))
        buffer.flush()


@WORLD.command("compare")
@click.option(
    "--site",
    required=True,
    metavar="S",
    help="The site both expressions describe, e.g. PLUCK or literal.int.",
)
@click.argument("left", metavar="EXPR")
@click.argument("right", metavar="EXPR")
def world_compare(site: str, left: str, right: str) -> None:
    """Decide whether two rule expressions behave the same at a site.

    Both are evaluated on a deterministic sample of operand values suited to
    the site; IDENTITY means the manual's semantics. Exit status: 0
    equivalent, 1 different (a counterexample is printed), 2 bad input.
    """
    from alienworlds.ruleset import RuleSyntaxError
    from alienworlds.ruleset.equivalence import compare

    from aliencode.sites import OPERATION_BY_NAME, SITES, operand_kinds

    if site not in SITES:
        fail(f"unknown site {site!r}; sites are {', '.join(SITES)}")
    standard = (
        OPERATION_BY_NAME[site].standard
        if site in OPERATION_BY_NAME
        else " ".join(SITES[site].operands)
    )
    try:
        result = compare(left, right, operand_kinds(site), standard=standard)
    except RuleSyntaxError as exc:
        fail(
            f"not a rule expression for {site} (operands: {' '.join(SITES[site].operands)}): {exc}"
        )
    click.echo(result.describe(left, right))
    sys.exit(EXIT_OK if result.equivalent else EXIT_ERROR)


@main.command()
@click.argument("file", default="-", metavar="[FILE|-]")
@click.option(
    "--world",
    "world_spec",
    metavar="W",
    required=True,
    help="The world to port to, always named: a shipped world's name or a path to a world TOML "
    "file; `standard` is the manual's own semantics.",
)
@click.option(
    "--example",
    "examples",
    multiple=True,
    metavar="CALL",
    help="A call of the program's functions (repeatable). With examples, parameter types come "
    "from the calls.",
)
@click.option(
    "--whole-program",
    is_flag=True,
    help="Nothing outside the program calls its functions (no examples needed).",
)
@click.option(
    "--standard-keywords",
    is_flag=True,
    help="The program spells keywords as the standard manual does, not as the world's manual.",
)
@click.option(
    "--max-size",
    type=click.IntRange(min=1, max=7),
    default=5,
    show_default=True,
    metavar="N",
    help="Largest compensation searched (operations, operands and constants).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print {"source", "changes", "helpers", "seconds", "world_hash"}.',
)
def port(
    file: str,
    world_spec: str,
    examples: tuple[str, ...],
    whole_program: bool,
    standard_keywords: bool,
    max_size: int,
    as_json: bool,
) -> None:
    """Port a program written in the manual's semantics to a world.

    Prints a program that prints, under the world, what FILE prints under
    the manual's semantics: literals the world reads as meant, and
    compensations for every operation the world changes, found by search
    and checked by behaviour. Parameter types come from --example calls;
    without them a function must work for any argument.

    Exit status: 0 ported, 1 some site has no compensation within the
    bounds (the site and its scope are named), 2 bad input.
    """
    from alienworlds.porting import Bounds, Porter, PortError

    from aliencode import AlienSyntaxError

    source = read_source(file)
    loaded = load_world_or_exit(world_spec)
    calls = list(examples) if examples else ([] if whole_program else None)
    try:
        ported = Porter(loaded, Bounds(max_size=max_size)).port(
            source, calls, {} if standard_keywords else None
        )
    except AlienSyntaxError as exc:
        fail(f"the program does not parse: {exc}")
    except PortError as exc:
        if as_json:
            shared.echo_json({"error": exc.as_dict(), "world_hash": loaded.hash})
        else:
            click.echo(
                f"aliencode: cannot port: {exc} (site {exc.site}, scope {exc.place})", err=True
            )
        sys.exit(EXIT_ERROR)
    if as_json:
        shared.echo_json({**ported.as_dict(), "world_hash": loaded.hash})
    else:
        click.echo(ported.source, nl=False)
    sys.exit(EXIT_OK)


def entry(argv: list[str] | None = None) -> None:
    """The console script: `main` without tracebacks, streams guarded (see entry.py)."""
    run_cli(main, "aliencode", argv, internal=EXIT_INTERNAL)


if __name__ == "__main__":
    entry()
