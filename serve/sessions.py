"""The server's sessions: one per participant, started when its link is
first opened, and at start-up for every episode a previous server left
open (a trace without its end), so a restarted server continues them all.
"""

from __future__ import annotations

import asyncio
import threading

from alienworlds.episode.environment_loader import make_environment
from alienworlds.episode.trace import TRACE_NAME, TraceError, read_trace

from .session import Session
from .store import Store, StoreError


def trace_state(events: list[dict]) -> str:
    if not events:
        return "not started"
    return "finished" if any(e.get("type") == "end" for e in events) else "open"


class Sessions:
    def __init__(self, store: Store, loop: asyncio.AbstractEventLoop) -> None:
        self.store = store
        self.loop = loop
        self._sessions: dict[tuple[str, str], Session] = {}
        self._lock = threading.Lock()

    def get(self, study_id: str, participant: str) -> Session:
        with self._lock:
            session = self._sessions.get((study_id, participant))
            if session is None:
                study = self.store.study(study_id)
                if participant not in study.participants:
                    raise StoreError(f"study {study_id!r} has no participant {participant!r}")
                session = Session(self.store, study, participant, self.loop)
                self._sessions[study_id, participant] = session
                session.start()
            return session

    def live(self, study_id: str, participant: str) -> Session | None:
        with self._lock:
            return self._sessions.get((study_id, participant))

    def events(self, study_id: str, participant: str) -> list[dict]:
        path = self.store.participant_dir(study_id, participant) / TRACE_NAME
        if not path.exists():
            return []
        try:
            return read_trace(path)
        except (TraceError, OSError):
            return []

    def resume_open(self) -> list[tuple[str, str]]:
        """Start every session whose trace is open; their (study, participant)."""
        resumed = []
        for study in self.store.studies():
            for participant in study.participants:
                if trace_state(self.events(study.id, participant)) == "open":
                    self.get(study.id, participant)
                    resumed.append((study.id, participant))
        return resumed

    def warm(self) -> None:
        """Load each study's world and bank once, so that the first session
        of a world does not wait for its bank audit (AlienCode keeps the
        audit per process); a study that cannot load fails in its sessions."""
        seen = set()
        for study in self.store.studies():
            key = (study.language, study.world, study.bank)
            if key not in seen:
                seen.add(key)
                try:
                    make_environment(*key)
                except Exception:  # noqa: BLE001 - reported by each session that needs it
                    continue

    def stop_all(self) -> None:
        with self._lock:
            sessions = list(self._sessions.values())
        for session in sessions:
            session.mailbox.stop()
        for session in sessions:
            session.stop(timeout=5.0)
