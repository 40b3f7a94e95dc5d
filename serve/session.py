"""One participant's episode, run by the unchanged episode driver in a
worker thread of its own (its own event loop), its replies fed from HTTP
through the session's mailbox.

The trace is the driver's append-only trace, opened with resume: a session
whose server was killed continues from what its trace holds, and a reply
the server acknowledged is already in the trace (the handler waits for the
driver's next request before it answers).
"""

from __future__ import annotations

import asyncio
import threading
import time

from alienworlds.episode.driver import Episode, Settings
from alienworlds.episode.environment import Environment
from alienworlds.episode.environment_loader import make_environment
from alienworlds.episode.human_agent import HumanAgent, earlier_answers
from alienworlds.episode.progress import Progress
from alienworlds.episode.protocol import CONDITIONS, milestone_labels
from alienworlds.episode.trace import TRACE_NAME

from .mailbox import Mailbox, Stale, Stopped
from .store import CONSENT_FILE, FORMAT, Store, Study, write_atomic
from .view import SessionInfo, answer_kind, state_view
from .web_player import PageAction, WebPlayer

CONSENT_KEY = "consent"
FAILED = "The session cannot go on. The researcher has been told; please contact them."


class ActionError(Exception):
    """An action the session cannot take now (HTTP 400); `status` 409 when
    the page was out of date."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def session_info(env: Environment, study: Study, participant: str) -> SessionInfo:
    condition = CONDITIONS[study.condition]
    return SessionInfo(
        participant=f"{study.id}-{participant}",
        language=env.language,
        tool_name=env.tool_name,
        tool_argument=env.tool_argument,
        rounds=condition.rounds,
        calls_per_round=env.calls_per_round,
        max_total_calls=env.max_total_calls,
        probe_cap=getattr(env, "probe_cap", None),
        milestones=tuple(f"M{m}" for m in milestone_labels(condition)),
        tasks=tuple((t.id, answer_kind(env.language, t.kind)) for t in env.tasks()),
        rule_ids=tuple(env.rule_ids()) if env.has_rule_report else (),
        passes=study.passes,
    )


class Session:
    def __init__(
        self, store: Store, study: Study, participant: str, loop: asyncio.AbstractEventLoop
    ) -> None:
        self.study = study
        self.participant = participant
        self.out = store.participant_dir(study.id, participant)
        self.mailbox = Mailbox(loop, {"phase": "starting", "key": None})
        self.info: SessionInfo | None = None
        self.episode: Episode | None = None
        self.briefing: str | None = None  # the system prompt, as the agents get it
        self.error: str | None = None  # why the session failed, for the researcher
        self.thread = threading.Thread(
            target=self._main, name=f"session-{study.id}-{participant}", daemon=True
        )

    def start(self) -> None:
        self.thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self.mailbox.stop()
        if self.thread.is_alive():
            self.thread.join(timeout)

    def _events(self) -> list[dict]:
        return list(self.episode.trace.events) if self.episode is not None else []

    def _main(self) -> None:
        study = self.study
        try:
            env = make_environment(study.language, study.world, study.bank)
            self.info = info = session_info(env, study, self.participant)
            self.briefing = env.system_prompt(
                open_book=CONDITIONS[study.condition].open_book == "m0"
            )
            self.episode = Episode(
                env,
                HumanAgent(
                    env,
                    WebPlayer(info, self.mailbox, self._events),
                    info.participant,
                    earlier_answers(self.out / TRACE_NAME),
                ),
                self.out,
                # the exploration section (tens of seconds on a large world) is left to
                # `aliencode report`, so the last answer does not keep the participant waiting
                Settings(
                    condition=study.condition,
                    seed=study.seed,
                    passes=study.passes,
                    exploration=False,
                ),
                resume=True,
                progress=Progress(mode="off"),
            )
            self._consent(info)
            self.mailbox.show(state_view(info, [], "working"))
            asyncio.run(self.episode.arun())
            self.mailbox.show(state_view(info, self._events(), "finished"))
        except Stopped:
            return
        except Exception as exc:  # noqa: BLE001 - the researcher gets one line
            # the reason may name server paths: it goes to the researcher's page only
            self.error = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
            view = (
                state_view(self.info, self._events(), "failed", FAILED)
                if self.info is not None
                else {"phase": "failed", "key": None, "message": FAILED}
            )
            self.mailbox.show(view)

    def _consent(self, info: SessionInfo) -> None:
        """Before the episode: the study's consent text, until the participant
        agrees; the agreement is kept beside the trace (once given, never asked
        again, also after a restart)."""
        path = self.out / CONSENT_FILE
        if self.study.consent is None or path.exists():
            return
        view = {**state_view(info, [], "consent"), "key": CONSENT_KEY, "prompt": self.study.consent}
        self.mailbox.ask(CONSENT_KEY, view)
        write_atomic(path, {"format": FORMAT, "agreed_at": round(time.time(), 3)})

    # -- actions from the page --------------------------------------------------
    def action_for(self, action: str, key: str, text: str, refuse: bool) -> PageAction:
        """The participant's action, if it answers what the page asks now."""
        view = self.mailbox.posted.view
        phase = view.get("phase")
        if view.get("key") is None or key != view.get("key"):
            raise ActionError("this page is out of date; reload it", 409)
        allowed = {
            "consent": ("consent",),
            "probe": ("explore",),
            "end-round": ("explore",),
            "answer": ("reflect", "rules", "answer"),
        }
        if action not in allowed:
            raise ActionError(f"unknown action {action!r}")
        if phase not in allowed[action]:
            raise ActionError(f"{action} is not what is asked now")
        if refuse and not (view.get("task") or {}).get("refusable"):
            raise ActionError("this cannot be answered with a refusal")
        return PageAction(action, text, refuse)

    async def act(self, action: str, key: str, text: str, refuse: bool, wait: float) -> dict:
        """Deliver the participant's action; the page after the driver took it."""
        page_action = self.action_for(action, key, text, refuse)
        try:
            version = self.mailbox.deliver(key, page_action)
        except Stale as exc:  # answered meanwhile (a second tab, a double press)
            raise ActionError("this page is out of date; reload it", 409) from exc
        await self.mailbox.changed(version, wait)
        return self.mailbox.posted.view
