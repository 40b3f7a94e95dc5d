"""Aggregates over trajectories: which trajectories belong together, and
their Best@n, Mean@n, worst, spread, answering noise and spend.

A **system** is an agent's identity as its trace header records it (name,
model, request parameters), minus its seed: each trajectory of a system
gets its own seed, and trajectories differ in nothing else. A **setting**
is what makes two scores comparable: the language, the world (name and
hash), the task bank, the condition and the answers per task. Trajectories
are pooled only within one system in one setting; Best@n is never taken
across agents, worlds or conditions.

Best@n is the highest endpoint (last numbered milestone); the lowest
trajectory index breaks a tie, and that trajectory r* supplies the curve,
rule reports and budget shown with the headline (ExplorationBench eq. 3).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable

from alienworlds.tasks.validity import chance_corrected

PER_TRAJECTORY = ("seed",)  # agent fields that vary between the trajectories of one system
SETTING_FIELDS = ("language", "world", "world_hash", "bank_hash", "condition", "passes")


def system_identity(agent: dict | None) -> dict:
    return {k: v for k, v in (agent or {}).items() if k not in PER_TRAJECTORY}


def setting(report: dict) -> dict:
    return {k: report.get(k) for k in SETTING_FIELDS}


def _key(value: dict) -> str:
    return json.dumps(value, sort_keys=True)


def agent_label(agent: dict) -> str:
    """How a report names an agent: its name, and its model when it has one."""
    name = str(agent.get("name", "?"))
    return f"{name}:{agent['model']}" if agent.get("model") else name


def setting_label(s: dict) -> str:
    return f"{s.get('world')}/{s.get('condition')}"


def system_labels(identities: list[dict]) -> list[str]:
    """Short distinct names: name[:model], with the other identity fields
    added where two systems would otherwise share a name."""
    short = [agent_label(i) for i in identities]
    out = []
    for ident, label in zip(identities, short):
        if short.count(label) > 1:
            rest = {k: v for k, v in ident.items() if k not in ("name", "model")}
            label = f"{label} {json.dumps(rest, sort_keys=True, separators=(',', ':'))}"
        out.append(label)
    return out


def partition(
    reports: list[dict], setting_of: Callable[[dict], dict] = setting
) -> list[tuple[dict, dict, list[int]]]:
    """(setting, system identity, member indices) in order of first appearance."""
    groups: dict[tuple[str, str], tuple[dict, dict, list[int]]] = {}
    for i, r in enumerate(reports):
        s, ident = setting_of(r), system_identity(r.get("agent"))
        groups.setdefault((_key(s), _key(ident)), (s, ident, []))[2].append(i)
    return list(groups.values())


def mean(values: list[float | None]) -> float | None:
    values = [v for v in values if v is not None]
    return round(sum(values) / len(values), 4) if values else None


def exploration_stats(reports: list[dict]) -> dict | None:
    """Means over the trajectories that carry an exploration section
    (episode.exploration): bits per probe that ran, the redundant-probe
    rate, the surviving mass on the true rules at the last milestone, and
    the exploration and exploitation errors; None when none carries one."""
    rows = []
    for section in (r["exploration"] for r in reports if r.get("exploration")):
        bits = [p["bits"] for p in section.get("probes") or [] if p.get("bits") is not None]
        mass = section.get("true_mass") or {}
        errors = section.get("errors") or {}
        rows.append(
            {
                "bits_per_probe": sum(bits) / len(bits) if bits else None,
                "redundant_rate": section.get("redundant_rate"),
                "true_mass": mass[max(mass, key=lambda k: int(k[1:]))] if mass else None,
                "exploration_errors": errors.get("exploration"),
                "exploitation_errors": errors.get("exploitation"),
            }
        )
    if not rows:
        return None
    return {"n": len(rows), **{key: mean([row[key] for row in rows]) for key in rows[0]}}


def efficiency_stats(reports: list[dict]) -> dict | None:
    """Means over the trajectories that have an efficiency (episode.efficiency):
    probes, efficiency and the efficiency-weighted score, with the
    reference they were measured against; None when none has one."""
    sections = [r["efficiency"] for r in reports if r.get("efficiency")]
    if not sections:
        return None
    fields = ("reference", "reference_probes", "reference_n")
    references = {tuple(s[k] for k in fields) for s in sections}
    # trajectories pooled over several worlds (a sweep's family board) have several references
    shared = references.pop() if len(references) == 1 else (None, None, None)
    return {
        "n": len(sections),
        "probes": mean([s["probes"] for s in sections]),
        "efficiency": mean([s["efficiency"] for s in sections]),
        "weighted": mean([s["weighted"] for s in sections]),
        **dict(zip(fields, shared, strict=True)),
    }


def common_floor(reports: list[dict]) -> float | None:
    floors = {r.get("floor") for r in reports}
    return floors.pop() if len(floors) == 1 else None


def aggregate(reports: list[dict], names: list[str] | None = None) -> dict:
    """The statistics of `reports` when they are one system in one setting;
    otherwise one such aggregate per (setting, system) under "agents",
    keyed by the system's label (with the setting's when several settings
    are present), and no Best@n of its own."""
    names = names or [f"t{i + 1}" for i in range(len(reports))]
    groups = partition(reports)
    if len(groups) <= 1:
        return trajectory_stats(reports, names)
    settings = {_key(s) for s, _, _ in groups}
    labels = system_labels([ident for _, ident, _ in groups])
    if len(settings) > 1:
        labels = [f"{label} @ {setting_label(s)}" for label, (s, _, _) in zip(labels, groups)]
    return {
        "n": len(reports),
        "trajectories": names,
        "endpoints": [r.get("endpoint") for r in reports],
        "floor": common_floor(reports),
        "best_index": None,
        "best_trajectory": None,
        "best_at_n": None,
        "agents": {
            label: trajectory_stats([reports[i] for i in members], [names[i] for i in members])
            for label, (_, _, members) in zip(labels, groups)
        },
    }


def trajectory_stats(reports: list[dict], names: list[str]) -> dict:
    """Best@n, Mean@n, worst, range, sd (sample standard deviation of the
    endpoints over trajectories), sigma (answering noise at the endpoint,
    mean over trajectories), mean gain and tokens, the per-band and
    per-family splits, and r*'s headline details."""
    endpoints = [r.get("endpoint") for r in reports]
    scored = [(e, i) for i, e in enumerate(endpoints) if e is not None]
    best = min(scored, key=lambda p: (-p[0], p[1]))[1] if scored else None
    floor = common_floor(reports)
    values = [e for e, _ in scored]
    ends = [r["milestones"][-1] if r.get("milestones") else {} for r in reports]
    out: dict[str, object] = {
        "n": len(reports),
        "trajectories": names,
        "endpoints": endpoints,
        "floor": floor,
        "best_index": best,
        "best_trajectory": names[best] if best is not None else None,
        "best_at_n": endpoints[best] if best is not None else None,
        "mean_at_n": mean(endpoints),
        "worst": min(values) if values else None,
        "range": (max(values) - min(values)) if values else None,
        "sd": round(statistics.stdev(values), 4) if len(values) > 1 else None,
        "sigma": mean([e.get("sigma") for e in ends]),
        "gain_mean": mean([r.get("gain") for r in reports]),
        "tokens": {
            "exploration": mean([(e.get("budget") or {}).get("tokens") for e in ends]),
            "milestone": mean([r.get("milestone_tokens") for r in reports]),
            "total": mean([r.get("total_tokens") for r in reports]),
        },
        "incomplete": sum(1 for r in reports if r.get("complete") is False),
        "exploration": exploration_stats(reports),
        "efficiency": efficiency_stats(reports),
    }
    out["best_at_n_chance_corrected"] = chance_corrected(out["best_at_n"], floor)
    out["mean_at_n_chance_corrected"] = chance_corrected(out["mean_at_n"], floor)
    for split in ("bands", "families"):
        keys = sorted({k for e in ends for k in e.get(split, {})})
        out[split] = {
            k: {
                "best": ends[best].get(split, {}).get(k) if best is not None else None,
                "mean": mean([e.get(split, {}).get(k) for e in ends]),
            }
            for k in keys
        }
    if best is not None:
        chosen = reports[best]
        out["best"] = {
            k: chosen.get(k)
            for k in (
                "gain",
                "largest_step_share",
                "reversal",
                "covered_accuracy",
                "uncovered_accuracy",
                "unprovable_recognition",
                "provable_accuracy",
            )
        }
        out["best"]["curve"] = [m["accuracy"] for m in chosen["milestones"]]
        out["best"]["chance_corrected"] = [m.get("chance_corrected") for m in chosen["milestones"]]
        out["best"]["rule_reports"] = [m.get("rule_report_score") for m in chosen["milestones"]]
        out["best"]["rule_report_of"] = ends[best].get("rule_report_of")
        out["best"]["budget"] = ends[best].get("budget")
    return out
