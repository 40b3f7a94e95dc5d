"""The leaderboard: systems ranked by their chance-corrected endpoint (M4)
score, one table per setting.

A row is one system (an agent and its model configuration, see
`aggregate`) over its trajectories in one setting; a setting is one world
(name and hash), bank, condition and number of answers. Runs on different
worlds are never mixed into one row or one table: their banks and floors
differ, so their scores do not measure the same thing. A sweep calls
`build` on every episode's report and `write` for the formats it wants.

    boards = build([(name, report), ...])
    print(text(boards)); write(boards, [Path("leaderboard.md"), Path("leaderboard.html")])
"""

from __future__ import annotations

import json
import textwrap
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from html import escape as html_escape
from pathlib import Path

from . import efficiency, glossary
from .aggregate import partition, setting, system_identity, system_labels, trajectory_stats
from .html_page import esc, glossary_html, image, num, page, table
from .plots import Panel, Series, render

FORMAT = 1
RANKINGS = {"best": "best_at_n", "mean": "mean_at_n"}
SUFFIXES = (".md", ".json", ".html")
TEXT_TERMS = ("cc", "sd", "σ", "tokens")
EXPLORATION_TERMS = ("bits", "redundant", "mass", "errors")
EFFICIENCY_TERMS = ("probes", "eff", "eff×M")


@dataclass
class Row:
    rank: int | None  # None: no endpoint yet
    system: str
    agent: dict
    stats: dict  # aggregate.trajectory_stats
    curves: list[list[float]]
    failures: int = (
        0  # runs of this system in this setting that stopped with an error (not among its n)
    )


@dataclass
class Board:
    setting: dict
    floor: float | None
    tasks: int | None
    logic: bool
    rows: list[Row]
    show_failures: bool = False  # the board was built with failures (a sweep): show their column

    @property
    def explored(self) -> bool:
        """Some row's trajectories carry exploration metrics: show their columns."""
        return any(r.stats.get("exploration") for r in self.rows)

    @property
    def efficient(self) -> bool:
        """Some row has a probe efficiency (its world has a reference): show its columns."""
        return any(r.stats.get("efficiency") for r in self.rows)

    def reference(self) -> str | None:
        """The efficiency reference the board's rows are measured against."""
        found = [r.stats["efficiency"] for r in self.rows if r.stats.get("efficiency")]
        if not found:
            return None
        if (
            any(f["reference"] is None for f in found)
            or len({efficiency.Reference.of(f) for f in found}) > 1
        ):
            return "reference of each trajectory's own world (they differ within this table)"
        return efficiency.Reference.of(found[0]).describe()

    def title(self, full: bool = True) -> str:
        """What the board compares: language, world, condition (with the
        world's hash, the task count and the floor when `full`)."""
        s = self.setting
        parts = [str(s["language"])] if s.get("language") else []
        if s.get("world") is not None:
            parts.append(
                f"world {s['world']}"
                + (f" ({str(s['world_hash'])[:15]}…)" if full and s.get("world_hash") else "")
            )
        parts += [
            f"{k} {v}"
            for k, v in s.items()
            if k not in ("language", "world", "world_hash", "bank_hash", "passes")
        ]
        if full and self.tasks is not None and s.get("passes") is not None:
            parts.append(f"{self.tasks} tasks × {s['passes']} answers")
        if full:
            parts.append(
                f"floor {num(self.floor)}%"
                if self.floor is not None
                else "floor unknown (or not shared)"
            )
        return " · ".join(parts)


def _score(stats: dict, by: str) -> float | None:
    cc = stats.get(f"{RANKINGS[by]}_chance_corrected")
    return cc if cc is not None else stats.get(RANKINGS[by])


