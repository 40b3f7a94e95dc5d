"""Reports over trajectories: Best@n, Mean@n, worst, per-band and
per-family accuracy, the bank's floor and chance-corrected scores,
report.md, the M0-M4 plot (PNG) and an HTML replay of a trace.

Best@n is the highest endpoint (last numbered milestone) among the
trajectories of one agent; the lowest trajectory index breaks a tie, and
that trajectory r* supplies the curve, rule reports and budget shown with the
headline (ExplorationBench eq. 3). Trajectories of different agents are
never pooled.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from alienworlds.tasks.validity import chance_corrected

from .driver import REPORT_NAME, write_json
from .metrics import compute_report
from .png import curve_chart
from .trace import TRACE_NAME, read_trace

PLOT_NAME = "curves.png"
MARKDOWN_NAME = "report.md"
SUMMARY_NAME = "summary.json"
HTML_NAME = "replay.html"


def _natural(path: Path) -> list[object]:
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", path.name)]


def trajectory_dirs(paths: list[str | Path]) -> list[Path]:
    """Each path is a trajectory (it holds a trace), or a folder of them."""
    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_file() and path.name == TRACE_NAME:
            path = path.parent
        if (path / TRACE_NAME).exists() or (path / REPORT_NAME).exists():
            out.append(path)
            continue
        subs = sorted((p for p in path.iterdir() if p.is_dir() and (p / TRACE_NAME).exists()), key=_natural) if path.is_dir() else []
        if not subs:
            raise FileNotFoundError(f"{path}: no trajectory here (no {TRACE_NAME})")
        out.extend(subs)
    return out


def load_report(directory: Path) -> dict:
    """A trajectory's report, recomputed from its trace when there is one."""
    trace = directory / TRACE_NAME
    if trace.exists():
        report = compute_report(read_trace(trace))
        write_json(directory / REPORT_NAME, report)
        return report
    return json.loads((directory / REPORT_NAME).read_text(encoding="utf-8"))


def _mean(values: list[float]) -> float | None:
    values = [v for v in values if v is not None]
    return round(sum(values) / len(values), 4) if values else None


def agent_label(agent: dict) -> str:
    """How a report names an agent: its name, and its model when it has one."""
    name = str(agent.get("name", "?"))
    return f"{name}:{agent['model']}" if agent.get("model") else name


def system_key(agent: dict | None) -> str:
    """Which system an agent config describes: its config without the
    trajectory's seed (trajectories of one system differ only in that)."""
    return json.dumps({k: v for k, v in (agent or {}).items() if k != "seed"}, sort_keys=True)


def _floor(reports: list[dict]) -> float | None:
    floors = {r.get("floor") for r in reports}
    return floors.pop() if len(floors) == 1 else None


def aggregate(reports: list[dict], names: list[str] | None = None) -> dict:
    """Best@n, Mean@n, worst and the per-band / per-family splits, with the
    bank's floor and chance-corrected values. Trajectories of different
    agents are never pooled: a multi-agent summary holds one aggregate per
    agent under "agents" and no Best@n of its own."""
    names = names or [f"t{i + 1}" for i in range(len(reports))]
    groups: dict[str, list[int]] = {}
    for i, r in enumerate(reports):
        groups.setdefault(system_key(r.get("agent")), []).append(i)
    if len(groups) <= 1:
        return _aggregate(reports, names)
    labels: dict[str, str] = {}
    for key, members in groups.items():
        label = agent_label(reports[members[0]].get("agent") or {})
        labels[key] = label if label not in labels.values() else f"{label}#{len(labels) + 1}"
    return {
        "n": len(reports),
        "trajectories": names,
        "endpoints": [r.get("endpoint") for r in reports],
        "floor": _floor(reports),
        "best_index": None,
        "best_trajectory": None,
        "best_at_n": None,
        "agents": {labels[key]: _aggregate([reports[i] for i in members], [names[i] for i in members])
                   for key, members in groups.items()},
    }


