"""The `alienlogic` command line: AlienLogic's part of the shared commands
(cli/scaffold.py) and its own, `check`, `prove` and `certify`."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click
from alienworlds.cli import scaffold, shared
from alienworlds.cli.banks import bank_or_exit
from alienworlds.cli.entry import run as run_cli
from alienworlds.cli.param_types import Seconds
from alienworlds.cli.scaffold import BadInput, LanguageCommands, Refused, Report
from alienworlds.cli.shared import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK
from alienworlds.cli.shared import EXIT_NO as EXIT_REJECTED
from alienworlds.generate.knobs import ALIENLOGIC_KNOBS
from alienworlds.ruleset.world import World

from alienlogic import __version__
from alienlogic.errors import ProofSyntaxError
from alienlogic.kernel import check as check_proof
from alienlogic.parser import parse_formula, parse_formulas
from alienlogic.proof import Theorem
from alienlogic.worlds import audit, load_world

if TYPE_CHECKING:
    from alienworlds.ruleset.phases import Phases
    from alienworlds.tasks.bank import Bank
    from alienworlds.tasks.grade import Grade

LONGEST = 3600.0  # seconds a search may be given per theorem

fail = partial(scaffold.fail, "alienlogic")
read_text = partial(scaffold.read_answer, "alienlogic", kind="proof")


def world_or_exit(spec: str | None) -> World:
    return scaffold.world_or_exit(COMMANDS, spec)


def _logic_tasks_or_exit(bank: Bank) -> dict:
    """The bank's tasks as theorems, by id; exit 2 listing every problem."""
    from alienworlds.tasks.alienlogic_grading import logic_tasks
    from alienworlds.tasks.bank import BankError

    try:
        return {t.id: t for t in logic_tasks(bank)}
    except BankError as exc:
        for problem in exc.problems:
            click.echo(f"alienlogic: {problem}", err=True)
        sys.exit(EXIT_BAD_INPUT)


def _task_or_exit(tasks: dict, task_id: str, bank):
    if task_id not in tasks:
        fail(f"no task {task_id!r} in {bank.source} (tasks: {', '.join(tasks)})")
    return tasks[task_id]


def _theorem(
    w: World, bank_file: str | None, task_id: str | None, premises: str | None, goal: str | None
):
    """The theorem a command works on: a bank task's, or --premises/--goal."""
    if task_id is not None:
        if premises is not None or goal is not None:
            fail("give either --task or --premises/--goal, not both")
        bank = bank_or_exit("alienlogic", w, bank_file, required=True)
        return _task_or_exit(_logic_tasks_or_exit(bank), task_id, bank).theorem
    if goal is None:
        fail("give --task ID, or --goal (and --premises) to state a theorem")
    try:
        return Theorem(parse_formulas(premises or ""), parse_formula(goal))
    except ProofSyntaxError as exc:
        fail(f"not a formula: {exc}")


def _render_manual(world: World, fmt: str) -> str:
    from alienworlds.manuals.alienlogic import render  # manuals depend on the language

    return render(world, fmt)


def _repl_backend(world: World) -> object:
    from alienworlds.repl.alienlogic_backend import AlienLogicBackend

    return AlienLogicBackend(world)


def _task_rows(world: World, bank: Bank) -> list[dict]:
    return [
        {
            "id": t.id,
            "prompt": t.prompt,
            "premises": [str(p) for p in t.theorem.premises],
            "goal": str(t.theorem.goal),
        }
        for t in _logic_tasks_or_exit(bank).values()
    ]


def _grade(world: World, bank: Bank, task_id: str, answer: str) -> Grade:
    from alienworlds.tasks.alienlogic_grading import AlienLogicGrader

    return AlienLogicGrader(world, bank).grade(task_id, answer)


def _describe_world(world: World) -> Report:
    rules = scaffold.rule_rows(world, ("id", "name", "target", "disabled", "require", "conclusion"))
    lines = [
        f"world {world.name} ({world.hash}): {len(rules)} rule{'s' if len(rules) != 1 else ''}"
    ]
    for r in rules:
        parts = ["disabled"] if r["disabled"] else []
        parts += [f"{k} {r[k]}" for k in ("require", "conclusion") if r[k]]
        lines.append(f"  {r['id']:<6} {r['target']:<9} {'; '.join(parts)}")
    return Report(problems=audit(world), fields={"rules": rules}, lines=lines)


