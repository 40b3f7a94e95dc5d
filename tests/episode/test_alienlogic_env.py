import json
from pathlib import Path

import click
import pytest
from alienworlds.cli.episode import register
from alienworlds.episode import Episode, Settings, make_agent
from alienworlds.episode.agent_registry import Agent, Reply, text_reply
from alienworlds.episode.alienlogic_env import AlienLogicEnvironment
from alienworlds.episode.trace import read_trace
from alienworlds.tasks.alienlogic_reader import BOTH, NO_ANSWER, RECORDED_REFUSAL
from click.testing import CliRunner

BANK = Path(__file__).parent / "data" / "alienlogic_demo.toml"
MP = (
    "PROOF\npremises: IMPL(p, q), p\ngoal: q\n"
    "1. IMPL(p, q) [premise]\n2. p [premise]\n3. q [IMPL_E 1, 2]\nEND"
)


@pytest.fixture(scope="module")
def logic_env():
    return AlienLogicEnvironment("demo", bank_path=BANK)


def test_tool_feedback_is_the_public_verdict(logic_env):
    out = logic_env.run_tool(
        {
            "proof": "PROOF\npremises: NOT(NOT(p))\ngoal: p\n1. NOT(NOT(p)) [premise]\n2. p [DNE "
            "1]\nEND"
        }
    )
    verdict = json.loads(out.feedback)
    assert (out.status, out.units) == ("ran", 1)
    assert (
        verdict["reason_class"] == "ALIEN_AXIOM_DISABLED"
        and verdict["reason_id"] == "K4"
        and "detail" not in verdict
    )
    assert logic_env.run_tool({"code": MP}).status == "invalid"
    assert logic_env.max_total_calls == 48 and not logic_env.has_rule_report


def test_answers_proofs_and_refusals(logic_env):
    assert logic_env.grade("T1", "Here:\n```proof\n" + MP + "\n```").answer == MP
    assert logic_env.grade("T1", "Sure.\n" + MP + "\nThat's it.").answer == MP
    refused = logic_env.grade("T3", "No proof exists.\nANSWER: UNPROVABLE")
    assert refused.passed and refused.answer == RECORDED_REFUSAL
    both = logic_env.grade("T3", MP + "\nANSWER: UNPROVABLE")
    assert not both.passed and (both.answer, both.reason) == (None, BOTH)
    nothing = logic_env.grade("T3", "hmm")
    assert not nothing.passed and (nothing.answer, nothing.reason) == (None, NO_ANSWER)
    assert not logic_env.grade("T1", "ANSWER: UNPROVABLE").passed
    assert not logic_env.grade("T1", MP).passed  # a proof of another theorem
    assert logic_env.grade("T1", logic_env.reference_reply("T1")).passed


def test_logic_episodes(logic_env, tmp_path):
    oracle = Episode(logic_env, make_agent("oracle", logic_env), tmp_path / "o", Settings()).run()
    assert [m["accuracy"] for m in oracle["milestones"]] == [100.0] * 5
    assert (
        oracle["unprovable_recognition"] == 100.0
        and oracle["milestones"][0]["rule_report_score"] is None
    )
    naive = Episode(logic_env, make_agent("naive", logic_env), tmp_path / "n", Settings()).run()
    assert naive["unprovable_recognition"] == 0.0
    fixed = Episode(logic_env, make_agent("fixed", logic_env), tmp_path / "f", Settings()).run()
    assert (
        fixed["milestones"][-1]["budget"]["calls"]
        == 48
        == fixed["milestones"][-1]["budget"]["units"]
    )
    assert not any(e["type"] == "rule_report" for e in read_trace(tmp_path / "f"))


class Prolific(Agent):
    name = "prolific"

    def respond(self, request):
        if request.purpose != "explore":
            return text_reply("ANSWER: UNPROVABLE")
        calls = [
            {
                "id": f"c{i}",
                "type": "function",
                "function": {"name": "check_proof", "arguments": json.dumps({"proof": MP})},
            }
            for i in range(5)
        ]
        return Reply({"role": "assistant", "content": None, "tool_calls": calls})


def test_at_most_48_proofs_in_all(logic_env, tmp_path, monkeypatch):
    monkeypatch.setattr(
        logic_env, "calls_per_round", 20
    )  # a generous round cap: the total cap still binds
    report = Episode(logic_env, Prolific(), tmp_path, Settings()).run()
    assert [m["budget"]["calls"] for m in report["milestones"]] == [0, 20, 40, 48, 48]


def test_register_on_a_logic_cli(tmp_path):
    @click.group()
    def cli():
        pass

    register(cli, "alienlogic")
    result = CliRunner().invoke(
        cli,
        [
            "episode",
            "--agent",
            "oracle",
            "--world",
            "demo",
            "--bank",
            str(BANK),
            "--condition",
            "direct",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "alienlogic episode" in result.output
