"""Hostile sweep files: random grids, knobs, seeds and nesting either load
(and then plan exactly the episodes their sizes multiply to, within the
bound) or are refused with one-line problems, never a traceback; the
command exits 2 on each of the issue's cases and creates nothing; a plan
over the bound is refused before any job is built."""

from __future__ import annotations

import json
import tracemalloc
from dataclasses import replace

import pytest
from alienworlds.cli.aliencode import main
from alienworlds.generate.knobs import ALIENCODE_KNOBS
from alienworlds.sweep import limits
from alienworlds.sweep.plan import plan
from alienworlds.sweep.spec import MAX_MESSAGE, MAX_PROBLEMS, SweepError, load_sweep
from click.testing import CliRunner
from fuzzing import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

HEAD = 'agents = ["oracle"]\nconditions = ["direct"]\n'


def value(text: object) -> str:
    """`text` as a TOML value (JSON's spelling serves for these)."""
    return json.dumps(text, ensure_ascii=False)


def nested(levels: int, opener: str) -> str:
    closer = {"[": "]", "{a = ": "}"}[opener]
    return opener * levels + "1" + closer * levels


small = st.integers(1, 12)
integers = st.one_of(
    small,
    small,
    st.integers(-3, 1200),
    st.integers(-(10**40), 10**40),
    st.sampled_from([2**63 - 1, 10**8, limits.SEED[1], limits.SEED[0] - 1]),
)
knob_names = st.sampled_from([k.name for k in ALIENCODE_KNOBS.knobs] + ["no_such_knob"])
generated_seeds = st.one_of(
    st.text(st.characters(exclude_categories=("Cc", "Cs")), min_size=1, max_size=8),
    st.text(max_size=8),
    st.integers(-(10**30), 10**30),
    st.just("s" * 201),
)


@st.composite
def sweep_files(draw) -> str:
    lines = [HEAD]
    worlds = ['"demo"'] * draw(st.integers(0, 1))
    if not worlds or draw(st.booleans()):
        knobs = draw(
            st.dictionaries(knob_names, st.one_of(st.integers(0, 3), integers), max_size=3)
        )
        seeds = draw(st.lists(generated_seeds, min_size=1, max_size=3, unique_by=str))
        worlds.append(
            "{ seeds = ["
            + ", ".join(value(s) for s in seeds)
            + "], knobs = {"
            + ", ".join(f"{k} = {v}" for k, v in knobs.items())
            + "} }"
        )
    lines.append(f"worlds = [{', '.join(worlds)}]")
    for key in ("trajectories", "passes", "seed"):
        if draw(st.booleans()):
            lines.append(f"{key} = {draw(integers)}")
    if draw(st.booleans()):
        levels = draw(st.one_of(st.integers(0, 40), st.integers(0, 5000)))
        lines.append(f"extra = {nested(levels, draw(st.sampled_from(['[', '{a = '])))}")
    return "\n".join(lines) + "\n"


