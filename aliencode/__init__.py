"""AlienCode: parse, compile under a world, and run with limits.

    from aliencode import run_source
    result = run_source('EMIT(SHATTER(2, 3))')
    result.output  # '5'
"""

from __future__ import annotations

from alienworlds.ruleset import Limits, World, standard_world

from .compiler import Program, compile_program
from .errors import AlienError, AlienSyntaxError
from .parser import parse
from .runtime import RunResult, Session, execute

__version__ = "0.1.0"


def compile_source(source: str, world: World | None = None, limits: Limits | None = None) -> Program:
    """Parse and compile; raises AlienSyntaxError."""
    world = world or standard_world("aliencode")
    return compile_program(parse(source, world.keywords), world, limits)


def run_source(source: str, world: World | None = None, limits: Limits | None = None) -> RunResult:
    """Run a program; every failure is in the result, never raised."""
    world = world or standard_world("aliencode")
    try:
        program = compile_source(source, world, limits)
    except AlienSyntaxError as exc:
        return RunResult("", exc, 0, 0)
    return execute(program)


__all__ = [
    "AlienError", "AlienSyntaxError", "Limits", "Program", "RunResult", "Session", "World",
    "compile_program", "compile_source", "execute", "parse", "run_source",
]
