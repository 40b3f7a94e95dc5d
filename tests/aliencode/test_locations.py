"""fill_locations gives generated code the starts ast.fix_missing_locations
gives it (the positions errors are reported at), and compiled programs
report errors where they did when every node had its end too."""

from __future__ import annotations

import ast

from alienworlds.ruleset.host_locations import fill_locations
from alienworlds.tasks.bank import load_bank, own_bank_path
from fuzzing import examples
from hypothesis import given, settings
from test_native import MAIN, STANDARD, programs

from aliencode import Limits, parse
from aliencode.compiler import Compiler
from aliencode.world_schema import load


def starts(tree: ast.AST) -> list[tuple[str, int | None, int | None]]:
    return [
        (type(n).__name__, getattr(n, "lineno", None), getattr(n, "col_offset", None))
        for n in ast.walk(tree)
    ]


def both(source: str, world) -> tuple[list, list]:
    tree = parse(source, world.keywords)
    ours = Compiler(world, Limits()).module(tree)
    theirs = Compiler(world, Limits()).module(tree)
    fill_locations(ours)
    ast.fix_missing_locations(theirs)
    return starts(ours), starts(theirs)


def test_the_main_banks_programs_get_the_same_positions():
    world = load("main")
    bank = load_bank("aliencode", world.name, own_bank_path("aliencode", world))
    sources = [s for t in bank.tasks for s in (t.reference, t.naive, t.program) if s]
    assert len(sources) > 100
    for source in sources:
        ours, theirs = both(source, world)
        assert ours == theirs


@settings(max_examples=examples(100), deadline=None)
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
    assert (inner.lineno, inner.col_offset) == (3, 4)
    assert inner.end_lineno is None  # left to the host's compiler


def test_without_ends_a_code_object_starts_its_instructions_where_it_did():
    """The host's compiler ends a node without an end where it starts; the
    starts of the instructions, which the runtime reports errors at, are
    those a tree with every end filled gives."""
    world = load("main")
    bank = load_bank("aliencode", world.name, own_bank_path("aliencode", world))
    for task in bank.tasks[:20]:
        tree = parse(task.reference, world.keywords)
        ours = Compiler(world, Limits(), shared_crafts=False).module(tree)
        theirs = Compiler(world, Limits(), shared_crafts=False).module(tree)
        fill_locations(ours)
        for node in ast.walk(theirs):
            if "lineno" in node._attributes and hasattr(node, "lineno"):
                node.end_lineno, node.end_col_offset = node.lineno, node.col_offset + 1
        ast.fix_missing_locations(theirs)
        assert _starts_of(compile(ours, "x", "exec")) == _starts_of(compile(theirs, "x", "exec"))


def _starts_of(code) -> list:
    found = [(line, column) for line, _, column, _ in code.co_positions()]
    for const in code.co_consts:
        if hasattr(const, "co_positions"):
            found += _starts_of(const)
    return found