def _audit_bank(
    world: World, bank: Bank, problems: list[str], options: Mapping[str, object]
) -> Report:
    from alienworlds.tasks.alienlogic_audit import audit as audit_bank
    from alienworlds.tasks.alienlogic_validity import battery
    from alienworlds.tasks.bank import BankError

    try:
        report = audit_bank(world, bank, prover=not options["no_prover"])
    except BankError as exc:
        raise BadInput(*exc.problems) from None
    validity = battery(world, bank)
    s = report.summary()
    n = len(report.tasks)
    lines = [
        f"bank: {n} tasks, {len(report.examples)} worked examples; references pass "
        f"{s['reference_pass']}/{s['provable']}, "
        f"certificates hold {s['certified']}/{s['unprovable']}, naive proofs refused "
        f"{s['naive_refused']}, "
        f"the standard calculus proves {s['standard_proves']}/{s['unprovable']} "
        "unprovable theorems"
    ]
    if "prover" in s:
        pr = s["prover"]
        lines.append(
            f"prover: proves {pr['world_proves']}/{s['provable']} provable theorems in "
            "the world, "
            f"{pr['standard_proves_unprovable']}/{s['unprovable']} unprovable ones in "
            "the standard calculus, "
            f"none of them in the world ({pr['world_blocked']}/{s['unprovable']} blocked)"
        )
    lines.append(validity.summary())
    lines.append(f"audited in {report.seconds + validity.seconds:.2f} s")
    for t in report.tasks:
        kind = "first-order" if t.first_order else "propositional"
        lines.append(
            f"  {t.id:<5} {t.family:<12} "
            f"{'provable' if t.provable else 'unprovable':<11} {kind:<14} "
            f"{','.join(t.rules) or '-'}"
        )
    return Report(
        problems=problems + report.problems,
        fields={
            "tasks": [t.as_dict() for t in report.tasks],
            "worked_examples": report.examples,
            **s,
            "validity": validity.as_dict(),
            "seconds": round(report.seconds + validity.seconds, 3),
        },
        lines=lines,
    )


def _generate(
    seed: str, knobs: dict[str, int], out: str, options: Mapping[str, object], phases: Phases
) -> Report:
    import time

    from alienworlds.generate.alienlogic import VERSION, GenerationError, Knobs, generate, write
    from alienworlds.generate.alienlogic.generator import OUTPUTS
    from alienworlds.generate.audited_files import check_free

    start = time.perf_counter()
    try:
        Knobs(**knobs).check()
        check_free(Path(out), OUTPUTS, bool(options["force"]))
    except (GenerationError, FileExistsError) as exc:
        raise BadInput(str(exc)) from None
    try:
        generated = generate(seed, Knobs(**knobs), phases)
        with phases.phase("auditing the files before they are written"):
            write(generated, Path(out), force=options["force"], seconds=generated.stats.seconds)
    except FileExistsError as exc:
        raise BadInput(str(exc)) from None
    except GenerationError as exc:
        raise Refused(str(exc)) from None
    stats = generated.stats
    summary = {
        "world": generated.name,
        "hash": generated.world.hash,
        "out": out,
        "generator_version": VERSION,
        "patches": len(generated.world.rules),
        "families": generated.families,
        **stats.as_dict(),
        "wall_seconds": round(time.perf_counter() - start, 1),
    }
    final = stats.final
    return Report(
        fields=summary,
        lines=[
            f"world {generated.name} ({generated.world.hash}) written to {out} (generator "
            f"version {VERSION})",
            f"  {len(generated.world.rules)} patches; {knobs['theorems']} theorems: "
            + ", ".join(f"{n} {f}" for f, n in generated.families.items()),
            f"  labelled {final.drawn} candidates: "
            + ", ".join(f"{n} {k}" for k, n in sorted(final.labels.items()))
            + f" ({100 * final.unresolved_share:.0f}% discarded as unresolved); "
            f"{stats.trials.drawn} more while drawing patches",
            "  CPU seconds: "
            + ", ".join(f"{k} {v:.1f}" for k, v in sorted(stats.seconds.items()))
            + f"; wall {summary['wall_seconds']} s",
            "  audit: ok (the same as `alienlogic world check DIR/world.toml`)",
        ],
    )


