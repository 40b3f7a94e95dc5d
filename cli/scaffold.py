"""The commands both languages share, written once: `grade`, `tasks`,
`manual`, `repl`, `world check` and `world generate` (with `episode`,
`report`, `sweep` and `play` from cli/lazy.py).

`language_group(commands)` builds a language's top-level click group from
its `LanguageCommands`: the words and functions that differ by language
(how a world loads, which manual and REPL, how a task or a verdict is shown,
what an audit or a generator does). The scaffold owns everything else, so
the two CLIs cannot drift: the options, the order of the steps, exit
statuses and the JSON style. A language module then adds only its own
commands (AlienCode's `run`, `port`, `world compare`; AlienLogic's `check`,
`prove`, `certify`).

Kept as light as cli/shared.py: `aliencode run` loads it, so every import
beyond click stands inside a command.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NoReturn

import click

from . import shared
from .banks import bank_or_exit, skipped_audit_note
from .knob_options import SEED_HELP, knob_options
from .lazy import episode_commands
from .param_types import SeedText
from .shared import EXIT_BAD_INPUT, EXIT_NO, EXIT_OK

if TYPE_CHECKING:
    from alienworlds.generate.knobs import KnobTable
    from alienworlds.ruleset.phases import Phases
    from alienworlds.ruleset.world import World
    from alienworlds.tasks.bank import Bank


class BadInput(Exception):
    """Input a command cannot work on (a task the bank lacks, a broken bank,
    contradicting knobs): each problem on its own line, exit 2."""

    def __init__(self, *problems: str) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


class Refused(Exception):
    """The command's negative answer, said in one line (a generator that
    cannot meet its knobs): exit 1."""


@dataclass
class Report:
    """What a step of `world check` or `world generate` found: the problems
    so far, the JSON fields it adds (in order) and the lines it prints."""

    problems: list[str] = field(default_factory=list)
    fields: dict[str, object] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)


Decorator = Callable[[Callable], Callable]


# Neither frozen nor given __eq__ and __repr__ (an entry is compared by
# identity): `aliencode run` builds this class at start-up, and the code a
# frozen dataclass generates for 30 fields costs 1.2 ms of CPU, this 0.4 ms.
@dataclass(eq=False, repr=False)
class LanguageCommands:
    """One language's part of the shared commands. Help texts are the
    commands' own; the functions are called only when a command runs, and
    import what they need then."""

    name: str  # the console script: aliencode
    version: str
    summary: str  # the top-level --help
    answer_kind: str  # what FILE holds, for read errors: "program", "proof"
    load_world: Callable[[str | None], World]  # raises WorldError
    manual_help: str
    render_manual: Callable[[World, str], str]  # (world, "text" | "md")
    repl_help: str
    repl_backend: Callable[[World], object]
    tasks_help: str
    task_rows: Callable[[World, Bank], list[dict]]  # what --json shows of each task
    task_lines: Callable[[dict], list[str]]  # a row as text
    grade_help: str
    grade_json: str  # the --json help: the verdict's fields
    task_ids: Callable[[Bank], list[str]]
    grade: Callable[[World, Bank, str, str], object]  # (world, bank, task, answer) -> Grade
    grade_lines: Callable[[object, Bank], list[str]]
    world_help: str  # the `world` group's
    check_help: str
    describe_world: Callable[[World], Report]  # the world's rules (and its own problems)
    # (world, bank, problems so far, extra options) -> every problem and the audit's fields
    audit_bank: Callable[[World, Bank, list[str], Mapping[str, object]], Report]
    generate_help: str
    knobs: KnobTable
    out_help: str
    generate_json: str  # the --json help
    # (seed, knob values, folder as given, extra options, phases) -> the summary and lines
    generate: Callable[[str, dict[str, int], str, Mapping[str, object], Phases], Report]
    check_options: tuple[Decorator, ...] = ()  # `world check` options of this language only
    generate_options: tuple[Decorator, ...] = ()  # likewise for `world generate`


def fail(language: str, message: str) -> NoReturn:
    """Bad input: one line on standard error, exit 2."""
    click.echo(f"{language}: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


def read_answer(language: str, path: str, kind: str) -> str:
    """The text of FILE or standard input ('-'); exit 2 when unreadable."""
    from alienworlds.ruleset.inputs import InputError, read_input

    try:
        return read_input(path, kind)
    except InputError as exc:
        fail(language, str(exc))


def world_or_exit(commands: LanguageCommands, spec: str | None) -> World:
    """The world `spec` names (None: the default); exit 2 listing every problem."""
    from alienworlds.ruleset.world import WorldError

    try:
        return commands.load_world(spec)
    except WorldError as exc:
        for problem in exc.problems:
            click.echo(f"{commands.name}: {problem}", err=True)
        sys.exit(EXIT_BAD_INPUT)


def rule_rows(world: World, fields: tuple[str, ...]) -> list[dict[str, object]]:
    """`world check`'s listing of the world's rules: the named fields of each."""
    return [{name: getattr(rule, name) for name in fields} for rule in world.rules]


def _answers(language: str, body: Callable) -> Callable:
    """`body` with BadInput and Refused turned into their exit statuses."""

    def run(**kwargs: object) -> None:
        try:
            body(**kwargs)
        except BadInput as exc:
            for problem in exc.problems:
                click.echo(f"{language}: {problem}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except Refused as exc:
            click.echo(f"{language}: {exc}", err=True)
            sys.exit(EXIT_NO)

    return run


def _apply(decorators: tuple[Decorator, ...], command: Callable) -> Callable:
    for decorator in reversed(decorators):
        command = decorator(command)
    return command


def language_group(commands: LanguageCommands) -> click.Group:
    """`commands.name`'s top-level group with every shared command."""
    name = commands.name

    @click.group(
        name,
        cls=episode_commands(name),
        context_settings={"help_option_names": ["-h", "--help"]},
        help=commands.summary,
    )
    @click.version_option(commands.version, prog_name=name)
    def group() -> None:
        pass

    _add_manual(group, commands)
    _add_repl(group, commands)
    _add_tasks(group, commands)
    _add_grade(group, commands)
    world = group.group("world", help=commands.world_help)(lambda: None)
    _add_world_check(world, commands)
    _add_world_generate(world, commands)
    return group


