"""The `alienworlds` command line: the browser study (docs/serve.md).

alienworlds create --data DIR --world demo --participants 5
alienworlds serve --data DIR [--host 127.0.0.1] [--port 8000]
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from alienworlds.cli.entry import run as run_cli
from alienworlds.cli.shared import EXIT_BAD_INPUT, EXIT_INTERNAL
from alienworlds.episode.languages import LANGUAGES
from alienworlds.episode.protocol import CONDITIONS, PASSES
from alienworlds.ruleset.inputs import InputError, read_input

SEED_LIMIT = 2**53 - 1  # a seed any JSON reader keeps exact
# hindsight replays another trace's probes: not a condition a person is recruited for
STUDY_CONDITIONS = tuple(c for c in CONDITIONS if c != "hindsight")


def fail(message: str) -> None:
    click.echo(f"alienworlds: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Human baselines in the browser: create a study (a world, a condition,
    a number of participants; one private link each) and serve it.
    Participants play the same episode an agent plays; their traces and
    reports sit in the data directory beside the agents' format."""


@main.command()
@click.option(
    "--data",
    "data",
    required=True,
    metavar="DIR",
    help="The study server's data directory (made if missing).",
)
@click.option(
    "--language",
    type=click.Choice(list(LANGUAGES)),
    default="aliencode",
    show_default=True,
    help="The world's language.",
)
@click.option(
    "--world",
    "world",
    default="main",
    show_default=True,
    metavar="W",
    help="A shipped world's name or a path to a world TOML file.",
)
@click.option("--bank", metavar="PATH", help="The task bank (default: the world's own bank).")
@click.option(
    "--condition",
    type=click.Choice(STUDY_CONDITIONS),
    default="autonomous",
    show_default=True,
    help="The protocol's condition (docs/episodes.md).",
)
@click.option(
    "--participants",
    type=click.IntRange(1, 1000),
    required=True,
    metavar="N",
    help="How many participants (one private link each, 1-1000).",
)
@click.option(
    "--passes",
    type=click.IntRange(1, 100),
    default=PASSES,
    show_default=True,
    help="Answers per task and milestone, as for agents; a person answers once "
    "and further passes repeat that answer.",
)
@click.option(
    "--seed",
    type=click.IntRange(-SEED_LIMIT, SEED_LIMIT),
    default=0,
    show_default=True,
    help="The episode seed (drives the fixed-probe condition).",
)
@click.option(
    "--study",
    "study_id",
    metavar="ID",
    help="The study's identifier (lower-case letters, digits, '-'); default: random.",
)
@click.option(
    "--consent",
    "consent_file",
    metavar="FILE",
    help="A text file ('-': standard input) shown to each participant before the "
    "episode; it starts only once they press 'I agree' (recorded as consent.json "
    "beside their trace).",
)
@click.option(
    "--base-url",
    default="http://127.0.0.1:8000",
    show_default=True,
    metavar="URL",
    help="Where participants reach the server; the links start with it.",
)
def create(
    data: str,
    language: str,
    world: str,
    bank: str | None,
    condition: str,
    participants: int,
    passes: int,
    seed: int,
    study_id: str | None,
    consent_file: str | None,
    base_url: str,
) -> None:
    """Create a study and print its links: the researcher's page, then one
    private link per participant. Keep them: the data directory holds only
    their digests, so a lost link cannot be shown again."""
    from alienworlds.episode.environment_loader import MissingBank, make_environment
    from alienworlds.ruleset.world import WorldError
    from alienworlds.serve.store import Store, StoreError
    from alienworlds.tasks.bank import BankError

    if Path(world).is_file():
        world = str(Path(world).resolve())
    if bank is not None:
        if not Path(bank).is_file():
            fail(f"--bank {bank}: no such file")
        bank = str(Path(bank).resolve())
    consent = None
    if consent_file is not None:
        try:
            consent = read_input(consent_file, "consent").strip()
        except InputError as exc:
            fail(f"--consent: {exc}")
    try:
        make_environment(language, world, bank)
    except (WorldError, BankError) as exc:
        problems = getattr(exc, "problems", None) or [exc]
        fail("; ".join(str(p) for p in problems))
    except (MissingBank, ValueError, OSError) as exc:
        fail(str(exc))
    try:
        store = Store(data, create=True)
        study, researcher, links = store.create(
            language, world, bank, condition, passes, seed, participants, study_id, consent
        )
    except (StoreError, OSError) as exc:
        fail(str(exc))
    base = base_url.rstrip("/")
    click.echo(f"study {study.id}: {language} world {world}, condition {condition}")
    click.echo(f"researcher\t{base}/r/{researcher}")
    for participant, token in links:
        click.echo(f"{study.id}-{participant}\t{base}/p/{token}")


@main.command()
@click.option("--data", "data", required=True, metavar="DIR", help="The data directory.")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--rate",
    type=click.FloatRange(0.1, 10_000),
    default=20.0,
    show_default=True,
    help="Requests per second each client address may make, on average.",
)
@click.option(
    "--burst",
    type=click.IntRange(1, 100_000),
    default=60,
    show_default=True,
    help="Requests a client address may make at once before --rate applies.",
)
@click.option(
    "--action-rate",
    type=click.FloatRange(0.1, 1000),
    default=4.0,
    show_default=True,
    help="Actions (probes, answers) per second each session may take, on average "
    "(five times as many at once).",
)
@click.option(
    "--max-body",
    type=click.IntRange(1024, 16 * 2**20),
    default=64 * 1024,
    show_default=True,
    help="The largest request body in bytes.",
)
def serve(
    data: str, host: str, port: int, rate: float, burst: int, action_rate: float, max_body: int
) -> None:
    """Serve the studies in DIR. Every session a previous server left open
    continues where its trace ends. Stop with Ctrl-C: nothing is lost."""
    import uvicorn
    from alienworlds.serve.app import ServerLimits, application
    from alienworlds.serve.limits import Rate
    from alienworlds.serve.store import StoreError

    limits = ServerLimits(
        body_bytes=max_body,
        client_rate=Rate(rate, burst),
        action_rate=Rate(action_rate, max(1, round(5 * action_rate))),
    )
    try:
        app = application(data, limits)
    except StoreError as exc:
        fail(str(exc))
    click.echo(f"alienworlds: serving {Path(data).resolve()} at http://{host}:{port}", err=True)
    # no access log: every request path carries a private token
    uvicorn.run(app, host=host, port=port, access_log=False, log_level="warning", lifespan="on")


def entry(argv: list[str] | None = None) -> None:
    """The console script: `main` without tracebacks (see entry.py)."""
    run_cli(main, "alienworlds", argv, internal=EXIT_INTERNAL)


if __name__ == "__main__":
    entry()