def _aggregate(reports: list[dict], names: list[str]) -> dict:
    endpoints = [r.get("endpoint") for r in reports]
    scored = [(e, i) for i, e in enumerate(endpoints) if e is not None]
    best = min(scored, key=lambda p: (-p[0], p[1]))[1] if scored else None
    floor = _floor(reports)
    out: dict[str, object] = {
        "n": len(reports),
        "trajectories": names,
        "endpoints": endpoints,
        "floor": floor,
        "best_index": best,
        "best_trajectory": names[best] if best is not None else None,
        "best_at_n": endpoints[best] if best is not None else None,
        "mean_at_n": _mean(endpoints),
        "worst": min(e for e, _ in scored) if scored else None,
        "range": (max(e for e, _ in scored) - min(e for e, _ in scored)) if scored else None,
    }
    out["best_at_n_chance_corrected"] = chance_corrected(out["best_at_n"], floor)
    out["mean_at_n_chance_corrected"] = chance_corrected(out["mean_at_n"], floor)
    for split in ("bands", "families"):
        keys = sorted({k for r in reports if r.get("milestones") for k in r["milestones"][-1][split]})
        per_traj = [r["milestones"][-1][split] if r.get("milestones") else {} for r in reports]
        out[split] = {
            k: {"best": per_traj[best].get(k) if best is not None else None, "mean": _mean([p.get(k) for p in per_traj])}
            for k in keys
        }
    if best is not None:
        chosen = reports[best]
        out["best"] = {k: chosen.get(k) for k in ("gain", "largest_step_share", "reversal", "covered_accuracy",
                                                  "uncovered_accuracy", "unprovable_recognition", "provable_accuracy")}
        out["best"]["curve"] = [m["accuracy"] for m in chosen["milestones"]]
        out["best"]["chance_corrected"] = [m.get("chance_corrected") for m in chosen["milestones"]]
        out["best"]["rule_reports"] = [m["rule_report_score"] for m in chosen["milestones"]]
        out["best"]["budget"] = chosen["milestones"][-1]["budget"] if chosen["milestones"] else None
    return out


def _fmt(value: object, digits: int = 1) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _headline(summary: dict) -> str:
    n = summary["n"]
    return (f"**Best@{n} = {_fmt(summary['best_at_n'])}** (chance-corrected {_fmt(summary.get('best_at_n_chance_corrected'))}; "
            f"trajectory {summary['best_trajectory']}) · Mean@{n} = {_fmt(summary['mean_at_n'])} "
            f"(chance-corrected {_fmt(summary.get('mean_at_n_chance_corrected'))}) · worst = {_fmt(summary['worst'])} · "
            f"range = {_fmt(summary['range'])}")


def markdown(reports: list[dict], summary: dict, plot: str | None = PLOT_NAME) -> str:
    first = reports[0]
    same_agent = "agents" not in summary
    logic = any(r.get("unprovable_recognition") is not None for r in reports)
    labels = [f"M{m['t']}" for m in max((r["milestones"] for r in reports), key=len)]
    floor = summary.get("floor")
    lines = [
        f"# Episode report: {first['language']} world `{first['world']}`",
        "",
        f"World hash `{first['world_hash']}` · manual `{first['manual_hash']}` · condition **{first['condition']}** · "
        + (f"agent `{json.dumps(first['agent'], sort_keys=True)}` · " if same_agent else "agents differ (see the table) · ")
        + f"{first['tasks']} tasks × {first['passes']} answers",
        "",
        f"Floor (the best trivial strategy's accuracy on this bank): **{_fmt(floor)}**. Chance-corrected score = "
        "100 × (score − floor) / (100 − floor).",
        "",
    ]
    if same_agent:
        lines += [_headline(summary), ""]
    else:
        lines += ["Each agent is aggregated over its own trajectories only; agents are never pooled.", ""]
        lines += [f"* `{name}`: " + _headline(agg) for name, agg in summary["agents"].items()]
        lines.append("")
    if plot:
        lines += [f"![accuracy by milestone]({plot})", ""]
    extra = ["provable", "unprovable"] if logic else ["rules", "covered", "uncovered"]
    head = ["trajectory", *labels, "gain", "largest step", "reversal", *extra, "C", "P", "T", "milestone T", "total T"]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, r in zip(summary["trajectories"], reports):
        ms = r["milestones"]
        end = ms[-1] if ms else {}
        rules = f"{end.get('rule_report_score')}/{end.get('rule_report_of')}" if end.get("rule_report_score") is not None else "–"
        budget = end.get("budget") or {}
        star = " *" if same_agent and name == summary["best_trajectory"] else ""
        split = ([_fmt(r.get("provable_accuracy")), _fmt(r.get("unprovable_recognition"))] if logic
                 else [rules, _fmt(r["covered_accuracy"]), _fmt(r["uncovered_accuracy"])])
        shown = name if same_agent or name == agent_label(r["agent"]) else f"{name} ({agent_label(r['agent'])})"
        cells = [shown + star, *[_fmt(m["accuracy"]) for m in ms],
                 *["–"] * (len(labels) - len(ms)), _fmt(r["gain"]), _fmt(r["largest_step_share"], 2), _fmt(r["reversal"]),
                 *split, _fmt(budget.get("calls")), _fmt(budget.get("units")), _fmt(budget.get("tokens")),
                 _fmt(r.get("milestone_tokens")), _fmt(r.get("total_tokens"))]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "Chance-corrected accuracy per milestone:", "", "| trajectory | " + " | ".join(labels) + " |",
              "|" + "---|" * (len(labels) + 1)]
    for name, r in zip(summary["trajectories"], reports):
        cc = [_fmt(m.get("chance_corrected")) for m in r["milestones"]]
        lines.append("| " + " | ".join([name, *cc, *["–"] * (len(labels) - len(cc))]) + " |")
    lines += ["", "σ (answering noise) and milestone tokens per milestone:", ""]
    for name, r in zip(summary["trajectories"], reports):
        lines.append(f"* {name}: " + ", ".join(f"M{m['t']} σ {_fmt(m['sigma'], 2)}, {_fmt(m.get('milestone_tokens'))} tokens"
                                               for m in r["milestones"]))
    for split, title in (("bands", "band"), ("families", "family")):
        groups = {"": summary} if same_agent else summary["agents"]
        for agent, agg in groups.items():
            lines += ["", f"## Accuracy by {title} (endpoint){f' · {agent}' if agent else ''}", "",
                      f"| {title} | best trajectory | mean |", "|---|---|---|"]
            for key, row in agg[split].items():
                lines.append(f"| {key} | {_fmt(row['best'])} | {_fmt(row['mean'])} |")
    books = [(n, r["open_book"]) for n, r in zip(summary["trajectories"], reports) if r.get("open_book")]
    if books:
        lines += ["", "## Open book after M4 (A4+O)", ""]
        lines += [f"* {n}: {_fmt(ob['accuracy'])} (chance-corrected {_fmt(ob.get('chance_corrected'))})" for n, ob in books]
    return "\n".join(lines) + "\n"


