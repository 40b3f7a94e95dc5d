"""Verdict events from recorded replies: one definition, used by the driver
as the replies arrive and by `regrade` afterwards (an Inspect scorer grades
an episode's recorded replies this way).

A milestone reply's key names what it answers: `M<t>/rules` (the rule
report) or `M<t>/<task>/<pass>` (a held-out task); `<t>` is a number or
`4+O` (the open-book milestone).
"""

from __future__ import annotations

from .environment import Environment


def milestone_label(name: str) -> object:
    """The label of milestone `name` ("M2" -> 2, "M4+O" -> "4+O")."""
    label = name.removeprefix("M")
    return int(label) if label.isdigit() else label


def answer_event(env: Environment, name: str, task_id: str, k: int, content: str) -> dict:
    """The verdict on one answer to a held-out task."""
    grade = env.grade(task_id, content)
    return {
        "type": "answer",
        "key": f"answer/{name}/{task_id}/{k}",
        "milestone": milestone_label(name),
        "task": task_id,
        "pass": k,
        "answer": grade.answer,
        "passed": grade.passed,
        "detail": "ok" if grade.passed else grade.reason,
    }


def rule_report_event(env: Environment, name: str, content: str) -> dict:
    """The rule report as read from a reply, and which rules it states correctly."""
    report = env.parse_rule_report(content)
    correct = env.score_rule_report(report)
    return {
        "type": "rule_report",
        "key": f"rules/{name}",
        "milestone": milestone_label(name),
        "report": report,
        "correct": correct,
        "score": sum(correct.values()),
        "of": len(correct),
    }


def regrade(events: list[dict], env: Environment) -> list[dict]:
    """The events with every verdict recomputed from the recorded replies:
    old answer and rule-report events are dropped, each milestone reply is
    followed by its new verdict."""
    out = []
    for event in events:
        if event.get("type") in ("answer", "rule_report"):
            continue
        out.append(event)
        if event.get("type") != "reply" or not event["key"].startswith("reply/M"):
            continue
        name, _, rest = event["key"].removeprefix("reply/").partition("/")
        content = (event.get("message") or {}).get("content") or ""
        if rest == "rules":
            out.append(rule_report_event(env, name, content))
        else:
            task_id, _, k = rest.rpartition("/")
            out.append(answer_event(env, name, task_id, int(k), content))
    return out