def _add_manual(group: click.Group, commands: LanguageCommands) -> None:
    @group.command("manual", help=commands.manual_help)
    @shared.world_option(commands.name)
    @shared.format_option()
    def manual(world_spec: str | None, fmt: str) -> None:
        click.echo(commands.render_manual(world_or_exit(commands, world_spec), fmt), nl=False)


def _add_repl(group: click.Group, commands: LanguageCommands) -> None:
    @group.command("repl", help=commands.repl_help)
    @shared.world_option(commands.name)
    def repl(world_spec: str | None) -> None:
        from alienworlds.repl.shell import start

        start(commands.repl_backend(world_or_exit(commands, world_spec)))


def _add_tasks(group: click.Group, commands: LanguageCommands) -> None:
    def list_tasks(world_spec: str | None, bank_file: str | None, as_json: bool) -> None:
        world = world_or_exit(commands, world_spec)
        bank = bank_or_exit(commands.name, world, bank_file, required=True)
        rows = commands.task_rows(world, bank)
        if as_json:
            shared.echo_json({"world": world.name, "hash": world.hash, "tasks": rows})
            return
        for row in rows:
            for line in commands.task_lines(row):
                click.echo(line)

    _apply(
        (
            group.command("tasks", help=commands.tasks_help),
            shared.world_option(commands.name),
            shared.bank_option(),
            shared.json_option("the tasks"),
        ),
        _answers(commands.name, list_tasks),
    )