def write_summary(out: Path, dirs: list[Path], names: list[str] | None = None) -> dict:
    """report.md, curves.png and summary.json for the trajectories in `dirs`."""
    out.mkdir(parents=True, exist_ok=True)
    reports = [load_report(d) for d in dirs]
    names = names or _names(dirs)
    summary = aggregate(reports, names)
    labels = [f"M{m['t']}" for m in max((r["milestones"] for r in reports), key=len)] if reports else []
    series = [(n, [m["accuracy"] for m in r["milestones"]]) for n, r in zip(names, reports)]
    title = f"{reports[0]['world'].upper()} {reports[0]['condition'].upper()}" if reports else ""
    (out / PLOT_NAME).write_bytes(curve_chart(series, labels, title, summary["best_index"]))
    (out / MARKDOWN_NAME).write_text(markdown(reports, summary), encoding="utf-8")
    write_json(out / SUMMARY_NAME, summary)
    return summary


def _names(dirs: list[Path]) -> list[str]:
    names = [d.name or str(d) for d in dirs]
    if len(set(names)) < len(names):
        names = [str(d) for d in dirs]
    return names


# -- HTML replay ------------------------------------------------------------------------

_CSS = """
body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#222}
pre{background:#f6f6f6;padding:.6rem;overflow-x:auto;white-space:pre-wrap}
.msg{border-left:4px solid #ccc;margin:1rem 0;padding:.2rem .8rem}
.system{border-color:#999}.user{border-color:#1f77b4}.assistant{border-color:#2ca02c}.tool{border-color:#ff7f0e}
.milestone{background:#fffbe6;border:1px solid #e5d88a;padding:.5rem 1rem;margin:1.5rem 0}
.ok{color:#2ca02c}.bad{color:#d62728}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem}
summary{cursor:pointer}
"""


def _esc(value: object) -> str:
    return html.escape(str(value))


