"""An agent for any OpenAI-compatible chat-completions endpoint with tool
calling, using only the standard library (urllib).

The conversation is sent as structured messages and kept as the endpoint
returned it: an assistant message's tool-call ids and any reasoning fields
(`reasoning_content`, `reasoning`, `reasoning_details`, ...) go back
unchanged in later requests (`drop_fields` removes fields an endpoint
refuses). Tool-disabled requests still list the tool, with
`tool_choice: "none"`, so every request shares one prompt prefix.
Requests that fail with 408, 429, a 5xx status, a timeout, a dropped
connection or an unreadable body are retried with exponential backoff
(`Retry-After` honoured, capped); other HTTP errors stop the run at once.
The API key is read from an environment variable and never recorded.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import os
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Callable

from .agents import Agent, AgentError, Reply, Request

RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 521, 522, 523, 524, 529})


def _loopback(url: str) -> bool:
    host = urllib.parse.urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class OpenAIAgent(Agent):
    name = "openai"

    def __init__(self, base_url: str | None = None, model: str | None = None, api_key_env: str = "OPENAI_API_KEY",
                 params: dict[str, object] | None = None, concurrency: int = 4, timeout: float = 600.0,
                 max_retries: int = 6, backoff: float = 2.0, max_backoff: float = 60.0,
                 drop_fields: tuple[str, ...] | list[str] = (), sleep: Callable[[float], None] = time.sleep) -> None:
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1").rstrip("/")
        if not model:
            raise AgentError("the openai agent needs a model name (--model)")
        self.model = model
        self.api_key_env = api_key_env
        self.api_key = os.environ.get(api_key_env) if api_key_env else None
        self.params = dict(params or {})
        self.concurrency = max(1, int(concurrency))
        self.timeout = float(timeout)
        self.max_retries = max(0, int(max_retries))
        self.backoff = float(backoff)
        self.max_backoff = float(max_backoff)
        self.drop_fields = tuple(drop_fields)
        self.sleep = sleep
        handlers = [urllib.request.ProxyHandler({})] if _loopback(self.base_url) else []
        self._opener = urllib.request.build_opener(*handlers)

    def config(self) -> dict[str, object]:
        return {"name": self.name, "model": self.model, "params": self.params, "drop_fields": list(self.drop_fields)}

    def runtime(self) -> dict[str, object]:
        """Recorded in the trace header but free to change on --resume."""
        return {"base_url": self.base_url, "api_key_env": self.api_key_env, "concurrency": self.concurrency, "timeout": self.timeout, "max_retries": self.max_retries,
                "backoff": self.backoff, "max_backoff": self.max_backoff}

    # -- requests ----------------------------------------------------------------------
    def _outgoing(self, message: dict) -> dict:
        if message.get("role") == "assistant" and self.drop_fields:
            return {k: v for k, v in message.items() if k not in self.drop_fields}
        return message

    def body(self, request: Request) -> dict[str, object]:
        body: dict[str, object] = {"model": self.model, "messages": [self._outgoing(m) for m in request.messages]}
        if request.tools:
            body["tools"] = request.tools
            if not request.tools_enabled:
                body["tool_choice"] = "none"
        body.update(self.params)
        return body

    def respond(self, request: Request) -> Reply:
        data, attempts = self.post(self.body(request))
        choice = data["choices"][0]
        message = dict(choice.get("message") or {})
        message["role"] = "assistant"
        usage = data.get("usage") or {}
        return Reply(message, {"prompt_tokens": int(usage.get("prompt_tokens") or 0),
                               "completion_tokens": int(usage.get("completion_tokens") or 0)}, attempts)

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        delay = self.backoff * (2 ** (attempt - 1))
        if retry_after:
            try:
                delay = max(delay, float(retry_after))
            except ValueError:
                pass
        return min(delay, self.max_backoff)

    def post(self, body: dict[str, object]) -> tuple[dict, int]:
        """POST to /chat/completions with retries; the decoded JSON and the
        number of attempts it took."""
        url = self.base_url + "/chat/completions"
        payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        last = "no attempt"
        for attempt in range(1, self.max_retries + 2):
            retry_after = None
            try:
                req = urllib.request.Request(url, data=payload, headers=headers, method="POST")
                with self._opener.open(req, timeout=self.timeout) as response:
                    raw = response.read()
                data = json.loads(raw)
                if isinstance(data, dict) and data.get("choices"):
                    return data, attempt
                last = f"a response without choices: {raw[:300]!r}"
            except urllib.error.HTTPError as exc:
                detail = exc.read()[:500].decode("utf-8", "replace") if exc.fp is not None else ""
                if exc.code not in RETRY_STATUS:
                    raise AgentError(f"{url}: HTTP {exc.code}: {detail}") from None
                last = f"HTTP {exc.code}: {detail}"
                retry_after = exc.headers.get("Retry-After") if exc.headers else None
            except (urllib.error.URLError, TimeoutError, socket.timeout, ConnectionError, http.client.HTTPException, OSError) as exc:
                last = f"{type(exc).__name__}: {getattr(exc, 'reason', exc)}"
            except ValueError as exc:  # an unreadable body
                last = f"unreadable response: {exc}"
            if attempt <= self.max_retries:
                self.sleep(self._delay(attempt, retry_after))
        raise AgentError(f"{url}: giving up after {self.max_retries + 1} attempts; last: {last}")
