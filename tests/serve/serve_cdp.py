"""Headless Chromium driven over the DevTools protocol on a pipe
(`--remote-debugging-pipe`: JSON messages, each ended by a NUL byte, read
from the browser's fd 3 and written to its fd 4), so no extra package and no
debugging port are needed. Debian's chromium; see tests/episode/test_browser.py
for how CI provides it."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

NAMES = ("chromium", "chromium-browser")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-extensions",
    "--disable-default-apps",
    "--no-default-browser-check",
    "--mute-audio",
    "--remote-debugging-pipe",
)


def chromium_or_skip() -> str:
    found = os.environ.get("ALIENWORLDS_CHROMIUM") or next(
        (p for p in map(shutil.which, NAMES) if p), None
    )
    if found:
        return found
    if os.environ.get("ALIENWORLDS_REQUIRE_CHROMIUM"):
        pytest.fail(
            "chromium is required here (ALIENWORLDS_REQUIRE_CHROMIUM is set) but was not found"
        )
    pytest.skip(
        "chromium not found (apt-get install -y chromium); outside CI the browser test is skipped"
    )


class CDPError(Exception):
    pass


def _high(fd: int) -> int:
    """`fd` moved to 10 or above, so that placing the pipes at 3 and 4 in
    the child never overwrites one with the other, and never leaves one in
    place with its close-on-exec flag (dup2 onto itself keeps the flag)."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


class Browser:
    def __init__(self, binary: str, profile: Path, url: str, size: str = "1280,1600") -> None:
        to_browser_r, self._to_browser = map(_high, os.pipe())
        self._from_browser, from_browser_w = map(_high, os.pipe())

        def wire() -> None:  # in the child: the pipes become fds 3 and 4 (inheritable)
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.process = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={profile}", f"--window-size={size}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire,
            close_fds=False,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next = 0
        self.session = self._attach()
        self.open(url)

    def _send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self._next += 1
        message = {"id": self._next, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self._buffer:
                chunk = os.read(self._from_browser, 1 << 16)
                if not chunk:
                    raise CDPError("the browser closed its pipe")
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise CDPError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def _attach(self, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pages = [
                t for t in self._send("Target.getTargets")["targetInfos"] if t["type"] == "page"
            ]
            if pages:
                target = pages[0]["targetId"]
                return self._send("Target.attachToTarget", {"targetId": target, "flatten": True})[
                    "sessionId"
                ]
            time.sleep(0.1)
        raise CDPError("no page target appeared")

    def open(self, url: str, timeout: float = 30.0) -> None:
        """Navigate to `url` and wait until its document has loaded."""
        self._send("Page.navigate", {"url": url}, self.session)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if self.evaluate(
                    f"location.href === {json.dumps(url)} && document.readyState === 'complete'"
                ):
                    return
            except CDPError:  # the old document went away mid-evaluation
                pass
            time.sleep(0.05)
        raise CDPError(f"{url} did not load")

    def evaluate(self, expression: str) -> object:
        result = self._send(
            "Runtime.evaluate",
            {"expression": expression, "awaitPromise": True, "returnByValue": True},
            self.session,
        )
        if "exceptionDetails" in result:
            raise CDPError(str(result["exceptionDetails"])[:500])
        return result["result"].get("value")

    def screenshot(self, path: Path) -> bytes:
        import base64

        data = base64.b64decode(
            self._send("Page.captureScreenshot", {"format": "png"}, self.session)["data"]
        )
        path.write_bytes(data)
        return data

    def close(self) -> None:
        try:
            self._send("Browser.close")
        except (CDPError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
