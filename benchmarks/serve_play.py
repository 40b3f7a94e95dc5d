"""A scripted participant plays a whole episode in headless Chromium against
`alienworlds serve` (a process on a free loopback port), and the wall time
of every page action is printed: from the button press until the page shows
the outcome (issue 29's goal: every probe answered in under 300 ms).

    python benchmarks/serve_play.py [--world main] [--language aliencode] [--probes 12]
                                    [--participants 1] [--keep DIR]

With --participants N, N browsers play the same study at once (each its own
session), to see the latency while the server is shared. With --no-browser the
participants play through the HTTP API instead (httpx), which separates the
server's share of the time from the browser's. The participant
types the answer key (tests/serve/serve_participant.py), so every milestone
should score 100%; the script prints the curve from the trace.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE.parent]
sys.path.insert(0, str(HERE.parents[1] / "tests" / "serve"))

import httpx  # noqa: E402
from alienworlds.episode.environment_loader import make_environment  # noqa: E402
from alienworlds.episode.metrics import compute_report  # noqa: E402
from alienworlds.episode.trace import read_trace  # noqa: E402
from serve_browser_play import BrowserPlay, play_in_browser  # noqa: E402
from serve_cdp import Browser, chromium_or_skip  # noqa: E402
from serve_participant import ScriptedParticipant  # noqa: E402
from serve_process import ServerProcess  # noqa: E402
from serve_testing import make_study, play  # noqa: E402


def summary(kind: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"{kind:<8} {len(times):>5} actions  median {statistics.median(times):7.1f} ms  "
        f"p95 {p95:7.1f} ms  max {max(times):7.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", default="main")
    parser.add_argument("--language", default="aliencode", choices=("aliencode", "alienlogic"))
    parser.add_argument("--bank", help="a bank file (default: the world's own)")
    parser.add_argument("--probes", type=int, default=12, help="probes a round (default 12)")
    parser.add_argument("--participants", type=int, default=1)
    parser.add_argument("--keep", metavar="DIR", help="keep the data directory in DIR")
    parser.add_argument("--no-browser", action="store_true", help="play through the HTTP API")
    args = parser.parse_args()
    binary = None if args.no_browser else chromium_or_skip()
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="serve-bench-"))
    env = make_environment(args.language, args.world, args.bank)
    made = make_study(
        root / "data",
        count=args.participants,
        world=args.world,
        language=args.language,
        bank=Path(args.bank).resolve() if args.bank else None,
    )
    print(f"world {args.world}: {len(env.tasks())} tasks; {args.participants} participant(s)")
    server = ServerProcess(made.data).start()
    results: dict[str, object] = {}

    def one(participant_id: str, token: str) -> None:
        if binary is None:
            with httpx.Client(base_url=server.base, timeout=900) as client:
                played = play(client, token, ScriptedParticipant(env, probes_per_round=args.probes))
            results[participant_id] = BrowserPlay(
                played.actions,
                {k: [1000 * t for t in v] for k, v in played.seconds.items()},
                [played.view],
            )
            return
        browser = Browser(binary, root / f"profile-{participant_id}", f"{server.base}/p/{token}")
        try:
            results[participant_id] = play_in_browser(
                browser, ScriptedParticipant(env, probes_per_round=args.probes)
            )
        except Exception as exc:  # noqa: BLE001 - reported per participant below
            results[participant_id] = exc
        finally:
            browser.close()

    start = time.perf_counter()
    threads = [threading.Thread(target=one, args=item) for item in made.tokens.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - start
    server.stop()
    pooled: dict[str, list[float]] = {}
    for participant_id, played in sorted(results.items()):
        if isinstance(played, Exception):
            print(f"{participant_id}: FAILED {type(played).__name__}: {played}")
            continue
        events = read_trace(made.data / "studies" / made.study.id / participant_id / "trace.jsonl")
        curve = [m["accuracy"] for m in compute_report(events)["milestones"]]
        print(
            f"{participant_id}: {played.seen[-1]['phase']} after {played.actions} actions; "
            f"curve {curve}"
        )
        for kind, times in played.milliseconds.items():
            pooled.setdefault(kind, []).extend(times)
    for kind, times in sorted(pooled.items()):
        print(summary(kind, times))
    slow = sum(1 for t in pooled.get("probe", []) if t >= 300)
    print(f"probes at or over 300 ms: {slow} of {len(pooled.get('probe', []))}; wall {wall:.1f} s")
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
