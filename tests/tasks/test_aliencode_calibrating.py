"""The self-calibrating strategy (tasks.aliencode_calibrating): its library
recovers the manual's meaning in worlds that change it, a rewritten solution
prints what the manual says, and its answers never depend on a world's rules."""

from dataclasses import replace

import pytest
from alienworlds.ruleset import standard_world
from alienworlds.tasks.aliencode_calibrating import answers, least_tokens, library, rewritten
from alienworlds.tasks.bank import Task, load_bank, own_bank_path

from aliencode import parse, run_source
from aliencode import syntax as s
from aliencode.parser import token_count
from aliencode.world_schema import load

STANDARD = standard_world("aliencode")

# Every changed operation below is used by the library inside CRAFT bodies;
# the literal rules make any literal the task code kept show at once.
SKEWED = """format = 1
name = "skewed"
language = "aliencode"
description = "Operations swapped, offset and shifted, for the calibrating library's tests."

[[rules]]
id = "S1"
name = "RESIDUE divides the other way"
target = "RESIDUE"
actual = "(% b a)"

[[rules]]
id = "S2"
name = "WEAVE is off by three"
target = "WEAVE"
actual = "(+ (- a b) 3)"

[[rules]]
id = "S3"
name = "SHATTER multiplies"
target = "SHATTER"
actual = "(* a b)"

[[rules]]
id = "S4"
name = "PLUCK counts from one"
target = "PLUCK"
actual = "(get seq (- i 1))"

[[rules]]
id = "S5"
name = "UNDER admits equality"
target = "UNDER"
actual = "(<= a b)"

[[rules]]
id = "S6"
name = "ANNEX puts the value first"
target = "ANNEX"
actual = "(prepend seq val)"

[[rules]]
id = "S7"
name = "FUSE joins from the last value"
target = "FUSE"
actual = '(join "" (reverse args))'

[[rules]]
id = "S10"
name = "PARE adds"
target = "PARE"
actual = "(+ a b)"

[[rules]]
id = "S8"
name = "Integer literals are larger"
target = "literal.int"
actual = "(+ n 5)"
scope = "function"

[[rules]]
id = "S9"
name = "String literals are stored backwards"
target = "literal.str"
actual = "(reverse s)"
scope = "function"
"""

# Lengths are what the library's numbers come from: a GAUGE that counts one
# more still measures differences right.
GAUGED = """format = 1
name = "gauged"
language = "aliencode"

[[rules]]
id = "G1"
name = "GAUGE counts one more"
target = "GAUGE"
actual = "(+ (len seq) 1)"

[[rules]]
id = "G2"
name = "SHATTER is off by two"
target = "SHATTER"
actual = "(+ (+ a b) 2)"
"""

SUM_PROGRAM = """SET t AS 0
SET words AS STRAND()
SWEEP x IN STRAND(1, 2, 3, 10):
    UPON BOND(UNDER(x, 3), APART(RESIDUE(x, 2), 0)):
        ANNEX(words, FUSE("odd", x))
    SET t AS SHATTER(t, x)
EMIT(t, WEAVE(t, 20), PLUCK(words, -1), GAUGE(words), 2.5, YES)
"""


def world_file(tmp_path_factory, name: str, text: str):
    path = tmp_path_factory.mktemp("worlds") / f"{name}.toml"
    path.write_text(text)
    return load(str(path))


@pytest.fixture(scope="module")
def skewed(tmp_path_factory):
    return world_file(tmp_path_factory, "skewed", SKEWED)


@pytest.fixture(scope="module")
def gauged(tmp_path_factory):
    return world_file(tmp_path_factory, "gauged", GAUGED)


def test_numbers_and_lengths_survive_a_gauge_that_counts_one_more(gauged):
    source = library({"GAUGE", "ADD"}, {}, "line")
    source += "EMIT(cal_GAUGE(STRAND(1, 2)), cal_ADD(2, 3))\n"
    assert run_source(source, gauged).output == "2 5"
    answer = rewritten(SUM_PROGRAM, whole(SUM_PROGRAM), STANDARD, "line")
    assert run_source(answer, gauged).output == run_source(SUM_PROGRAM, STANDARD).output


@pytest.mark.parametrize(
    "key, call, want",
    [
        ("RESIDUE", "cal_RESIDUE(7, 3)", "1"),
        ("WEAVE", "cal_WEAVE(9, 4)", "5"),
        ("ADD", "cal_ADD(2, 3)", "5"),
        ("PLUCK", "cal_PLUCK(STRAND(5, 6, 7), 0)", "5"),
        ("UNDER", "cal_UNDER(2, 2)", "False"),
        ("FUSE_2", 'cal_FUSE_2("ab", 3)', "ab3"),
        ("OVER", "cal_OVER(3, 3)", "False"),
        ("PARE", "cal_PARE(4, -3)", "-12"),
    ],
)
def test_a_library_craft_recovers_the_manual_meaning(skewed, key, call, want):
    # the call stands at top level, where this world's literals are the manual's
    source = library({key}, {}, "line") + f"EMIT({call})\n"
    assert run_source(source, skewed).output == want
    assert run_source(source, STANDARD).output == want


