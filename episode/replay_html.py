"""DIR/replay.html: one trajectory, browsable, from its trace alone.

The page shows the run's identity (world, hashes, agent, protocol) as
tables, the milestone table with its abbreviations explained, then the
episode in order: the setup (system prompt), each milestone (budget, rule
report with a verdict per rule, every answer with its verdict, the answer
as read and the full reply) and each round of exploration (the messages,
every probe with its code, cost and status, and the tool result the
system saw). Everything from the trace is escaped; the page loads nothing
and runs no script (see html_page).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from . import exploration, glossary
from .html_page import esc, glossary_html, mapping, num, page, table
from .metrics import compute_report
from .trace import TRACE_NAME, read_trace

REPLAY_NAME = "replay.html"
ROLES = {"system", "user", "assistant", "tool"}  # anything else is shown with class 'other'


GENERATOR = "alienworlds replay 3"  # changes when the page does, so that older pages are rewritten


def _stamp(trace: Path) -> str:
    """The page's generator and the state of the trace it shows (an
    append-only file: any new event changes its size)."""
    stat = trace.stat()
    return f"{GENERATOR}; trace {stat.st_size} bytes, {stat.st_mtime_ns}"


def is_fresh(directory: Path) -> bool:
    """Whether DIR/replay.html was written by this version from the trace
    as it is now."""
    page_path, trace = directory / REPLAY_NAME, directory / TRACE_NAME
    if not (page_path.exists() and trace.exists()):
        return False
    with page_path.open("rb") as f:
        return f"<meta name='generator' content='{esc(_stamp(trace))}'>".encode() in f.read(1024)


def write_replay(directory: Path, index_href: str | None = None) -> Path:
    path = directory / REPLAY_NAME
    path.write_text(replay_html(directory, index_href), encoding="utf-8")
    return path


def replay_html(directory: Path, index_href: str | None = None) -> str:
    stamp = _stamp(directory / TRACE_NAME)  # before reading: a later append makes the page stale
    events = read_trace(directory / TRACE_NAME)
    header = events[0]
    report = compute_report(events)
    explored = exploration.current(events, directory)
    timeline, sections = _View(events, explored).timeline(report)
    agent = header.get("agent") or {}
    title = (
        f"Episode replay: {header.get('language')} world {header.get('world')} · "
        f"{agent.get('name', '?')}"
    )
    body = [
        _nav(index_href, sections),
        f"<h1>{esc(title)}</h1>",
        _overview(header, report, explored),
        *timeline,
    ]
    body += [
        "<h2 id='terms'>Terms</h2>",
        glossary_html(*glossary.for_columns(*_columns(body), "floor")),
    ]
    return page(title, "\n".join(body), generator=stamp)


def _columns(body: list[str]) -> list[str]:
    """The headings of the data tables in the page's own markup (the tables
    are built in many places, with headings that depend on the trace); the
    field/value tables of the overview have no data columns."""
    text = "\n".join(body)
    return [
        html.unescape(h)
        for table_html in re.findall(r"<table class='(?!mapping')[^']*'>.*?</table>", text, re.S)
        for h in re.findall(r"<th>(.*?)</th>", table_html, re.S)
    ]


def _nav(index_href: str | None, sections: list[tuple[str, str]]) -> str:
    links = [f"<a href='{esc(index_href)}'>← index</a>"] if index_href else []
    links += ["<a href='#overview'>overview</a>"] + [
        f"<a href='#{esc(anchor)}'>{esc(name)}</a>" for anchor, name in sections
    ]
    links.append("<a href='#terms'>terms</a>")
    return "<nav>" + "".join(links) + "</nav>"


def _overview(header: dict, report: dict, explored: dict | None = None) -> str:
    logic = report.get("unprovable_recognition") is not None
    identity = {
        "language": header.get("language"),
        "world": header.get("world"),
        "world hash": header.get("world_hash"),
        "manual hash": header.get("manual_hash"),
        "bank hash": header.get("bank_hash"),
        "condition": header.get("condition"),
        "seed": header.get("seed"),
        "tasks × answers": f"{len(header.get('tasks') or [])} × "
        f"{(header.get('protocol') or {}).get('passes')}",
        "floor (best trivial strategy)": report.get("floor"),
        "complete": report.get("complete"),
    }
    split = ["prov", "unprov"] if logic else ["rules", "cov", "uncov"]
    rows = []
    for m in report["milestones"] + ([report["open_book"]] if report.get("open_book") else []):
        b = m["budget"]
        cells = (
            [num(m.get("provable_accuracy")), num(m.get("unprovable_recognition"))]
            if logic
            else [
                f"{num(m.get('rule_report_score'))}/{num(m.get('rule_report_of'))}",
                num(m.get("covered_accuracy")),
                num(m.get("uncovered_accuracy")),
            ]
        )
        rows.append(
            [
                f"<a href='#m{esc(m['t'])}'>M{esc(m['t'])}</a>",
                *(
                    f"<td class='num'>{esc(c)}</td>"
                    for c in [
                        num(m["accuracy"]),
                        num(m.get("chance_corrected")),
                        num(m["sigma"], 2),
                        *cells,
                        num(b.get("calls")),
                        num(b.get("units")),
                        num(b.get("tokens")),
                        num(m.get("milestone_tokens")),
                    ]
                ),
            ]
        )
    head = ["milestone", "accuracy", "cc", "σ", *split, "C", "P", "T", "Tm"]
    return (
        "<section id='overview'><h2>Overview</h2>"
        + mapping(identity)
        + "<h3>Agent</h3>"
        + mapping(header.get("agent") or {})
        + "<h3>Protocol</h3>"
        + mapping(header.get("protocol") or {})
        + f"<h3>Milestones</h3><p>gain {esc(num(report.get('gain'), signed=True))} · reversal "
        f"{esc(num(report.get('reversal')))}"
        + f" · total tokens {esc(num(report.get('total_tokens')))}</p>"
        + table(head, rows, "milestones")
        + "<p class='muted'>The columns are explained under <a href='#terms'>Terms</a>.</p>"
        + exploration.summary_html(explored)
        + "</section>"
    )


class _View:
    """The trace indexed for the timeline."""

    def __init__(self, events: list[dict], explored: dict | None = None) -> None:
        self.events = events
        self.explored = explored
        self.header = events[0]
        self.tasks = {t["id"]: t for t in self.header.get("tasks") or []}
        self.tools = {e.get("call_id"): e for e in events if e["type"] == "tool"}
        self.replies = {
            e["key"].removeprefix("reply/"): e.get("message") or {}
            for e in events
            if e["type"] == "reply"
        }
        self.answers: dict[str, list[dict]] = {}
        self.rules: dict[str, dict] = {}
        for e in events:
            if e["type"] == "answer":
                self.answers.setdefault(str(e["milestone"]), []).append(e)
            elif e["type"] == "rule_report":
                self.rules[str(e["milestone"])] = e

    def timeline(self, report: dict) -> tuple[list[str], list[tuple[str, str]]]:
        """The sections in trace order (setup, M0, round 1, M1, ...) and
        their (anchor, name) for the navigation bar."""
        metrics = {str(m["t"]): m for m in report["milestones"]}
        if report.get("open_book"):
            metrics[str(report["open_book"]["t"])] = report["open_book"]
        out = ["<section id='setup' class='setup'><h2>Setup</h2>"]
        sections = [("setup", "setup")]
        rounds, in_round, is_open = 0, False, True
        for e in self.events:
            if e["type"] == "message":
                if rounds and not in_round:
                    out.append(
                        ("</section>" if is_open else "")
                        + f"<section id='round-{rounds}' class='round'><h2>Round {rounds}</h2>"
                    )
                    sections.append((f"round-{rounds}", f"round {rounds}"))
                    in_round = is_open = True
                out.append(self._message(e["message"]))
            elif e["type"] == "milestone":
                label = str(e["milestone"])
                out.append(
                    ("</section>" if is_open else "")
                    + self._milestone(label, e, metrics.get(label))
                )
                sections.append((f"m{label}", f"M{label}"))
                rounds += label.isdigit()
                in_round = is_open = False
        if is_open:
            out.append("</section>")
        return out, sections

    def _message(self, message: dict) -> str:
        role = str(message.get("role", "?"))
        body = []
        content = message.get("content")
        if isinstance(content, list):  # content parts
            content = "\n".join(
                str(p.get("text", p)) if isinstance(p, dict) else str(p) for p in content
            )
        if role == "system":
            body.append(
                f"<details><summary>system prompt ({len(content or '')} "
                f"characters)</summary><pre>{esc(content)}</pre></details>"
            )
        elif role == "tool":
            event = self.tools.get(message.get("tool_call_id"), {})
            cut = (event.get("output_chars") or 0) > len(content or "")
            shown = (
                f" (capped: the full output had {event.get('output_lines')} lines, "
                f"{event.get('output_chars')} characters)"
                if cut
                else ""
            )
            body.append(
                f"<div class='muted'>tool result{esc(shown)}</div><pre "
                f"class='tool-result'>{esc(content)}</pre>"
            )
        elif content:
            body.append(f"<pre>{esc(content)}</pre>")
        for field in ("reasoning_content", "reasoning"):
            if message.get(field):
                body.append(
                    f"<details><summary>{esc(field)}</summary><pre>{esc(message[field])}</pre></details>"
                )
        for call in message.get("tool_calls") or ():
            body.append(self._probe(call))
        cls = role if role in ROLES else "other"
        return f"<div class='msg {cls}'><b class='role'>{esc(role)}</b>{''.join(body)}</div>"

    def _probe(self, call: dict) -> str:
        fn = call.get("function") or {}
        raw = fn.get("arguments")
        try:
            args = json.loads(raw or "{}")
            shown = (
                "\n".join(str(v) for v in args.values()) if isinstance(args, dict) else str(args)
            )
        except (TypeError, ValueError):
            shown = raw
        event = self.tools.get(call.get("id"))
        if event:
            facts = (
                f"probe {event.get('n')} of round {event.get('round')} · {event.get('status')} · "
                f"{event.get('units')} unit{'' if event.get('units') == 1 else 's'} · "
                f"{'counted' if event.get('counted') else 'not counted'}"
            )
            anchor = f" id='probe-r{esc(event.get('round'))}-{esc(event.get('n'))}'"
        else:
            facts, anchor = "not run", ""
        measures = (
            exploration.probe_html(self.explored, event.get("round"), event.get("n"))
            if event
            else ""
        )
        return (
            f"<div class='probe'{anchor}><div>tool call <code>{esc(fn.get('name'))}</code> · "
            f"{esc(facts)}</div>"
            f"<pre class='probe-code'>{esc(shown)}</pre>{measures}</div>"
        )

    def _milestone(self, label: str, event: dict, metrics: dict | None) -> str:
        answers = self.answers.get(label, [])
        passed = sum(1 for a in answers if a.get("passed"))
        b = event.get("budget") or {}
        out = [f"<section id='m{esc(label)}' class='milestone'><h2>Milestone M{esc(label)}</h2>"]
        if metrics:
            out.append(
                f"<p>accuracy <b>{esc(num(metrics['accuracy']))}</b> (cc "
                f"{esc(num(metrics.get('chance_corrected')))}, "
                f"σ {esc(num(metrics['sigma'], 2))}) · {passed} of {len(answers)} answers "
                "passed</p>"
            )
        out.append(
            "<h3>Budget so far</h3>"
            + table(
                [
                    "C (calls)",
                    "P (probe units)",
                    "T (exploration tokens)",
                    "rejected calls",
                    "Tm (tokens at this milestone)",
                ],
                [
                    [
                        f"<td class='num'>{esc(num(v))}</td>"
                        for v in (
                            b.get("calls"),
                            b.get("units"),
                            b.get("tokens"),
                            b.get("rejected"),
                            (metrics or {}).get("milestone_tokens"),
                        )
                    ]
                ],
                "budget",
            )
        )
        rules = self.rules.get(label)
        if rules:
            out.append(self._rule_report(label, rules))
        out.append(self._answers(label, answers))
        return "\n".join(out) + "</section>"

    def _rule_report(self, label: str, rules: dict) -> str:
        rows = []
        for rid, ok in (rules.get("correct") or {}).items():
            rows.append(
                [
                    f"<code>{esc(rid)}</code>",
                    f"<code>{esc((rules.get('report') or {}).get(rid, 'UNKNOWN'))}</code>",
                    "<td class='verdict "
                    f"{'pass' if ok else 'fail'}'>{'✓ correct' if ok else '✗ wrong'}</td>",
                ]
            )
        reply = (self.replies.get(f"M{label}/rules") or {}).get("content")
        return (
            f"<h3>Rule report: {esc(rules.get('score'))} of {esc(rules.get('of'))} stated "
            "correctly</h3>"
            + table(["rule", "reported expression", "verdict"], rows, "rule-report")
            + f"<details><summary>full reply</summary><pre>{esc(reply)}</pre></details>"
        )

    def _answers(self, label: str, answers: list[dict]) -> str:
        by_task: dict[str, dict[int, dict]] = {}
        for a in answers:
            by_task.setdefault(str(a.get("task")), {})[int(a.get("pass") or 0)] = a
        passes = int((self.header.get("protocol") or {}).get("passes") or 0) or max(
            (k for t in by_task.values() for k in t), default=1
        )
        rows, details = [], []
        for task_id in [t for t in self.tasks if t in by_task] + [
            t for t in by_task if t not in self.tasks
        ]:
            info = self.tasks.get(task_id, {})
            kind = (
                f"{info.get('kind')} (unprovable)" if info.get("unprovable") else info.get("kind")
            )
            cells = [
                f"<code>{esc(task_id)}</code>",
                esc(kind),
                esc(info.get("band")),
                esc(", ".join(info.get("rules") or [])),
            ]
            for k in range(1, passes + 1):
                a = by_task[task_id].get(k)
                if a is None:
                    cells.append("<td class='verdict muted'>–</td>")
                else:
                    ok = bool(a.get("passed"))
                    cells.append(
                        f"<td class='verdict {'pass' if ok else 'fail'}' "
                        f"title='{esc(a.get('detail'))}'>"
                        f"{'✓ pass' if ok else '✗ fail'}</td>"
                    )
            rows.append(cells)
            details.append(self._answer_details(label, task_id, by_task[task_id]))
        head = ["task", "kind", "band", "rules", *(f"pass {k}" for k in range(1, passes + 1))]
        return (
            "<h3>Answers</h3>"
            + table(head, rows, "answers")
            + "<details><summary>answers and replies at "
            f"M{esc(label)}</summary>{''.join(details)}</details>"
        )

    def _answer_details(self, label: str, task_id: str, items: dict[int, dict]) -> str:
        out = [f"<details class='answer'><summary>{esc(task_id)}</summary>"]
        for k, a in sorted(items.items()):
            reply = (self.replies.get(str(a.get("key", "")).removeprefix("answer/")) or {}).get(
                "content"
            )
            verdict = "pass" if a.get("passed") else "fail"
            out.append(
                f"<div>pass {k}: <span class='{verdict}'>{verdict}</span> · "
                f"{esc(a.get('detail'))}</div>"
                "<pre>"
                f"{esc(a.get('answer') if a.get('answer') is not None else '(no answer)')}</pre>"
                f"<details><summary>full reply</summary><pre>{esc(reply)}</pre></details>"
            )
        return "".join(out) + "</details>"
