"""Probe efficiency against a reference (docs/episodes.md, "Efficiency").

* A probe is a tool call counted against the budget (the C column: calls
  that ran, calls rejected over the probe cap, calls with bad arguments;
  not the calls refused because the round's budget was spent). A
  trajectory's probes are those of its whole episode: C at its last
  numbered milestone.
* The reference for a world is the median probes of the people who played
  it (systems `human:<id>`) when there are any, else of the `explorer`
  agent: over the complete trajectories of the autonomous condition (the
  one where a system chooses its own probes) among those reported
  together, on the same language, world, world hash and bank.
* efficiency = min(1, (reference / probes)²), an RHAE-style ratio: 1 when
  a system needs no more probes than the reference, a quarter at twice as
  many. A trajectory without a probe scores 1 (it spent nothing); with a
  reference of 0 probes, any probe scores 0.
* efficiency-weighted score = efficiency × endpoint accuracy (M4, in
  percent): the accuracy a system reached, discounted for probes spent
  beyond the reference's.

Without a reference (no human and no explorer trajectory of that world) a
trajectory has no efficiency: the report says so instead of guessing.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from .human_agent import is_human

REFERENCE_AGENT = "explorer"
REFERENCE_CONDITION = "autonomous"


@dataclass(frozen=True)
class Reference:
    probes: float  # the median over the reference trajectories
    source: str  # "human" or "explorer"
    n: int  # how many trajectories the median is over

    @classmethod
    def of(cls, section: dict) -> Reference:
        """The reference an "efficiency" section (or its mean) was measured against."""
        return cls(section["reference_probes"], section["reference"], section["reference_n"])

    def describe(self) -> str:
        who = "people" if self.source == "human" else "explorer"
        return f"{who} median {self.probes:g} probes (n={self.n})"


def world_key(report: dict) -> tuple[object, ...]:
    return tuple(report.get(k) for k in ("language", "world", "world_hash", "bank_hash"))


def probes(report: dict) -> int | None:
    """The probes of a trajectory's whole episode: C at its last numbered milestone."""
    milestones = report.get("milestones") or []
    if not milestones:
        return None
    return int((milestones[-1].get("budget") or {}).get("calls") or 0)


def ratio(reference: float, spent: int) -> float:
    """min(1, (reference / spent)²); 1 for a trajectory without a probe."""
    if spent <= 0:
        return 1.0
    return min(1.0, (reference / spent) ** 2)


def _source(agent: dict) -> str | None:
    """Which reference a trajectory's agent can be part of, if any."""
    if is_human(agent):
        return "human"
    return "explorer" if agent.get("name") == REFERENCE_AGENT else None


def references(reports: list[dict]) -> dict[tuple[object, ...], Reference]:
    """Per world, the people's median probes, else the explorer's."""
    pools: dict[tuple[object, ...], dict[str, list[int]]] = {}
    for report in reports:
        spent = probes(report)
        if (
            spent is None
            or report.get("complete") is not True
            or report.get("condition") != REFERENCE_CONDITION
        ):
            continue
        source = _source(report.get("agent") or {})
        if source is not None:
            pools.setdefault(world_key(report), {}).setdefault(source, []).append(spent)
    out = {}
    for key, pool in pools.items():
        source = "human" if pool.get("human") else "explorer"
        out[key] = Reference(float(statistics.median(pool[source])), source, len(pool[source]))
    return out


def section(report: dict, reference: Reference | None) -> dict | None:
    """report.json's "efficiency" of one trajectory (None without a reference)."""
    spent = probes(report)
    if reference is None or spent is None:
        return None
    value = ratio(reference.probes, spent)
    endpoint = report.get("endpoint")
    return {
        "probes": spent,
        "reference_probes": reference.probes,
        "reference": reference.source,
        "reference_n": reference.n,
        "efficiency": round(value, 4),
        "weighted": round(value * endpoint, 4) if endpoint is not None else None,
    }


def attach(reports: list[dict]) -> None:
    """Set each report's "efficiency" against the reference its world has
    among `reports` (None where it has none)."""
    found = references(reports)
    for report in reports:
        report["efficiency"] = section(report, found.get(world_key(report)))
