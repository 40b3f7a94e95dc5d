"""Building the language-neutral `"exploration"` section of report.json
from an engine's findings (its keys: episode.exploration). It lives with the
engines, which build it, so that the episode, which computes and renders the
section, is the only side that names the other.
"""

from __future__ import annotations


def assemble(
    engine: dict,
    probes: list[dict],
    coverage: list[dict],
    true_mass: dict,
    errors: dict,
    **extra: object,
) -> dict:
    """A section from an engine's findings (extra keys are kept)."""
    ran = [p for p in probes if p.get("status", "ran") == "ran" and p.get("redundant") is not None]
    rate = round(sum(1 for p in ran if p["redundant"]) / len(ran), 4) if ran else None
    return {
        "engine": engine,
        "probes": probes,
        "redundant_rate": rate,
        "coverage": coverage,
        "true_mass": true_mass,
        "errors": errors,
        **extra,
    }
