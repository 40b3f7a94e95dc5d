"""The `episode` and `report` commands, registered on a language's CLI:

from alienworlds.cli.episode import register
register(main, "aliencode")     # aliencode episode / aliencode report
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click
from alienworlds.cli.param_types import Seconds
from alienworlds.cli.shared import (
    EXIT_BAD_INPUT,
    bank_option,
    condition_option,
    echo_json,
    world_option,
)
from alienworlds.cli.shared import EXIT_NO as EXIT_FAILED
from alienworlds.episode.agent_registry import AGENTS, AgentError, make_agent
from alienworlds.episode.driver import Episode, Settings
from alienworlds.episode.environment_loader import make_environment
from alienworlds.episode.interrupt import Interrupted
from alienworlds.episode.leaderboard import RANKINGS
from alienworlds.episode.progress import Progress
from alienworlds.episode.protocol import CALLS_PER_ROUND, CONDITIONS, PASSES
from alienworlds.episode.report import trajectory_dirs, write_summary
from alienworlds.episode.trace import TRACE_NAME, TraceError, read_trace
from alienworlds.ruleset.phases import Phases
from alienworlds.sweep import limits
from alienworlds.sweep.bounded_toml import shape

SCORECARD_LEGEND = "\n".join(
    (
        "M0..M4: accuracy (%) at each milestone · gain: last minus M0 · rules: stated correctly "
        "at the end / all",
        "cov, uncov: accuracy on the tasks whose rules were all / not all stated correctly",
        "prov, unprov (AlienLogic): accuracy on provable theorems, refusals of unprovable ones "
        "(unprovable recognition)",
        "cc: the row above chance-corrected against the floor",
        "C: tool calls counted · P: probe units spent · T: exploration tokens (prompt + "
        "completion)",
        "Tm: tokens spent at milestones · Ttot: all tokens · time: wall clock of the trajectory's "
        "protocol and exploration scoring (the world's loading and bank audit, and the reports, "
        "are timed on standard error)",
    )
)


def _param(values: tuple[str, ...]) -> dict[str, object]:
    out: dict[str, object] = {}
    for item in values:
        if "=" not in item:
            raise click.BadParameter(f"expected KEY=VALUE, got {item!r}", param_hint="--param")
        key, value = item.split("=", 1)
        if shape(value).depth > limits.FILE.max_depth:  # the JSON parser recurses once per level
            raise click.BadParameter(
                f"{key}: arrays and objects nest deeper than {limits.FILE.max_depth} levels",
                param_hint="--param",
            )
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


def _fmt(value: object, digits: int = 1) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def scorecard(rows: list[tuple[str, dict, float | None]]) -> str:
    """One line per trajectory (each agent on its own rows): the milestone
    curve, then the same curve chance-corrected against the bank's floor;
    gain, rules (AlienLogic: provable accuracy and unprovable recognition),
    budget and tokens (exploration T, at milestones Tm, in all)."""
    if not rows:
        return ""
    labels = [f"M{m['t']}" for m in max((r["milestones"] for _, r, _ in rows), key=len)]
    logic = any(r.get("unprovable_recognition") is not None for _, r, _ in rows)
    name_w = max(10, *(len(n) for n, _, _ in rows))
    split = f" {'prov':>6} {'unprov':>6}" if logic else f" {'rules':>7} {'cov':>6} {'uncov':>6}"
    head = (
        f"{'agent':<{name_w}} " + " ".join(f"{lab:>6}" for lab in labels) + f" {'gain':>7}{split}"
        f" {'C':>4} {'P':>5} {'T':>9} {'Tm':>9} {'Ttot':>9} {'time':>7}"
    )
    floors = {r.get("floor") for _, r, _ in rows}
    floor = floors.pop() if len(floors) == 1 else None
    out = [
        f"floor (best trivial strategy on this bank): {_fmt(floor)}%; cc = chance-corrected 100 "
        "× (M − floor) / (100 − floor)",
        head,
        "-" * len(head),
    ]
    for name, r, seconds in rows:
        ms = r["milestones"]
        end = ms[-1] if ms else {}
        budget = end.get("budget") or {}
        gain = "–" if r["gain"] is None else f"{r['gain']:+.1f}"
        pad = " " * (7 * (len(labels) - len(ms)))
        if logic:
            cols = (
                f" {_fmt(r.get('provable_accuracy')):>6} {_fmt(r.get('unprovable_recognition')):>6}"
            )
        else:
            rules = (
                f"{end.get('rule_report_score')}/{end.get('rule_report_of')}"
                if end.get("rule_report_score") is not None
                else "–"
            )
            cols = (
                f" {rules:>7} {_fmt(r['covered_accuracy']):>6} {_fmt(r['uncovered_accuracy']):>6}"
            )
        out.append(
            f"{name:<{name_w}} "
            + " ".join(f"{m['accuracy']:>6.1f}" for m in ms)
            + pad
            + f" {gain:>7}{cols} "
            f"{budget.get('calls', 0):>4} {budget.get('units', 0):>5} {budget.get('tokens', 0):>9} "
            f"{r.get('milestone_tokens', 0):>9} {r.get('total_tokens', 0):>9} "
            f"{(f'{seconds:.1f}s' if seconds is not None else '–'):>7}"
        )
        out.append(
            f"{'  cc':<{name_w}} " + " ".join(f"{_fmt(m.get('chance_corrected')):>6}" for m in ms)
        )
        if r.get("open_book"):
            ob = r["open_book"]
            out.append(
                f"{'':<{name_w}} open book after M4: {ob['accuracy']:.1f} (cc "
                f"{_fmt(ob.get('chance_corrected'))})"
            )
    return "\n".join(out)


def register(group: click.Group, language: str) -> None:
    """Add `episode` and `report` to a language's click group."""
    group.add_command(episode_command(language))
    group.add_command(report_command(language))