def replay_html(directory: Path) -> str:
    events = read_trace(directory / TRACE_NAME)
    header = events[0]
    report = compute_report(events)
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>Episode replay: {_esc(header['world'])}</title>"
             f"<style>{_CSS}</style></head><body>",
             f"<h1>Episode replay: {_esc(header['language'])} world <code>{_esc(header['world'])}</code></h1>",
             "<table>"]
    for key in ("world_hash", "manual_hash", "condition", "seed", "agent"):
        parts.append(f"<tr><th>{_esc(key)}</th><td><code>{_esc(json.dumps(header[key]) if key == 'agent' else header[key])}</code></td></tr>")
    parts.append(f"</table><p>Floor (best trivial strategy): {_esc(_fmt(report.get('floor')))}</p><h2>Milestones</h2><table>"
                 "<tr><th>M</th><th>accuracy</th><th>chance-corrected</th><th>σ</th><th>rules</th><th>C</th><th>P</th><th>T</th>"
                 "<th>milestone tokens</th></tr>")
    for m in report["milestones"] + ([report["open_book"]] if report.get("open_book") else []):
        b = m["budget"]
        parts.append(f"<tr><td>M{_esc(m['t'])}</td><td>{m['accuracy']:.1f}</td><td>{_esc(_fmt(m.get('chance_corrected')))}</td>"
                     f"<td>{m['sigma']:.2f}</td><td>{_esc(m['rule_report_score'])}</td><td>{b['calls']}</td><td>{b['units']}</td>"
                     f"<td>{b['tokens']}</td><td>{_esc(m.get('milestone_tokens'))}</td></tr>")
    parts.append("</table><h2>Conversation</h2>")
    answers: dict[str, list[dict]] = {}
    rules: dict[str, dict] = {}
    for event in events:
        if event["type"] == "answer":
            answers.setdefault(str(event["milestone"]), []).append(event)
        elif event["type"] == "rule_report":
            rules[str(event["milestone"])] = event
    tools = {e["call_id"]: e for e in events if e["type"] == "tool"}
    replies = {e["key"].removeprefix("reply/"): (e["message"].get("content") or "") for e in events if e["type"] == "reply"}
    for event in events:
        if event["type"] == "message":
            parts.append(_message_html(event["message"], tools))
        elif event["type"] == "milestone":
            parts.append(_milestone_html(str(event["milestone"]), event, answers.get(str(event["milestone"]), []), rules.get(str(event["milestone"])), replies))
    parts.append("</body></html>")
    return "\n".join(parts)


def _message_html(message: dict, tools: dict) -> str:
    role = message.get("role", "?")
    body = []
    content = message.get("content")
    if role == "system":
        body.append(f"<details><summary>system prompt ({len(content or '')} characters)</summary><pre>{_esc(content)}</pre></details>")
    elif content:
        body.append(f"<pre>{_esc(content)}</pre>")
    for field in ("reasoning_content", "reasoning"):
        if message.get(field):
            body.append(f"<details><summary>{field}</summary><pre>{_esc(message[field])}</pre></details>")
    for call in message.get("tool_calls") or ():
        fn = call.get("function") or {}
        try:
            args = json.loads(fn.get("arguments") or "{}")
            shown = "\n".join(str(v) for v in args.values()) if isinstance(args, dict) else str(args)
        except ValueError:
            shown = fn.get("arguments")
        event = tools.get(call.get("id"), {})
        cost = f" · {event.get('units')} units · {event.get('status')}" if event else ""
        body.append(f"<div>tool call <code>{_esc(fn.get('name'))}</code>{_esc(cost)}</div><pre>{_esc(shown)}</pre>")
    return f"<div class='msg {html.escape(role)}'><b>{_esc(role)}</b>{''.join(body)}</div>"


def _milestone_html(label: str, event: dict, answers: list[dict], rules: dict | None, replies: dict[str, str]) -> str:
    by_task: dict[str, list[dict]] = {}
    for a in answers:
        by_task.setdefault(a["task"], []).append(a)
    passed = sum(a["passed"] for a in answers)
    out = [f"<div class='milestone'><h3>Milestone M{_esc(label)}</h3>",
           f"<p>{passed} of {len(answers)} answers passed · budget {_esc(json.dumps(event['budget']))}</p>"]
    if rules:
        out.append(f"<details><summary>rule report: {rules['score']} of {rules['of']} stated correctly</summary>"
                   f"<details><summary>full reply</summary><pre>{_esc(replies.get(f'M{label}/rules', ''))}</pre></details><table>")
        for rid, ok in rules["correct"].items():
            out.append(f"<tr><td>{_esc(rid)}</td><td><code>{_esc(rules['report'].get(rid, 'UNKNOWN'))}</code></td>"
                       f"<td class='{'ok' if ok else 'bad'}'>{'✓' if ok else '✗'}</td></tr>")
        out.append("</table></details>")
    out.append("<details><summary>answers</summary>")
    for task, items in by_task.items():
        marks = "".join("✓" if a["passed"] else "✗" for a in sorted(items, key=lambda a: a["pass"]))
        out.append(f"<details><summary>{_esc(task)} {marks}</summary>")
        for a in sorted(items, key=lambda a: a["pass"]):
            out.append(f"<div>pass {a['pass']}: <span class='{'ok' if a['passed'] else 'bad'}'>{_esc(a['detail'])}</span></div>"
                       f"<pre>{_esc(a['answer'] if a['answer'] is not None else '(no answer)')}</pre>"
                       f"<details><summary>full reply</summary><pre>{_esc(replies.get(a['key'].removeprefix('answer/'), ''))}</pre></details>")
        out.append("</details>")
    out.append("</details></div>")
    return "\n".join(out)


def write_html(directory: Path) -> Path:
    path = directory / HTML_NAME
    path.write_text(replay_html(directory), encoding="utf-8")
    return path
