"""ASGI middleware of the study server: a rate limit per client address, a
limit on request bodies, and the headers every response carries.

They are plain ASGI wrappers (no framework state), outermost first in
`app.build`: the rate limit sheds a flood before any other work, and the
body limit refuses a large body before it is read into memory.
"""

from __future__ import annotations

import json
import math

from .limits import Limiter

# no script, style, image or connection except from this server; no framing;
# no referrer, so the token in a page's address never leaves in a Referer header
HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        b"img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
    ),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


async def _json_error(send, status: int, message: str, extra: list | None = None) -> None:
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *HEADERS,
                *(extra or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class SecurityHeaders:
    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                message = {
                    **message,
                    "headers": [
                        *message.get("headers", []),
                        *(h for h in HEADERS if h[0] not in names),
                    ],
                }
            await send(message)

        await self.app(scope, receive, send_with_headers)


class RateLimit:
    """429 with Retry-After once a client address has spent its bucket."""

    def __init__(self, app, limiter: Limiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client") or ("unknown", 0)
        wait = self.limiter.take(str(client[0]))
        if wait > 0:
            retry = str(max(1, math.ceil(min(wait, 3600.0)))).encode()
            await _json_error(
                send, 429, "too many requests; wait and try again", [(b"retry-after", retry)]
            )
            return
        await self.app(scope, receive, send)


class BodyTooLarge(Exception):
    pass


class BodyLimit:
    """413 for a body over `limit` bytes: by its Content-Length at once, or
    as soon as a streamed body passes the limit."""

    def __init__(self, app, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name.lower() == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared < 0 or declared > self.limit:
                    await _json_error(send, 413, f"request body over {self.limit} bytes")
                    return
        seen = 0
        started = False

        async def counted_receive():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge
            return message

        async def tracked_send(message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, tracked_send)
        except BodyTooLarge:
            if not started:
                await _json_error(send, 413, f"request body over {self.limit} bytes")
