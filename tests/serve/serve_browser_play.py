"""A scripted participant playing in the browser page: it reads what the page
shows, types into the answer box and presses the page's buttons, and times
each action from the press until the page shows its outcome."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from serve_cdp import Browser, CDPError

BUTTONS = {"consent": "agree", "probe": "run", "end-round": "end-round", "answer": "submit"}
SETTLED = (
    "document.body && ['consent', 'explore', 'reflect', 'rules', 'answer', 'finished', 'failed']"
    ".includes(document.body.dataset.phase)"
)

READ = """(async () => {
  const t0 = performance.now();
  while (!(__SETTLED__) && performance.now() - t0 < 900000) {
    await new Promise(r => setTimeout(r, 10));
  }
  const d = document.body.dataset;
  return JSON.stringify({phase: d.phase, key: d.key, round: d.round, roundUsed: d.roundUsed,
                         task: d.task, progress: document.getElementById('progress').textContent});
})()""".replace("__SETTLED__", SETTLED)

PRESS = """(async (button, text) => {
  const before = document.body.dataset.version;
  document.getElementById('entry').value = text;
  const t0 = performance.now();
  document.getElementById(button).click();
  while (performance.now() - t0 < 120000) {
    await new Promise(r => setTimeout(r, 2));
    const notice = document.getElementById('notice');
    if (!notice.hidden) return -1;
    if (document.body.dataset.version !== before && (__SETTLED__)) return performance.now() - t0;
  }
  return -2;
})""".replace("__SETTLED__", SETTLED)


def page_view(browser: Browser) -> dict:
    """The page's state in the shape ScriptedParticipant.decide reads, once
    it asks for something (a first session of a large world waits for the
    bank audit: up to 15 minutes on a loaded machine)."""
    shown = json.loads(browser.evaluate(READ))
    return {
        "phase": shown["phase"],
        "key": shown["key"],
        "round": int(shown["round"]) if shown["round"] else None,
        "budget": {"round_used": int(shown["roundUsed"]) if shown["roundUsed"] else 0},
        "task": {"id": shown["task"]},
        "progress": shown["progress"],
    }


@dataclass
class BrowserPlay:
    actions: int = 0
    milliseconds: dict[str, list[float]] = field(default_factory=dict)
    seen: list[dict] = field(default_factory=list)


def play_in_browser(
    browser: Browser, participant, limit: int = 10_000, on_view=lambda view: None
) -> BrowserPlay:
    """Play until the page shows the end; `on_view(view)` sees every page first."""
    played = BrowserPlay()
    view = page_view(browser)
    while view["phase"] not in ("finished", "failed") and played.actions < limit:
        played.seen.append(view)
        on_view(view)
        action, text, refuse = participant.decide(view)
        button = "refuse" if refuse else BUTTONS[action]
        took = browser.evaluate(f"{PRESS}({json.dumps(button)}, {json.dumps(text)})")
        if took < 0:
            raise CDPError(f"the page did not take {action} in {view['phase']} ({took})")
        kind = "probe" if action == "probe" else view["phase"]
        played.milliseconds.setdefault(kind, []).append(took)
        played.actions += 1
        view = page_view(browser)
    played.seen.append(view)
    return played
