"""An agent for any OpenAI-compatible chat-completions endpoint with tool
calling, on the official `openai` SDK (its async client).

The conversation is sent as structured messages and kept as the endpoint
returned it (the reply's JSON, not the SDK's model of it): an assistant
message's tool-call ids and any reasoning fields (`reasoning_content`,
`reasoning`, `reasoning_details`, ...) go back unchanged in later requests
(`drop_fields` removes fields an endpoint refuses). Tool-disabled requests
still list the tool, with `tool_choice: "none"`, so every request shares one
prompt prefix. The SDK retries 408, 409, 429, 5xx, timeouts and dropped
connections with exponential backoff, honouring `Retry-After`; a 200 whose
body is unreadable or has no `choices` is asked again here, within the same
retry budget. Other errors stop the run at once (resume it later). The
trajectory's seed is sent as `seed` until the endpoint refuses that field.
The API key is read from an environment variable and never recorded.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import sys
import urllib.parse

from .agent import Agent, AgentError, Reply, Request

DEFAULT_BASE_URL = "https://api.openai.com/v1"
RETRIED = frozenset({408, 409, 429})  # and every 5xx: the statuses the SDK retries


def _loopback(url: str) -> bool:
    host = urllib.parse.urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _refuses_seed(error: Exception) -> bool:
    """A 400/422 whose message names the `seed` field."""
    status = getattr(error, "status_code", None)
    return status in (400, 422) and "seed" in str(getattr(error, "message", "") or error).lower()


class OpenAIAgent(Agent):
    name = "openai"

    def __init__(
        self,
        base_url: str | None = None,
        model: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        params: dict[str, object] | None = None,
        concurrency: int = 4,
        timeout: float = 600.0,
        max_retries: int = 6,
        backoff: float = 2.0,
        max_backoff: float = 60.0,
        drop_fields: tuple[str, ...] | list[str] = (),
        seed: int | None = None,
    ) -> None:
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL).rstrip(
            "/"
        )
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
        self.seed = seed
        self.send_seed = seed is not None
        self._client = None
        self._client_loop: asyncio.AbstractEventLoop | None = None

    @classmethod
    def from_options(cls, env: object, seed: int, options: dict[str, object]) -> OpenAIAgent:
        return cls(seed=seed, **{k: v for k, v in options.items() if k != "source"})

    def config(self) -> dict[str, object]:
        return {
            "name": self.name,
            "model": self.model,
            "params": self.params,
            "drop_fields": list(self.drop_fields),
        }

    def runtime(self) -> dict[str, object]:
        """Recorded in the trace header but free to change on --resume."""
        return {
            "base_url": self.base_url,
            "api_key_env": self.api_key_env,
            "concurrency": self.concurrency,
            "timeout": self.timeout,
            "max_retries": self.max_retries,
            "backoff": self.backoff,
            "max_backoff": self.max_backoff,
        }

    # -- requests ----------------------------------------------------------------------
    def _outgoing(self, message: dict) -> dict:
        if message.get("role") == "assistant" and self.drop_fields:
            return {k: v for k, v in message.items() if k not in self.drop_fields}
        return message

    def body(self, request: Request) -> dict[str, object]:
        """The JSON body of a request (the key and headers aside)."""
        body: dict[str, object] = {
            "model": self.model,
            "messages": [self._outgoing(m) for m in request.messages],
        }
        if request.tools:
            body["tools"] = request.tools
            if not request.tools_enabled:
                body["tool_choice"] = "none"
        if self.send_seed:
            body["seed"] = self.seed
        body.update(self.params)
        return {k: v for k, v in body.items() if v is not None}  # --param KEY=null removes a field

    def client(self):
        """The SDK client of the running event loop (its connections belong
        to that loop)."""
        import openai

        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop:
            http = (
                openai.DefaultAsyncHttpxClient(trust_env=False)
                if _loopback(self.base_url)
                else None
            )
            self._client = openai.AsyncOpenAI(
                api_key=self.api_key or "no key",
                base_url=self.base_url,
                timeout=self.timeout,
                max_retries=self.max_retries,
                http_client=http,
            )
            self._client_loop = loop
        return self._client

    async def aclose(self) -> None:
        if self._client is not None and self._client_loop is asyncio.get_running_loop():
            await self._client.close()
        self._client = self._client_loop = None

    def respond(self, request: Request) -> Reply:
        async def once() -> Reply:
            try:
                return await self.respond_async(request)
            finally:
                await self.aclose()

        return asyncio.run(once())

    async def respond_async(self, request: Request) -> Reply:
        data, attempts = await self.post(request)
        message = dict(data["choices"][0].get("message") or {})
        message["role"] = "assistant"
        usage = data.get("usage") or {}
        return Reply(
            message,
            {
                "prompt_tokens": int(usage.get("prompt_tokens") or 0),
                "completion_tokens": int(usage.get("completion_tokens") or 0),
            },
            attempts,
        )

    async def post(self, request: Request) -> tuple[dict, int]:
        """One chat completion: the reply's JSON and the attempts it took."""
        import openai

        attempts = unusable = 0
        while True:
            body = self.body(request)
            headers = (
                {} if self.api_key else {"Authorization": openai.Omit()}
            )  # no key, no Authorization header
            try:
                raw = await self.client().chat.completions.with_raw_response.create(
                    model=body.pop("model"),
                    messages=body.pop("messages"),
                    extra_body=body,
                    extra_headers=headers,
                )
            except openai.APIStatusError as exc:
                if self.send_seed and _refuses_seed(exc):
                    self.send_seed = False
                    print(
                        f"openai agent: {self.base_url} refuses the seed field; no longer "
                        "sending it",
                        file=sys.stderr,
                    )
                    continue
                detail = f"HTTP {exc.status_code}: {str(exc.message)[:500]}"
                if exc.status_code in RETRIED or exc.status_code >= 500:
                    detail += (
                        " (still failing after the SDK's retries, "
                        f"--max-retries {self.max_retries})"
                    )
                raise AgentError(f"{self.base_url}: {detail}") from None
            except (
                openai.APIError
            ) as exc:  # timeouts and connection errors, after the SDK's retries
                raise AgentError(
                    f"{self.base_url}: {type(exc).__name__}: {exc} "
                    f"(still failing after the SDK's retries, --max-retries {self.max_retries})"
                ) from None
            attempts += raw.retries_taken + 1
            try:
                data = json.loads(raw.text)
            except ValueError as exc:
                last = f"unreadable response: {exc}"
            else:
                if isinstance(data, dict) and data.get("choices"):
                    return data, attempts
                last = f"a response without choices: {raw.text[:300]!r}"
            if unusable >= self.max_retries:
                raise AgentError(
                    f"{self.base_url}: giving up after {attempts} attempts; last: {last}"
                )
            await asyncio.sleep(min(self.backoff * 2**unusable, self.max_backoff))
            unusable += 1
