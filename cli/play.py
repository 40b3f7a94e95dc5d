"""The `play` command, registered on a language's CLI: a person plays one
episode in the terminal under the agent protocol (episode.human_agent,
episode.human_terminal)."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from alienworlds.cli.shared import (
    EXIT_BAD_INPUT,
    bank_option,
    condition_option,
    world_option,
)
from alienworlds.cli.shared import EXIT_NO as EXIT_FAILED
from alienworlds.episode.protocol import CONDITIONS
from alienworlds.sweep import limits

CONSENT_NAME = "consent.json"


def _consented(reader, text_file: Path, directory: Path, player_id: str) -> bool:
    """Ask for consent; when given, record it (which text, when) beside the trace."""
    import datetime
    import hashlib
    import json

    from alienworlds.episode.human_terminal import ask_consent, read_bounded

    text = read_bounded(text_file)
    if not ask_consent(sys.stdout, reader, text):
        return False
    directory.mkdir(parents=True, exist_ok=True)
    record = {
        "player": player_id,
        "consent_text_sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
        "answer": "yes",
        "at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    (directory / CONSENT_NAME).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return True


def register(group: click.Group, language: str) -> None:
    group.add_command(play_command(language))


def play_command(language: str) -> click.Command:
    def fail(message: str, status: int = EXIT_BAD_INPUT) -> None:
        click.echo(f"{language}: {message}", err=True)
        sys.exit(status)

    @click.command("play")
    @click.option(
        "--player",
        "player_id",
        required=True,
        metavar="ID",
        help="Who plays: 1-40 letters, digits, '_', '.' or '-'. Reports and leaderboards "
        "show the player as the system human:ID.",
    )
    @world_option(language)
    @bank_option()
    @condition_option(CONDITIONS)
    @click.option(
        "--probes-from",
        type=click.Path(exists=True),
        metavar="TRACE",
        help="hindsight: the trace (or its folder) whose probes are replayed.",
    )
    @click.option(
        "--seed",
        type=click.IntRange(*limits.SEED),
        default=0,
        show_default=True,
        help="The seed recorded in the trace (it drives the fixed-probe sequence).",
    )
    @click.option(
        "--out",
        type=click.Path(file_okay=False),
        default=None,
        metavar="DIR",
        help="Where the trace and reports go (default: out/play/<world>-human-<ID>-<condition>).",
    )
    @click.option(
        "--resume",
        is_flag=True,
        help="Continue the interrupted session in DIR: the conversation so far is shown again "
        "and play goes on where it stopped.",
    )
    @click.option(
        "--answers-dir",
        type=click.Path(exists=True, file_okay=False),
        metavar="DIR",
        help="Milestone answers from files: DIR/M<k>/<TASK>.txt or DIR/<TASK>.txt for a task, "
        "DIR/M<k>/rules.txt or DIR/rules.txt for the rule report. Anything missing is asked for.",
    )
    @click.option(
        "--consent",
        "consent_file",
        type=click.Path(exists=True, dir_okay=False),
        metavar="FILE",
        help="A study's consent text, shown before the session: play starts only when the "
        "person types yes, recorded in DIR/consent.json (asked once; not again on --resume).",
    )
    @click.option(
        "--exploration/--no-exploration",
        "explore",
        default=True,
        show_default=True,
        help="Score the trace's exploration at the end (report.json's \"exploration\" section).",
    )
    def play(
        player_id,
        world_spec,
        bank_file,
        condition,
        probes_from,
        seed,
        out,
        resume,
        answers_dir,
        consent_file,
        explore,
    ):
        """Play one episode yourself, under exactly the protocol an agent
        gets: the same briefing (manual and worked examples), milestone M0,
        four rounds of exploration with the same budgets and feedback caps,
        each followed by a milestone (a rule report; every held-out task).

        Type a probe, answer or report as lines ending with a line holding
        only a dot; :edit writes it in $EDITOR, :load PATH reads a file,
        :end ends a round, :help lists the commands. A task is answered once
        per milestone (the answer stands for every pass).

        Everything goes to the append-only DIR/trace.jsonl, as an agent's
        would. Stop at any point (Ctrl-C) and continue with --resume.
        Exit status: 0 done, 1 the session stopped (continue with
        --resume), 2 bad input.
        """
        from alienworlds.episode.agent import AgentError
        from alienworlds.episode.driver import Episode, Settings
        from alienworlds.episode.environment_loader import make_environment
        from alienworlds.episode.human_agent import HumanAgent, PlayerIdError, check_player_id
        from alienworlds.episode.human_terminal import LineReader, TerminalPlayer
        from alienworlds.episode.interrupt import Interrupted
        from alienworlds.episode.progress import Progress
        from alienworlds.episode.report import write_summary
        from alienworlds.episode.trace import TRACE_NAME, TraceError
        from alienworlds.ruleset import WorldError
        from alienworlds.tasks.bank import BankError

        try:
            check_player_id(player_id)
        except PlayerIdError as exc:
            fail(str(exc))
        condition = condition or "autonomous"
        if condition == "hindsight" and not probes_from:
            fail("the hindsight condition needs --probes-from TRACE")
        try:
            env = make_environment(language, world_spec, bank_file)
        except (WorldError, BankError, ValueError, FileNotFoundError) as exc:
            fail(str(exc))
        directory = (
            Path(out)
            if out
            else Path("out") / "play" / f"{env.world_name}-human-{player_id}-{condition}"
        )
        trace = directory / TRACE_NAME
        if trace.exists() and trace.stat().st_size and not resume:
            fail(f"{trace} already exists: continue it with --resume, or choose another --out")
        reader = LineReader(sys.stdin.fileno())
        if consent_file and not (directory / CONSENT_NAME).exists():
            try:
                given = _consented(reader, Path(consent_file), directory, player_id)
            except (OSError, UnicodeDecodeError, ValueError) as exc:
                fail(f"--consent: {exc}")
            if not given:
                fail("no consent was given: nothing was recorded", EXIT_FAILED)
        player = TerminalPlayer(
            sys.stdout,
            reader,
            env.tool_argument,
            Path(answers_dir) if answers_dir else None,
        )
        try:
            agent = HumanAgent.from_options(
                env, seed, {"player": player, "player_id": player_id, "trace": trace}
            )
        except TraceError as exc:
            fail(f"cannot read the trace to resume: {exc}")
        settings = Settings(
            condition=condition, seed=seed, probes_from=probes_from, exploration=explore
        )
        try:
            report = Episode(
                env, agent, directory, settings, resume=resume, progress=Progress(mode="off")
            ).run()
        except (TraceError, ValueError) as exc:
            fail(f"the session stopped: {exc}", EXIT_FAILED)
        except Interrupted as exc:
            click.echo(f"\n{language}: {exc}; every reply given is in {trace}", err=True)
            click.echo(f"{language}: continue with --resume --out {directory}", err=True)
            sys.exit(exc.exit_status)
        except AgentError as exc:  # input ended, or the session was stopped
            click.echo(f"\n{language}: the session stopped: {exc}", err=True)
            click.echo(f"{language}: continue with --resume --out {directory}", err=True)
            sys.exit(EXIT_FAILED)
        write_summary(directory, [directory], with_exploration=explore)
        curve = " ".join(f"M{m['t']} {m['accuracy']:.1f}" for m in report["milestones"])
        click.echo(f"\n{language}: done. Accuracy: {curve}. Report: {directory / 'report.md'}")

    return play
