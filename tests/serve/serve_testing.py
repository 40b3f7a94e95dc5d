"""Helpers of the study-server tests: a study in a temporary data
directory, and a participant played through the HTTP API."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from alienworlds.serve.store import Store, Study

WAITING = ("starting", "working")


@dataclass
class Made:
    data: Path
    study: Study
    researcher: str
    tokens: dict[str, str]  # participant id -> token


def make_study(
    data: Path,
    count: int = 2,
    world: str = "demo",
    language: str = "aliencode",
    condition: str = "autonomous",
    passes: int = 3,
    study_id: str = "st",
    bank: Path | None = None,
    consent: str | None = None,
) -> Made:
    store = Store(data, create=True)
    study, researcher, links = store.create(
        language, world, str(bank) if bank else None, condition, passes, 0, count, study_id, consent
    )
    return Made(data, study, researcher, dict(links))


def wait_view(client, token: str, timeout: float = 120.0) -> dict:
    """The participant's view once the driver waits for them (or has ended)."""
    deadline = time.monotonic() + timeout
    while True:
        response = client.get(f"/api/p/{token}/state")
        assert response.status_code == 200, response.text
        view = response.json()
        if view["phase"] not in WAITING:
            return view
        if time.monotonic() > deadline:
            raise TimeoutError(f"the session stayed {view['phase']} for {timeout} s")
        time.sleep(0.02)


@dataclass
class Played:
    view: dict
    actions: int = 0
    seconds: dict[str, list[float]] = field(default_factory=dict)  # per phase, per action


def act(client, token: str, view: dict, action: str, text: str = "", refuse: bool = False):
    return client.post(
        f"/api/p/{token}/act",
        json={"action": action, "key": view["key"], "text": text, "refuse": refuse},
    )


def play(client, token: str, participant, stop=lambda view, n: False, limit: int = 5000) -> Played:
    """Play until the episode ends (or `stop(view, actions)`), timing every action."""
    played = Played(wait_view(client, token))
    while played.view["phase"] not in ("finished", "failed") and played.actions < limit:
        if stop(played.view, played.actions):
            break
        action, text, refuse = participant.decide(played.view)
        start = time.perf_counter()
        response = act(client, token, played.view, action, text, refuse)
        assert response.status_code == 200, response.text
        view = response.json()
        if view["phase"] in WAITING:
            view = wait_view(client, token)
        played.seconds.setdefault(
            "probe" if action == "probe" else played.view["phase"], []
        ).append(time.perf_counter() - start)
        played.actions += 1
        played.view = view
    return played