def build(
    entries: list[tuple[str, dict]],
    rank_by: str = "best",
    setting_of: Callable[[dict], dict] = setting,
    failures: list[tuple[dict, dict]] | None = None,
) -> list[Board]:
    """Boards from (trajectory name, report.json) pairs, one per setting
    (`setting_of(report)`: by default the world, bank, condition and answers
    per task; a caller may group more coarsely, e.g. a family of generated
    worlds, and then gets the floor only where the members share one), in
    order of first appearance; rows ranked by the chance-corrected Best@n
    (rank_by="best") or Mean@n ("mean"), the raw score when the floor is
    unknown; ties broken by Mean@n, then by name; rows equal on both share a
    rank. `failures` (a sweep's) lists one
    (setting, system identity) pair per run that stopped with an error: it
    is counted in its row's failures column (a system with failures only
    gets a row without a rank), never among the trajectories."""
    if rank_by not in RANKINGS:
        raise ValueError(f"rank_by must be one of {', '.join(RANKINGS)}")
    names = [name for name, _ in entries]
    reports = [report for _, report in entries]
    efficiency.attach(reports)
    by_setting: dict[str, list[tuple[dict, list[int]]]] = {}
    settings: dict[str, dict] = {}
    for s, ident, members in partition(reports, setting_of):
        key = json.dumps(s, sort_keys=True)
        settings[key] = s
        by_setting.setdefault(key, []).append((ident, members))
    failed: Counter[tuple[str, str]] = Counter()
    for s, ident in failures or ():
        key, ident = json.dumps(s, sort_keys=True), system_identity(ident)
        settings.setdefault(key, s)
        systems = by_setting.setdefault(key, [])
        if all(_ident_key(i) != _ident_key(ident) for i, _ in systems):
            systems.append((ident, []))
        failed[key, _ident_key(ident)] += 1
    boards = []
    for key, systems in by_setting.items():
        labels = system_labels([ident for ident, _ in systems])
        rows = []
        for label, (ident, members) in zip(labels, systems):
            group = [reports[i] for i in members]
            stats = trajectory_stats(group, [names[i] for i in members])
            curves = [[m["accuracy"] for m in r.get("milestones") or []] for r in group]
            rows.append(Row(0, label, ident, stats, curves, failed[key, _ident_key(ident)]))
        # ties on the ranking score are broken by Mean@n (chance-corrected
        # where known), then by name; rows equal on both share a rank
        keys = [(_score(r.stats, rank_by), _score(r.stats, "mean") or 0.0) for r in rows]
        order = sorted(
            range(len(rows)),
            key=lambda i: (keys[i][0] is None, -(keys[i][0] or 0.0), -keys[i][1], rows[i].system),
        )
        ranked = []
        for i in order:
            score, mean = keys[i]
            better = sum(
                1
                for s, m in keys
                if s is not None and score is not None and (s > score or (s == score and m > mean))
            )
            rows[i].rank = better + 1 if score is not None else None
            ranked.append(rows[i])
        members = [reports[i] for _, m in systems for i in m]
        floors = {r.get("floor") for r in members}
        boards.append(
            Board(
                settings[key],
                floors.pop() if len(floors) == 1 else None,
                members[0].get("tasks") if members else None,
                any(r.get("unprovable_recognition") is not None for r in members),
                ranked,
                failures is not None,
            )
        )
    return boards


def _ident_key(ident: dict) -> str:
    return json.dumps(ident, sort_keys=True)


def row_json(row: Row) -> dict:
    s = row.stats
    best = s.get("best") or {}
    rules = best.get("rule_reports") or []
    return {
        "rank": row.rank,
        "system": row.system,
        "agent": row.agent,
        "n": s["n"],
        "trajectories": s["trajectories"],
        "best_trajectory": s["best_trajectory"],
        "best_at_n": s["best_at_n"],
        "best_at_n_chance_corrected": s["best_at_n_chance_corrected"],
        "mean_at_n": s["mean_at_n"],
        "mean_at_n_chance_corrected": s["mean_at_n_chance_corrected"],
        "worst": s["worst"],
        "sd": s["sd"],
        "sigma": s["sigma"],
        "gain_mean": s["gain_mean"],
        "rule_report_score": rules[-1] if rules else None,
        "rule_report_of": best.get("rule_report_of"),
        "provable_accuracy": best.get("provable_accuracy"),
        "unprovable_recognition": best.get("unprovable_recognition"),
        "budget": best.get("budget"),
        "tokens": s["tokens"],
        "incomplete": s["incomplete"],
        "failures": row.failures,
        "exploration": s.get("exploration"),
        "efficiency": s.get("efficiency"),
        "curves": row.curves,
    }


