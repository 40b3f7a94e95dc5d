"""Worlds a sweep generates from seeds: how the sweep file names them, their
labels (never the seed); generated worlds (the generator's files byte for
byte, in a process or as a Ray task) swept as one family and kept on
--resume; a generation that fails is isolated: its episodes are recorded as
failed and the rest of the sweep goes on, with no half-written world left
behind."""

from __future__ import annotations

import json
import re

import pytest
from alienworlds.cli.aliencode import main
from alienworlds.cli.sweep import failures_status
from alienworlds.sweep import generation
from alienworlds.sweep.generation import command, wanted
from alienworlds.sweep.plan import plan
from alienworlds.sweep.spec import SweepError, load_sweep
from click.testing import CliRunner


def load(tmp_path, text):
    path = tmp_path / "sweep.toml"
    path.write_text(text, encoding="utf-8")
    return load_sweep(path, "aliencode")


def test_seeds_give_one_world_each_labelled_by_family_and_position(tmp_path):
    sweep = load(
        tmp_path,
        'worlds = ["demo", { seeds = [5, "private words"], family = "fresh", knobs = { altered = '
        "4, red_herrings = 1, scoped = 1 } }]\n"
        'agents = ["oracle"]\n',
    )
    demo, first, second = sweep.worlds
    assert not demo.generated and demo.board_family == "demo"
    assert [(w.label, w.seed, w.family, w.knobs) for w in (first, second)] == [
        ("fresh-1", "5", "fresh", {"altered": 4, "red_herrings": 1, "scoped": 1}),
        ("fresh-2", "private words", "fresh", {"altered": 4, "red_herrings": 1, "scoped": 1}),
    ]
    assert all("private" not in w.label for w in sweep.worlds)
    jobs = plan(sweep)
    assert {j.world_family for j in jobs} == {"demo", "fresh"}
    assert command("aliencode", "5", first.knobs, tmp_path / "w")[-8:] == [
        "--out",
        str(tmp_path / "w"),
        "--altered",
        "4",
        "--red-herrings",
        "1",
        "--scoped",
        "1",
    ]


def test_the_record_of_a_generation_holds_a_digest_of_the_seed_not_the_seed():
    mark = json.dumps(wanted("aliencode", "my secret seed", {}))
    assert "secret" not in mark and re.search(r'"seed_sha256": "[0-9a-f]{64}"', mark)


@pytest.mark.parametrize(
    "entry, expected",
    [
        ("{ seeds = [] }", r"worlds\[0\]\.seeds: expected a non-empty array of seeds"),
        ("{ seeds = [1, true] }", r"worlds\[0\]\.seeds: expected a non-empty array of seeds"),
        ("{ seeds = [3, 3] }", r"worlds\[0\]\.seeds: a seed is named twice"),
        (
            "{ seeds = [3], knobs = [1] }",
            r"worlds\[0\]\.knobs: expected a table of the generator's options",
        ),
        (
            '{ seeds = [3], knobs = { altered = "2" } }',
            r"worlds\[0\]\.knobs: --altered must be an integer from 2 to 24, got a str",
        ),
        (
            "{ seeds = [3], knobs = { altered = -1 } }",
            r"worlds\[0\]\.knobs: --altered must be an integer from 2 to 24, got -1",
        ),
        (
            "{ seeds = [3], knobs = { renamed = 60 } }",
            r"worlds\[0\]\.knobs: --renamed must be an integer from 0 to 36, got 60",
        ),
        (
            "{ seeds = [3], knobs = { altered = 3, scoped = 2 } }",
            r"worlds\[0\]\.knobs: --scoped cannot exceed",
        ),
        (
            '{ seeds = [3], knobs = { "--out" = 1 } }',
            r"worlds\[0\]\.knobs: unknown knob '--out'; aliencode's generator takes altered",
        ),
        (
            '{ seeds = ["x\\u0007"] }',
            r"worlds\[0\]\.seeds\[0\]: character 2 of the seed is a control character \(U\+0007\)",
        ),
        (
            f'{{ seeds = ["{"s" * 201}"] }}',
            r"worlds\[0\]\.seeds\[0\]: a seed has 1 to 200 characters, this one 201",
        ),
        (
            '{ seeds = [""] }',
            r"worlds\[0\]\.seeds\[0\]: a seed has 1 to 200 characters, this one 0",
        ),
        (
            '{ seeds = [3], name = "demo" }',
            r"worlds\[0\]\.name: unknown key; expected one of seeds, family, knobs",
        ),
        ('{ seeds = [3], family = "../up" }', r"worlds\[0\]\.label: expected a folder name"),
    ],
)
def test_each_mistake_in_a_generated_entry_is_named(tmp_path, entry, expected):
    with pytest.raises(SweepError) as caught:
        load(tmp_path, f'worlds = [{entry}]\nagents = ["oracle"]\n')
    assert any(re.search(expected, p) for p in caught.value.problems), caught.value.problems