COMMANDS = LanguageCommands(
    name="alienlogic",
    version=__version__,
    summary="""AlienLogic: a Fitch-style proof checker whose worlds patch the rules.

    Check proofs under a world's hidden side conditions. See `alienlogic COMMAND --help`.
    """,
    answer_kind="proof",
    load_world=load_world,
    manual_help="Print the manual of a world (it states the standard rules only).",
    render_manual=_render_manual,
    repl_help="""Check proofs by hand: type or paste PROOF … END and see the verdict an
    agent would see. :detail toggles author detail; :help lists commands.

    Without a terminal, lines are read from standard input (scriptable).
    Entries are kept in $XDG_DATA_HOME/alienworlds/alienlogic_history
    (~/.local/share/... by default); :history lists them.
    """,
    repl_backend=_repl_backend,
    tasks_help="""List a world's held-out theorems: prompts, premises and goals only.

    References, naive proofs, certificates and provability are never shown.
    """,
    task_rows=_task_rows,
    task_lines=lambda t: [
        f"{t['id']}: {', '.join(t['premises']) or '(no premises)'} ⊢ {t['goal']}"
    ],
    grade_help="""Grade an answer: model text holding one proof block (PROOF … END) or
    the refusal line `ANSWER: UNPROVABLE`, from FILE or standard input.

    A provable theorem passes only with an accepted proof of exactly its
    premises and goal; an unprovable one only with a clean refusal; a proof
    and a refusal together, or several proofs, fail as ambiguous.
    Exit status: 0 pass, 1 fail, 2 bad input (unknown task or world).
    """,
    grade_json='{"task", "passed", "reason", "answer", "calls": [], "verdict", "world_hash"}',
    task_ids=lambda bank: list(_logic_tasks_or_exit(bank)),
    grade=_grade,
    grade_lines=lambda result, bank: [
        f"{result.task}: {'pass' if result.passed else 'fail'} ({result.reason})"
    ],
    world_help="Inspect world files.",
    check_help="""Validate a world, list its rules, and audit its task bank.

    The audit checks every reference proof (accepted), naive proof (accepted
    in the standard calculus, refused here) and certificate (re-checked),
    computes each task's rules, runs the prover (its own proof of every
    provable theorem; a standard proof and no world proof of every
    unprovable one), checks the bank's promises and reports the trivial
    strategies (refuse-all, standard-proof) and the floor they set. Exit status: 0 all
    good, 1 problems found, 2 the world or bank is malformed.
    """,
    describe_world=_describe_world,
    audit_bank=_audit_bank,
    check_options=(
        click.option(
            "--no-prover",
            "no_prover",
            is_flag=True,
            help="Skip the prover's confirmations (faster).",
        ),
    ),
    generate_help="""Generate a fresh private world: DIR/world.toml, DIR/bank.toml and
    DIR/certificates/, the same bytes for the same seed and generator version.

    Patches are drawn from schemes of side conditions; theorems from
    templates and random formulas are labelled provable (a proof the world's
    checker accepts) or unprovable (a certificate the independent re-checker
    accepts, and no proof by bounded search), or discarded. The files are
    written only once they pass the same audit as `world check`. Exit
    status: 0 written, 1 the knobs cannot be met (or the audit failed),
    2 bad input (a knob out of its range, knobs that contradict each other,
    a seed --seed refuses).
    """,
    knobs=ALIENLOGIC_KNOBS,
    out_help="Where world.toml, bank.toml and certificates/ go.",
    generate_json="Print what was generated and how (labels, CPU seconds by stage) as JSON.",
    generate=_generate,
    generate_options=(
        click.option(
            "--force",
            is_flag=True,
            help="Replace the world.toml, bank.toml and certificates/ already in DIR.",
        ),
    ),
)

cli = scaffold.language_group(COMMANDS)


@cli.command("check")
@click.argument("file", default="-", metavar="[FILE|-]")
@shared.world_option("alienlogic")
@shared.json_option("the verdict")
@click.option(
    "--detail", is_flag=True, help="Also show what went wrong and the rule's name (for authors)."
)
def check(file: str, world_spec: str | None, as_json: bool, detail: bool) -> None:
    """Check a proof from FILE (or standard input).

    Exit status: 0 accepted, 1 rejected (a parse error included), 2 bad input.
    """
    text = read_text(file)
    world = world_or_exit(world_spec)
    verdict = check_proof(text, world)
    if as_json:
        shared.echo_json(verdict.as_dict(detail))
    else:
        click.echo(verdict.summary(detail))
    sys.exit(EXIT_OK if verdict.accepted else EXIT_REJECTED)


