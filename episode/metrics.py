"""Metrics of one trajectory, computed from its trace alone (docs/episodes.md,
ExplorationBench §3.3 and appendix A.6).

* M_t: accuracy in percent, the mean over tasks of the mean of the answer
  verdicts (three by default); a missing answer scores zero.
* sigma_t: the population standard deviation of the per-pass scores
  M_t^(1), M_t^(2), M_t^(3) (each the accuracy of one pass alone).
* gain G = M_4 - M_0 (the last milestone minus the first); steps
  s_t = M_t - M_{t-1}.
* largest-step share: the largest step divided by G when G > 0 (the
  largest drop divided by G when G < 0); null when G = 0.
* reversal: whether the trajectory ends at least REVERSAL_POINTS (3)
  points below an earlier milestone (ExplorationBench §4); `reversals`
  counts the rounds whose step drops by at least that much.
* rule-report score: the number of rules stated correctly (behavioural
  equivalence with the world's actual rule); covered tasks at a milestone
  are those whose every rule is stated correctly there, and accuracy is
  split into covered and uncovered tasks.
* unprovable recognition: the share of answers to unprovable tasks that
  are clean refusals (AlienLogic), reported apart from the accuracy on the
  provable tasks.
* floor: the best trivial strategy's accuracy on the bank (tasks.validity),
  recorded in the trace header; each accuracy is reported with its
  chance-corrected value 100 × (M_t − floor) / (100 − floor).
* budget: cumulative tool calls C, probe units P, exploration tokens T;
  tokens spent at each milestone and in all.
"""

from __future__ import annotations

import statistics
from collections import defaultdict

from alienworlds.tasks.validity import chance_corrected

REVERSAL_POINTS = 3.0  # a drop smaller than this is answering noise, not a reversal


def _label_value(label: str) -> object:
    return int(label) if label.isdigit() else label


def _pct(values: list[float]) -> float | None:
    return round(100.0 * sum(values) / len(values), 4) if values else None


def milestone_metrics(
    label: str,
    header: dict,
    answers: dict,
    rule_report: dict | None,
    budget: dict,
    milestone_tokens: int = 0,
) -> dict:
    tasks = header["tasks"]
    passes = int(header["protocol"]["passes"])
    per_task: dict[str, float] = {}
    per_pass: list[list[float]] = [[] for _ in range(passes)]
    for task in tasks:
        verdicts = [
            1.0 if answers.get((label, task["id"], k)) else 0.0 for k in range(1, passes + 1)
        ]
        per_task[task["id"]] = sum(verdicts) / passes
        for k, v in enumerate(verdicts):
            per_pass[k].append(v)
    pass_scores = [_pct(p) or 0.0 for p in per_pass]
    correct = set()
    if rule_report is not None:
        correct = {rid for rid, ok in rule_report["correct"].items() if ok}
    covered = [t for t in tasks if rule_report is not None and set(t["rules"]) <= correct]
    uncovered = [t for t in tasks if rule_report is not None and not set(t["rules"]) <= correct]
    unprovable = [t for t in tasks if t.get("unprovable")]
    provable = [t for t in tasks if not t.get("unprovable")] if unprovable else []
    accuracy = _pct(list(per_task.values())) or 0.0
    groups: dict[str, dict[str, list[float]]] = {
        "bands": defaultdict(list),
        "families": defaultdict(list),
    }
    for task in tasks:
        groups["bands"][task.get("band") or "-"].append(per_task[task["id"]])
        groups["families"][task.get("family") or "-"].append(per_task[task["id"]])
    return {
        "t": _label_value(label),
        "accuracy": accuracy,
        "chance_corrected": chance_corrected(accuracy, header.get("floor")),
        "sigma": round(statistics.pstdev(pass_scores), 4) if len(pass_scores) > 1 else 0.0,
        "pass_accuracy": pass_scores,
        "rule_report_score": rule_report["score"] if rule_report is not None else None,
        "rule_report_of": rule_report["of"] if rule_report is not None else None,
        "budget": {k: budget.get(k, 0) for k in ("calls", "units", "tokens", "rejected")},
        "covered_tasks": len(covered) if rule_report is not None else None,
        "covered_accuracy": _pct([per_task[t["id"]] for t in covered]),
        "uncovered_accuracy": _pct([per_task[t["id"]] for t in uncovered]),
        "unprovable_recognition": _pct([per_task[t["id"]] for t in unprovable]),
        "provable_accuracy": _pct([per_task[t["id"]] for t in provable]),
        "milestone_tokens": milestone_tokens,
        "bands": {k: _pct(v) for k, v in sorted(groups["bands"].items())},
        "families": {k: _pct(v) for k, v in sorted(groups["families"].items())},
        "task_scores": {k: round(v, 4) for k, v in per_task.items()},
    }