def as_json(boards: list[Board], rank_by: str = "best") -> dict:
    return {
        "format": FORMAT,
        "rank_by": f"{RANKINGS[rank_by]}_chance_corrected",
        "boards": [
            {
                "setting": b.setting,
                "floor": b.floor,
                "tasks": b.tasks,
                "rows": [row_json(r) for r in b.rows],
            }
            for b in boards
        ],
    }


def _head(board: Board) -> list[str]:
    split = ["prov", "unprov"] if board.logic else ["rules"]
    return [
        "rank",
        "system",
        "n",
        "Best@n cc",
        "Best@n",
        "Mean@n cc",
        "Mean@n",
        "sd",
        "σ",
        "gain",
        *split,
        "tokens",
        *(EFFICIENCY_TERMS if board.efficient else []),
        *(EXPLORATION_TERMS if board.explored else []),
        *(["failures"] if board.show_failures else []),
    ]


def _exploration_cells(stats: dict | None) -> list[str]:
    if not stats:
        return ["–"] * len(EXPLORATION_TERMS)
    rate = stats["redundant_rate"]
    errors = "/".join(
        num(round(stats[k], 1) if stats[k] is not None else None)
        for k in ("exploration_errors", "exploitation_errors")
    )
    return [
        num(stats["bits_per_probe"], 2),
        num(round(100 * rate, 1) if rate is not None else None),
        num(stats["true_mass"], 2),
        errors,
    ]


def _efficiency_cells(stats: dict | None) -> list[str]:
    if not stats:
        return ["–"] * len(EFFICIENCY_TERMS)
    return [num(stats["probes"]), num(stats["efficiency"], 2), num(stats["weighted"])]


def _cells(board: Board, row: Row) -> list[str]:
    j = row_json(row)
    if board.logic:
        split = [num(j["provable_accuracy"]), num(j["unprovable_recognition"])]
    else:
        split = [
            f"{j['rule_report_score']}/{j['rule_report_of']}"
            if j["rule_report_score"] is not None
            else "–"
        ]
    total = j["tokens"].get("total")
    return [
        num(row.rank),
        row.system + (f" ({j['incomplete']} incomplete)" if j["incomplete"] else ""),
        str(j["n"]),
        num(j["best_at_n_chance_corrected"]),
        num(j["best_at_n"]),
        num(j["mean_at_n_chance_corrected"]),
        num(j["mean_at_n"]),
        num(j["sd"]),
        num(j["sigma"], 2),
        num(j["gain_mean"], signed=True),
        *split,
        num(round(total) if total is not None else None),
        *(_efficiency_cells(j["efficiency"]) if board.efficient else []),
        *(_exploration_cells(j["exploration"]) if board.explored else []),
        *([str(row.failures)] if board.show_failures else []),
    ]


def _notes(board: Board, rank_by: str) -> list[str]:
    notes = [f"Ranked by chance-corrected {'Best@n' if rank_by == 'best' else 'Mean@n'} at M4."]
    if rank_by == "best" and len({r.stats["n"] for r in board.rows}) > 1:
        notes.append(
            "Rows differ in n, and Best@n rises with n: compare Mean@n, or rows of equal n."
        )
    if board.reference() is not None:
        notes.append(f"Probe efficiency against the {board.reference()}.")
    return notes


def md_cell(text: str) -> str:
    """A Markdown table cell showing `text` literally (names come from traces)."""
    return html_escape(text, quote=False).replace("|", "\\|")


