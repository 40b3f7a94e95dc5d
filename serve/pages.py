"""The researcher's view of a study: every participant's progress and the
leaderboard (episode.leaderboard), as JSON and as a server-rendered page.

Only the researcher's token reaches this: it shows scores, which a
participant never sees.
"""

from __future__ import annotations

from alienworlds.episode import leaderboard
from alienworlds.episode.html_page import esc, num, table
from alienworlds.episode.metrics import compute_report

from .sessions import Sessions, trace_state
from .store import Study


def participant_status(sessions: Sessions, study: Study, participant: str) -> tuple[dict, dict]:
    """(the participant's row, its report or {})."""
    events = sessions.events(study.id, participant)
    state = trace_state(events)
    live = sessions.live(study.id, participant)
    if live is not None and state != "finished":
        state = live.mailbox.posted.view.get("phase", state)
    error = live.error if live is not None else None
    report = compute_report(events) if events else {}
    milestones = report.get("milestones") or []
    tools = [e for e in events if e.get("type") == "tool" and e.get("counted")]
    row = {
        "participant": participant,
        "system": f"human:{study.id}-{participant}",
        "state": state,
        "milestones_done": len(milestones),
        "calls": len(tools),
        "round": max((int(e.get("round") or 0) for e in tools), default=0),
        "accuracy": [m["accuracy"] for m in milestones],
        "last_activity": max((e.get("at") or 0 for e in events), default=None),
        "error": error,
    }
    return row, report


def status(sessions: Sessions, study: Study) -> tuple[dict, list[leaderboard.Board]]:
    """The study's status as JSON data, and its leaderboard boards."""
    rows, entries = [], []
    for participant in study.participants:
        row, report = participant_status(sessions, study, participant)
        rows.append(row)
        if report.get("milestones"):
            entries.append((row["system"], report))
    boards = leaderboard.build(entries)
    data = {
        "study": study.as_dict(),
        "participants": rows,
        "leaderboard": leaderboard.as_json(boards),
    }
    return data, boards


def researcher_page(data: dict, boards: list[leaderboard.Board]) -> str:
    study = data["study"]
    rows = [
        [
            esc(r["participant"]),
            esc(r["state"] + (f": {r['error']}" if r["error"] else "")),
            f"<td class='num'>{r['milestones_done']}</td>",
            f"<td class='num'>{r['round']}</td>",
            f"<td class='num'>{r['calls']}</td>",
            esc(" · ".join(num(a) for a in r["accuracy"]) or "–"),
        ]
        for r in data["participants"]
    ]
    board = leaderboard.html_tables(boards) or "<p>No milestone reached yet.</p>"
    body = "\n".join(
        [
            f"<h1>Study {esc(study['id'])}</h1>",
            f"<p>{esc(study['language'])} · world {esc(study['world'])} · condition "
            f"{esc(study['condition'])} · {len(study['participants'])} participants · "
            f"{esc(study['passes'])} answers per task</p>",
            "<h2>Progress</h2>",
            table(
                ["participant", "state", "milestones", "round", "probes", "accuracy by milestone"],
                rows,
                "progress",
            ),
            "<h2>Leaderboard</h2>",
            board,
            "<p class='muted'>This page reloads every 15 seconds.</p>",
        ]
    )
    return (
        "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta http-equiv='refresh' content='15'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>Study {esc(study['id'])}</title>"
        "<link rel='stylesheet' href='/static/play.css'></head>\n"
        f"<body class='researcher'>\n{body}\n</body></html>\n"
    )
