"""The explorer's baselines (random and fixed probes, the explorer's
answering) and the agent names the languages share."""

from dataclasses import replace
from pathlib import Path

import pytest
from alienworlds.episode import make_agent
from alienworlds.episode.agent import AgentError
from alienworlds.episode.alienlogic_env import AlienLogicEnvironment
from alienworlds.episode.languages import LANGUAGES, SharedAgent
from alienworlds.explore.alienlogic.agent import ExplorerAgent, FixedProbeAgent, RandomProbeAgent
from alienworlds.explore.alienlogic.space import Space
from alienworlds.ruleset.references import Reference

from alienlogic import parse_proof

BANK = Path(__file__).parents[1] / "episode" / "data" / "alienlogic_demo.toml"


@pytest.fixture(scope="module")
def env():
    return AlienLogicEnvironment("demo", bank_path=BANK)


def test_the_shared_names_pick_the_alienlogic_agents(env):
    assert type(make_agent("explorer", env)) is ExplorerAgent
    assert type(make_agent("explorer-random", env)) is RandomProbeAgent
    assert type(make_agent("explorer-fixed", env)) is FixedProbeAgent


def test_a_shared_name_explains_a_missing_version(env, monkeypatch):
    code = LANGUAGES["aliencode"]
    monkeypatch.setitem(LANGUAGES, "aliencode", replace(code, agents={"x": Reference("m:C")}))
    with pytest.raises(AgentError, match="no alienlogic version; it runs on aliencode"):
        SharedAgent("x").from_options(env, 0, {})
    missing = {"x": Reference("alienworlds.no_such_module:C")}
    monkeypatch.setitem(LANGUAGES, "alienlogic", replace(LANGUAGES["alienlogic"], agents=missing))
    with pytest.raises(AgentError, match="not installed"):
        SharedAgent("x").from_options(env, 0, {})


def test_random_probes_are_proofs_of_varied_rules():
    agent, space = RandomProbeAgent(seed=3), Space()
    rules = set()
    texts = []
    for made in range(12):
        text, note = agent.choose(space, made)
        proof = parse_proof(text)
        rules.add(proof.steps[-1].rule)
        texts.append(text)
        assert "at random" in note
    assert len(rules) >= 6 and len(set(texts)) == 12
    assert [agent.choose(space, k)[0] for k in range(12)] == texts  # seeded


def test_fixed_probes_follow_the_protocol_sequence(env):
    agent = make_agent("explorer-fixed", env, seed=2)
    sequence = [p for batch in env.fixed_probes(2, 4, env.calls_per_round) for p in batch]
    assert [agent.choose(Space(), k)[0] for k in range(48)] == sequence
    assert agent.choose(Space(), 48) is None