def dynamics(curve: list[float]) -> dict:
    """Gain, largest-step share and reversals of a milestone curve."""
    if len(curve) < 2:
        return {
            "gain": None,
            "steps": [],
            "largest_step_share": None,
            "reversal": None,
            "reversals": None,
        }
    steps = [round(b - a, 4) for a, b in zip(curve, curve[1:])]
    gain = round(curve[-1] - curve[0], 4)
    if gain > 0:
        share = round(max(steps) / gain, 4)
    elif gain < 0:
        share = round(min(steps) / gain, 4)
    else:
        share = None
    return {
        "gain": gain,
        "steps": steps,
        "largest_step_share": share,
        "reversal": max(curve[:-1]) - curve[-1] >= REVERSAL_POINTS,
        "reversals": sum(1 for s in steps if s <= -REVERSAL_POINTS),
    }


def compute_report(events: list[dict]) -> dict:
    """report.json of one trajectory from its trace events."""
    header = events[0]
    answers: dict[tuple[str, str, int], bool] = {}
    rule_reports: dict[str, dict] = {}
    budgets: dict[str, dict] = {}
    tokens: dict[str, int] = defaultdict(int)  # per milestone label
    total_tokens = 0
    finished = False
    for event in events:
        kind = event.get("type")
        if kind == "answer":
            answers[(str(event["milestone"]), event["task"], int(event["pass"]))] = bool(
                event["passed"]
            )
        elif kind == "rule_report":
            rule_reports[str(event["milestone"])] = event
        elif kind == "milestone":
            budgets[str(event["milestone"])] = event["budget"]
        elif kind == "end":
            finished = True
        elif kind == "reply":
            usage = event.get("usage") or {}
            spent = int(usage.get("prompt_tokens") or 0) + int(usage.get("completion_tokens") or 0)
            total_tokens += spent
            if event["key"].startswith("reply/M"):
                tokens[event["key"].removeprefix("reply/M").split("/", 1)[0]] += spent
    main, extra = [], {}
    for label in header["protocol"]["milestones"]:
        if label not in budgets:
            continue
        metrics = milestone_metrics(
            label, header, answers, rule_reports.get(label), budgets[label], tokens.get(label, 0)
        )
        if label.isdigit():
            main.append(metrics)
        else:
            extra[label] = metrics
    curve = [m["accuracy"] for m in main]
    end = main[-1] if main else None
    report = {
        "floor": header.get("floor"),
        "milestones": main,
        **dynamics(curve),
        "covered_accuracy": end["covered_accuracy"] if end else None,
        "uncovered_accuracy": end["uncovered_accuracy"] if end else None,
        "unprovable_recognition": end["unprovable_recognition"] if end else None,
        "provable_accuracy": end["provable_accuracy"] if end else None,
        "endpoint": end["accuracy"] if end else None,
        "endpoint_chance_corrected": end["chance_corrected"] if end else None,
        "open_book": extra.get("4+O"),
        "complete": finished,
        "language": header["language"],
        "world": header["world"],
        "world_hash": header["world_hash"],
        "manual_hash": header["manual_hash"],
        "bank_hash": header.get("bank_hash"),
        "condition": header["condition"],
        "seed": header["seed"],
        "agent": header["agent"],
        "tasks": len(header["tasks"]),
        "passes": header["protocol"]["passes"],
        "milestone_tokens": sum(tokens.values()),
        "total_tokens": total_tokens,
    }
    return report
