"""Generated worlds: valid, deterministic, within their constraints."""

from __future__ import annotations

import json
import math
from functools import cache

import pytest
from alienworlds.cli.aliencode import main
from alienworlds.generate.aliencode import VERSION, GenerationError, Knobs, generate, schemes
from alienworlds.generate.aliencode.bank import KEYSTONE_SHARE
from alienworlds.generate.aliencode.instances import reported
from alienworlds.generate.aliencode.probes import check_site
from alienworlds.generate.aliencode.world_draw import draw_world
from alienworlds.manuals.aliencode import render
from alienworlds.porting import Porter
from alienworlds.porting.semantics import STANDARD
from alienworlds.ruleset import parse_world
from alienworlds.ruleset.equivalence import compare
from alienworlds.ruleset.phases import Phases
from click.testing import CliRunner
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from aliencode.sites import operand_kinds
from aliencode.world_schema import SCHEMA

SMALL = Knobs(altered=4, red_herrings=1, scoped=1, renamed=2, tasks=5)
# Each world's audit runs the adaptive strategies, and a version 5 world keeps a
# task only when every strategy fails it, so the suite checks three seeds;
# benchmarks/generated_worlds.py runs a hundred. A seed's cost is mostly the worlds it
# rejects (a rule no task enters), and seeds differ sixfold: of test-0..19 with these
# knobs at version 8, test-15 took 15.0 s of CPU (five worlds drawn), test-4 and test-8
# 17.8 s (seven and eight); the median was 34.2 s and test-10 84.6 s.
# The command test generates the last seed a second time.
SEEDS = ["test-15", "test-4", "test-8"]
STEPS: dict[str, list[str]] = {}  # the lines each generation's phases printed


@cache
def generated(seed: str):
    return generate(seed, SMALL, Phases(STEPS.setdefault(seed, []).append, heartbeat=None))


@pytest.mark.parametrize("seed", SEEDS)
def test_a_generated_world_loads_renders_and_keeps_its_promises(seed, tmp_path):
    result = generated(seed)
    world = parse_world(result.text, "world.toml", SCHEMA)
    assert world.hash == result.world.hash and VERSION in result.text
    rules = world.rules
    altered = [r for r in rules if not r.red_herring]
    assert len(altered) == SMALL.altered
    assert sum(r.red_herring for r in rules) == SMALL.red_herrings
    assert sum(r.scope != "anywhere" for r in altered) == SMALL.scoped
    assert len(world.keywords) == SMALL.renamed
    # the keystone pair, everywhere
    assert {r.target for r in altered if r.scope == "anywhere"} >= {"PLUCK", "CARVE"}
    # every red herring shadows an altered rule of its site, in a narrower scope, before it
    for k, r in enumerate(rules):
        if r.red_herring:
            assert r.scope != "anywhere"
            assert any(
                o.target == r.target and not o.red_herring and o.scope == "anywhere"
                for o in rules[k + 1 :]
            )
    # no altered rule behaves like the manual, no two rules behave alike
    for k, r in enumerate(altered):
        kinds = operand_kinds(r.target)
        assert not compare(r.actual, "IDENTITY", kinds, standard=STANDARD[r.target]).equivalent
        for other in altered[k + 1 :]:
            if operand_kinds(other.target) == kinds:
                assert not compare(r.actual, other.actual, kinds).equivalent
    assert render(world, "text") and render(world, "md")
    # the bank beside it passes the full audit: every reference passes, no
    # naive solution does, no trivial strategy passes a task
    path = tmp_path / "world.toml"
    path.write_text(result.text, encoding="utf-8")
    (tmp_path / "bank.toml").write_text(result.bank_text, encoding="utf-8")
    checked = CliRunner().invoke(main, ["world", "check", str(path), "--json"])
    assert checked.exit_code == 0, checked.output
    report = json.loads(checked.stdout)
    assert report["ok"] and report["bank_audit"] == "done" and not report["problems"]
    assert (
        report["reference_pass"] == len(result.bank.tasks) == SMALL.tasks
        and report["naive_pass"] == 0
    )
    # every strategy flags, the adaptive ones included, and none passes a task
    validity = report["validity"]
    assert reported(world) == () and not validity["flagged"] and validity["reported_only"] == []
    assert all(not s["passed"] for s in validity["strategies"].values()) and validity["floor"] == 0
    assert "report_only = []" in result.bank_text
    # route coverage: every task needs a rule no manual route escapes
    assert all(task["unavoidable"] for task in report["tasks"])
    assert f'generator = "{VERSION}"' in result.bank_text


@pytest.mark.parametrize("seed", SEEDS)
def test_every_altered_site_is_portable_when_checked_afresh(seed):
    world = generated(seed).world
    porter = Porter(world)
    for site in sorted({r.target for r in world.rules if not r.red_herring}):
        problem, _ = check_site(porter, site)
        assert problem is None, problem


def test_each_step_names_itself_and_seeds_differ():
    """The same seed's bytes again: the command test generates it anew."""
    first = generated(SEEDS[0])
    lines = STEPS[SEEDS[0]]
    starts = [line.removesuffix(" …") for line in lines if line.endswith(" …")]
    assert starts[0] == "drawing world 1" and starts[-5:] == [
        "porting the worked examples",
        "covering every rule with a task",
        f"drawing keystone tasks (at least {math.ceil(KEYSTONE_SHARE * SMALL.tasks)})",
        f"drawing the other tasks (up to {SMALL.tasks})",
        "writing the bank and reading it back",
    ]
    assert [line.split(": done in ")[0] for line in lines if ": done in " in line][-1] == starts[-1]
    # a bank pass that finds no bank ends without its time, and the draw says so and goes on
    ended = sum(": done in " in line for line in lines)
    assert ended + sum(line.startswith("no bank for this world (") for line in lines) == len(starts)
    assert (
        generated(SEEDS[1]).text != first.text and generated(SEEDS[1]).bank_text != first.bank_text
    )


