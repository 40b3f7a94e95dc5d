"""OUT/index.html: the entry page of a report across agents and
trajectories: the systems (as in the leaderboard), the curves, and one row
per trajectory with its milestone curve, budget and a link to its replay."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

from . import glossary
from .aggregate import agent_label
from .html_page import esc, glossary_html, image, num, page, table
from .leaderboard import Board, heads, html_tables
from .replay_html import REPLAY_NAME

INDEX_NAME = "index.html"


def href(target: Path, start: Path) -> str:
    """A relative link from a page in `start` to `target`."""
    return quote(Path(os.path.relpath(target.resolve(), start.resolve())).as_posix())


def index_html(
    out: Path,
    trajectories: list[tuple[str, Path | None, dict]],
    boards: list[Board],
    svg: bytes | None,
    files: list[str],
    rank_by: str = "best",
) -> str:
    """`trajectories`: (name, directory or None, report) in order."""
    worlds = {(r.get("language"), r.get("world")) for _, _, r in trajectories}
    title = (
        f"Episodes: {next(iter(worlds))[0]} world {next(iter(worlds))[1]}"
        if len(worlds) == 1
        else f"Episodes in {len(worlds)} worlds"
    )
    body = [
        f"<h1>{esc(title)}</h1>",
        "<nav>" + "".join(f"<a href='{esc(quote(f))}'>{esc(f)}</a>" for f in files) + "</nav>",
        "<h2>Systems</h2>",
        html_tables(boards, rank_by),
    ]
    if svg:
        body.append(image(svg, "image/svg+xml", "accuracy by milestone, per system"))
    columns = [*(h for head in heads(boards) for h in head), *_head(trajectories)]
    body += [
        "<h2>Trajectories</h2>",
        _trajectories(out, trajectories),
        "<h2>Terms</h2>",
        # every column of the page's tables, and the floor its titles name
        glossary_html(*glossary.for_columns(*columns, "floor")),
    ]
    return page(title, "\n".join(body))


def _efficient(trajectories: list[tuple[str, Path | None, dict]]) -> bool:
    return any(r.get("efficiency") for _, _, r in trajectories)


def _shape(trajectories: list[tuple[str, Path | None, dict]]) -> tuple[int, bool]:
    """The most milestones of a trajectory, and whether these are AlienLogic runs."""
    length = max((len(r.get("milestones") or []) for _, _, r in trajectories), default=0)
    logic = any(r.get("unprovable_recognition") is not None for _, _, r in trajectories)
    return length, logic


def _head(trajectories: list[tuple[str, Path | None, dict]]) -> list[str]:
    length, logic = _shape(trajectories)
    split = ["prov", "unprov"] if logic else ["rules"]
    return [
        "trajectory",
        "agent",
        "world",
        "condition",
        "seed",
        *(f"M{i}" for i in range(length)),
        "M4 cc" if length == 5 else "end cc",
        "gain",
        *split,
        "C",
        "P",
        "T",
        "Tm",
        "Ttot",
        *(["eff", "eff×M"] if _efficient(trajectories) else []),
        "complete",
    ]


def _trajectories(out: Path, trajectories: list[tuple[str, Path | None, dict]]) -> str:
    length, logic = _shape(trajectories)
    head = _head(trajectories)
    rows = []
    for name, directory, r in trajectories:
        page_path = directory / REPLAY_NAME if directory is not None else None
        shown = (
            f"<a href='{esc(href(page_path, out))}'>{esc(name)}</a>"
            if page_path is not None and page_path.exists()
            else esc(name)
        )
        ms = r.get("milestones") or []
        end = ms[-1] if ms else {}
        b = end.get("budget") or {}
        extra = (
            [num(r.get("provable_accuracy")), num(r.get("unprovable_recognition"))]
            if logic
            else [f"{num(end.get('rule_report_score'))}/{num(end.get('rule_report_of'))}"]
        )
        numbers = [
            *(num(m["accuracy"]) for m in ms),
            *["–"] * (length - len(ms)),
            num(r.get("endpoint_chance_corrected")),
            num(r.get("gain"), signed=True),
            *extra,
            num(b.get("calls")),
            num(b.get("units")),
            num(b.get("tokens")),
            num(r.get("milestone_tokens")),
            num(r.get("total_tokens")),
            *(_efficiency_numbers(r) if _efficient(trajectories) else []),
        ]
        rows.append(
            [
                shown,
                esc(agent_label(r.get("agent") or {})),
                esc(r.get("world")),
                esc(r.get("condition")),
                esc(r.get("seed")),
                *(f"<td class='num'>{esc(c)}</td>" for c in numbers),
                esc(num(r.get("complete"))),
            ]
        )
    return table(head, rows, "trajectories")


def _efficiency_numbers(report: dict) -> list[str]:
    found = report.get("efficiency") or {}
    return [num(found.get("efficiency"), 2), num(found.get("weighted"))]
