"""The entry point every console script goes through: `aliencode` and
`alienlogic` (and `python -m alienworlds.cli.<language>`).

It runs a click group so that nothing reaches the user as a traceback:

* a usage error (an unknown option, a value out of its range) is one line
  on standard error, exit 2;
* a closed or failing standard stream (stdin closed, stdout closed, full or
  a broken pipe, stderr the same) is one line on standard error when
  standard error still works, exit 74 (see `streams`);
* any other exception is an internal error: one line, exit `internal`.
"""

from __future__ import annotations

import gc
import sys

import click

from . import streams

EXIT_USAGE = 2
EXIT_ABORTED = 1  # as click's own "Aborted!"


def _say(line: str) -> None:
    """One line on standard error, if standard error still takes it."""
    try:
        sys.stderr.write(line.replace("\n", " ").rstrip() + "\n")
        sys.stderr.flush()
    except streams.StreamError:
        pass


def _usage(prog: str, exc: click.UsageError) -> str:
    where = exc.ctx.command_path if exc.ctx is not None else prog
    message = exc.format_message().rstrip()
    hint = f" Try '{where} --help'." if exc.ctx is not None else ""
    return f"{where}: {message}{'' if message.endswith(('.', '!', '?')) else '.'}{hint}"


def _status(code: object) -> int:
    """SystemExit's code as an exit status (a message exits 1, as Python does)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    _say(str(code))
    return 1


def _invoke(group: click.Group, prog: str, argv: list[str] | None, internal: int) -> int:
    no_args_help = getattr(click.exceptions, "NoArgsIsHelpError", ())
    try:
        returned = group.main(args=argv, prog_name=prog, standalone_mode=False)
    except SystemExit as exc:
        return _status(exc.code)
    except no_args_help as exc:  # `prog` alone: the help, as click shows it
        exc.show()
        return exc.exit_code
    except click.UsageError as exc:
        _say(_usage(prog, exc))
        return EXIT_USAGE
    except click.ClickException as exc:
        _say(f"{prog}: {exc.format_message()}")
        return exc.exit_code
    except click.Abort:
        _say("Aborted!")
        return EXIT_ABORTED
    except streams.StreamError:
        return streams.EXIT_STREAM
    except Exception as exc:  # noqa: BLE001 - a bug must still end in one clear line
        _say(f"{prog}: internal error ({type(exc).__name__}); please report it")
        return internal
    return (
        returned if isinstance(returned, int) else 0
    )  # click returns Exit's code without standalone mode


# Allocations between two young collections of the host's cycle collector
# (the host's default is 700). A command compiles and runs thousands of
# programs, whose syntax trees the parser keeps: at 700, objects that live for
# one program were promoted and then traced again in every full collection,
# 18 of them in a world check (a fifth of its time); at 10,000 it takes one.
YOUNG_COLLECTION = 10_000


def tune_collector() -> None:
    gc.set_threshold(YOUNG_COLLECTION, *gc.get_threshold()[1:])


def run(group: click.Group, prog: str, argv: list[str] | None = None, internal: int = 3) -> None:
    """Run `group` as the command `prog` and exit with its status."""
    tune_collector()
    streams.install()
    status = _invoke(group, prog, argv, internal)
    try:
        streams.flush()
    except streams.StreamError:
        pass
    lost = streams.failure()
    if lost is not None:
        _say(f"{prog}: {lost}")
        status = streams.EXIT_STREAM
    # The command is over and all it built is garbage: frozen, the interpreter's
    # exit skips it instead of tracing it in several full collections (2 s of
    # silence after a bank audit).
    gc.freeze()
    sys.exit(status)
