"""The `"exploration"` section of report.json, for any language.

Each language's hypothesis engine scores a trace (its registry entry's
`exploration`, episode/languages.py, imported when used); this module
assembles its findings into one section, caches it beside the trace, and
renders it in report.md and the HTML replay:

    "exploration": {
      "engine": {"name", "version", "bounds": {...}},
      "probes": [{"round", "call", "before", "after", "bits", "redundant",
                  "targets", ...}],
      "redundant_rate": float | null,
      "coverage": [{"round", "covered", "of"}],
      "true_mass": {"M0": float, ...},
      "errors": {"exploration": int, "exploitation": int, ...},
      ...
    }

`before` and `after` are the engine's hypothesis mass before and after the
probe, `bits` = log2(before / after); `redundant` says whether every surviving
hypothesis predicted what the probe showed (`redundant_rate`: the share of
redundant probes among those that ran); `targets` names the rules the probe
reached; `coverage` counts, after each round, the rules reached so far;
`true_mass` is the surviving mass on the true rules at each milestone (the
only measure that uses the world). Each engine documents its own measures
(docs/explore-aliencode.md for AlienCode); an engine may add keys.

A language's engine is its registry entry's `exploration` (episode/languages.py):
a function `(events, world) -> dict | None`, with a `fingerprint(events)` beside
it in the same module (`explore.section.assemble` builds a section). API: `compute(events,
directory, world)` returns a trace's section (cached in DIR/exploration.json);
`current(events, directory)` the cached one if up to date; `markdown(section)`
(a paragraph), `summary_html(section)` and `probe_html(section, round, call)`
render it.
"""

from __future__ import annotations

import json
from importlib import import_module
from pathlib import Path

from .html_page import esc, num, table
from .languages import LANGUAGES

FILE = "exploration.json"
FORMAT = 1


def _engine(language: str):
    entry = LANGUAGES.get(language)
    if entry is None:
        return None, None
    module = import_module(entry.exploration.module)
    return getattr(module, entry.exploration.attribute), getattr(module, "fingerprint", None)


def _key(events: list[dict]) -> str | None:
    language = events[0].get("language") if events else None
    score, fingerprint = _engine(language)
    if score is None:
        return None
    return f"{LANGUAGES[language].exploration.text}:{fingerprint(events) if fingerprint else ''}"


def _read(directory: str | Path | None) -> dict:
    if directory is None:
        return {}
    try:
        found = json.loads((Path(directory) / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) and found.get("format") == FORMAT else {}


def compute(
    events: list[dict], directory: str | Path | None = None, world: object = None
) -> dict | None:
    """A trace's section (None when its language has no engine). With a
    directory, the section is kept in DIR/exploration.json and reused while
    what it depends on (the trace's fingerprint) is unchanged; one computed
    with the world (true_mass) is not replaced by one computed without."""
    key = _key(events)
    if key is None:
        return None
    kept = _read(directory)
    if kept.get("key") == key and (world is None or kept.get("with_world")):
        return kept["section"]
    score, _ = _engine(events[0].get("language"))
    section = score(events, world)
    if directory is not None and section is not None:
        record = {
            "format": FORMAT,
            "key": key,
            "with_world": bool(section.get("true_mass")),
            "section": section,
        }
        (Path(directory) / FILE).write_text(
            json.dumps(record, ensure_ascii=False), encoding="utf-8"
        )
    return section


def current(events: list[dict], directory: str | Path) -> dict | None:
    """The section kept beside a trace if it is up to date (never computed here)."""
    kept = _read(directory)
    key = _key(events)
    return kept.get("section") if key is not None and kept.get("key") == key else None


# -- rendering ----------------------------------------------------------------------------


def _totals(section: dict) -> dict[str, object]:
    probes = section.get("probes") or []
    errors = section.get("errors") or {}
    return {
        "probes": len(probes),
        "bits": round(sum(p.get("bits") or 0.0 for p in probes), 2),
        "redundant": section.get("redundant_rate"),
        "exploration errors": errors.get("exploration"),
        "exploitation errors": errors.get("exploitation"),
    }


def markdown(section: dict | None) -> str:
    """One report.md paragraph for one trajectory's section."""
    if not section:
        return ""
    totals = _totals(section)
    engine = section.get("engine") or {}
    parts = [
        f"engine `{engine.get('name')}` {engine.get('version')}: {totals['probes']} probes, "
        f"{num(totals['bits'], 2)} bits in all, redundant-probe rate "
        f"{num(totals['redundant'], 2)}, "
        f"exploration errors {num(totals['exploration errors'])}, exploitation errors "
        f"{num(totals['exploitation errors'])}."
    ]
    coverage = section.get("coverage") or []
    if coverage:
        parts.append(
            "Rules reached by probes after each round: "
            + ", ".join(f"R{c['round']} {c['covered']}/{c['of']}" for c in coverage)
            + "."
        )
    mass = section.get("true_mass") or {}
    if mass:
        parts.append(
            "Surviving mass on the true rules: "
            + ", ".join(f"{k} {num(v, 3)}" for k, v in mass.items())
            + "."
        )
    return " ".join(parts)


def summary_html(section: dict | None) -> str:
    if not section:
        return ""
    totals = _totals(section)
    mass = section.get("true_mass") or {}
    coverage = section.get("coverage") or []
    head = [
        "probes run",
        "bits in all",
        "redundant rate",
        "exploration errors",
        "exploitation errors",
        *(f"reached after R{c['round']}" for c in coverage),
        *(f"true mass {k}" for k in mass),
    ]
    cells = [
        totals["probes"],
        num(totals["bits"], 2),
        num(totals["redundant"], 2),
        num(totals["exploration errors"]),
        num(totals["exploitation errors"]),
        *(f"{c['covered']}/{c['of']}" for c in coverage),
        *(num(v, 3) for v in mass.values()),
    ]
    engine = section.get("engine") or {}
    return (
        f"<h3>Exploration</h3><p class='muted'>engine {esc(engine.get('name'))} "
        f"{esc(engine.get('version'))}; bits: "
        "information a probe gave (log2 of the hypothesis mass before over after); redundant: "
        "every surviving "
        "hypothesis predicted its result; true mass: the surviving mass on the world's rules.</p>"
        + table(head, [[f"<td class='num'>{esc(c)}</td>" for c in cells]], "exploration")
    )


def probe_html(section: dict | None, round_no: object, call: object) -> str:
    """One probe's measures, for the replay (empty when unknown)."""
    if not section:
        return ""
    for p in section.get("probes") or ():
        if str(p.get("round")) == str(round_no) and str(p.get("call")) == str(call):
            redundant = (
                "redundant"
                if p.get("redundant")
                else "informative"
                if (p.get("bits") or 0) > 0
                else "no gain"
            )
            targets = ", ".join(p.get("targets") or []) or "none"
            return (
                f"<div class='muted exploration'>{esc(num(p.get('bits'), 2))} bits · "
                f"{esc(redundant)} · "
                f"{esc(p.get('eliminated', '–'))} hypotheses eliminated · rules reached: "
                f"{esc(targets)} · "
                f"{esc(p.get('explained', ''))}</div>"
            )
    return ""