def episode_command(language: str) -> click.Command:
    def fail(message: str) -> None:
        _fail(f"{language}: {message}")

    @click.command("episode")
    @click.option(
        "--agent",
        "agents",
        multiple=True,
        required=True,
        metavar="NAME",
        help=f"The agent: {', '.join(AGENTS)}. Repeat (or separate with commas) to run several, "
        "each in OUT/NAME.",
    )
    @world_option(language)
    @bank_option()
    @condition_option(CONDITIONS)
    @click.option(
        "--trajectories",
        type=click.IntRange(*limits.TRAJECTORIES),
        default=1,
        show_default=True,
        metavar="N",
        help="Independent trajectories; with N > 1 each goes to OUT/t1 ... OUT/tN.",
    )
    @click.option(
        "--out",
        "out",
        type=click.Path(file_okay=False),
        default=None,
        metavar="DIR",
        help="Where the trace and reports go (default: out/episodes/<world>-<agent>-<condition>).",
    )
    @click.option(
        "--resume",
        is_flag=True,
        help="Continue the trace in DIR if there is one (a finished run is left unchanged).",
    )
    @click.option(
        "--seed",
        type=click.IntRange(*limits.SEED),
        default=None,
        help="The base seed (default 0): trajectory i gets seed + i - 1, recorded in its trace. "
        "It drives the fixed-probe "
        "sequence and the fixed agent, and the openai agent sends it as the request's seed.",
    )
    @click.option(
        "--probes-from",
        type=click.Path(exists=True),
        metavar="TRACE",
        help="hindsight: the trace (or its folder) whose probes are replayed.",
    )
    @click.option(
        "--fixed-calls",
        type=click.IntRange(min=1, max=CALLS_PER_ROUND),
        default=CALLS_PER_ROUND,
        show_default=True,
        help="fixed-probe: calls per round.",
    )
    @click.option(
        "--passes",
        type=click.IntRange(*limits.PASSES),
        default=PASSES,
        show_default=True,
        help="Answers per task and milestone.",
    )
    @click.option(
        "--from",
        "source",
        type=click.Path(exists=True),
        metavar="TRACE",
        help="replay: the recorded trace (or its folder).",
    )
    @click.option(
        "--base-url",
        help="openai: the endpoint's base URL (default $OPENAI_BASE_URL, else https://api.openai.com/v1).",
    )
    @click.option("--model", help="openai: the model name.")
    @click.option(
        "--api-key-env",
        default="OPENAI_API_KEY",
        show_default=True,
        metavar="VAR",
        help="openai: the environment variable holding the key.",
    )
    @click.option(
        "--param",
        "params",
        multiple=True,
        metavar="KEY=VALUE",
        help="openai: an extra request field (VALUE as JSON when it parses), e.g. temperature=1.",
    )
    @click.option(
        "--concurrency",
        type=click.IntRange(*limits.COUNTS["concurrency"]),
        default=4,
        show_default=True,
        help="openai: milestone requests at once.",
    )
    @click.option(
        "--timeout",
        type=Seconds(limits.SECONDS["timeout"]),
        default=600.0,
        show_default=True,
        help="openai: seconds per request.",
    )
    @click.option(
        "--max-retries",
        type=click.IntRange(*limits.COUNTS["max_retries"]),
        default=6,
        show_default=True,
        help="openai: retries on 408/409/429/5xx, timeouts and dropped connections (the SDK's "
        "backoff, Retry-After "
        "honoured), and on 200 replies without choices.",
    )
    @click.option(
        "--backoff",
        type=Seconds(limits.SECONDS["backoff"]),
        default=2.0,
        show_default=True,
        help="openai: the first delay in seconds (doubling) before asking again after a 200 "
        "reply without choices.",
    )
    @click.option(
        "--drop-field",
        "drop_fields",
        multiple=True,
        metavar="FIELD",
        help="openai: an assistant-message field not to send back.",
    )
    @click.option(
        "--json",
        "as_json",
        is_flag=True,
        help="Print the reports as JSON instead of the scorecard.",
    )
    @click.option(
        "--progress/--no-progress",
        default=True,
        show_default=True,
        help="Progress on standard error: a bar with counts and an ETA on a terminal, one line "
        "per milestone otherwise.",
    )
    @click.option(
        "--exploration/--no-exploration",
        "explore",
        default=True,
        show_default=True,
        help="Score each trace's exploration (report.json's \"exploration\" section: bits per "
        "probe, redundant "
        "probes, coverage, mass on the true rules, exploration and exploitation errors; kept in "
        "DIR/exploration.json). It costs a few seconds of CPU for the first trace of a world.",
    )
    def episode(
        agents,
        world_spec,
        bank_file,
        condition,
        trajectories,
        out,
        resume,
        seed,
        probes_from,
        fixed_calls,
        passes,
        source,
        base_url,
        model,
        api_key_env,
        params,
        concurrency,
        timeout,
        max_retries,
        backoff,
        drop_fields,
        as_json,
        progress,
        explore,
    ):
        """Run the ExplorationBench protocol: manual and worked examples,
        milestone M0, four rounds of exploration each followed by a
        milestone (rule report; every held-out task answered three times).

        Everything goes to an append-only DIR/trace.jsonl, DIR/report.json
        and (with the plot) DIR/report.md. Kill it at any point and rerun
        with --resume to continue. Exit status: 0 done, 1 the run stopped
        (an agent or trace problem), 2 bad input.
        """
        names = [n.strip() for item in agents for n in item.split(",") if n.strip()]
        for name in names:
            if name not in AGENTS:
                fail(f"unknown agent {name!r}; built in: {', '.join(AGENTS)}")
        request_params = _param(params)  # checked before any world is loaded
        recorded = None
        if "replay" in names:
            if not source:
                fail("the replay agent needs --from TRACE")
            try:
                recorded = read_trace(source)[0]
            except (OSError, TraceError, IndexError) as exc:
                fail(f"cannot read the trace to replay: {exc}")
        world_name = world_spec or (recorded["world"] if recorded else None)
        condition = condition or (recorded["condition"] if recorded else "autonomous")
        seed = seed if seed is not None else (int(recorded["seed"]) if recorded else 0)
        if not limits.SEED[0] <= seed <= limits.SEED[1] - trajectories + 1:
            fail(
                f"seeds {seed} to {seed + trajectories - 1} leave the range {limits.SEED[0]} to "
                f"{limits.SEED[1]}"
            )
        if condition == "hindsight" and not probes_from:
            fail("the hindsight condition needs --probes-from TRACE")
        from alienworlds.ruleset import WorldError
        from alienworlds.tasks.bank import BankError

        # the phases around the protocols: the first one (the bank audit) takes tens of seconds
        phases = Phases(
            (lambda line: click.echo(line, err=True)) if progress else None, f"{language}: "
        )
        try:
            with phases.phase(
                f"loading world {world_name or 'main'} and auditing its bank (once per command)"
            ):
                env = make_environment(language, world_name, bank_file)
        except (
            WorldError,
            BankError,
            ValueError,
            FileNotFoundError,
            NotImplementedError,
        ) as exc:  # no traceback
            fail(str(exc))
        base = (
            Path(out)
            if out
            else Path("out") / "episodes" / f"{env.world_name}-{'-'.join(names)}-{condition}"
        )
        options = {
            "source": source,
            "base_url": base_url,
            "model": model,
            "api_key_env": api_key_env,
            "params": request_params,
            "concurrency": concurrency,
            "timeout": timeout,
            "max_retries": max_retries,
            "backoff": backoff,
            "drop_fields": drop_fields,
        }
        rows, reports, all_dirs = [], [], []
        for name in names:
            agent_dir = base / name if len(names) > 1 else base
            dirs = (
                [agent_dir]
                if trajectories == 1
                else [agent_dir / f"t{i}" for i in range(1, trajectories + 1)]
            )
            for index, directory in enumerate(dirs, start=1):
                label = name if trajectories == 1 else f"{name}/t{index}"
                own_seed = seed + index - 1  # each trajectory its own seed
                settings = Settings(
                    condition=condition,
                    seed=own_seed,
                    probes_from=probes_from,
                    fixed_per_round=fixed_calls,
                    passes=passes,
                    exploration=explore,
                )
                try:
                    agent = make_agent(name, env, seed=own_seed, **options)
                except AgentError as exc:
                    fail(str(exc))
                bar = Progress(mode=None if progress else "off", prefix=f"{label} ")
                started = time.perf_counter()
                try:
                    report = Episode(
                        env, agent, directory, settings, resume=resume, progress=bar
                    ).run()
                except (TraceError, AgentError, ValueError) as exc:
                    click.echo(f"{language}: {label}: the run stopped: {exc}", err=True)
                    click.echo(f"{language}: continue it with --resume --out {base}", err=True)
                    sys.exit(EXIT_FAILED)
                except Interrupted as exc:
                    click.echo(
                        f"\n{language}: {label}: {exc}; every reply received is in "
                        f"{directory / TRACE_NAME}",
                        err=True,
                    )
                    click.echo(f"{language}: continue it with --resume --out {base}", err=True)
                    sys.exit(exc.exit_status)
                finally:
                    agent.close()
                rows.append((label, report, time.perf_counter() - started))
                reports.append(
                    {"agent": name, "trajectory": index, "dir": str(directory), "report": report}
                )
            with phases.phase(f"writing the reports of {name} in {agent_dir}"):
                write_summary(
                    agent_dir, dirs, pages=len(names) == 1, with_exploration=explore
                )  # several agents: one index over all, below
            all_dirs += dirs
        if len(names) > 1:  # one chart and table comparing the agents
            with phases.phase(f"writing the comparison of {', '.join(names)} in {base}"):
                write_summary(
                    base, all_dirs, [label for label, _, _ in rows], with_exploration=explore
                )
        if as_json:
            echo_json(reports)
            return
        click.echo(
            f"{language} episode · world {env.world_name} ({env.world_hash[:19]}…) · condition "
            f"{condition} · "
            f"{len(env.tasks())} tasks × {passes} answers · out {base}"
        )
        click.echo(scorecard(rows))
        click.echo(SCORECARD_LEGEND)

    return episode


