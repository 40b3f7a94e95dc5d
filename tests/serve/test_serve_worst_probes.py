"""The worst programs of the limits contract (tests/aliencode/worst_cases.py,
generated from seeds) sent as probes through the study server: each is
answered with the tool's feedback, or refused whole as too large, and the
session goes on. Times are printed, not asserted."""

import sys
import time
from pathlib import Path

from alienworlds.serve.app import MAX_TEXT, ServerLimits, application
from alienworlds.serve.limits import Rate
from fuzzing import share
from serve_testing import act, make_study, wait_view
from starlette.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "aliencode"))
from worst_cases import generate  # noqa: E402

SEEDS = (1, 2)
FAST = ServerLimits(client_rate=Rate(1000.0, 100_000), action_rate=Rate(1000.0, 100_000))


def test_worst_case_programs_as_probes(tmp_path, demo_env, tally):
    cases = share(
        [c for s in SEEDS for c in generate(s) if c.world == "standard" and not c.world_text]
    )
    made = make_study(tmp_path / "data", count=len(cases) // 48 + 1)
    seconds = []
    with TestClient(application(made.data, FAST)) as client:
        tokens = iter(made.tokens.values())
        token = next(tokens)
        view = wait_view(client, token)
        for case in cases:
            while view["phase"] != "explore":
                if view["phase"] == "finished":
                    token = next(tokens)
                    view = wait_view(client, token)
                    continue
                view = act(client, token, view, "answer", "").json()
                view = wait_view(client, token) if view["phase"] == "working" else view
            start = time.perf_counter()
            response = act(client, token, view, "probe", case.source)
            seconds.append((time.perf_counter() - start, case.name))
            if len(case.source) > MAX_TEXT or len(case.source.encode()) > FAST.body_bytes:
                tally.check("worst-case probe", response.status_code == 413, case.name)
                continue
            tally.check(
                "worst-case probe",
                response.status_code == 200,
                f"{case.name}: {response.status_code}",
            )
            view = response.json()
            view = wait_view(client, token) if view["phase"] == "working" else view
            last = view["probes"][-1]
            tally.check(
                "worst-case probe",
                last["text"] == case.source and last["feedback"] != "",
                case.name,
            )
    slowest = sorted(seconds, reverse=True)[:3]
    print(
        f"{len(cases)} worst-case probes, {sum(t for t, _ in seconds):.1f} s in all; slowest: "
        + ", ".join(f"{name} {t:.2f} s" for t, name in slowest)
    )
