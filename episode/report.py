"""Reports over trajectories: report.md, summary.json (Best@n, Mean@n,
worst, per-band and per-family accuracy, the bank's floor and
chance-corrected scores), the M0-M4 curves (curves.png, curves.svg), the
index page and each trajectory's HTML replay.

Trajectories are aggregated per system and setting (see `aggregate`):
Best@n is never taken across agents, worlds or conditions.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from . import efficiency, exploration, glossary, leaderboard
from .aggregate import agent_label, aggregate, partition
from .driver import REPORT_NAME, write_json
from .html_page import num
from .index_page import INDEX_NAME, href, index_html
from .leaderboard import md_cell
from .metrics import compute_report
from .plots import PNG_NAME, SVG_NAME, render
from .replay_html import is_fresh, write_replay
from .trace import TRACE_NAME, read_trace

MARKDOWN_NAME = "report.md"
SUMMARY_NAME = "summary.json"
TERMS = (
    "M0…M4",
    "floor",
    "cc",
    "Best@n",
    "Mean@n",
    "σ",
    "gain",
    "rules",
    "cov / uncov",
    "prov / unprov",
    "C",
    "P",
    "T",
    "Tm",
    "Ttot",
)


def _natural(path: Path) -> list[object]:
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", path.name)]


def trajectory_dirs(paths: list[str | Path]) -> list[Path]:
    """Each path is a trajectory (it holds a trace or a report.json), or a
    folder holding trajectories at any depth (OUT/t1, OUT/AGENT/tN, a
    sweep's tree), taken in natural order."""
    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_file() and path.name == TRACE_NAME:
            path = path.parent
        found = _trajectories_under(path)
        if not found:
            raise FileNotFoundError(
                f"{path}: no trajectory here (no {TRACE_NAME} in it or below it)"
            )
        out.extend(found)
    return out


def _trajectories_under(path: Path) -> list[Path]:
    if (path / TRACE_NAME).exists() or (path / REPORT_NAME).exists():
        return [path]
    if not path.is_dir():
        return []
    subs = sorted((p for p in path.iterdir() if p.is_dir() and not p.is_symlink()), key=_natural)
    return [t for sub in subs for t in _trajectories_under(sub)]


def load_report(directory: Path, with_exploration: bool = True) -> dict:
    """A trajectory's report, recomputed from its trace when there is one
    (with its exploration section, kept beside the trace between runs)."""
    trace = directory / TRACE_NAME
    if trace.exists():
        events = read_trace(trace)
        report = compute_report(events)
        section = (
            exploration.compute(events, directory)
            if with_exploration
            else exploration.current(events, directory)
        )
        if section is not None:
            report["exploration"] = section
        write_json(directory / REPORT_NAME, report)
        return report
    return json.loads((directory / REPORT_NAME).read_text(encoding="utf-8"))


def _headline(summary: dict) -> str:
    n = summary["n"]
    return (
        f"**Best@{n} = {num(summary['best_at_n'])}** (chance-corrected "
        f"{num(summary.get('best_at_n_chance_corrected'))}; "
        f"trajectory {md_cell(str(summary['best_trajectory']))}) · Mean@{n} = "
        f"{num(summary['mean_at_n'])} "
        f"(chance-corrected {num(summary.get('mean_at_n_chance_corrected'))}) · worst = "
        f"{num(summary['worst'])} · "
        f"range = {num(summary['range'])}"
    )


def _row(cells: list[object]) -> str:
    return "| " + " | ".join(md_cell(str(c)) for c in cells) + " |"


def markdown(
    reports: list[dict],
    summary: dict,
    boards: list[leaderboard.Board] | None = None,
    plot: str | None = PNG_NAME,
    rank_by: str = "best",
) -> str:
    """report.md: the headline per system, the systems table, one row per
    trajectory, chance-corrected curves, σ and tokens per milestone,
    accuracy by band and family, and what the abbreviations mean."""
    first = reports[0]
    same_agent = "agents" not in summary
    one_setting = len({json.dumps(s, sort_keys=True) for s, _, _ in partition(reports)}) == 1
    logic = any(r.get("unprovable_recognition") is not None for r in reports)
    labels = [f"M{m['t']}" for m in max((r["milestones"] for r in reports), key=len)]
    if one_setting:
        lines = [
            f"# Episode report: {md_cell(first['language'])} world `{md_cell(first['world'])}`",
            "",
            f"World hash `{first['world_hash']}` · manual `{first['manual_hash']}` · condition "
            f"**{md_cell(first['condition'])}** · "
            + (
                f"agent {md_cell(json.dumps(first['agent'], sort_keys=True))} · "
                if same_agent
                else "agents differ (see the tables) · "
            )
            + f"{first['tasks']} tasks × {first['passes']} answers",
            "",
            "Floor (the best trivial strategy's accuracy on this bank): "
            f"**{num(summary.get('floor'))}**. "
            "Chance-corrected score = 100 × (score − floor) / (100 − floor).",
            "",
        ]
    else:
        lines = [
            "# Episode report",
            "",
            "These trajectories come from several settings (worlds, banks, conditions); "
            "each system is aggregated within its own setting, with that setting's floor.",
            "",
        ]
    if same_agent:
        lines += [_headline(summary), ""]
    else:
        lines += [
            "Each system is aggregated over its own trajectories only; systems are never pooled.",
            "",
        ]
        lines += [
            f"* {md_cell(name)}: " + _headline(agg) for name, agg in summary["agents"].items()
        ]
        lines.append("")
    columns: list[str] = []  # every table's headings: each gets its term
    if boards and not same_agent:
        lines += ["## Systems", "", leaderboard.markdown_tables(boards, rank_by)]
        columns += [h for head in leaderboard.heads(boards) for h in head]
    if plot:
        lines += [f"![accuracy by milestone]({plot})", ""]
    extra = ["prov", "unprov"] if logic else ["rules", "cov", "uncov"]
    head = [
        "trajectory",
        *labels,
        "gain",
        "largest step",
        "reversal",
        *extra,
        "C",
        "P",
        "T",
        "Tm",
        "Ttot",
    ]
    columns += [*head, *labels]
    lines += ["## Trajectories", "", _row(head), "|" + "---|" * len(head)]
    for name, r in zip(summary["trajectories"], reports):
        ms = r["milestones"]
        end = ms[-1] if ms else {}
        rules = (
            f"{end.get('rule_report_score')}/{end.get('rule_report_of')}"
            if end.get("rule_report_score") is not None
            else "–"
        )
        budget = end.get("budget") or {}
        star = " *" if same_agent and name == summary["best_trajectory"] else ""
        split = (
            [num(r.get("provable_accuracy")), num(r.get("unprovable_recognition"))]
            if logic
            else [rules, num(r["covered_accuracy"]), num(r["uncovered_accuracy"])]
        )
        shown = (
            name
            if same_agent or name == agent_label(r["agent"])
            else f"{name} ({agent_label(r['agent'])})"
        )
        lines.append(
            _row(
                [
                    shown + star,
                    *[num(m["accuracy"]) for m in ms],
                    *["–"] * (len(labels) - len(ms)),
                    num(r["gain"]),
                    num(r["largest_step_share"], 2),
                    num(r["reversal"]),
                    *split,
                    num(budget.get("calls")),
                    num(budget.get("units")),
                    num(budget.get("tokens")),
                    num(r.get("milestone_tokens")),
                    num(r.get("total_tokens")),
                ]
            )
        )
    if same_agent:
        lines += ["", "\\* the best trajectory r*, whose curve, rules and budget go with Best@n."]
    lines += [
        "",
        "Chance-corrected accuracy per milestone:",
        "",
        _row(["trajectory", *labels]),
        "|" + "---|" * (len(labels) + 1),
    ]
    for name, r in zip(summary["trajectories"], reports):
        cc = [num(m.get("chance_corrected")) for m in r["milestones"]]
        lines.append(_row([name, *cc, *["–"] * (len(labels) - len(cc))]))
    lines += ["", "σ (answering noise) and milestone tokens per milestone:", ""]
    for name, r in zip(summary["trajectories"], reports):
        lines.append(
            f"* {md_cell(name)}: "
            + ", ".join(
                f"M{m['t']} σ {num(m['sigma'], 2)}, {num(m.get('milestone_tokens'))} tokens"
                for m in r["milestones"]
            )
        )
    for split, title in (("bands", "band"), ("families", "family")):
        groups = {"": summary} if same_agent else summary["agents"]
        for agent, agg in groups.items():
            lines += [
                "",
                f"## Accuracy by {title} (endpoint){f' · {md_cell(agent)}' if agent else ''}",
                "",
                f"| {title} | best trajectory | mean |",
                "|---|---|---|",
            ]
            columns += [title, "best trajectory", "mean"]
            for key, row in agg[split].items():
                lines.append(_row([key, num(row["best"]), num(row["mean"])]))
    efficient = [
        (n, r["efficiency"])
        for n, r in zip(summary["trajectories"], reports, strict=True)
        if r.get("efficiency")
    ]
    if efficient:
        lines += [
            "",
            "## Efficiency",
            "",
            "Probes (tool calls counted in the whole episode) against the reference: "
            "the median of the people who played the world, else of the explorer agent "
            "(docs/episodes.md). "
            "eff = min(1, (reference / probes)²); eff×M = eff × the endpoint accuracy.",
            "",
            _row(["trajectory", "probes", "reference", "eff", "eff×M"]),
            "|---|---|---|---|---|",
        ]
        columns += ["trajectory", "probes", "reference", "eff", "eff×M"]
        for n, e in efficient:
            lines.append(
                _row(
                    [
                        n,
                        e["probes"],
                        efficiency.Reference.of(e).describe(),
                        num(e["efficiency"], 2),
                        num(e["weighted"]),
                    ]
                )
            )
    explored = [
        (n, r["exploration"])
        for n, r in zip(summary["trajectories"], reports)
        if r.get("exploration")
    ]
    if explored:
        lines += [
            "",
            "## Exploration",
            "",
            "Measured by the language's hypothesis engine from each trace: the information each "
            "probe gave "
            "(bits), the share of redundant probes, the rules reached by probes, the surviving "
            "mass on the true "
            "rules, and exploration and exploitation errors (docs/explore-aliencode.md).",
            "",
        ]
        for n, section in explored:
            lines.append(f"* {md_cell(n)}: " + exploration.markdown(section))
    books = [
        (n, r["open_book"]) for n, r in zip(summary["trajectories"], reports) if r.get("open_book")
    ]
    if books:
        lines += ["", "## Open book after M4 (A4+O)", ""]
        lines += [
            f"* {md_cell(n)}: {num(ob['accuracy'])} (chance-corrected "
            f"{num(ob.get('chance_corrected'))})"
            for n, ob in books
        ]
    shown = glossary.for_columns(*columns)
    lines += ["", "## Terms", "", glossary.markdown(*TERMS, *(t for t in shown if t not in TERMS))]
    return "\n".join(lines) + "\n"


def write_summary(
    out: Path,
    dirs: list[Path],
    names: list[str] | None = None,
    pages: bool = True,
    rank_by: str = "best",
    with_exploration: bool = True,
) -> tuple[dict, list[leaderboard.Board]]:
    """report.md, summary.json, curves.png and curves.svg for the
    trajectories in `dirs`; with `pages`, also OUT/index.html and each
    trajectory's replay.html (written when missing, when its trace changed
    since, or when an older version made it; it links back to this index). Returns the
    summary and the leaderboard's boards."""
    out.mkdir(parents=True, exist_ok=True)
    reports = [load_report(d, with_exploration) for d in dirs]
    efficiency.attach(reports)  # against the reference among the trajectories reported together
    for d, report in zip(dirs, reports, strict=True):
        if (d / TRACE_NAME).exists():
            write_json(d / REPORT_NAME, report)
    names = names or trajectory_names(dirs)
    summary = aggregate(reports, names)
    boards = leaderboard.build(list(zip(names, reports)), rank_by)
    png, svg = render(leaderboard.panels(boards))
    (out / PNG_NAME).write_bytes(png)
    (out / SVG_NAME).write_bytes(svg)
    (out / MARKDOWN_NAME).write_text(
        markdown(reports, summary, boards, rank_by=rank_by), encoding="utf-8"
    )
    write_json(out / SUMMARY_NAME, summary)
    if pages:
        index = out / INDEX_NAME
        for d in dirs:
            if (d / TRACE_NAME).exists() and not is_fresh(d):
                write_replay(d, href(index, d))
        files = [MARKDOWN_NAME, SUMMARY_NAME, PNG_NAME, SVG_NAME]
        index.write_text(
            index_html(out, list(zip(names, dirs, reports)), boards, svg, files, rank_by),
            encoding="utf-8",
        )
    return summary, boards


def trajectory_names(dirs: list[Path]) -> list[str]:
    """Each trajectory's folder name, or its path below the folders' common
    parent when names repeat (oracle/t1, fixed/t1)."""
    names = [d.name or str(d) for d in dirs]
    if len(set(names)) == len(names):
        return names
    resolved = [d.resolve() for d in dirs]
    root = Path(os.path.commonpath(resolved)) if len(dirs) > 1 else resolved[0].parent
    return [r.relative_to(root).as_posix() or str(d) for r, d in zip(resolved, dirs)]
