"""The sweep file: what it resolves to, and every mistake reported with the
file, the key and what was expected, never a traceback (a property over
arbitrary TOML documents)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from alienworlds.cli.aliencode import main
from alienworlds.cli.alienlogic import cli as logic_main
from alienworlds.sweep.plan import plan
from alienworlds.sweep.spec import TOP_KEYS, SweepError, load_sweep
from click.testing import CliRunner
from fuzzing import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sweep_testing import REPO


def load(tmp_path: Path, text: str, language: str = "aliencode"):
    path = tmp_path / "sweep.toml"
    path.write_text(text, encoding="utf-8")
    return load_sweep(path, language)


def problems(tmp_path: Path, text: str, language: str = "aliencode") -> list[str]:
    with pytest.raises(SweepError) as caught:
        load(tmp_path, text, language)
    return caught.value.problems


def test_a_grid_resolves_worlds_banks_agents_and_seeds(tmp_path, twin):
    sweep = load(
        tmp_path,
        f'''
worlds = ["demo", "{twin}"]
agents = ["oracle", {{ name = "openai", model = "m/x 1", base_url = "http://127.0.0.1:9/v1/", \
params = {{ temperature = 1 }} }}]
conditions = ["direct", "fixed-probe"]
trajectories = 3
seed = 7
passes = 1
fixed_calls = 4
[[endpoints]]
base_url = "http://127.0.0.1:9/v1"
max_in_flight = 2
''',
    )
    assert [(w.label, w.shipped, w.bank) for w in sweep.worlds] == [
        ("demo", True, None),
        ("twin", False, str(twin.parent / "bank.toml")),
    ]  # a file's bank beside it
    assert [a.label for a in sweep.agents] == ["oracle", "openai-m-x-1"]
    assert sweep.endpoints == {"http://127.0.0.1:9/v1": 2}
    jobs = plan(sweep)
    assert len(jobs) == 2 * 2 * 2 * 3
    assert [j.seed for j in jobs[:3]] == [7, 8, 9] and jobs[2].key == "demo/oracle/direct/t3"
    twin_job = next(j for j in jobs if j.world_label == "twin")
    assert (
        twin_job.world == "world.toml"
        and twin_job.world_text == twin.read_text()
        and twin_job.bank_name == "bank.toml"
    )
    limited = [j for j in jobs if j.agent == "openai"]
    assert all(
        j.endpoint == "http://127.0.0.1:9/v1" and j.fixed_calls == 4 and j.passes == 1
        for j in limited
    )
    assert all(j.endpoint is None for j in jobs if j.agent == "oracle")


@pytest.mark.parametrize(
    "text, expected",
    [
        ('agents = ["oracle"]', r"sweep\.toml: worlds: missing; expected a non-empty array"),
        ('worlds = []\nagents = ["oracle"]', r"worlds: expected a non-empty array, got \[\]"),
        (
            'worlds = ["demo"]\nagents = ["oracle"]\nworld = 1',
            r"world: unknown key; expected one of language, worlds",
        ),
        (
            'worlds = ["nowhere"]\nagents = ["oracle"]',
            r"worlds\[0\]: the world cannot be used: .*no shipped aliencode world",
        ),
        (
            'worlds = ["x/none.toml"]\nagents = ["oracle"]',
            r"worlds\[0\]\.path: no world file at .*x/none\.toml",
        ),
        (
            'worlds = [{ name = "demo", path = "a.toml" }]\nagents = ["oracle"]',
            r"worlds\[0\]: expected exactly one of `name`",
        ),
        (
            'worlds = [{ name = "demo", seed = 3 }]\nagents = ["oracle"]',
            r"worlds\[0\]\.seed: unknown key; expected one of name, path",
        ),
        (
            'worlds = [{ name = "demo", bank = "no.toml" }]\nagents = ["oracle"]',
            r"worlds\[0\]\.bank: no bank file at",
        ),
        (
            'worlds = ["demo", { name = "demo", label = "d2" }]\nagents = ["oracle"]',
            r"worlds\[1\]: the same world as worlds\[0\]",
        ),
        (
            'worlds = ["demo"]\nagents = ["oracle", "oracle"]',
            r"agents\[1\]: two agents would share the folder 'oracle'",
        ),
        (
            'worlds = ["demo"]\nagents = [{ name = "oracle", label = "../x" }]',
            r"agents\[0\]\.label: expected a folder name",
        ),
        (
            'worlds = ["demo"]\nagents = ["gpt"]',
            r"agents\[0\]\.name: unknown agent 'gpt'; built in: oracle, naive, fixed, openai",
        ),
        (
            'worlds = ["demo"]\nagents = ["replay"]',
            r"agents\[0\]\.name: 'replay' is not for sweeps",
        ),
        (
            'worlds = ["demo"]\nagents = [{ name = "openai" }]',
            r"agents\[0\]\.model: expected the model's name",
        ),
        (
            'worlds = ["demo"]\nagents = [{ name = "openai", model = "m", concurrency = "4" }]',
            r"agents\[0\]\.concurrency: expected an integer",
        ),
        (
            'worlds = ["demo"]\nagents = [{ name = "naive", model = "m" }]',
            r"agents\[0\]\.model: unknown key; the naive agent takes only",
        ),
        (
            'worlds = ["demo"]\nagents = [{ name = "x", class = "not a path" }]',
            r"agents\[0\]\.class: expected \"package\.module:Class\"",
        ),
        (
            'worlds = ["demo"]\nagents = ["oracle"]\nconditions = ["hindsight"]',
            r"conditions\[0\]: 'hindsight' is not for sweeps",
        ),
        (
            'worlds = ["demo"]\nagents = ["oracle"]\nconditions = ["lazy"]',
            r"conditions\[0\]: unknown condition 'lazy'",
        ),
        (
            'worlds = ["demo"]\nagents = ["oracle"]\ntrajectories = 0',
            r"trajectories: expected an integer from 1 to 1000, got 0",
        ),
        (
            'worlds = ["demo"]\nagents = ["oracle"]\nfixed_calls = 13',
            r"fixed_calls: expected an integer from 1 to 12, got 13",
        ),
        (
            'worlds = ["demo"]\nagents = ["oracle"]\nlanguage = "alienlogic"',
            r"language: this sweep is for 'alienlogic'; run it with `alienlogic sweep`",
        ),
        (
            'worlds = ["demo"]\nagents = ["oracle"]\n[[endpoints]]\nbase_url = '
            '"http://h/v1"\nmax_in_flight = 2',
            r"endpoints\[0\]\.base_url: no agent of this sweep uses http://h/v1",
        ),
        (
            'worlds = ["demo"]\nagents = [{ name = "openai", model = "m", base_url = '
            '"http://h/v1" }]\n[[endpoints]]\nbase_url = "http://h/v1"\nmax_in_flight = 0',
            r"endpoints\[0\]\.max_in_flight: expected an integer at least 1, got 0",
        ),
        ("worlds = [", r"sweep\.toml: not valid TOML"),
    ],
)
def test_each_mistake_names_the_file_the_key_and_what_was_expected(tmp_path, text, expected):
    found = problems(tmp_path, text)
    assert any(re.search(expected, p) for p in found), found
    assert all(p.startswith(str(tmp_path / "sweep.toml")) for p in found)


def test_a_world_file_without_a_bank_says_where_one_is_looked_for(tmp_path, twin):
    lonely = tmp_path / "lonely" / "mine.toml"
    lonely.parent.mkdir()
    lonely.write_text(twin.read_text().replace('name = "twin"', 'name = "mine"'))
    [found] = problems(tmp_path, f'worlds = ["{lonely}"]\nagents = ["oracle"]')
    assert (
        "worlds[0]: no task bank for world 'mine': none at" in found
        and "give a bank file with `bank = PATH`" in found
    )


def test_every_problem_is_reported_at_once(tmp_path):
    found = problems(
        tmp_path, 'worlds = ["nowhere"]\nagents = ["gpt"]\ntrajectories = -1\npasses = "3"'
    )
    assert [p.split(": ")[1] for p in found] == [
        "worlds[0]",
        "agents[0].name",
        "trajectories",
        "passes",
    ]


def test_the_command_prints_the_problems_and_exits_2(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('worlds = ["demo"]\nagents = ["gpt"]\n')
    result = CliRunner().invoke(main, ["sweep", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert f"aliencode sweep: {path}: agents[0].name: unknown agent 'gpt'" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()
    result = CliRunner().invoke(logic_main, ["sweep", str(tmp_path / "missing.toml")])
    assert result.exit_code == 2 and "cannot read the file" in result.output


KEYS = st.sampled_from(
    [*TOP_KEYS, "name", "path", "bank", "label", "class", "model", "base_url", "max_in_flight", "x"]
)
SCALARS = st.one_of(
    st.integers(-3, 20),
    st.booleans(),
    st.text(max_size=8),
    st.sampled_from(["demo", "main", "oracle", "openai", "direct", "./w.toml", "a:B", ""]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)),
    max_leaves=8,
)


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.dictionaries(KEYS, VALUES, max_size=6))
def test_any_document_loads_or_fails_with_sweep_errors_only(tmp_path, document):
    text = "\n".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in document.items())
    try:
        load(tmp_path, text)
    except SweepError as exc:
        assert exc.problems and all(
            p.startswith(f"{tmp_path / 'sweep.toml'}: ") for p in exc.problems
        )


def test_the_documented_sweep_file_and_the_example_load(tmp_path, twin):
    text = (REPO / "docs" / "sweeps.md").read_text(encoding="utf-8")
    documented = re.search(r"## The sweep file\n\n```toml\n(.*?)```", text, re.S).group(1)
    sweep = load(tmp_path, documented.replace("worlds/mine/world.toml", str(twin)))
    assert [w.label for w in sweep.worlds] == ["main", "demo", "twin"]
    assert [a.label for a in sweep.agents] == ["oracle", "fixed", "small"]
    assert sweep.agents[2].options["params"] == {"temperature": 1}
    assert sweep.endpoints == {"http://127.0.0.1:8000/v1": 8} and len(plan(sweep)) == 3 * 3 * 2 * 3
    example = load_sweep(REPO / "examples" / "sweep.toml", "aliencode")
    assert len(plan(example)) == 2 * 3 * 2 * 2
