"""The `aliencode` command line."""

from __future__ import annotations

import sys

import click
from alienworlds.cli import shared
from alienworlds.cli.banks import bank_or_exit, skipped_audit_note
from alienworlds.cli.entry import run as run_cli
from alienworlds.cli.knob_options import SEED_HELP, knob_options
from alienworlds.cli.lazy import episode_commands
from alienworlds.cli.param_types import SeedText
from alienworlds.cli.shared import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK
from alienworlds.cli.shared import EXIT_NO as EXIT_ERROR
from alienworlds.generate.knobs import ALIENCODE_KNOBS
from alienworlds.ruleset import Limits, WorldError
from alienworlds.ruleset.inputs import InputError, read_input

from aliencode import __version__, run_source
from aliencode.errors import AlienError
from aliencode.runtime import RunResult
from aliencode.world_schema import load

WORLD_HELP = shared.world_help("aliencode")


def read_source(path: str) -> str:
    """The text of FILE or standard input ('-'); exit 2 when unreadable."""
    try:
        return read_input(path, "program")
    except InputError as exc:
        fail(str(exc))
    raise AssertionError("unreachable")


# Ten times the default: a run this long still ends on its step count, well
# before the wall-clock backstop, so its verdict does not depend on the machine.
MOST_STEPS = 10 * Limits().max_steps


