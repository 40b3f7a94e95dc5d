"""The assumption that rule entry (`TaskRules.enters`, the audit's `rules`
of a task) and the drawn banks rest on: a rule acts only at its site, so a
rule at a site that neither an answer nor the task's own programs reach
(`sites_used`) never changes the answer's grade."""

from __future__ import annotations

from alienworlds.tasks.aliencode_audit import sites_used
from alienworlds.tasks.aliencode_grading import AlienCodeGrader
from alienworlds.tasks.bank import load_bank
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aliencode.world_schema import load

WORLD = load("main")
BANK = load_bank("aliencode", "main")


def sites_of(task, answer: str) -> set[str]:
    sources = (task.reference, task.naive, task.program, task.example, answer, *task.variants)
    return sites_used(*sources, *task.calls, keywords=WORLD.keywords)


UNREACHED = [
    (task.id, answer, rule.id)
    for task in BANK.tasks
    if task.kind == "synthesis"
    for answer in (task.reference, task.naive, *task.variants)
    for reached in [sites_of(task, answer)]  # once per answer, not per rule
    for rule in WORLD.rules
    if rule.target not in reached
]


def test_every_rule_but_printing_is_unreached_by_some_task_and_answer():
    # the property below has cases for every rule but those of EMIT, which every program reaches
    assert {rule for _, _, rule in UNREACHED} == {r.id for r in WORLD.rules if r.target != "EMIT"}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(UNREACHED))
def test_a_rule_at_a_site_no_program_reaches_never_changes_a_grade(case):
    task_id, answer, rule_id = case
    whole = AlienCodeGrader(WORLD, BANK).grade_answer(task_id, answer)
    without = AlienCodeGrader(WORLD.without(rule_id), BANK).grade_answer(task_id, answer)
    assert (whole.passed, whole.reason, whole.calls) == (
        without.passed,
        without.reason,
        without.calls,
    )