def report_command(language: str) -> click.Command:
    def fail(message: str) -> None:
        _fail(f"{language}: {message}")

    @click.command("report")
    @click.argument("dirs", nargs=-1, required=True, type=click.Path(exists=True), metavar="DIR...")
    @click.option(
        "--out",
        type=click.Path(file_okay=False),
        default=None,
        metavar="OUTDIR",
        help="Where report.md, summary.json, curves.png, curves.svg and index.html go "
        "(default: the DIR when one is given, else their common folder).",
    )
    @click.option(
        "--html/--no-html",
        "pages",
        default=True,
        show_default=True,
        help="Write OUTDIR/index.html and each trajectory's DIR/replay.html (when missing or its "
        "trace changed).",
    )
    @click.option(
        "--leaderboard",
        "boards_to",
        multiple=True,
        type=click.Path(dir_okay=False),
        metavar="FILE",
        help="Also write the leaderboard to FILE, in the format its suffix names: .md, .json or "
        ".html. Repeatable.",
    )
    @click.option(
        "--rank",
        type=click.Choice(list(RANKINGS)),
        default="best",
        show_default=True,
        help="Rank systems by chance-corrected Best@n or Mean@n.",
    )
    @click.option(
        "--json",
        "as_json",
        is_flag=True,
        help="Print the aggregate (Best@n, Mean@n, ...) as JSON, with the leaderboard under "
        '"leaderboard".',
    )
    @click.option(
        "--exploration/--no-exploration",
        "explore",
        default=True,
        show_default=True,
        help="Score each trace's exploration (report.json's \"exploration\" section), reusing "
        "DIR/exploration.json "
        "while the trace is unchanged.",
    )
    def report(dirs, out, pages, boards_to, rank, as_json, explore):
        """Aggregate trajectories and print the leaderboard.

        Each DIR is a trajectory (it holds trace.jsonl) or a folder holding
        trajectories at any depth (an episode's OUT, several runs' parent).
        Trajectories are grouped into systems (agent and model
        configuration) within one setting (world, bank, condition, answers
        per task): runs on different worlds are never mixed. Per system:
        Best@n (lowest index breaks ties), Mean@n, worst, sd, σ, gain,
        rules and tokens, each score beside the bank's floor and its
        chance-corrected value. Writes report.md, summary.json, the
        milestone curves (curves.png, curves.svg) and the HTML pages.
        """
        import os

        from alienworlds.episode import leaderboard

        bad = [f for f in boards_to if Path(f).suffix not in leaderboard.SUFFIXES]
        if bad:
            fail(f"--leaderboard {bad[0]}: the file must end in {', '.join(leaderboard.SUFFIXES)}")
        try:
            found = trajectory_dirs(list(dirs))
        except (FileNotFoundError, NotADirectoryError) as exc:
            fail(str(exc))
        target = (
            Path(out)
            if out
            else (
                Path(dirs[0])
                if len(dirs) == 1
                else Path(os.path.commonpath([str(Path(d).resolve()) for d in dirs]))
            )
        )
        if target.is_file():
            target = target.parent
        try:
            summary, boards = write_summary(
                target, found, pages=pages, rank_by=rank, with_exploration=explore
            )
        except (TraceError, KeyError, ValueError, OSError) as exc:
            fail(f"cannot read a trajectory: {exc}")
        written = leaderboard.write(boards, [Path(f) for f in boards_to], rank)
        if as_json:
            echo_json({**summary, "leaderboard": leaderboard.as_json(boards, rank)})
            return
        click.echo(leaderboard.text(boards, rank))
        click.echo()
        files = ["report.md", "summary.json", "curves.png", "curves.svg"] + (
            ["index.html"] if pages else []
        )
        click.echo(
            f"wrote {', '.join(files)} in {target}"
            + ("; replays beside each trace" if pages else "")
        )
        for path in written:
            click.echo(f"wrote {path}")

    return report


def _fail(message: str) -> None:
    click.echo(message, err=True)
    sys.exit(EXIT_BAD_INPUT)