def fail(message: str) -> None:
    click.echo(f"aliencode: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


def load_world_or_exit(spec: str | None):
    try:
        return load(spec)
    except WorldError as exc:
        for problem in exc.problems:
            click.echo(f"aliencode: {problem}", err=True)
        sys.exit(EXIT_BAD_INPUT)


@click.group(
    cls=episode_commands("aliencode"), context_settings={"help_option_names": ["-h", "--help"]}
)
@click.version_option(__version__, prog_name="aliencode")
def main() -> None:
    """AlienCode: a small calculation language whose worlds hide their real rules.

    Run programs under a world's hidden semantics. See `aliencode COMMAND --help`.
    """


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


@main.command()
@shared.world_option("aliencode")
@shared.format_option()
def manual(world_spec: str | None, fmt: str) -> None:
    """Print the world's manual: the standard language in the world's keywords.

    The manual never reveals a world's rules; it is the same for every world
    that spells its keywords the same way.
    """
    from alienworlds.manuals.aliencode import render

    click.echo(render(load_world_or_exit(world_spec), fmt), nl=False)


@main.group()
def world() -> None:
    """Inspect and compare worlds."""


@world.command("check")
@click.argument("spec", metavar="PATH|NAME")
@shared.json_option("the result")
@shared.bank_option("The task bank to audit")
def world_check(spec: str, as_json: bool, bank_file: str | None) -> None:
    """Validate a world file, list its rules and keyword renamings, and audit its task bank.

    A rule no program can observe is a problem: a red herring (IDENTITY)
    must come before an altered rule of its site with a wider scope.

    The audit runs every reference and naive solution, computes expected
    outputs and each task's rules, checks the bank's promises, and runs the
    trivial-strategy battery (naive, wrapped, literal-free, printer,
    example-copy, variants): a task any of them passes is flagged.
    Exit status: 0 all good, 1 the audit found problems, 2 the world or bank
    is malformed (every problem is listed, naming the file, rule and key).
    """
    from alienworlds.ruleset import WorldError

    from aliencode.world_schema import load as load_spec

    try:
        loaded = load_spec(spec)
    except WorldError as exc:
        if as_json:
            shared.echo_json(
                {
                    "world": spec,
                    "hash": None,
                    "ok": False,
                    "problems": [str(p) for p in exc.problems],
                    "rules": [],
                }
            )
        else:
            for problem in exc.problems:
                click.echo(f"aliencode: {problem}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    rules = [
        {
            "id": r.id,
            "name": r.name,
            "target": r.target,
            "actual": r.actual,
            "scope": r.scope,
            "red_herring": r.red_herring,
        }
        for r in loaded.rules
    ]
    from aliencode.shadowing import inert_rules

    inert = [i.message() for i in inert_rules(loaded)]
    result: dict[str, object] = {
        "world": loaded.name,
        "hash": loaded.hash,
        "ok": not inert,
        "problems": inert,
        "rules": rules,
        "keywords": dict(sorted(loaded.keywords.items())),
    }
    bank = bank_or_exit("aliencode", loaded, bank_file, required=False)
    result["bank_audit"] = "skipped" if bank is None else "done"
    report = None
    if bank is not None:
        from alienworlds.tasks.aliencode_audit import audit

        report = audit(loaded, bank)
        result.update(
            ok=not report.problems,
            problems=report.problems,
            tasks=[t.as_dict() for t in report.tasks],
            worked_examples=[
                {"id": e["id"], "band": e["band"], "rules": e["rules"]} for e in report.examples
            ],
            reference_pass=report.reference_pass,
            naive_pass=report.naive_pass,
            validity=report.validity.as_dict() if report.validity else None,
            seconds=round(report.seconds, 3),
        )
    if as_json:
        shared.echo_json(result)
    else:
        click.echo(f"world {loaded.name} ({loaded.hash}): {len(rules)} rules")
        for r in rules:
            scope = "" if r["scope"] == "anywhere" else f"  [scope: {r['scope']}]"
            click.echo(f"  {r['id']:<6} {r['target']:<14} {r['actual']}{scope}")
        for standard, renamed in sorted(loaded.keywords.items()):
            click.echo(f"  keyword {standard} is spelled {renamed}")
        if report is not None:
            n = len(report.tasks)
            click.echo(
                f"bank: {n} tasks, {len(report.examples)} worked examples; references pass "
                f"{report.reference_pass}/{n}, "
                f"naive solutions pass {report.naive_pass}/{n} in the world; audited in "
                f"{report.seconds:.2f} s"
            )
            for t in report.tasks:
                click.echo(
                    f"  {t.id:<5} {t.kind:<10} {t.band:<9} {t.family:<8} {','.join(t.rules) or '-'}"
                )
            synthesis = [t for t in report.tasks if t.kind == "synthesis"]
            covered = sum(bool(t.unavoidable) for t in synthesis)
            click.echo(
                f"route coverage: {covered}/{len(synthesis)} synthesis tasks use an operation or "
                "literal "
                "that no manual route computes without an altered rule"
            )
            if report.validity is not None:
                click.echo(report.validity.summary())
        else:
            click.echo(skipped_audit_note("aliencode", loaded))
        for problem in result["problems"]:
            click.echo(f"problem: {problem}")
        click.echo("ok" if result["ok"] else f"{len(result['problems'])} problems")
    sys.exit(EXIT_OK if result["ok"] else EXIT_ERROR)


@main.command("tasks")
@shared.world_option("aliencode")
@shared.bank_option()
@shared.json_option("the tasks")
def list_tasks(world_spec: str | None, bank_file: str | None, as_json: bool) -> None:
    """List a world's held-out tasks: prompts, interfaces and answer budgets.

    Solutions, private calls and private inputs are never shown; a
    whole-program task names the inputs its program reads. A synthesis
    task's budget (tokens of code, steps per run) is what its prompt states
    and its grader enforces.
    """
    loaded = load_world_or_exit(world_spec)
    bank = bank_or_exit("aliencode", loaded, bank_file, required=True)
    from alienworlds.tasks.aliencode_disclosure import describe_inputs
    from alienworlds.tasks.aliencode_grading import AlienCodeGrader, BankProblem

    grader = AlienCodeGrader(loaded, bank)

    def budget(task) -> dict[str, object]:
        try:
            found = grader.budget(task)
        except BankProblem:
            return {}
        return {"budget": found.as_dict()} if found is not None else {}

    shown = [
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
                {"example_inputs": describe_inputs(t.example_inputs, loaded, Limits())}
                if t.example_inputs
                else {}
            ),
            **budget(t),
        }
        for t in bank.tasks
    ]
    if as_json:
        shared.echo_json({"world": loaded.name, "hash": loaded.hash, "tasks": shown})
        return
    for t in shown:
        click.echo(f"{t['id']} [{t['kind']}, {t['band']}] {t['prompt']}")
        if t.get("example"):
            click.echo(f"    example: {t['example']}")
        if t.get("inputs"):
            click.echo(
                f"    inputs: {', '.join(t['inputs'])}"
                + (f" (example: {t['example_inputs']})" if t.get("example_inputs") else "")
            )
        if t.get("budget"):
            click.echo(
                f"    budget: {t['budget']['tokens']} tokens of code, {t['budget']['steps']} "
                "steps per run"
            )
        if t.get("program"):
            click.echo(
                "    program:\n"
                + "\n".join("      " + line for line in str(t["program"]).strip().splitlines())
            )