@settings(
    max_examples=examples(80),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(text=sweep_files())
def test_a_random_sweep_file_loads_within_bounds_or_is_refused_line_by_line(tmp_path, text):
    path = tmp_path / "sweep.toml"
    path.write_text(text, encoding="utf-8")
    try:
        sweep = load_sweep(path, "aliencode")
    except SweepError as exc:
        assert 1 <= len(exc.problems) <= MAX_PROBLEMS + 1
        assert all("\n" not in p and len(p) <= MAX_MESSAGE for p in exc.problems)
        return
    size = len(sweep.worlds) * len(sweep.agents) * len(sweep.conditions) * sweep.trajectories
    assert (
        len(plan(sweep)) == size <= limits.EPISODES and size * sweep.passes <= limits.ANSWER_ROUNDS
    )
    assert limits.TRAJECTORIES[0] <= sweep.trajectories <= limits.TRAJECTORIES[1]
    assert limits.PASSES[0] <= sweep.passes <= limits.PASSES[1]
    assert limits.SEED[0] <= sweep.seed and sweep.seed + sweep.trajectories - 1 <= limits.SEED[1]


ISSUE_CASES = {  # the text after the agents and conditions, and what a problem says
    "arrays nested 3,000 deep": (
        'worlds = ["demo"]\nx = ' + nested(3000, "[") + "\n",
        "nest deeper than 32 levels",
    ),
    "a 5,000-digit seed": (
        'worlds = ["demo"]\nseed = 1' + "0" * 4999 + "\n",
        "Exceeds the limit (4300 digits)",
    ),
    "trajectories = 100000000": (
        'worlds = ["demo"]\ntrajectories = 100000000\n',
        "trajectories: expected an integer from 1 to 1000",
    ),
    "passes = 2^63-1": (
        f'worlds = ["demo"]\npasses = {2**63 - 1}\n',
        "passes: expected an integer from 1 to 100",
    ),
    "generator knob renamed = 60": (
        'worlds = [{ seeds = ["s"], knobs = { renamed = 60 } }]\n',
        "worlds[0].knobs: --renamed must be an integer from 0 to 36, got 60",
    ),
    "a key of 200,000 parts": (
        'worlds = ["demo"]\n' + ".".join(["a"] * 200_000) + " = 1\n",
        "a dotted key of more than 32 parts",
    ),
    "a grid over 10,000 episodes": (
        "worlds = ["
        + ", ".join(f'{{ seeds = ["s{i}"], family = "f{i}" }}' for i in range(20))
        + "]\ntrajectories = 600\n",
        "20 worlds × 1 agents × 1 conditions × 600 trajectories is "
        "12,000 episodes, more than 10,000",
    ),
    "passes = 101": (
        'worlds = ["demo"]\ntrajectories = 1000\npasses = 101\n',
        "passes: expected an integer from 1 to 100",
    ),
    "answering rounds": (
        "worlds = ["
        + ", ".join(f'{{ seeds = ["s{i}"], family = "f{i}" }}' for i in range(20))
        + "]\ntrajectories = 500\npasses = 11\n",
        "10,000 episodes × 11 passes is 110,000 answering rounds",
    ),
    "1,000 generated worlds": (
        "worlds = [{ seeds = [" + ", ".join(str(i) for i in range(1000)) + "] }]\n",
        "1,000 worlds with each seed of a generated family, more than the 200",
    ),
    "200 worlds exactly, one of them shipped": (
        'worlds = ["demo", { seeds = [' + ", ".join(str(i) for i in range(200)) + "] }]\n",
        "201 worlds with each seed of a generated family, more than the 200",
    ),
}


@pytest.mark.parametrize("case", sorted(ISSUE_CASES))
def test_each_hostile_file_exits_2_with_one_line_problems_and_builds_nothing(tmp_path, case):
    text, expected = ISSUE_CASES[case]
    path = tmp_path / "sweep.toml"
    path.write_text(HEAD + text, encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["sweep", str(path), "--out", str(out), "--no-progress"])
    assert result.exit_code == 2, result.output
    lines = result.output.splitlines()
    assert lines and all(
        line.startswith("aliencode sweep: ") and len(line) < 1100 for line in lines
    )
    assert any(expected in line for line in lines), lines
    assert not out.exists()


def test_a_plan_over_the_bound_is_refused_before_a_job_is_built(tmp_path):
    path = tmp_path / "sweep.toml"
    path.write_text(HEAD + 'worlds = ["demo"]\n', encoding="utf-8")
    sweep = load_sweep(path, "aliencode")
    assert len(plan(replace(sweep, trajectories=limits.EPISODES))) == limits.EPISODES
    tracemalloc.start()
    try:
        for huge in (
            replace(sweep, trajectories=limits.EPISODES + 1),
            replace(sweep, trajectories=10**8),
            replace(sweep, passes=2**63 - 1),
        ):
            with pytest.raises(SweepError, match="split the sweep"):
                plan(huge)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


def test_too_many_problems_are_cut_short_and_counted(tmp_path):
    path = tmp_path / "sweep.toml"
    path.write_text(
        HEAD + 'worlds = ["demo"]\n' + "".join(f"unknown{i} = 1\n" for i in range(500)),
        encoding="utf-8",
    )
    with pytest.raises(SweepError) as caught:
        load_sweep(path, "aliencode")
    assert len(caught.value.problems) == MAX_PROBLEMS + 1
    assert caught.value.problems[-1].endswith(f"{500 - MAX_PROBLEMS} more problems not listed")


def test_a_huge_value_is_cut_short_in_its_problem(tmp_path):
    path = tmp_path / "sweep.toml"
    path.write_text(HEAD + f"worlds = {value('x' * 100_000)}\n", encoding="utf-8")
    with pytest.raises(SweepError) as caught:
        load_sweep(path, "aliencode")
    assert [len(p) for p in caught.value.problems] == [MAX_MESSAGE]


def test_the_bounds_themselves_are_allowed(tmp_path):
    path = tmp_path / "sweep.toml"
    seeds = ", ".join(str(i) for i in range(limits.WORLDS))
    path.write_text(
        HEAD
        + f"worlds = [{{ seeds = [{seeds}] }}]\ntrajectories = {limits.EPISODES // limits.WORLDS}\n"
        f"passes = {limits.ANSWER_ROUNDS // limits.EPISODES}\nseed = {limits.SEED[1] - 49}\n",
        encoding="utf-8",
    )
    sweep = load_sweep(path, "aliencode")
    assert len(plan(sweep)) == limits.EPISODES and plan(sweep)[-1].seed == limits.SEED[1]


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    key=st.sampled_from(sorted({*limits.COUNTS, *limits.SECONDS})),
    number=st.one_of(
        st.integers(-5, 300),
        st.integers(-(10**30), 10**30),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([0, 0.0, 86400.5, 3600.5]),
    ),
)
def test_the_openai_agents_counts_and_seconds_are_bounded_as_on_the_command_line(
    tmp_path, key, number
):
    spelled = {float("inf"): "inf", float("-inf"): "-inf"}.get(
        number, "nan" if number != number else repr(number)
    )
    path = tmp_path / "sweep.toml"
    path.write_text(
        f'worlds = ["demo"]\nagents = [{{ name = "openai", model = "m", {key} = {spelled} }}]\n',
        encoding="utf-8",
    )
    if key in limits.COUNTS:
        low, high = limits.COUNTS[key]
        inside = isinstance(number, int) and low <= number <= high
    else:
        inside = number == number and 0 < number <= limits.SECONDS[key]
    try:
        load_sweep(path, "aliencode")
    except SweepError as exc:
        assert not inside, exc.problems
        assert any(f"agents[0].{key}: expected" in p for p in exc.problems), exc.problems
    else:
        assert inside
