"""Lists made before a loop and passed nowhere: never the list it walks."""

from __future__ import annotations

import pytest
from alienworlds.porting.fresh import fresh_at_loops

from aliencode import parse
from aliencode import syntax as s


def fresh_at_last_loop(source: str, *others: str) -> frozenset[str]:
    programs = [parse(source), *(parse(o) for o in others)]
    found = fresh_at_loops(programs)
    loops, stack = [], list(programs[0].body)
    while stack:
        node = stack.pop(0)
        if isinstance(node, s.Sweep):
            loops.append(node)
        stack.extend(s.children(node))
    return found[id(loops[-1])]


FLATTEN = (
    "CRAFT flatten(m):\n    SET out AS STRAND()\n    SWEEP row IN m:\n        SWEEP x IN row:\n"
    "            ANNEX(out, x)\n    DELIVER STRAND(out)\n"
)


def test_a_list_stored_only_after_the_loop_is_fresh_in_it():
    assert "out" in fresh_at_last_loop(FLATTEN)


@pytest.mark.parametrize(
    "between",
    [
        "SET ys AS out",  # another name for it
        "ANNEX(m, out)",  # stored in a list the loop may walk
        "SET m2 AS STRAND(m, out)",
        "g(out)",  # passed to a function
        "SET ys AS BOND(YES, out)",  # given back by an operation
        "SET ys AS APEX(out, m)",
        "SET out AS PLUCK(m, 0)",  # bound to an element
        "SET out, ys AS m",
    ],
)
def test_a_list_that_escaped_before_the_loop_is_not_fresh(between):
    source = FLATTEN.replace("    SWEEP row IN m:", f"    {between}\n    SWEEP row IN m:")
    assert "out" not in fresh_at_last_loop(source)


def test_an_escape_later_in_an_enclosing_loop_comes_before_the_next_walk():
    source = (
        "SET out AS STRAND()\nWHILE YES:\n    SWEEP x IN PLUCK(m, -1):\n        ANNEX(out, x)\n"
        "    ANNEX(m, out)\n"
    )
    assert "out" not in fresh_at_last_loop(source)


def test_walking_the_list_itself_is_not_fresh():
    assert "out" not in fresh_at_last_loop("SET out AS STRAND(1)\nSWEEP x IN out:\n    EMIT(x)\n")


def test_a_name_another_craft_or_program_mentions_is_not_fresh():
    top = "SET out AS STRAND()\nSWEEP x IN m:\n    ANNEX(out, x)\n"
    assert "out" in fresh_at_last_loop(top)
    assert "out" not in fresh_at_last_loop(top + "CRAFT g():\n    DELIVER out\n")
    assert "out" not in fresh_at_last_loop(top, "EMIT(out)")


def test_a_name_fresh_only_in_one_branch_is_not_fresh_after_it():
    source = "UPON c:\n    SET out AS STRAND()\nSWEEP x IN m:\n    ANNEX(out, x)\n"
    assert "out" not in fresh_at_last_loop(source)


def test_reading_and_changing_a_list_in_place_keeps_it_fresh():
    source = (
        "SET out AS STRAND()\nEMIT(GAUGE(out), PLUCK(out, 0), ORDER(out))\nIMPRINT(out, 0, 1)\n"
        "SWEEP x IN m:\n    ANNEX(out, x)\n    EXPEL(out)\n"
    )
    assert "out" in fresh_at_last_loop(source)