def test_a_failed_generation_fails_only_its_own_episodes(tmp_path, monkeypatch):
    # the sweep file refuses knobs the generator would refuse: the generator is made to fail by its
    # command line
    made = generation.command
    monkeypatch.setattr(generation, "command", lambda *args: [*made(*args), "--no-such-knob", "1"])
    spec = tmp_path / "sweep.toml"
    spec.write_text(
        'worlds = ["demo", { seeds = [1], family = "bad" }]\n'
        'agents = ["oracle"]\nconditions = ["direct"]\npasses = 1\n',
        encoding="utf-8",
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main,
        ["sweep", str(spec), "--out", str(out), "--jobs", "1", "--no-progress"],
        catch_exceptions=False,
    )
    assert result.exit_code == failures_status(1), result.output
    assert (
        "failed: bad-1/oracle/direct/t1: world bad-1: the generator exited with status 2"
        in result.output
    )
    state = json.loads((out / "sweep.json").read_text())
    by_world = {e["world"]: e for e in state["episodes"]}
    assert by_world["demo"]["status"] == "done"
    assert by_world["bad-1"]["status"] == "failed"
    assert re.match(
        r"world bad-1: the generator exited with status 2: .*--no-such-knob",
        by_world["bad-1"]["error"],
    )
    assert (
        not (out / "worlds" / "bad-1").exists() and not (out / "worlds" / "bad-1.partial").exists()
    )


SMALL = "{ altered = 2, red_herrings = 0, scoped = 0, renamed = 0, tasks = 8 }"


@pytest.fixture(scope="module")
def generated_sweep(tmp_path_factory):
    folder = tmp_path_factory.mktemp("generated")
    spec = folder / "sweep.toml"
    spec.write_text(
        f'worlds = [{{ seeds = ["s1", "s2"], family = "fresh", knobs = {SMALL} }}]\n'
        'agents = ["oracle", "naive"]\nconditions = ["direct"]\npasses = 1\n',
        encoding="utf-8",
    )
    out = folder / "out"
    result = CliRunner().invoke(
        main, ["sweep", str(spec), "--out", str(out), "--jobs", "2"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    return spec, out, result.output


def test_worlds_from_seeds_are_generated_then_swept_as_one_family(generated_sweep, tmp_path):
    spec, out, output = generated_sweep
    assert "world fresh-1: generated in" in output and "world fresh-2: generated in" in output
    for index, seed in ((1, "s1"), (2, "s2")):
        folder = out / "worlds" / f"fresh-{index}"
        assert sorted(p.name for p in folder.iterdir()) == [
            "bank.toml",
            "generated.json",
            "world.toml",
        ]
        alone = tmp_path / seed
        made = CliRunner().invoke(
            main,
            [
                "world",
                "generate",
                "--seed",
                seed,
                "--altered",
                "2",
                "--red-herrings",
                "0",
                "--scoped",
                "0",
                "--renamed",
                "0",
                "--tasks",
                "8",
                "--out",
                str(alone),
            ],
        )
        assert made.exit_code == 0, made.output
        for name in (
            "world.toml",
            "bank.toml",
        ):  # the sweep's world is the generator's, byte for byte
            assert (folder / name).read_bytes() == (alone / name).read_bytes()
    state = json.loads((out / "sweep.json").read_text())
    assert state["counts"] == {"episodes": 4, "done": 4, "failed": 0, "pending": 0}
    [b] = json.loads((out / "leaderboard.json").read_text())["boards"]
    assert b["setting"]["family"] == "fresh"
    rows = {r["system"]: r for r in b["rows"]}
    assert (
        rows["oracle"]["n"] == 2
        and rows["oracle"]["best_at_n"] == 100.0
        and rows["oracle"]["rank"] == 1
    )
    assert rows["naive"]["n"] == 2 and rows["naive"]["rank"] == 2


def test_a_resumed_sweep_keeps_its_generated_worlds(generated_sweep):
    spec, out, _ = generated_sweep
    before = {p: p.stat().st_mtime_ns for p in (out / "worlds").rglob("*")}
    result = CliRunner().invoke(
        main,
        ["sweep", str(spec), "--out", str(out), "--resume", "--jobs", "1"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert "world fresh-1: kept from an earlier run" in result.output
    assert "4 of 4 episodes done (4 finished before)" in result.output
    assert {p: p.stat().st_mtime_ns for p in (out / "worlds").rglob("*")} == before


def test_generation_runs_as_ray_tasks(tmp_path, ray_local):
    from alienworlds.sweep.generation import generate_worlds

    sweep = load(
        tmp_path,
        f'worlds = [{{ seeds = ["s1"], family = "fresh", knobs = {SMALL} }}, "demo"]\nagents = '
        '["oracle"]\n',
    )
    resolved, errors = generate_worlds(sweep, tmp_path / "out", 1, ray=True)
    assert errors == {}
    generated, demo = resolved.worlds
    assert generated.spec == str(
        tmp_path / "out" / "worlds" / "fresh-1" / "world.toml"
    ) and generated.world_hash.startswith("sha256:")
    assert (
        generated.bank == str(tmp_path / "out" / "worlds" / "fresh-1" / "bank.toml")
        and demo == sweep.worlds[1]
    )
