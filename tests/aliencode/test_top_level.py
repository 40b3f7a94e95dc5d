"""Host forms chosen for speed change nothing a run reports (compiler.py):
the top level runs as a function whose names are global (`_as_function`),
and WHILE loops as `while True:` with the test first (`_while`). Generated
programs run the same with them and with the plain forms: output, error and
its position, steps, probe units and the memory census's peak."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aliencode import Limits, Session, compile_program, compile_source, parse
from aliencode import compiler as compiler_module
from aliencode.compiler import TOP, Compiler
from aliencode.world_schema import load

sys.path.insert(0, str(Path(__file__).parent))
from test_properties import PROPERTY, programs  # noqa: E402

STANDARD = load("standard")
MAIN = load("main")
# Small limits: runs reach the step limit, and a census (which walks the
# generated frames) comes often.
LIMITS = Limits(max_steps=20_000, max_memory=30_000)


def _plain_while(test: ast.expr, body: list[ast.stmt], pos, test_pos) -> ast.stmt:
    return compiler_module._at(ast.While(test, body, []), pos)


def outcome(source: str, world, fast: bool, monkeypatch) -> dict[str, object]:
    with monkeypatch.context() as patch:
        if not fast:
            patch.setattr(compiler_module, "_as_function", lambda body, bound: body)
            patch.setattr(compiler_module, "_while", _plain_while)
        try:
            # the plain forms compile CRAFTs in place: a shared one is
            # compiled in a function named as the top level (craft_cache.py)
            program = (
                compile_source(source, world, LIMITS)
                if fast
                else compile_program(
                    parse(source, world.keywords, LIMITS), world, LIMITS, shared_crafts=False
                )
            )
        except Exception as exc:  # noqa: BLE001 - refused programs are compared too
            return {"refused": str(exc)}
    session = Session(LIMITS)
    result = session.execute(program)
    return {**result.as_dict(), "peak": session.meter.peak}


@PROPERTY
@given(programs())
def test_the_fast_forms_run_as_the_plain_ones_did(source: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        for world in (STANDARD, MAIN):
            found = outcome(source, world, True, monkeypatch)
            assert found == outcome(source, world, False, monkeypatch), source


# Statements of a long top-level loop: sums with a constant (which bind `_t`),
# lists made and dropped (what a census counts), calls, and rare errors.
LOOP_STATEMENTS = st.sampled_from(
    [
        "SET i AS SHATTER(i, 1)",
        "SET j AS WEAVE(3, i)",
        'ANNEX(xs, FUSE("a", i))',
        "SET ys AS PARE(STRAND(i), 40)",
        "SET zs AS STRAND(ys, xs)",
        "SET v AS f(i)",
        "SET w AS PLUCK(xs, 0)",
        "SET w AS PLUCK(xs, SHATTER(i, 5))",
        "UPON OVER(i, 900):\n        SET bad AS SHATTER(xs, 1)",
        "SET n AS 0\n    WHILE UNDER(n, RESIDUE(i, 7)):\n        SET n AS SHATTER(n, 1)",
        "SET n AS 0\n    WHILE YES:\n        SET n AS SHATTER(n, 1)\n        UPON OVER(n, 3):\n"
        "            CEASE\n        BYPASS",
        "WHILE OVER(i, 2000):\n        SET i AS SHATTER(i, STRAND())",
    ]
)


@PROPERTY
@given(st.lists(LOOP_STATEMENTS, min_size=1, max_size=5), st.integers(1, 3000))
def test_a_long_top_level_loop_runs_as_with_the_plain_forms(statements, rounds) -> None:
    body = "\n".join("    " + line for line in statements)
    source = (
        "CRAFT f(a):\n    DELIVER STRAND(a, SHATTER(a, 1))\n"
        f"SET i AS 0\nSET xs AS STRAND()\nSWEEP k IN EXTENT({rounds}):\n{body}\nEMIT(i, GAUGE(xs))"
    )
    with pytest.MonkeyPatch.context() as monkeypatch:
        found = outcome(source, STANDARD, True, monkeypatch)
        assert found == outcome(source, STANDARD, False, monkeypatch), source


def test_the_top_level_is_one_function_declaring_what_it_binds() -> None:
    source = "SET x AS 1\nSWEEP k IN EXTENT(3):\n    SET y AS k\nCRAFT f(a):\n    DELIVER a"
    module = Compiler(STANDARD, Limits()).module(parse(source))
    top, call = module.body
    assert isinstance(top, ast.FunctionDef) and top.name == TOP
    assert isinstance(call.value, ast.Call) and call.value.func.id == TOP
    assert top.body[0].names == ["_t", "a_f", "a_k", "a_x", "a_y"]


def test_a_session_keeps_the_top_levels_names_across_runs() -> None:
    session = Session(Limits())
    first = compile_source("SET x AS 41\nCRAFT f(a):\n    DELIVER SHATTER(a, x)", STANDARD)
    assert session.execute(first).error is None
    result = session.execute(compile_source("EMIT(f(1), x)", STANDARD))
    assert result.output == "42 41"


def test_a_while_loop_jumps_back_with_an_instruction_that_warms_the_code_up() -> None:
    import dis

    program = compile_source("SET i AS 0\nWHILE UNDER(i, 3):\n    SET i AS SHATTER(i, 1)", STANDARD)
    top = next(c for c in program.code.co_consts if getattr(c, "co_name", None) == TOP)
    jumps = {i.opname for i in dis.get_instructions(top) if "BACKWARD" in i.opname}
    assert jumps == {"JUMP_BACKWARD"}


def test_an_unset_name_at_top_level_is_reported_as_before() -> None:
    session = Session(Limits())
    result = session.execute(compile_source("SET y AS 1\nEMIT(SHATTER(y, nope))", STANDARD))
    assert result.error is not None
    assert (result.error.kind, result.error.message) == ("NameError", "name 'nope' is not defined")
    assert (result.error.line, result.error.column) == (2, 17)