def _theorem_options(command):
    """--world and the theorem `prove` and `certify` work on: a bank task's
    (--task, --bank) or one stated with --premises and --goal."""
    for option in reversed(
        (
            shared.world_option("alienlogic"),
            click.option("--task", "task_id", metavar="ID", help="A task of the world's bank."),
            click.option(
                "--premises", metavar="FORMULAS", help="Comma-separated premises (with --goal)."
            ),
            click.option("--goal", metavar="FORMULA", help="The goal (instead of --task)."),
            click.option(
                "--bank",
                "bank_file",
                type=click.Path(dir_okay=False),
                help="Task bank file (default: the world's shipped bank).",
            ),
        )
    ):
        command = option(command)
    return command


@cli.command()
@_theorem_options
@click.option(
    "--check",
    "check_file",
    type=click.Path(dir_okay=False),
    help="Re-check a stored certificate instead of searching.",
)
@click.option(
    "--all",
    "all_tasks",
    is_flag=True,
    help="Every unprovable task of the bank (with --check-stored: re-check the stored ones).",
)
@click.option(
    "--check-stored",
    is_flag=True,
    help="With --all: re-check the bank's stored certificates instead of searching.",
)
@click.option(
    "--out",
    "out_file",
    type=click.Path(dir_okay=False),
    help="Write the certificate found to this file.",
)
@click.option(
    "--write",
    is_flag=True,
    help="With --task/--all: store the certificate at the path the bank names.",
)
@click.option(
    "--seconds",
    type=Seconds(LONGEST),
    default=30.0,
    show_default=True,
    help="Wall-clock seconds for the certificate search per theorem, checked inside each "
    f"candidate algebra too (above 0, at most {LONGEST:g}).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option(
    "--verbose",
    "-v",
    is_flag=True,
    help="When no certificate is found: list what each candidate algebra broke.",
)
def certify(
    world_spec,
    task_id,
    premises,
    goal,
    bank_file,
    check_file,
    all_tasks,
    check_stored,
    out_file,
    write,
    seconds,
    as_json,
    verbose,
) -> None:
    """Certify that a theorem has no proof in a world, or re-check a certificate.

    The search proposes finite algebras — matrices of truth values, refined
    by classes of formulas where the world's side conditions need it — each
    with a countermodel, and keeps the first that the independent re-checker
    accepts: every rule the world allows keeps lines true, at every box depth,
    so no proof of any size exists. `--check FILE` re-checks a certificate
    from the file and the world file alone and lists every problem. Exit
    status: 0 certified (or the certificate holds), 1 not certified (or it
    does not hold), 2 bad input (a malformed certificate among them).
    When none is found, one line says why (out of time, or no candidate
    algebra works, with the rules that broke most of them) and the next
    line what to try; `--verbose` adds what each candidate broke.
    """
    from alienlogic.certify import check_certificate, dump_certificate, find_certificate

    w = world_or_exit(world_spec)
    if check_file:
        try:
            with open(check_file, encoding="utf-8") as handle:
                text = handle.read(2_000_000)
        except (OSError, UnicodeDecodeError) as exc:
            fail(f"cannot read the certificate {check_file}: {exc.__class__.__name__}")
        theorem = _theorem(w, bank_file, task_id, premises, goal) if (task_id or goal) else None
        result = check_certificate(text, w, theorem)
        out = {
            "certificate": check_file,
            "status": result.status,
            "kind": result.kind,
            "holds": result.ok,
            "problems": result.problems,
            "seconds": round(result.seconds, 4),
        }
        if as_json:
            shared.echo_json(out)
        else:
            verdict = {"holds": "holds", "fails": "does not hold", "malformed": "is malformed"}[
                result.status
            ]
            click.echo(f"{check_file}: the certificate {verdict} ({result.seconds:.3f} s)")
            for p in result.problems:
                click.echo(f"  problem: {p}")
        sys.exit({"holds": EXIT_OK, "fails": EXIT_REJECTED}.get(result.status, EXIT_BAD_INPUT))
    if all_tasks:
        _certify_all(w, bank_file, check_stored, write, seconds, as_json, verbose)
        return
    theorem = _theorem(w, bank_file, task_id, premises, goal)
    found = find_certificate(w, theorem, task_id, seconds)
    if found.data is not None:
        text = dump_certificate(found.data)
        if write:
            if not task_id:
                fail("--write needs --task (the bank names where the certificate lives)")
            bank = bank_or_exit("alienlogic", w, bank_file, required=True)
            path = _logic_tasks_or_exit(bank)[task_id].certificate
            if path is None:
                fail(f"task {task_id} names no certificate file")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        if out_file:
            with open(out_file, "w", encoding="utf-8") as handle:
                handle.write(text)
    if as_json:
        shared.echo_json(
            {
                "certified": found.found,
                "seconds": round(found.seconds, 4),
                "tried": found.tried,
                "reason": found.summary or None,
                "certificate": found.data,
            }
        )
    elif found.data is None:
        from alienlogic.advice import Invocation, certify_failure

        call = Invocation(world_spec, task_id, premises, goal)
        reason, step = certify_failure(found, call, seconds, LONGEST)
        click.echo(f"{reason} ({found.seconds:.2f} s)")
        click.echo(f"next step: {step}")
        if verbose:
            for t in found.tried:
                click.echo(f"  tried {t}")
    else:
        click.echo(f"certified: {found.data['kind']} certificate found in {found.seconds:.3f} s")
        if not (out_file or write):
            click.echo(text, nl=False)
    sys.exit(EXIT_OK if found.found else EXIT_REJECTED)