@main.command()
@click.argument("file", default="-", metavar="[FILE|-]")
@shared.world_option("aliencode")
@shared.task_option()
@shared.bank_option()
@shared.json_option(
    '{"task", "passed", "reason", "answer", "calls": [{"passed", "reason"}], "verdict", '
    '"world_hash"}'
)
def grade(
    file: str, world_spec: str | None, task_id: str, bank_file: str | None, as_json: bool
) -> None:
    """Grade a reply to a task, from FILE or standard input, read as the
    episode reads a model's reply: a program (synthesis) in a fenced block
    or bare; a prediction in an ```output block or a `PREDICTION: ...` line.

    Exit status: 0 pass, 1 fail, 2 bad input (unknown task or world).
    """
    from alienworlds.tasks.aliencode_grading import AlienCodeGrader, BankProblem

    answer = read_source(file)
    loaded = load_world_or_exit(world_spec)
    bank = bank_or_exit("aliencode", loaded, bank_file, required=True)
    try:
        bank.task(task_id)
    except KeyError:
        fail(f"no task {task_id!r} in {bank.source} (tasks: {', '.join(t.id for t in bank.tasks)})")
    try:
        result = AlienCodeGrader(loaded, bank).grade(task_id, answer)
    except BankProblem as exc:
        fail(f"the task bank is broken: {exc}")
    if as_json:
        shared.echo_json(result.as_dict())
    else:
        click.echo(f"{result.task}: {'pass' if result.passed else 'fail'}")
        if not result.calls:
            click.echo(f"  the answer: {result.reason}")
        prediction = bank.task(task_id).kind == "prediction"
        for i, call in enumerate(result.calls, 1):
            label = "prediction" if prediction else f"call {i}"
            click.echo(f"  {label}: {'pass' if call.passed else 'fail'} ({call.reason})")
    sys.exit(EXIT_OK if result.passed else EXIT_ERROR)


@world.command("generate")
@click.option("--seed", required=True, type=SeedText(), metavar="S", help=SEED_HELP)
@knob_options(ALIENCODE_KNOBS)
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Directory to write world.toml and bank.toml into (created if missing).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print what was generated (name, hash, rules by perturbation scheme, draws, "
    "rejections, the bank's draws) as JSON.",
)
def world_generate(
    seed: str,
    altered: int,
    red_herrings: int,
    scoped: int,
    renamed: int,
    tasks: int,
    out_dir: str,
    as_json: bool,
) -> None:
    """Generate a fresh world and its task bank from a seed: DIR/world.toml
    and DIR/bank.toml.

    The same seed, knobs and generator version give the same files, byte for
    byte. Every altered operation stays portable (the porting compiler ports
    probe programs using it at top level, in a CRAFT and in loops), no two
    rules behave alike, and indexing (PLUCK) and slicing (CARVE) are always
    altered. The bank's tasks come from a template library written in the
    manual's semantics; each reference is its template ported to the world.
    `episode --world DIR/world.toml` and `world check DIR/world.toml` find
    the bank beside the world. Exit status: 0 written, 1 the knobs cannot be
    met by any world drawn, 2 bad input (a knob out of its range, knobs that
    contradict each other, a seed --seed refuses).
    """
    from pathlib import Path

    from alienworlds.generate.aliencode import GenerationError, Knobs, generate
    from alienworlds.ruleset.phases import Phases

    knobs = Knobs(
        altered=altered, red_herrings=red_herrings, scoped=scoped, renamed=renamed, tasks=tasks
    )
    try:
        knobs.check()
    except GenerationError as exc:
        fail(str(exc))
    phases = Phases(lambda line: click.echo(line, err=True), "aliencode world generate: ")
    try:
        result = generate(seed, knobs, phases)
    except GenerationError as exc:
        click.echo(f"aliencode: cannot generate: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    out = Path(out_dir)
    written = {"world.toml": result.text, "bank.toml": result.bank_text}
    for name, text in written.items():
        try:
            out.mkdir(parents=True, exist_ok=True)
            (out / name).write_text(text, encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {out / name}: {exc.strerror or exc.__class__.__name__}")
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
    }
    if as_json:
        shared.echo_json(summary)
    else:
        click.echo(
            f"wrote {summary['path']}: world {result.world.name} ({result.world.hash}), "
            f"{len(result.world.rules)} rules, {result.draws} draws "
            f"({sum(result.rejected.values())} rejected)"
        )
        click.echo(
            f"wrote {summary['bank']}: {len(result.bank.tasks)} tasks, "
            f"{len(result.bank.examples)} worked examples "
            f"({result.world_draws} world{'s' if result.world_draws != 1 else ''} drawn)"
        )
    sys.exit(EXIT_OK)


@world.command("compare")
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
@click.option("--world", "world_spec", metavar="W", required=True, help=WORLD_HELP)
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


@main.command()
@shared.world_option("aliencode")
def repl(world_spec: str | None) -> None:
    """Explore a world by hand: definitions persist between entries, each
    entry shows its output and probe-unit cost. Type :help inside.

    Without a terminal, lines are read from standard input (scriptable).
    Entries are kept in $XDG_DATA_HOME/alienworlds/aliencode_history
    (~/.local/share/... by default); :history lists them.
    """
    from alienworlds.repl.aliencode_backend import AlienCodeBackend
    from alienworlds.repl.shell import start

    start(AlienCodeBackend(load_world_or_exit(world_spec)))


def entry(argv: list[str] | None = None) -> None:
    """The console script: `main` without tracebacks, streams guarded (see entry.py)."""
    run_cli(main, "aliencode", argv, internal=EXIT_INTERNAL)


if __name__ == "__main__":
    entry()
