"""tasks/aliencode_verdict_memo.py: verdicts kept across graders while a job
asks, found again only under what a verdict depends on."""

from __future__ import annotations

from dataclasses import replace

from alienworlds.tasks.aliencode_audit import sites_used
from alienworlds.tasks.aliencode_grading import AlienCodeGrader
from alienworlds.tasks.aliencode_verdict_memo import VERDICTS, VerdictMemo, verdict_key, world_seen
from alienworlds.tasks.bank import Bank, load_bank
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
    base = verdict_key(b"task", b"world", Limits(), b"answer")
    assert verdict_key(b"task", b"world", Limits(), b"answer") == base
    assert verdict_key(b"task2", b"world", Limits(), b"answer") != base
    assert verdict_key(b"task", b"world2", Limits(), b"answer") != base
    assert verdict_key(b"task", b"world", Limits(max_steps=10), b"answer") != base
    assert verdict_key(b"task", b"world", Limits(), b"answer2") != base
    # parts are length-prefixed: moving a byte from one part to the next changes the key
    assert verdict_key(b"taskX", b"world", Limits(), b"answer") != verdict_key(
        b"task", b"Xworld", Limits(), b"answer"
    )


def test_the_world_seen_is_its_keywords_and_its_rules_at_the_sites_reached():
    sites = {r.target for r in WORLD.rules[:3]}
    base = world_seen(WORLD, sites)
    unreached = next(r for r in WORLD.rules if r.target not in sites)
    assert world_seen(WORLD.without(unreached.id), sites) == base
    renumbered = replace(
        WORLD, rules=tuple(replace(r, id=f"X{k}", name=f"n{k}") for k, r in enumerate(WORLD.rules))
    )
    assert world_seen(renumbered, sites) == base  # ids and names change nothing a run meets
    reached = WORLD.rules[0]
    assert world_seen(WORLD.without(reached.id), sites) != base
    rescoped = replace(WORLD, rules=(replace(reached, scope="loop"), *WORLD.rules[1:]))
    assert world_seen(rescoped, sites) != base
    assert world_seen(replace(WORLD, keywords={"EMIT": "SHOUT"}), sites) != base
    assert world_seen(WORLD, sites | {unreached.target}) != base


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


def sites_of(task, answer: str) -> set[str]:
    sources = (task.reference, task.naive, task.program, task.example, answer, *task.variants)
    return sites_used(*sources, *task.calls, keywords=WORLD.keywords)


UNREACHED = [
    (task.id, answer, rule.id)
    for task in BANK.tasks
    if task.kind == "synthesis"
    for answer in (task.reference, task.naive)
    for rule in WORLD.rules
    if rule.target not in sites_of(task, answer)
]


def test_a_grader_finds_the_verdict_of_a_world_changed_only_where_no_run_reaches():
    task_id, answer, rule_id = next(c for c in UNREACHED if c[1] == BANK.task(c[0]).naive)
    task = BANK.task(task_id)
    reached = next(r for r in WORLD.rules if r.target in sites_of(task, answer))
    with VERDICTS.kept():
        verdict = AlienCodeGrader(WORLD, BANK).passes(task_id, answer)
        kept = len(VERDICTS)
        assert AlienCodeGrader(WORLD.without(rule_id), BANK).passes(task_id, answer) == verdict
        assert len(VERDICTS) == kept  # found, not graded again
        AlienCodeGrader(WORLD.without(reached.id), BANK).passes(task_id, answer)
        assert len(VERDICTS) == kept + 1  # graded: a rule its runs reach is gone


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(UNREACHED))
def test_a_rule_at_a_site_no_program_reaches_never_changes_a_grade(case):
    """What the memo's key leaves out: graded afresh, without the memo, the
    answer's grade is the same with and without a rule at a site that
    neither it nor the task's programs reach."""
    task_id, answer, rule_id = case
    whole = AlienCodeGrader(WORLD, BANK).grade_answer(task_id, answer)
    without = AlienCodeGrader(WORLD.without(rule_id), BANK).grade_answer(task_id, answer)
    assert (whole.passed, whole.reason, whole.calls) == (
        without.passed,
        without.reason,
        without.calls,
    )