def test_counts_match_the_world():
    for seed in SEEDS:
        result = generated(seed)
        rules = result.world.rules
        assert result.by_scheme[schemes.RED_HERRING] == sum(r.red_herring for r in rules)
        assert result.by_scheme[schemes.SCOPED] == sum(
            r.scope != "anywhere" and not r.red_herring for r in rules
        )
        assert result.by_scheme[schemes.KEYWORDS] == len(result.world.keywords)
        drawn = sum(
            v
            for k, v in result.by_scheme.items()
            if k not in (schemes.RED_HERRING, schemes.SCOPED, schemes.KEYWORDS)
        )
        assert drawn == len(rules) - result.by_scheme[schemes.RED_HERRING]
        assert result.draws == len(rules) + sum(result.rejected.values())
        # each rule no bank task entered is counted by kind, once per bank draw it ended
        assert len(result.uncovered) == result.worlds_rejected["a rule no task enters"]


def test_knobs_that_cannot_be_met_are_refused():
    with pytest.raises(GenerationError):
        generate("x", Knobs(altered=1))
    with pytest.raises(GenerationError):
        generate("x", Knobs(altered=3, scoped=2))


def test_the_command_writes_world_toml(tmp_path):
    knobs = [
        "--altered",
        str(SMALL.altered),
        "--red-herrings",
        str(SMALL.red_herrings),
        "--scoped",
        str(SMALL.scoped),
        "--renamed",
        str(SMALL.renamed),
        "--tasks",
        str(SMALL.tasks),
    ]
    # the same seed again, in a new generation: the same bytes
    result = CliRunner().invoke(
        main, ["world", "generate", "--seed", SEEDS[2], *knobs, "--out", str(tmp_path / "w")]
    )
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("aliencode world generate: drawing world 1 …\n")
    assert "aliencode world generate: drawing the other tasks (up to 5): done in " in result.stderr
    # the files are audited as `world check` audits them before they are written
    assert result.stderr.splitlines()[-1].startswith(
        "aliencode world generate: auditing the files before they are written: done in "
    )
    assert "audit: ok (the same as `aliencode world check DIR/world.toml`)" in result.stdout
    assert "floor 0.0%; nothing flagged" in result.stdout
    # a folder holding them is refused before anything is generated
    again = CliRunner().invoke(
        main, ["world", "generate", "--seed", SEEDS[2], *knobs, "--out", str(tmp_path / "w")]
    )
    assert again.exit_code == 2 and "use --force to replace them" in again.output
    assert "drawing" not in again.stderr
    assert (tmp_path / "w" / "world.toml").read_text(encoding="utf-8") == generated(SEEDS[2]).text
    assert (tmp_path / "w" / "bank.toml").read_text(encoding="utf-8") == generated(
        SEEDS[2]
    ).bank_text
    # an episode on the world file finds the bank beside it
    episode = CliRunner().invoke(
        main,
        [
            "episode",
            "--world",
            str(tmp_path / "w" / "world.toml"),
            "--agent",
            "oracle",
            "--condition",
            "direct",
            "--out",
            str(tmp_path / "e"),
            "--no-progress",
        ],
    )
    assert episode.exit_code == 0, episode.output
    report = json.loads(next((tmp_path / "e").rglob("report.json")).read_text(encoding="utf-8"))
    assert report["world"] == generated(SEEDS[2]).world.name and report["tasks"] == SMALL.tasks
    assert report["endpoint"] == 100.0
    refused = CliRunner().invoke(
        main,
        [
            "world",
            "generate",
            "--seed",
            "x",
            "--altered",
            "2",
            "--scoped",
            "1",
            "--out",
            str(tmp_path / "v"),
        ],
    )
    assert refused.exit_code == 2 and "scoped" in refused.output and not (tmp_path / "v").exists()


@settings(max_examples=examples(3), deadline=None)
@given(st.text(min_size=1, max_size=12))
def test_any_seed_gives_a_valid_world_and_the_same_one_twice(seed):
    knobs = Knobs(altered=2, red_herrings=0, scoped=0, renamed=2)
    result = draw_world(seed, knobs)
    assert parse_world(result.text, "world.toml", SCHEMA).hash == result.world.hash
    assert draw_world(seed, knobs).text == result.text


def test_a_seed_without_a_bank_says_why_and_what_to_do(monkeypatch):
    """Every world of the seed drawn anew, MAX_BANKS times, none with a bank:
    the reasons counted, and the remedy named."""
    from alienworlds.generate.aliencode import generator
    from alienworlds.generate.aliencode.bank import NoBank

    def no_bank(*args, **kwargs):
        raise NoBank("too few tasks", "only 1 of 5 tasks can be made")

    monkeypatch.setattr(generator, "MAX_BANKS", 3)
    monkeypatch.setattr(generator, "draw_bank", no_bank)
    with pytest.raises(GenerationError) as raised:
        generate("test-5", SMALL)
    assert str(raised.value) == (
        "no world of this seed has a bank after 3 worlds: too few tasks 3; another seed may "
        "have one (docs/generated-worlds.md, 'Fresh seeds')"
    )
