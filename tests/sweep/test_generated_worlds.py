"""Worlds a sweep generates from seeds: how the sweep file names them, their
labels (never the seed), and a generation that fails is isolated: its
episodes are recorded as failed and the rest of the sweep goes on, with no
half-written world left behind."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from alienworlds.cli.aliencode import main
from alienworlds.cli.sweep import failures_status
from alienworlds.sweep.generation import command, wanted
from alienworlds.sweep.plan import plan
from alienworlds.sweep.spec import SweepError, load_sweep


def load(tmp_path, text):
    path = tmp_path / "sweep.toml"
    path.write_text(text, encoding="utf-8")
    return load_sweep(path, "aliencode")


def test_seeds_give_one_world_each_labelled_by_family_and_position(tmp_path):
    sweep = load(tmp_path, 'worlds = ["demo", { seeds = [5, "private words"], family = "fresh", knobs = { altered = 4, red_herrings = 1 } }]\n'
                           'agents = ["oracle"]\n')
    demo, first, second = sweep.worlds
    assert not demo.generated and demo.board_family == "demo"
    assert [(w.label, w.seed, w.family, w.knobs) for w in (first, second)] == [
        ("fresh-1", "5", "fresh", {"altered": 4, "red_herrings": 1}), ("fresh-2", "private words", "fresh", {"altered": 4, "red_herrings": 1})]
    assert all("private" not in w.label for w in sweep.worlds)
    jobs = plan(sweep)
    assert {j.world_family for j in jobs} == {"demo", "fresh"}
    assert command("aliencode", "5", first.knobs, tmp_path / "w")[-6:] == [
        "--out", str(tmp_path / "w"), "--altered", "4", "--red-herrings", "1"]


def test_the_record_of_a_generation_holds_a_digest_of_the_seed_not_the_seed():
    mark = json.dumps(wanted("aliencode", "my secret seed", {}))
    assert "secret" not in mark and re.search(r'"seed_sha256": "[0-9a-f]{64}"', mark)


@pytest.mark.parametrize("entry, expected", [
    ("{ seeds = [] }", r"worlds\[0\]\.seeds: expected a non-empty array of seeds"),
    ("{ seeds = [1, true] }", r"worlds\[0\]\.seeds: expected a non-empty array of seeds"),
    ("{ seeds = [3, 3] }", r"worlds\[0\]\.seeds: a seed is named twice"),
    ('{ seeds = [3], knobs = { altered = "2" } }', r"worlds\[0\]\.knobs: expected a table of the generator's options"),
    ("{ seeds = [3], knobs = { altered = -1 } }", r"worlds\[0\]\.knobs: expected a table"),
    ('{ seeds = [3], knobs = { "--out" = 1 } }', r"worlds\[0\]\.knobs: expected a table"),
    ('{ seeds = [3], name = "demo" }', r"worlds\[0\]\.name: unknown key; expected one of seeds, family, knobs"),
    ('{ seeds = [3], family = "../up" }', r"worlds\[0\]\.label: expected a folder name"),
])
def test_each_mistake_in_a_generated_entry_is_named(tmp_path, entry, expected):
    with pytest.raises(SweepError) as caught:
        load(tmp_path, f'worlds = [{entry}]\nagents = ["oracle"]\n')
    assert any(re.search(expected, p) for p in caught.value.problems), caught.value.problems


def test_a_failed_generation_fails_only_its_own_episodes(tmp_path):
    spec = tmp_path / "sweep.toml"
    spec.write_text('worlds = ["demo", { seeds = [1], family = "bad", knobs = { no_such_knob = 1 } }]\n'
                    'agents = ["oracle"]\nconditions = ["direct"]\npasses = 1\n', encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["sweep", str(spec), "--out", str(out), "--jobs", "1", "--no-progress"],
                                catch_exceptions=False)
    assert result.exit_code == failures_status(1), result.output
    assert "failed: bad-1/oracle/direct/t1: world bad-1: the generator exited with status 2" in result.output
    state = json.loads((out / "sweep.json").read_text())
    by_world = {e["world"]: e for e in state["episodes"]}
    assert by_world["demo"]["status"] == "done"
    assert by_world["bad-1"]["status"] == "failed"
    assert re.match(r"world bad-1: the generator exited with status 2: .*--no-such-knob", by_world["bad-1"]["error"])
    assert not (out / "worlds" / "bad-1").exists() and not (out / "worlds" / "bad-1.partial").exists()