def text(boards: list[Board], rank_by: str = "best") -> str:
    """Fixed-width tables for a terminal."""
    out = []
    for board in boards:
        head = _head(board)
        rows = [_cells(board, r) for r in board.rows]
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]

        def line(cells: list[str], widths: list[int] = widths) -> str:
            return "  ".join(
                c.ljust(w) if i == 1 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))
            )

        out += [
            board.title(),
            line(head),
            "-" * len(line(head)),
            *(line(r) for r in rows),
            *_notes(board, rank_by),
            "",
        ]
    out += [
        textwrap.fill(f"{name} = {meaning}", 110, subsequent_indent="  ")
        for name, meaning in glossary.terms(
            *TEXT_TERMS, *(t for t in terms(boards) if t in (*EXPLORATION_TERMS, "failures"))
        )
    ]
    return "\n".join(out)


def markdown_tables(boards: list[Board], rank_by: str = "best", level: str = "###") -> str:
    out = []
    for board in boards:
        head = _head(board)
        out += [
            f"{level} {md_cell(board.title())}",
            "",
            "| " + " | ".join(head) + " |",
            "|" + "---|" * len(head),
        ]
        out += ["| " + " | ".join(md_cell(c) for c in _cells(board, r)) + " |" for r in board.rows]
        out += ["", *_notes(board, rank_by), ""]
    return "\n".join(out)


def heads(boards: list[Board]) -> list[list[str]]:
    """The column headings of each board's table."""
    return [_head(b) for b in boards]


def terms(boards: list[Board]) -> tuple[str, ...]:
    """The terms of the boards' columns, and the floor their titles name."""
    return glossary.for_columns(*(h for head in heads(boards) for h in head), "floor")


def markdown(boards: list[Board], rank_by: str = "best") -> str:
    return "\n".join(
        [
            "# Leaderboard",
            "",
            markdown_tables(boards, rank_by, "##"),
            "## Terms",
            "",
            glossary.markdown(*terms(boards)),
            "",
        ]
    )


def panels(boards: list[Board]) -> list[Panel]:
    """One plot panel per board: each system's curves over its trajectories."""
    out = []
    for b in boards:
        length = max((len(c) for r in b.rows for c in r.curves), default=1)
        out.append(
            Panel(
                b.title(full=False),
                [f"M{i}" for i in range(length)],
                b.floor,
                [Series(r.system, r.curves) for r in b.rows],
            )
        )
    return out


def html_tables(boards: list[Board], rank_by: str = "best") -> str:
    out = []
    for board in boards:
        rows = [
            [
                f"<td class='num'>{esc(c)}</td>" if i != 1 else esc(c)
                for i, c in enumerate(_cells(board, r))
            ]
            for r in board.rows
        ]
        out += [
            f"<h3>{esc(board.title())}</h3>",
            table([esc(h) for h in _head(board)], rows, "leaderboard"),
            *(f"<p class='muted'>{esc(n)}</p>" for n in _notes(board, rank_by)),
        ]
    return "\n".join(out)


def html(boards: list[Board], rank_by: str = "best", svg: bytes | None = None) -> str:
    """A self-contained page: the tables, the curves, the terms."""
    if svg is None and boards:
        svg = render(panels(boards))[1]
    body = ["<h1>Leaderboard</h1>", html_tables(boards, rank_by)]
    if svg:
        body.append(image(svg, "image/svg+xml", "accuracy by milestone, per system"))
    body += ["<h2>Terms</h2>", glossary_html(*terms(boards))]
    return page("Leaderboard", "\n".join(body))


def write(
    boards: list[Board], paths: list[Path], rank_by: str = "best", svg: bytes | None = None
) -> list[Path]:
    """Write each path in the format its suffix names (.md, .json, .html);
    `svg`: the curves already drawn for the page (else drawn here)."""
    for path in paths:
        if path.suffix not in SUFFIXES:
            raise ValueError(f"{path}: a leaderboard file ends in {', '.join(SUFFIXES)}")
    for path in paths:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".md":
            path.write_text(markdown(boards, rank_by), encoding="utf-8")
        elif path.suffix == ".json":
            path.write_text(
                json.dumps(as_json(boards, rank_by), indent=2, ensure_ascii=False) + "\n",
                encoding="utf-8",
            )
        else:
            path.write_text(html(boards, rank_by, svg), encoding="utf-8")
    return paths
