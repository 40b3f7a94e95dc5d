"""fill_locations gives generated code the positions ast.fix_missing_locations
gives it (the positions errors are reported at)."""

from __future__ import annotations

import ast

from alienworlds.ruleset.host_locations import fill_locations
from alienworlds.tasks.bank import load_bank, own_bank_path
from hypothesis import given, settings
from test_native import MAIN, STANDARD, programs

from aliencode import Limits, parse
from aliencode.compiler import Compiler
from aliencode.world_schema import load


def both(source: str, world) -> tuple[str, str]:
    tree = parse(source, world.keywords)
    ours = Compiler(world, Limits()).module(tree)
    theirs = Compiler(world, Limits()).module(tree)
    fill_locations(ours)
    ast.fix_missing_locations(theirs)
    return ast.dump(ours, include_attributes=True), ast.dump(theirs, include_attributes=True)


def test_the_main_banks_programs_get_the_same_positions():
    world = load("main")
    bank = load_bank("aliencode", world.name, own_bank_path("aliencode", world))
    sources = [s for t in bank.tasks for s in (t.reference, t.naive, t.program) if s]
    assert len(sources) > 100
    for source in sources:
        ours, theirs = both(source, world)
        assert ours == theirs


@settings(max_examples=100, deadline=None)
@given(programs())
def test_generated_programs_get_the_same_positions(source):
    for world in (STANDARD, MAIN):
        ours, theirs = both(source, world)
        assert ours == theirs


def test_a_position_is_taken_from_the_nearest_positioned_ancestor():
    inner = ast.Name("x", ast.Load())
    outer = ast.Expr(ast.Call(ast.Name("f", ast.Load()), [inner], []))
    outer.lineno, outer.col_offset, outer.end_lineno, outer.end_col_offset = 3, 4, 3, 9
    fill_locations(ast.Module([outer], []))
    assert (inner.lineno, inner.col_offset, inner.end_lineno, inner.end_col_offset) == (3, 4, 3, 9)
