"""A fake OpenAI-compatible chat-completions server on 127.0.0.1 for tests.

It speaks real HTTP (http.server in a thread, port chosen by the OS) and
answers each POST /chat/completions with what `script(body, number)` returns:
(status, JSON-able payload or raw bytes, extra headers). It records every
request body, its headers (names in lower case) and when it arrived.
"""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def completion(message: dict, prompt_tokens: int = 100, completion_tokens: int = 7) -> dict:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "model": "fake-model",
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


class OracleModel:
    """A scripted model: two probes a round (with a reasoning field), then
    stops; a fixed rule report; answers tasks with the world's reference
    solutions. `failures` maps a request number to the reply it gets instead."""

    def __init__(self, env, failures=None):
        self.env = env
        self.failures = failures or {}

    def __call__(self, body, number):
        if number in self.failures:
            return self.failures[number]
        messages = body["messages"]
        last_user = max(i for i, m in enumerate(messages) if m["role"] == "user")
        prompt = messages[last_user]["content"]
        if body.get("tool_choice") == "none":
            if "rule report" in prompt:
                return (
                    200,
                    completion(
                        {"role": "assistant", "content": "D1: (+ n 1)\nD2: (< a b)\nD3: UNKNOWN"}
                    ),
                    {},
                )
            task = re.search(r"Held-out task (\w+)", prompt)
            if task:
                return (
                    200,
                    completion(
                        {
                            "role": "assistant",
                            "content": "Answer:\n" + self.env.reference_reply(task.group(1)),
                        }
                    ),
                    {},
                )
            return (
                200,
                completion({"role": "assistant", "content": "My hypotheses are unchanged."}),
                {},
            )
        made = sum(1 for m in messages[last_user:] if m["role"] == "tool")
        if made >= 2:
            return 200, completion({"role": "assistant", "content": "Done for this round."}), {}
        call = {
            "id": f"call_srv_{number}",
            "type": "function",
            "function": {
                "name": "run_aliencode",
                "arguments": json.dumps({"code": f"EMIT(PLUCK(STRAND(1, 2, 3), {made}))"}),
            },
        }
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [call],
            "reasoning_content": f"thinking {number}",
            "refusal": None,
        }
        return 200, completion(message), {}


class FakeServer:
    def __init__(self, script, delay: float = 0.0) -> None:
        self.script = script
        self.delay = delay
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self.times: list[float] = []  # time.monotonic() at each request's arrival
        self.lock = threading.Lock()
        self.inflight = 0
        self.max_inflight = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length))
                with server.lock:
                    server.requests.append(body)
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                    server.times.append(time.monotonic())
                    number = len(server.requests)
                    server.inflight += 1
                    server.max_inflight = max(server.max_inflight, server.inflight)
                try:
                    if self.path != "/v1/chat/completions":
                        status, payload, headers = 404, {"error": {"message": "not found"}}, {}
                    else:
                        if server.delay:
                            time.sleep(server.delay)
                        status, payload, headers = server.script(body, number)
                finally:
                    with server.lock:
                        server.inflight -= 1
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                try:
                    self.wfile.write(data)
                except (
                    BrokenPipeError,
                    ConnectionResetError,
                ):  # the client hung up (a cancelled request)
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> FakeServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