def _certify_all(
    w: World,
    bank_file,
    check_stored: bool,
    write: bool,
    seconds: float,
    as_json: bool,
    verbose: bool = False,
) -> None:
    import time

    from alienlogic.certify import check_certificate, dump_certificate, find_certificate

    bank = bank_or_exit("alienlogic", w, bank_file, required=True)
    tasks = [t for t in _logic_tasks_or_exit(bank).values() if not t.provable]
    rows, total, ok = [], 0.0, True
    start = time.perf_counter()
    for t in tasks:
        if check_stored:
            try:
                data = t.certificate.read_text(encoding="utf-8")
            except (OSError, ValueError, AttributeError) as exc:
                rows.append(
                    {
                        "task": t.id,
                        "kind": None,
                        "holds": False,
                        "seconds": 0.0,
                        "problems": [f"cannot read the certificate: {exc}"],
                    }
                )
                ok = False
                continue
            r = check_certificate(data, w, t.theorem)
            rows.append(
                {
                    "task": t.id,
                    "kind": r.kind,
                    "holds": r.ok,
                    "seconds": round(r.seconds, 4),
                    "problems": r.problems,
                }
            )
            ok &= r.ok
        else:
            f = find_certificate(w, t.theorem, t.id, seconds)
            rows.append(
                {
                    "task": t.id,
                    "kind": f.data["kind"] if f.data else None,
                    "holds": f.found,
                    "seconds": round(f.seconds, 4),
                    # the reason, then (with --verbose) what each candidate broke
                    "problems": [] if f.found else [f.summary, *(f.tried if verbose else ())],
                }
            )
            ok &= f.found
            if f.data is not None and write and t.certificate is not None:
                t.certificate.parent.mkdir(parents=True, exist_ok=True)
                t.certificate.write_text(dump_certificate(f.data), encoding="utf-8")
    total = time.perf_counter() - start
    if as_json:
        shared.echo_json(
            {
                "world": w.name,
                "mode": "check" if check_stored else "search",
                "tasks": rows,
                "all_hold": ok,
                "seconds": round(total, 3),
            }
        )
    else:
        verb = "re-checked" if check_stored else "found"
        for r in rows:
            click.echo(
                f"  {r['task']:<5} {r['kind'] or '-':<9} {'ok' if r['holds'] else 'FAIL':<5} "
                f"{r['seconds']:.3f} s"
            )
            for p in r["problems"]:
                click.echo(f"        {p}")
        kinds = Counter(r["kind"] for r in rows if r["holds"])
        click.echo(
            f"{sum(r['holds'] for r in rows)}/{len(rows)} certificates {verb} in {total:.2f} s "
            f"({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))})"
        )
    sys.exit(EXIT_OK if ok else EXIT_REJECTED)


