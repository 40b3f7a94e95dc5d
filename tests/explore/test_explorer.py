"""The explorer agent on the demo world, and the exploration metrics of
traces: the explorer's, and the scripted agents'."""

import shutil
from pathlib import Path
from unittest import mock

import pytest
from alienworlds.episode import Episode, Settings, make_agent
from alienworlds.episode.alienlogic_env import AlienLogicEnvironment
from alienworlds.episode.trace import read_trace
from alienworlds.ruleset.world import find_world_file

BANK = Path(__file__).parents[1] / "episode" / "data" / "alienlogic_demo.toml"
# the demo world's patches: (target, kind); ids are not compared, since an
# id is seen only when its patch refuses a probe, and answers need no ids
DEMO_PATCHES = {
    ("DNE", "disabled"),
    ("AND_E1", "conclusion"),
    ("reit", "require"),
    ("IMPL_E", "require"),
}
KEYS = {"engine", "probes", "redundant_rate", "coverage", "true_mass", "errors"}


class Guard:
    """What the explorer may read of the environment: its language and the
    protocol's numbers (here 3 proofs a round, a small episode); anything
    else fails the test."""

    language = "alienlogic"
    calls_per_round = 3
    max_total_calls = 12

    def __getattr__(self, name):
        raise AssertionError(f"the explorer read env.{name}")


def _forbidden(*args, **kwargs):
    raise AssertionError("the explorer reached for the world, the bank or the answer key")


@pytest.fixture(scope="module")
def explorer_run(tmp_path_factory):
    """A small explorer episode on a copy of the demo world and bank that are
    deleted once the environment is built, with the answer key switched off."""
    tmp = tmp_path_factory.mktemp("explorer")
    world_file, bank_file = tmp / "demo.toml", tmp / "bank.toml"
    shutil.copy(find_world_file("demo", "alienlogic"), world_file)
    shutil.copy(BANK, bank_file)
    env = AlienLogicEnvironment(str(world_file), bank_path=bank_file)
    env.tasks(), env.validity()  # what the driver needs of the bank, computed before it disappears
    world_file.unlink()
    bank_file.unlink()
    agent = make_agent("explorer", Guard(), seed=0)
    respond = agent.respond

    def guarded(request):
        with (
            mock.patch("alienworlds.ruleset.world.load_world", _forbidden),
            mock.patch("alienworlds.ruleset.world.find_world_file", _forbidden),
            mock.patch("alienworlds.tasks.bank.load_bank", _forbidden),
            mock.patch("alienlogic.certify.load_world", _forbidden),
        ):
            return respond(request)

    agent.respond = guarded
    with mock.patch.multiple(
        env,
        reference_reply=_forbidden,
        naive_reply=_forbidden,
        true_rule_report=_forbidden,
        rules_touched=_forbidden,
        disclosure=_forbidden,
    ):
        report = Episode(env, agent, tmp / "run", Settings()).run()
    return report, read_trace(tmp / "run")


def test_the_explorer_locates_patches_without_the_answer_key(explorer_run):
    report, events = explorer_run
    assert report["complete"] and report["milestones"][-1]["budget"]["calls"] == 12
    assert report["endpoint"] == 100.0 and report["unprovable_recognition"] == 100.0
    replies = [
        e["message"] for e in events if e["type"] == "reply" and e["key"].startswith("reply/r")
    ]
    probes = [m for m in replies if m.get("tool_calls")]
    assert len(probes) == 12 and all("expected information gain" in m["content"] for m in probes)
    final = next(
        e["message"]["content"]
        for e in events
        if e["type"] == "reply" and e["key"].startswith("reply/M4/") and e["key"].endswith("/1")
    )
    believed = {
        tuple(line.split(": ", 1)[1].split()[:2])
        for line in final.split("\n\n")[0].splitlines()[1:]
    }
    assert len(believed & DEMO_PATCHES) >= 3 and believed <= DEMO_PATCHES, final


def test_the_explorer_trace_has_the_exploration_section(explorer_run):
    report, _ = explorer_run
    x = report["exploration"]
    assert set(x) == KEYS
    assert (
        x["engine"]["name"] == "alienlogic-patch-space"
        and x["engine"]["bounds"]["requires_per_rule"] == 2
    )
    assert len(x["probes"]) == 12 and [p["call"] for p in x["probes"][:3]] == [1, 2, 3]
    for p in x["probes"]:
        assert (
            p["before"] >= p["after"] >= 1
            and p["redundant"] == (p["before"] == p["after"])
            and p["targets"]
        )
    assert sum(p["bits"] for p in x["probes"]) > 20 and x["redundant_rate"] <= 0.25
    assert [c["round"] for c in x["coverage"]] == [1, 2, 3, 4] and x["coverage"][-1]["of"] == 22
    assert x["true_mass"]["M4"] > x["true_mass"]["M0"] > 0
    assert x["errors"] == {
        "exploration": sum(p["redundant"] for p in x["probes"]),
        "exploitation": 0,
    }


@pytest.fixture(scope="module")
def scripted(tmp_path_factory):
    env = AlienLogicEnvironment("demo", bank_path=BANK)
    tmp = tmp_path_factory.mktemp("scripted")
    return {
        name: Episode(env, make_agent(name, env), tmp / name, Settings()).run()["exploration"]
        for name in ("naive", "fixed")
    }


def test_a_system_that_never_probes(scripted):
    x = scripted["naive"]
    assert x["probes"] == [] and x["redundant_rate"] is None
    assert [c["covered"] for c in x["coverage"]] == [0, 0, 0, 0]
    # its proof for the unprovable T3 (q by reit from p) fails in every world: 3 answers at 5
    # milestones
    assert x["errors"] == {"exploration": 0, "exploitation": 15}
    assert x["true_mass"]["M0"] == x["true_mass"]["M4"]


def test_repeating_known_probes_is_redundant(scripted):
    x = scripted["fixed"]
    assert len(x["probes"]) == 48
    assert x["redundant_rate"] > 0.5  # the manual's few examples, drawn again and again
    assert x["errors"]["exploration"] == sum(p["redundant"] for p in x["probes"])
    assert any(p["bits"] > 0 for p in x["probes"])
