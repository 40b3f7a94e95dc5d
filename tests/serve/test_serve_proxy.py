"""Behind a reverse proxy on this machine, each participant has their own rate
limit: the real server (uvicorn) takes the client's address from
X-Forwarded-For when the request comes from loopback."""

import time

import httpx
from serve_process import ServerProcess
from serve_testing import make_study

BURST = 4
RATE = 0.1  # the lowest the command allows


def test_forwarded_clients_have_their_own_buckets(tmp_path, tally):
    made = make_study(tmp_path / "data", count=1)
    extra = ("--rate", str(RATE), "--burst", str(BURST))
    server = ServerProcess(made.data, extra=extra).start()
    try:
        with httpx.Client(base_url=server.base, timeout=30) as client:
            for n in range(6):
                forwarded = {"x-forwarded-for": f"203.0.113.{n + 1}"}
                start = time.monotonic()
                codes = [
                    client.get("/static/play.css", headers=forwarded).status_code
                    for _ in range(BURST + 3)
                ]
                # what a bucket of this rate may let through in the time the requests took
                most = BURST + int((time.monotonic() - start) * RATE)
                passed = codes.count(200)
                held = (
                    codes[:BURST] == [200] * BURST and passed <= most and set(codes) <= {200, 429}
                )
                tally.check("request flood", held, f"client {n + 1}: {codes}")
    finally:
        server.stop()