@cli.command("prove")
@_theorem_options
@click.option(
    "--all",
    "all_tasks",
    is_flag=True,
    help="Every provable task of the bank: report which are proved and how fast.",
)
@click.option(
    "--seconds",
    type=Seconds(LONGEST),
    default=20.0,
    show_default=True,
    help="CPU time limit per theorem, covering the search, the write-out and the final check "
    f"(above 0, at most {LONGEST:g}).",
)
@click.option(
    "--budget",
    type=click.IntRange(1, 64),
    default=14,
    show_default=True,
    help="Largest proof-tree height the direct search tries.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print {"found", "proof", "seconds", "reason", "stage", "lines"}.',
)
@click.option(
    "--verbose",
    "-v",
    is_flag=True,
    help="When no proof is found: what each stage of the search reported.",
)
@click.option(
    "--route-guarded",
    is_flag=True,
    help="Also route around steps a side condition refuses (always done for disabled rules).",
)
def prove_command(
    world_spec,
    task_id,
    premises,
    goal,
    bank_file,
    all_tasks,
    seconds,
    budget,
    as_json,
    verbose,
    route_guarded,
) -> None:
    """Find a proof under the world's rules and print it in the proof format.

    First a direct backward search over sequents in the world's patched
    rules (memoised, iterative deepening; citation orders, fresh copies and
    helper lemmas where patches call for them); then, in worlds that keep
    the classical rules, a complete refutation (every classical
    propositional tautology is proved; first order by Herbrand levels).
    The proof is written out and checked by the world's checker before it
    is printed. In the standard world "not a classical consequence" is
    said only with a countermodel that an independent evaluator has
    confirmed (printed with it); otherwise "could not decide".
    When no proof is found, one line says why and the next what to try (a
    flag to raise, or `certify` on the same theorem); `--verbose` adds what
    each stage reported. Exit status: 0 found, 1 not found within the
    limits, 2 bad input.
    """
    import time

    from alienlogic.prover import prove

    w = world_or_exit(world_spec)
    if all_tasks:
        bank = bank_or_exit("alienlogic", w, bank_file, required=True)
        tasks = [t for t in _logic_tasks_or_exit(bank).values() if t.provable]
        start = time.process_time()
        rows = []
        for t in tasks:
            r = prove(w, t.theorem, budget, seconds, route_guarded=route_guarded)
            rows.append(
                {
                    "task": t.id,
                    "found": r.found,
                    "seconds": round(r.seconds, 4),
                    "lines": len(r.proof.steps) if r.proof else None,
                    "stage": r.stage or None,
                    "reason": r.reason,
                }
            )
        total = time.process_time() - start
        found = sum(r["found"] for r in rows)
        if as_json:
            shared.echo_json(
                {"world": w.name, "tasks": rows, "found": found, "seconds": round(total, 3)}
            )
        else:
            for r in rows:
                click.echo(
                    f"  {r['task']:<5} {'found' if r['found'] else 'NOT FOUND':<9} "
                    f"{r['seconds']:.3f} s"
                    + (f"  {r['lines']} lines" if r["found"] else f"  {r['reason']}")
                )
            click.echo(f"{found}/{len(rows)} proved in {total:.2f} s CPU")
        sys.exit(EXIT_OK if found == len(rows) else EXIT_REJECTED)
    theorem = _theorem(w, bank_file, task_id, premises, goal)
    result = prove(w, theorem, budget, seconds, route_guarded=route_guarded)
    if as_json:
        shared.echo_json(
            {
                "found": result.found,
                "proof": str(result.proof) if result.proof else None,
                "seconds": round(result.seconds, 4),
                "reason": result.reason,
                "stage": result.stage or None,
                "lines": len(result.proof.steps) if result.proof else None,
            }
        )
    elif result.proof is not None:
        click.echo(str(result.proof), nl=False)
    else:
        from alienlogic.advice import Invocation, prove_failure

        call = Invocation(world_spec, task_id, premises, goal)
        reason, step = prove_failure(result, call, budget, seconds, LONGEST)
        click.echo(reason)
        click.echo(f"next step: {step}")
        if verbose:
            for line in result.details:
                click.echo(f"  {line}")
    sys.exit(EXIT_OK if result.found else EXIT_REJECTED)


def main(argv: list[str] | None = None) -> None:
    """The console script: `cli` without tracebacks, streams guarded (see entry.py)."""
    run_cli(cli, "alienlogic", argv, internal=EXIT_INTERNAL)


if __name__ == "__main__":
    main()
