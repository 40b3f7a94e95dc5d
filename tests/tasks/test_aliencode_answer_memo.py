"""tasks/aliencode_answer_memo.py: the adaptive writers' answers kept per
process, found again only under what they depend on."""

from __future__ import annotations

from dataclasses import replace

import pytest
from alienworlds.tasks import aliencode_validity as validity
from alienworlds.tasks.aliencode_answer_memo import MEMO, AnswerMemo, memo_key
from alienworlds.tasks.aliencode_budget import Budget
from alienworlds.tasks.aliencode_grading import AlienCodeGrader
from alienworlds.tasks.bank import load_bank

from aliencode.world_schema import load

WORLD = load("main")
BANK = load_bank("aliencode", "main")
# the writers the memo keeps: every strategy from self-calibrating on
ADAPTIVE = validity.STRATEGIES[validity.STRATEGIES.index("self-calibrating") :]


def test_a_list_is_found_again_as_a_copy_and_written_once():
    memo = AnswerMemo(bound=100)
    calls = []

    def write():
        calls.append(1)
        return ["ab", "cd"]

    first = memo.answers(("k",), write)
    first.append("mutated")
    assert memo.answers(("k",), write) == ["ab", "cd"]
    assert len(calls) == 1


def test_the_bound_drops_the_least_recently_used_and_never_keeps_a_larger_list():
    memo = AnswerMemo(bound=10)
    memo.answers(("a",), lambda: ["xxxx"])
    memo.answers(("b",), lambda: ["yyyy"])
    memo.answers(("a",), lambda: ["changed"])  # a hit: "a" is now the newest
    memo.answers(("c",), lambda: ["zzzz"])  # 12 characters: "b" goes
    assert memo.answers(("a",), lambda: ["gone"]) == ["xxxx"]
    assert memo.answers(("b",), lambda: ["made again"]) == ["made again"]
    memo.answers(("huge",), lambda: ["h" * 11])
    assert memo.answers(("huge",), lambda: ["again"]) == ["again"]


def test_the_key_tells_apart_what_the_answers_depend_on():
    task = BANK.tasks[0]
    other_world = replace(WORLD, keywords={**WORLD.keywords, "EMIT": "SHOUT"})
    budget = Budget(100, 1000)
    base = memo_key(task, WORLD, budget)
    assert memo_key(replace(task, id="T99", extra={"template": "x"}), WORLD, budget) == base
    assert memo_key(replace(task, naive=task.naive + "\n"), WORLD, budget) != base
    assert memo_key(task, other_world, budget) != base
    assert memo_key(task, WORLD, Budget(101, 1000)) != base


@pytest.mark.parametrize("index", [0, 17, 41])
def test_no_writer_reads_what_the_key_leaves_out(index):
    """The key leaves out a task's id and `extra`: every adaptive writer gives
    the same answers for a task renumbered and with other extra fields,
    each written afresh."""
    task = BANK.tasks[index]
    grader = AlienCodeGrader(WORLD, BANK)
    grader.expected(task)
    budget = grader.budget(task)
    MEMO.clear()
    plain = validity.candidates(task, WORLD, grader.limits, [], ADAPTIVE, budget)
    MEMO.clear()
    renamed = replace(task, id="T98", extra={"template": "some-template", "n": 3})
    again = validity.candidates(renamed, WORLD, grader.limits, [], ADAPTIVE, budget)
    assert sum(map(len, plain.values())) > 0
    assert again == plain
    # found again, each writer's own (writers that differ here: a key without
    # the writer's name would give every writer the first one's answers)
    found = validity.candidates(task, WORLD, grader.limits, [], ADAPTIVE, budget)
    MEMO.clear()
    assert found == plain
    assert len({tuple(answers) for answers in plain.values()}) > 1


def test_writers_are_shown_the_manual_in_the_worlds_keywords_and_no_rule(monkeypatch):
    """What lets the memo find a writer's answers again in another world with
    the same keywords: the writers cannot see a world's rules at all."""
    seen = []

    def spy(task, world, *args, **kwargs):
        seen.append(world)
        return []

    for name in ("calibrated", "compact", "avoiding", "calibrating_avoidant"):
        monkeypatch.setattr(validity, name, spy)
    task = BANK.tasks[3]
    MEMO.clear()
    validity.candidates(task, WORLD, AlienCodeGrader(WORLD, BANK).limits, [], ADAPTIVE, None)
    MEMO.clear()
    assert len(seen) == len(ADAPTIVE) and WORLD.rules
    assert all(w.rules == () and w.keywords == WORLD.keywords for w in seen)
