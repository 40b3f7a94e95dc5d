"""The study server's ASGI application (starlette).

    GET  /p/TOKEN                 the participant's page (a static shell; play.js)
    GET  /api/p/TOKEN/state       what the page shows now (serve.view)
    GET  /api/p/TOKEN/briefing    the system prompt: protocol, manual, worked examples
    POST /api/p/TOKEN/act         {"action": probe|end-round|answer, "key", "text", "refuse"}
    GET  /r/TOKEN                 the researcher's page: progress and leaderboard
    GET  /api/r/TOKEN/status      the same as JSON
    GET  /static/play.js|play.css

A token opens only what its grant names: a participant token one session,
a researcher token one study's page. A missing, malformed, unknown or
wrongly scoped token gets the same 404, so a probe learns nothing about
which tokens exist. No route maps a request path to a file.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from .limits import Limiter, Rate
from .middleware import BodyLimit, BodyTooLarge, RateLimit, SecurityHeaders
from .pages import researcher_page, status
from .session import ActionError, Session
from .sessions import Sessions
from .store import Grant, Store, StoreError

LOG = logging.getLogger("alienworlds.serve")
MAX_TEXT = 20_000  # characters of one probe or answer


@dataclass(frozen=True)
class ServerLimits:
    body_bytes: int = 64 * 1024
    client_rate: Rate = Rate(per_second=20.0, burst=60)  # per client address, every request
    action_rate: Rate = Rate(per_second=4.0, burst=20)  # per session, actions only
    act_wait: float = 30.0  # seconds an action waits for the driver before the page polls


STATIC = {
    "play.js": "text/javascript; charset=utf-8",
    "play.css": "text/css; charset=utf-8",
}


def _static(name: str) -> bytes:
    return resources.files("alienworlds.serve").joinpath("static", name).read_bytes()


def _error(status_code: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status_code)


NOT_FOUND = "no such session"


def build(data: str | Path, limits: ServerLimits | None = None) -> Starlette:
    limits = limits or ServerLimits()
    store = Store(data)
    assets = {name: _static(name) for name in STATIC}
    shell = _static("play.html")
    action_limiter = Limiter(limits.action_rate)
    state: dict[str, Sessions] = {}

    @asynccontextmanager
    async def lifespan(app: Starlette):
        sessions = state["sessions"] = Sessions(store, asyncio.get_running_loop())
        await asyncio.to_thread(sessions.resume_open)
        threading.Thread(target=sessions.warm, name="warm", daemon=True).start()
        try:
            yield
        finally:
            await asyncio.to_thread(sessions.stop_all)

    def grant_of(request: Request, role: str) -> Grant | None:
        grant = store.grant(request.path_params.get("token", ""))
        return grant if grant is not None and grant.role == role else None

    def session_of(request: Request) -> Session | None:
        grant = grant_of(request, "participant")
        if grant is None:
            return None
        return state["sessions"].get(grant.study, grant.participant)

    async def participant_page(request: Request) -> Response:
        if grant_of(request, "participant") is None:
            return HTMLResponse("<!doctype html><title>Not found</title>Not found.", 404)
        return Response(shell, media_type="text/html; charset=utf-8")

    async def participant_state(request: Request) -> Response:
        session = session_of(request)
        if session is None:
            return _error(404, NOT_FOUND)
        return JSONResponse(session.mailbox.posted.view)

    async def briefing(request: Request) -> Response:
        session = session_of(request)
        if session is None:
            return _error(404, NOT_FOUND)
        if session.briefing is None or session.info is None:
            return _error(503, "the session is starting; try again in a moment")
        info = session.info
        return JSONResponse(
            {"briefing": session.briefing, "tool": info.tool_name, "argument": info.tool_argument}
        )

    async def act(request: Request) -> Response:
        session = session_of(request)
        if session is None:
            return _error(404, NOT_FOUND)
        if action_limiter.take(f"{session.study.id}/{session.participant}") > 0:
            return _error(429, "too many actions; wait a moment")
        try:
            body = json.loads(await request.body())
        except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
            return _error(400, "the body is not JSON")
        if not isinstance(body, dict):
            return _error(400, "the body is not a JSON object")
        action, key = body.get("action"), body.get("key")
        text, refuse = body.get("text", ""), body.get("refuse", False)
        if not (
            isinstance(action, str)
            and isinstance(key, str)
            and isinstance(text, str)
            and isinstance(refuse, bool)
        ):
            return _error(400, "action and key are strings, text a string, refuse true or false")
        if len(text) > MAX_TEXT:
            return _error(413, f"the text is over {MAX_TEXT} characters")
        try:
            view = await session.act(action, key, text, refuse, limits.act_wait)
        except ActionError as exc:
            return _error(exc.status, str(exc))
        return JSONResponse(view)

    def study_of(request: Request):
        grant = grant_of(request, "researcher")
        return store.study(grant.study) if grant is not None else None

    async def researcher(request: Request) -> Response:
        study = study_of(request)
        if study is None:
            return HTMLResponse("<!doctype html><title>Not found</title>Not found.", 404)
        data, boards = await asyncio.to_thread(status, state["sessions"], study)
        return HTMLResponse(researcher_page(data, boards))

    async def researcher_status(request: Request) -> Response:
        study = study_of(request)
        if study is None:
            return _error(404, NOT_FOUND)
        data, _ = await asyncio.to_thread(status, state["sessions"], study)
        return JSONResponse(data)

    def asset(name: str):
        async def serve_asset(request: Request) -> Response:
            return Response(assets[name], media_type=STATIC[name])

        return serve_asset

    async def too_large(request: Request, exc: Exception) -> Response:
        return _error(413, f"request body over {limits.body_bytes} bytes")

    async def store_error(request: Request, exc: Exception) -> Response:
        LOG.error("alienworlds serve: %s", exc)  # the path is for the researcher, not the page
        return _error(500, "the study's data cannot be read; the server's log says why")

    routes = [
        Route("/p/{token}", participant_page),
        Route("/api/p/{token}/state", participant_state),
        Route("/api/p/{token}/briefing", briefing),
        Route("/api/p/{token}/act", act, methods=["POST"]),
        Route("/r/{token}", researcher),
        Route("/api/r/{token}/status", researcher_status),
        *(Route(f"/static/{name}", asset(name)) for name in STATIC),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={BodyTooLarge: too_large, StoreError: store_error},
    )
    app.router.redirect_slashes = False  # an unknown path is a 404, never a redirect
    return app


def wrap(app, limits: ServerLimits | None = None):
    """The application with its middleware, outermost first: headers, rate, body."""
    limits = limits or ServerLimits()
    return SecurityHeaders(
        RateLimit(BodyLimit(app, limits.body_bytes), Limiter(limits.client_rate))
    )


def application(data: str | Path, limits: ServerLimits | None = None):
    return wrap(build(data, limits), limits)