def test_annex_moves_the_value_back_to_the_end(skewed):
    source = library({"ANNEX"}, {}, "line") + "SET xs AS STRAND(1, 2)\ncal_ANNEX(xs, 3)\nEMIT(xs)\n"
    assert run_source(source, skewed).output == "[1, 2, 3]"


def whole(naive: str) -> Task:
    return Task(id="T", kind="synthesis", prompt="", naive=naive)


def test_a_rewritten_solution_prints_the_manual_output(skewed):
    want = run_source(SUM_PROGRAM, STANDARD).output
    assert want == "16 -4 odd1 1 2.5 True"
    assert run_source(SUM_PROGRAM, skewed).output != want
    answer = rewritten(SUM_PROGRAM, whole(SUM_PROGRAM), STANDARD, "line")
    assert run_source(answer, STANDARD).output == want
    # and in a world that changes most of what it uses
    assert run_source(answer, skewed).output == want


def test_the_rewritten_task_code_holds_no_literal_pluck_carve_or_sweep():
    answer = rewritten(SUM_PROGRAM, whole(SUM_PROGRAM), STANDARD, "line")
    crafts = [st for st in parse(answer, {}).body if isinstance(st, s.Craft)]
    main = next(st for st in crafts if st.name == "cal_main")
    stack: list[object] = [main]
    while stack:
        node = stack.pop()
        assert not isinstance(node, (s.IntLit, s.FloatLit, s.StrLit, s.BoolLit, s.Sweep, s.OpCall))
        stack.extend(s.children(node))


def test_a_function_task_gets_crafts_and_both_ways_of_printing():
    task = Task(
        id="T",
        kind="synthesis",
        prompt="",
        example="EMIT(second(STRAND(4, 9)))",
        calls=("EMIT(second(STRAND(1, 2)))",),
        naive="CRAFT second(xs):\n    DELIVER PLUCK(xs, 1)",
        variants=("CRAFT second(xs):\n    EMIT(xs)",),
    )
    got = answers(task, STANDARD)
    assert len(got) == 3  # the naive solution prints nothing: one way of printing suffices
    assert run_source(got[0] + "EMIT(second(STRAND(1, 2)))\n", STANDARD).output == "2"
    assert answers(replace(task, kind="prediction", program="EMIT(1)"), STANDARD) == []


class Untouchable(tuple):
    """Rules that fail when anyone looks at them."""

    def __iter__(self):
        raise AssertionError("the calibrating strategy read the world's rules")

    def __len__(self):
        raise AssertionError("the calibrating strategy read the world's rules")

    def __getitem__(self, item):
        raise AssertionError("the calibrating strategy read the world's rules")


def test_answers_never_read_the_rules(skewed):
    task = whole(SUM_PROGRAM)
    task = replace(task, variants=(SUM_PROGRAM.replace("SHATTER(t, x)", "SHATTER(x, t)"),))
    blind = replace(skewed, rules=Untouchable(skewed.rules))
    assert answers(task, blind) == answers(task, skewed) == answers(task, STANDARD)


@pytest.mark.parametrize("world_name", ["main", "demo"])
def test_every_answer_holds_at_least_the_kernel_s_tokens(world_name):
    # the battery skips the strategy on a budget below least_tokens(): that must
    # only ever skip answers that are over it
    world = load(world_name)
    bank = load_bank("aliencode", world.name, own_bank_path("aliencode", world))
    counts = [token_count(answer) for task in bank.tasks for answer in answers(task, world)]
    assert counts and min(counts) >= least_tokens()


def test_the_battery_skips_the_strategy_only_below_the_kernel(monkeypatch):
    import alienworlds.tasks.aliencode_validity as validity

    world = load("demo")
    bank = load_bank("aliencode", world.name, own_bank_path("aliencode", world))
    asked: list[bool] = []  # whether a synthesis task's candidates include the strategy
    original = validity.candidates

    def spy(task, world, limits, outputs, strategies, budget):
        if task.kind == "synthesis":
            asked.append("self-calibrating" in strategies)
        return original(task, world, limits, outputs, strategies, budget)

    monkeypatch.setattr(validity, "candidates", spy)
    monkeypatch.setattr(validity, "least_tokens", lambda: 10**9)
    skipped = validity.battery(world, bank)
    assert asked and not any(asked)
    monkeypatch.setattr(validity, "least_tokens", lambda: 0)
    asked.clear()
    kept = validity.battery(world, bank)
    assert asked and all(asked)
    assert skipped.as_dict() == kept.as_dict()
