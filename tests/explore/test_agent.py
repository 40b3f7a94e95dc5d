"""The explorer sees only what a system sees: it runs against an environment
that refuses every attribute outside `GUARDED`, with every world and task
bank file unreadable while its code runs."""

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from alienworlds.episode import Episode, Settings, make_agent
from alienworlds.episode.aliencode_env import AlienCodeEnvironment
from alienworlds.episode.trace import read_trace
from alienworlds.explore.aliencode.agent import GUARDED

from aliencode.metering import PROBE_CAP

ROOT = Path(__file__).resolve().parents[2]
_FORBIDDEN: list[str] = []  # path prefixes no open may reach while the agent's code runs
_REFUSED: list[str] = []


def _hook(event: str, args: tuple) -> None:
    if event == "open" and _FORBIDDEN and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.path.realpath(os.fsdecode(args[0]))
        if any(path.startswith(p) for p in _FORBIDDEN):
            _REFUSED.append(path)
            raise PermissionError(f"the agent may not read {path}")


sys.addaudithook(_hook)  # inert unless _FORBIDDEN is set


class Guarded:
    """The environment as the agent may see it."""

    def __init__(self, env):
        self._env = env

    def __getattr__(self, name):
        if name not in GUARDED:
            raise AssertionError(f"the explorer read env.{name}")
        return getattr(self._env, name)


def _unreadable(fn, forbidden):
    def wrapped(*args, **kwargs):
        _FORBIDDEN[:] = forbidden
        try:
            return fn(*args, **kwargs)
        finally:
            _FORBIDDEN.clear()

    return wrapped


@pytest.fixture(scope="module")
def guarded_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("guarded")
    world, bank = tmp / "hidden-world.toml", tmp / "hidden-bank.toml"
    shutil.copy(ROOT / "ruleset" / "worlds" / "aliencode" / "demo.toml", world)
    shutil.copy(ROOT / "tasks" / "aliencode" / "demo.toml", bank)
    env = AlienCodeEnvironment(str(world), bank_path=bank)
    forbidden = [
        str(tmp),
        os.path.realpath(ROOT / "ruleset" / "worlds"),
        os.path.realpath(ROOT / "tasks"),
    ]
    _REFUSED.clear()
    agent = _unreadable(make_agent, forbidden)("explorer", Guarded(env))
    agent.respond = _unreadable(agent.respond, forbidden)
    report = Episode(env, agent, tmp / "out", Settings()).run()
    assert _REFUSED == []  # it never tried
    return tmp / "out", report, agent


def test_the_hook_refuses_the_world_file(tmp_path):
    secret = tmp_path / "world.toml"
    secret.write_text("x")
    with pytest.raises(PermissionError):
        _unreadable(secret.read_text, [str(tmp_path)])()
    assert secret.read_text() == "x"  # only while the guarded code runs


def test_the_explorer_learns_the_demo_world_blind(guarded_run):
    out, report, agent = guarded_run
    curve = [m["accuracy"] for m in report["milestones"]]
    assert curve[-1] > curve[0]
    end = report["milestones"][-1]
    assert (
        end["rule_report_score"] == end["rule_report_of"] == 5
    )  # each rule reported as its most likely survivor
    assert agent.decision_seconds() is not None


def test_the_explorer_keeps_the_budget_and_tests_scope(guarded_run):
    out, report, _ = guarded_run
    tools = [e for e in read_trace(out) if e["type"] == "tool"]
    assert tools and all(
        e["status"] == "ran" and e["counted"] and e["units"] <= PROBE_CAP for e in tools
    )
    per_round = {}
    for e in tools:
        per_round[e["round"]] = per_round.get(e["round"], 0) + 1
    assert max(per_round.values()) <= 12
    codes = [json.loads(e["arguments"])["code"] for e in tools]
    assert any("CRAFT" in c for c in codes) and any("SWEEP" in c for c in codes)
    assert any(
        line and not line.startswith((" ", "CRAFT")) and "SWEEP" not in line and "(" in line
        for c in codes
        for line in c.splitlines()
    )  # an operation at top level


def test_the_probes_follow_expected_information_gain(guarded_run):
    _, report, _ = guarded_run
    probes = report["exploration"]["probes"]
    assert probes and all(
        p["bits"] > 0 for p in probes[:3]
    )  # chosen to split the survivors: no wasted opening
    assert report["exploration"]["redundant_rate"] == 0.0
