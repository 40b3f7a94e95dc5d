"""tasks/aliencode_verdict_memo.py: verdicts kept across graders while a job
asks, found again only under what a verdict depends on."""

from __future__ import annotations

from dataclasses import replace

from alienworlds.tasks.aliencode_grading import AlienCodeGrader
from alienworlds.tasks.aliencode_verdict_memo import VERDICTS, VerdictMemo, verdict_key
from alienworlds.tasks.bank import Bank, load_bank

from aliencode import Limits
from aliencode.world_schema import load

WORLD = load("main")
BANK = load_bank("aliencode", "main")


def counted(memo: VerdictMemo, key: bytes, verdict: bool, calls: list) -> bool:
    return memo.passes(key, lambda: calls.append(key) or verdict)


def test_off_it_grades_every_time_and_keeps_nothing():
    memo, calls = VerdictMemo(), []
    counted(memo, b"k", True, calls)
    counted(memo, b"k", True, calls)
    assert len(calls) == 2 and len(memo) == 0


def test_on_it_grades_once_and_forgets_when_the_job_ends():
    memo, calls = VerdictMemo(), []
    with memo.kept():
        with memo.kept():
            assert counted(memo, b"k", False, calls) is False
        assert counted(memo, b"k", True, calls) is False  # still kept: the outer job asks
    assert len(calls) == 1 and len(memo) == 0


def test_the_bound_drops_the_least_recently_used():
    memo, calls = VerdictMemo(bound=2), []
    with memo.kept():
        counted(memo, b"a", True, calls)
        counted(memo, b"b", True, calls)
        counted(memo, b"a", True, calls)  # a hit: "a" is now the newest
        counted(memo, b"c", True, calls)  # "b" goes
        counted(memo, b"a", True, calls)
        counted(memo, b"b", True, calls)
    assert calls == [b"a", b"b", b"c", b"b"]


def test_the_key_tells_apart_what_a_verdict_depends_on():
    base = verdict_key(b"task", "sha256:w", Limits(), b"answer")
    assert verdict_key(b"task", "sha256:w", Limits(), b"answer") == base
    assert verdict_key(b"task2", "sha256:w", Limits(), b"answer") != base
    assert verdict_key(b"task", "sha256:v", Limits(), b"answer") != base
    assert verdict_key(b"task", "sha256:w", Limits(max_steps=10), b"answer") != base
    assert verdict_key(b"task", "sha256:w", Limits(), b"answer2") != base
    # parts are length-prefixed: moving a byte from one part to the next changes the key
    assert verdict_key(b"taskX", "sha256:w", Limits(), b"answer") != verdict_key(
        b"task", "Xsha256:w", Limits(), b"answer"
    )


def test_graders_share_verdicts_of_the_same_task_under_another_id_only():
    """A renumbered task (a drawn bank numbers its tasks when written) finds
    the verdict of the first grader; a task with another reference does not."""
    task = next(t for t in BANK.tasks if t.kind == "synthesis")
    renamed = replace(task, id="T98", extra={"template": "t"})
    changed = replace(task, reference=task.naive)  # the naive solution: other expected outputs
    answer = task.reference
    with VERDICTS.kept():
        first = AlienCodeGrader(WORLD, BANK)
        assert first.passes(task.id, answer)
        kept = len(VERDICTS)
        second = AlienCodeGrader(WORLD, Bank("aliencode", WORLD.name, (), (renamed,), "<t>"))
        assert second.passes("T98", answer)
        assert len(VERDICTS) == kept  # found, not graded again
        third = AlienCodeGrader(WORLD, Bank("aliencode", WORLD.name, (), (changed,), "<t>"))
        assert not third.passes(task.id, answer)
        assert len(VERDICTS) == kept + 1
