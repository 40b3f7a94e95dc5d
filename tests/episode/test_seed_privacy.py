"""Nothing derived from a generated world's seed reaches the agent.

A generated world's name is a hash of the generator version and the seed; a
seed chosen by a person (`word-NNNN`) is found from twelve hex digits of it
in seconds, and the seed regenerates the world, its bank and every reference.
So every text an agent sees (system prompt, manual, worked examples, task
and rule-report prompts, tool spec and feedback) must hold neither the name,
nor the seed, nor a piece of any hash of them or of the world's content.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from alienworlds.episode import Episode, Settings, make_agent
from alienworlds.episode.agent import Agent, Reply, Request
from alienworlds.episode.environment_loader import make_environment
from alienworlds.generate import aliencode as gen_code
from alienworlds.generate import alienlogic as gen_logic
from alienworlds.manuals.aliencode import render as render_code
from alienworlds.manuals.alienlogic import render as render_logic

SEED = "privacy-4821"  # the shape of seed a person picks and an attacker guesses
HASHES = ("sha256", "sha1", "md5", "blake2b")
MIN_HEX = 6


@pytest.fixture(scope="module")
def environments(tmp_path_factory):
    """One small generated world of each language (seed, environment)."""
    code_dir = tmp_path_factory.mktemp("aliencode")
    code = gen_code.generate(
        SEED, gen_code.Knobs(altered=2, red_herrings=0, scoped=0, renamed=1, tasks=2)
    )
    (code_dir / "world.toml").write_text(code.text, encoding="utf-8")
    (code_dir / "bank.toml").write_text(code.bank_text, encoding="utf-8")
    logic_dir = tmp_path_factory.mktemp("alienlogic") / "world"
    logic = gen_logic.generate(
        SEED, gen_logic.Knobs(patches=4, theorems=6, unprovable=1, first_order=0, examples=1)
    )
    gen_logic.write(logic, logic_dir)
    return {
        "aliencode": make_environment("aliencode", str(code_dir / "world.toml")),
        "alienlogic": make_environment("alienlogic", str(logic_dir / "world.toml")),
    }


def secrets(env) -> tuple[list[str], list[str]]:
    """Strings no agent-visible text may contain, and hex digests none of
    whose 6-digit prefixes it may contain."""
    version = (gen_code if env.language == "aliencode" else gen_logic).VERSION
    preimages = [SEED, f"{version}:{SEED}", f"{env.language} {version}:{SEED}"]
    digests = [hashlib.new(h, p.encode()).hexdigest() for h in HASHES for p in preimages]
    digests.append(env.world_hash.split(":")[-1])
    return [env.world_name, SEED], digests


def leaks(text: str, env) -> list[str]:
    """What of the secrets `text` holds. A hex run counts when a digest's
    first 6 digits occur anywhere in it (a longer run may embed a prefix)."""
    words, digests = secrets(env)
    lower = text.lower()
    found = [w for w in words if w.lower() in lower]
    for run in re.findall(f"[0-9a-f]{{{MIN_HEX},}}", lower):
        found += [f"{run}: a hash prefix" for d in digests if d[:MIN_HEX] in run]
    return found


PROBES = {
    "aliencode": [
        {"code": 'EMIT(PLUCK(STRAND(1, 2, 3), 0), "x")'},
        {"code": "EMIT(("},
        {"code": "SWEEP i IN EXTENT(9):\n    EMIT(i, i, i, i, i, i)"},
        {"program": 1},
    ],
    "alienlogic": [
        {"proof": "PROOF\npremises: p\ngoal: p\n1. p  [premise]\nEND"},
        {"proof": "nonsense"},
        {"proof": 3},
    ],
}


def visible_texts(env) -> dict[str, str]:
    """Every text the environment gives an agent, by where it appears."""
    render = render_code if env.language == "aliencode" else render_logic
    texts = {
        "system prompt": env.system_prompt(),
        "system prompt, open book": env.system_prompt(open_book=True),
        "manual (text)": render(env.world, "text"),
        "manual (Markdown)": render(env.world, "md"),
        "disclosure": env.disclosure(),
        "round prompt": env.round_prompt(1),
        "reflect prompt": env.reflect_prompt(1),
        "injected note": env.injected_note(),
        "tool spec": json.dumps(env.tool_spec()),
    }
    if env.has_rule_report:
        texts["rule-report prompt"] = env.rule_report_prompt()
    for task in env.tasks():
        texts[f"task prompt {task.id}"] = env.task_prompt(task.id)
    for k, probe in enumerate(PROBES[env.language]):
        texts[f"tool feedback {k}"] = env.run_tool(probe).feedback
    return texts


@pytest.mark.parametrize("language", ["aliencode", "alienlogic"])
def test_the_texts_an_environment_shows_name_nothing_of_the_seed(environments, language):
    env = environments[language]
    assert leaks(env.world_name, env), "the check itself must catch the name"
    found = {
        where: hits for where, text in visible_texts(env).items() if (hits := leaks(text, env))
    }
    assert not found


class Recording(Agent):
    """A scripted agent that keeps every request it is sent."""

    offline = True

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.requests: list[Request] = []

    def respond(self, request: Request) -> Reply:
        self.requests.append(request)
        return self.inner.respond(request)


@pytest.mark.parametrize("language", ["aliencode", "alienlogic"])
def test_an_episode_sends_nothing_of_the_seed(environments, language, tmp_path):
    """The driver's own framing too: an open-book-m4 episode explores,
    reports rules, answers and has the rules disclosed."""
    env = environments[language]
    agent = Recording(make_agent("fixed", env))
    Episode(
        env, agent, tmp_path, Settings(condition="open-book-m4", passes=1, exploration=False)
    ).run()
    assert {"explore", "answer"} <= {r.purpose for r in agent.requests}
    for request in agent.requests:
        sent = json.dumps([request.messages, request.tools])
        assert not leaks(sent, env), request.key