def _add_grade(group: click.Group, commands: LanguageCommands) -> None:
    def grade(
        file: str, world_spec: str | None, task_id: str, bank_file: str | None, as_json: bool
    ) -> None:
        answer = read_answer(commands.name, file, commands.answer_kind)
        world = world_or_exit(commands, world_spec)
        bank = bank_or_exit(commands.name, world, bank_file, required=True)
        ids = commands.task_ids(bank)
        if task_id not in ids:
            raise BadInput(f"no task {task_id!r} in {bank.source} (tasks: {', '.join(ids)})")
        result = commands.grade(world, bank, task_id, answer)
        if as_json:
            shared.echo_json(result.as_dict())
        else:
            for line in commands.grade_lines(result, bank):
                click.echo(line)
        sys.exit(EXIT_OK if result.passed else EXIT_NO)

    _apply(
        (
            group.command("grade", help=commands.grade_help),
            click.argument("file", default="-", metavar="[FILE|-]"),
            shared.world_option(commands.name),
            shared.task_option(),
            shared.bank_option(),
            shared.json_option(commands.grade_json),
        ),
        _answers(commands.name, grade),
    )


def _add_world_check(world: click.Group, commands: LanguageCommands) -> None:
    def check(spec: str, as_json: bool, bank_file: str | None, **options: object) -> None:
        from alienworlds.ruleset.world import WorldError

        try:
            loaded = commands.load_world(spec)
        except WorldError as exc:
            problems = [str(p) for p in exc.problems]
            if as_json:
                shared.echo_json(
                    {"world": spec, "hash": None, "ok": False, "problems": problems, "rules": []}
                )
            else:
                for problem in problems:
                    click.echo(f"{commands.name}: {problem}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        described = commands.describe_world(loaded)
        problems = described.problems
        result: dict[str, object] = {
            "world": loaded.name,
            "hash": loaded.hash,
            "ok": not problems,
            "problems": problems,
            **described.fields,
        }
        lines = list(described.lines)
        bank = bank_or_exit(commands.name, loaded, bank_file, required=False)
        result["bank_audit"] = "skipped" if bank is None else "done"
        if bank is None:
            lines.append(skipped_audit_note(commands.name, loaded))
        else:
            audited = commands.audit_bank(loaded, bank, problems, options)
            problems = audited.problems
            result.update(ok=not problems, problems=problems, **audited.fields)
            lines += audited.lines
        if as_json:
            shared.echo_json(result)
        else:
            for line in lines:
                click.echo(line)
            for problem in problems:
                click.echo(f"problem: {problem}")
            count = len(problems)
            click.echo(f"{count} problem{'s' if count != 1 else ''}" if problems else "ok")
        sys.exit(EXIT_NO if problems else EXIT_OK)

    _apply(
        (
            world.command("check", help=commands.check_help),
            click.argument("spec", metavar="PATH|NAME"),
            shared.json_option("the result"),
            shared.bank_option("The task bank to audit"),
            *commands.check_options,
        ),
        _answers(commands.name, check),
    )


def _add_world_generate(world: click.Group, commands: LanguageCommands) -> None:
    def generate(seed: str, out_dir: str, as_json: bool, **options: object) -> None:
        from alienworlds.ruleset.phases import Phases

        knobs = {k.name: options.pop(k.name) for k in commands.knobs.knobs}
        phases = Phases(
            lambda line: click.echo(line, err=True), f"{commands.name} world generate: "
        )
        generated = commands.generate(seed, knobs, out_dir, options, phases)
        if as_json:
            shared.echo_json(generated.fields)
        else:
            for line in generated.lines:
                click.echo(line)
        sys.exit(EXIT_OK)

    _apply(
        (
            world.command("generate", help=commands.generate_help),
            click.option("--seed", required=True, type=SeedText(), metavar="S", help=SEED_HELP),
            knob_options(commands.knobs),
            click.option(
                "--out",
                "out_dir",
                required=True,
                type=click.Path(file_okay=False),
                metavar="DIR",
                help=commands.out_help,
            ),
            *commands.generate_options,
            click.option("--json", "as_json", is_flag=True, help=commands.generate_json),
        ),
        _answers(commands.name, generate),
    )
