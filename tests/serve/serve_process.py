"""The study server as a real process (`alienworlds serve`) on a free
loopback port, for the tests that kill it or drive it from a browser."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

FAST = ("--rate", "1000", "--burst", "100000", "--action-rate", "1000")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServerProcess:
    def __init__(self, data: Path, port: int | None = None, extra: tuple[str, ...] = FAST) -> None:
        self.data = data
        self.port = port or free_port()
        self.extra = extra
        self.process: subprocess.Popen | None = None
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> ServerProcess:
        command = [sys.executable, "-m", "alienworlds.cli.alienworlds", "serve"]
        command += ["--data", str(self.data), "--port", str(self.port), *self.extra]
        # a file, not a pipe: a server that writes much would block on a full pipe
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.log.seek(0)
                raise RuntimeError(f"the server exited: {self.log.read().decode()[-2000:]}")
            try:
                httpx.get(self.base + "/static/play.css", timeout=1.0)
                return self
            except httpx.TransportError:
                time.sleep(0.1)
        raise TimeoutError("the server did not start")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, nothing is flushed on the way out."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        self.log.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
                return
            self.log.close()
