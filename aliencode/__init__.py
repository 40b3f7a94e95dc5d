"""AlienCode: parse, compile under a world, and run with limits.

from aliencode import run_source
result = run_source('EMIT(SHATTER(2, 3))')
result.output  # '5'
"""

from __future__ import annotations

import time

from alienworlds.ruleset import Limits, World, standard_world

from .compiler import Program, compile_program, cycle_collection_paused
from .errors import AlienError, AlienSyntaxError
from .parser import normalized, parse
from .runtime import RunResult, Session, execute

__version__ = "0.1.0"


def compile_source(
    source: str,
    world: World | None = None,
    limits: Limits | None = None,
    deadline: float | None = None,
) -> Program:
    """Parse and compile within the limits; raises AlienSyntaxError. The
    wall-clock backstop runs until `deadline` (a time.monotonic() value;
    default: the limits' wall clock from now)."""
    world = world or standard_world("aliencode")
    limits = limits or Limits()
    if deadline is None:
        deadline = time.monotonic() + limits.wall_seconds
    with cycle_collection_paused():
        tree = parse(source, world.keywords, limits, deadline)
    return compile_program(tree, world, limits, deadline, text=normalized(source))


def run_source(source: str, world: World | None = None, limits: Limits | None = None) -> RunResult:
    """Run a program; every failure is in the result, never raised. One
    wall-clock backstop covers parsing, compiling and running."""
    world = world or standard_world("aliencode")
    limits = limits or Limits()
    deadline = time.monotonic() + limits.wall_seconds
    try:
        program = compile_source(source, world, limits, deadline)
    except AlienSyntaxError as exc:
        return RunResult("", exc, 0, 0)
    with Session(limits) as session:
        return session.execute(program, deadline)


__all__ = [
    "AlienError",
    "AlienSyntaxError",
    "Limits",
    "Program",
    "RunResult",
    "Session",
    "World",
    "compile_program",
    "compile_source",
    "execute",
    "parse",
    "run_source",
]
