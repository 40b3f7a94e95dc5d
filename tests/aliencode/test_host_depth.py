"""The call-depth verdict does not depend on the host stack.

A program's calls nest host frames: its functions, and between two calls the
helpers of the operations and rules it goes through (a short-circuit rule's
function and the thunk it forces, STRAIN's filter and predicate). The host's
recursion limit is set above what the language's own limits allow, counted
from the caller's depth, so a program recursing to the depth limit always
meets the language's check first: its output, steps and error are the same
whether the caller's stack is shallow or deep.
"""

from __future__ import annotations

import random
import sys
import threading

import pytest
from alienworlds.ruleset import parse_world

from aliencode import Limits, compile_source, execute, run_source
from aliencode.runtime import host_frames
from aliencode.world_schema import SCHEMA, load

MAIN = load("main")
DEPTH = Limits().max_depth
# BOND and RIFT bound to short-circuit rules in every scope (as main does in
# functions): each nesting level holds a rule's function and a thunk.
LAZY = parse_world(
    'format = 1\nname = "lazy"\nlanguage = "aliencode"\n'
    '[[rules]]\nid = "B"\nname = "n"\ntarget = "BOND"\nactual = "(or a b)"\n'
    '[[rules]]\nid = "R"\nname = "n"\ntarget = "RIFT"\nactual = "(and a b)"\n'
    '[[rules]]\nid = "S"\nname = "n"\ntarget = "STRAIN"\nactual = "(filter pred (reverse seq))"\n',
    "lazy.toml",
    SCHEMA,
)


def at_caller_depth(frames: int, fn):
    """`fn()` called under `frames` more host frames."""
    return fn() if frames == 0 else at_caller_depth(frames - 1, fn)


def deep_program(rng: random.Random, calls: int) -> str:
    """A function entered `calls` times, nesting each call in a random stack
    of short-circuit operations (BOND under (or a b) continues on NO, RIFT
    under (and a b) on YES) or going through STRAIN's predicate."""
    nesting = rng.choice([0, 1, 6, rng.randint(20, 120), rng.randint(300, 480)])
    inner = "f(WEAVE(n, 1))"
    for _ in range(nesting):
        inner = rng.choice(["BOND(NO, {})", "RIFT(YES, {})"]).format(inner)
    if rng.random() < 0.3:
        return (
            "CRAFT f(n):\n    UPON OVER(n, 1):\n        DELIVER GAUGE(STRAIN(g, STRAND(n)))\n    "
            "DELIVER 1\n"
            "CRAFT g(m):\n    DELIVER "
            f"{inner.replace('n, 1', 'm, 1')}\nEMIT(f({(calls + 1) // 2}))\n"
        )  # f, g, f, ...
    return (
        f"CRAFT f(n):\n    UPON OVER(n, 0):\n        DELIVER {inner}\n    DELIVER 0\n"
        f"EMIT(f({calls - 1}))\n"
    )


@pytest.mark.parametrize("seed", range(8))
def test_the_depth_verdict_is_the_same_at_any_caller_depth(seed):
    """Generated programs recursing to just within or just past the depth
    limit, nested in up to 480 short-circuit rules per call: within the
    limit they finish; past it they stop at the language's check; both the
    same at caller depths 0 and 300."""
    rng = random.Random(seed)
    for calls in (DEPTH - rng.randint(0, 3), DEPTH + rng.randint(1, 3)):
        program = compile_source(deep_program(rng, calls), LAZY)
        shallow = at_caller_depth(0, lambda: execute(program))
        deep = at_caller_depth(300, lambda: execute(program))
        assert shallow.as_dict() == deep.as_dict()
        if calls <= DEPTH:
            assert shallow.error is None, shallow.error
        else:
            assert shallow.error.message == f"call depth of {DEPTH}"


def test_six_nested_bonds_recurse_150_deep_in_main_regression():
    """Was a bug: in main (BOND is a short-circuit rule in functions), a
    CRAFT recursing 150 deep through six nested BONDs stopped with "call
    depth of 200": the host's recursion limit (eight frames per call) was
    met first, at a step count that followed the caller's stack (3,432 at
    depth 0, 3,032 at depth 300)."""
    bonds = "BOND(NO, " * 6 + "f(WEAVE(n, 26))" + ")" * 6  # under main, 26 is 1 and 141 is 150
    source = (
        f"CRAFT f(n):\n    UPON OVER(n, 26):\n        DELIVER {bonds}\n    DELIVER 0\n"
        "EMIT(f(141))\n"
    )
    results = [
        at_caller_depth(frames, lambda: run_source(source, MAIN)).as_dict() for frames in (0, 300)
    ]
    assert results[0] == results[1]
    assert results[0]["error"] is None and results[0]["output"] == "27"


def test_the_host_limit_is_counted_from_the_caller_and_given_back():
    program = compile_source("CRAFT f(n):\n    DELIVER f(n)\nf(0)\n")
    before = sys.getrecursionlimit()
    result = at_caller_depth(300, lambda: execute(program))
    assert result.error.message == f"call depth of {DEPTH}"
    assert sys.getrecursionlimit() == before
    assert host_frames(program) > DEPTH * 32


def test_runs_on_several_threads_keep_the_limit_they_need():
    """The recursion limit is one for the process: a run ending on one
    thread must not lower it under a run still going on another."""
    rng = random.Random(99)
    program = compile_source(deep_program(rng, DEPTH), LAZY)
    alone = execute(program).as_dict()
    before = sys.getrecursionlimit()
    results: list[dict] = []

    def run(frames: int) -> None:
        results.append(at_caller_depth(frames, lambda: execute(program)).as_dict())

    threads = [threading.Thread(target=run, args=(frames,)) for frames in (0, 150, 300, 50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [alone] * len(threads)
    assert sys.getrecursionlimit() == before
