"""The generators' knobs and seeds, checked before any work: random knob
values and seeds (in and out of range, huge, contradicting each other) give
exit 2 and one line exactly when generate/knobs.py finds a problem, and
otherwise reach the generator; --help names every range; the episode
command's trajectories, passes and seed are bounded the same way."""

from __future__ import annotations

import subprocess
import sys

import alienworlds.generate.aliencode as gen_code
import alienworlds.generate.alienlogic as gen_logic
import pytest
from alienworlds.cli.aliencode import main as aliencode
from alienworlds.cli.alienlogic import cli as alienlogic
from alienworlds.episode.languages import language as language_entry
from alienworlds.generate.knobs import ALIENCODE_KNOBS, MAX_SEED_CHARS, seed_problem
from alienworlds.sweep import limits
from click.testing import CliRunner
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from aliencode.sites import OPERATIONS

COMMANDS = {"aliencode": (aliencode, gen_code), "alienlogic": (alienlogic, gen_logic)}
# each language's table, as its registry entry names it
KNOBS = {name: language_entry(name).knobs.load() for name in COMMANDS}


class Reached(Exception):
    """The generator was called: every check before it passed."""


def stub_generator(monkeypatch, language: str) -> None:
    def reached(seed, knobs, phases=None):
        raise Reached(seed, knobs)

    monkeypatch.setattr(COMMANDS[language][1], "generate", reached)


@st.composite
def consistent(draw, language: str) -> dict[str, int]:
    """Knobs the generator may be run with (the rules between them met)."""
    ranges = {k.name: (k.low, k.high) for k in KNOBS[language].knobs}

    def pick(name: str, high: int | None = None) -> int:
        low, top = ranges[name]
        return draw(st.integers(low, min(top, high if high is not None else top)))

    if language == "aliencode":
        altered = pick("altered")
        scoped = pick("scoped", altered - 2)
        return {
            "altered": altered,
            "scoped": scoped,
            "red_herrings": pick("red_herrings", altered - scoped),
            "renamed": pick("renamed"),
            "tasks": pick("tasks"),
        }
    theorems = pick("theorems")
    unprovable = pick("unprovable", theorems)
    return {
        "theorems": theorems,
        "unprovable": unprovable,
        "first_order": pick("first_order", theorems - unprovable),
        "patches": pick("patches"),
        "examples": pick("examples"),
    }


def knob_values(language: str):
    """Knobs the generator may be run with; or every knob in its range (the
    rules between knobs may fail); or each knob absent, in its range, just
    outside it, or far outside."""
    inside = st.fixed_dictionaries(
        {k.name: st.integers(k.low, k.high) for k in KNOBS[language].knobs}
    )

    def anywhere(knob):
        return st.one_of(
            st.integers(knob.low, knob.high),
            st.sampled_from([knob.low - 1, knob.high + 1]),
            st.integers(-(10**30), 10**30),
        )

    return st.one_of(
        consistent(language),
        inside,
        st.fixed_dictionaries({}, optional={k.name: anywhere(k) for k in KNOBS[language].knobs}),
    )


seeds = st.one_of(
    st.text(st.characters(exclude_categories=("Cc", "Cs")), min_size=1, max_size=MAX_SEED_CHARS),
    st.text(min_size=0, max_size=MAX_SEED_CHARS + 5),
    st.text(
        st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=()), max_size=8
    ),
    st.integers(MAX_SEED_CHARS - 2, MAX_SEED_CHARS + 2).map(lambda n: "s" * n),
)


@pytest.mark.parametrize("language", sorted(COMMANDS))
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_random_knobs_and_seeds_exit_2_exactly_when_a_check_fails(language, data, tmp_path_factory):
    values = data.draw(knob_values(language))
    seed = data.draw(seeds)
    out = tmp_path_factory.mktemp("gen")
    args = ["world", "generate", "--seed", seed, "--out", str(out)]
    for name, value in values.items():
        args += ["--" + name.replace("_", "-"), str(value)]
    with pytest.MonkeyPatch.context() as monkeypatch:
        stub_generator(monkeypatch, language)
        result = CliRunner().invoke(COMMANDS[language][0], args)
    refused = seed_problem(seed) is not None or bool(KNOBS[language].problems(values))
    if refused:
        assert result.exit_code == 2, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "Traceback" not in result.output
    else:
        assert isinstance(result.exception, Reached), result.output
    assert not any(out.iterdir())


def test_an_argument_that_is_not_utf8_is_refused_as_a_seed(tmp_path):
    # argv bytes that are not UTF-8 reach Python as lone surrogates
    process = subprocess.run(
        [
            sys.executable,
            "-m",
            "alienworlds.cli.aliencode",
            "world",
            "generate",
            "--seed",
            b"\xff\xfe",
            "--out",
            str(tmp_path / "w"),
        ],
        capture_output=True,
        timeout=120,
    )
    assert process.returncode == 2 and not (tmp_path / "w").exists()
    assert process.stderr.decode().splitlines() == [
        "aliencode world generate: Invalid value for '--seed': character 1 of the seed is not "
        "text (not UTF-8: "
        "undecodable bytes). Try 'aliencode world generate --help'."
    ]


@pytest.mark.parametrize("language", sorted(COMMANDS))
def test_help_names_every_knob_and_its_range(language):
    shown = " ".join(
        CliRunner()
        .invoke(COMMANDS[language][0], ["world", "generate", "--help"], terminal_width=1000)
        .output.split()
    )
    for knob in KNOBS[language].knobs:
        assert (
            f"{knob.option} N" in shown
            and f"[default: {knob.default}; {knob.low}<=x<={knob.high}]" in shown
        )
    assert f"1 to {MAX_SEED_CHARS} characters" in shown


def test_every_operation_keyword_may_be_renamed():
    assert ALIENCODE_KNOBS.knob("renamed").high == len(OPERATIONS)


@pytest.mark.parametrize("language", sorted(COMMANDS))
def test_the_generators_defaults_are_the_tables(language):
    knobs = COMMANDS[language][1].Knobs()
    assert vars(knobs) == {k.name: k.default for k in KNOBS[language].knobs}
    knobs.check()


@pytest.mark.parametrize("language", sorted(COMMANDS))
@settings(max_examples=examples(80), deadline=None)
@given(data=st.data())
def test_the_library_check_and_the_table_agree(language, data):
    values = data.draw(knob_values(language))
    knobs = COMMANDS[language][1].Knobs(**values)
    problems = KNOBS[language].problems(values)
    if problems:
        with pytest.raises(COMMANDS[language][1].GenerationError):
            knobs.check()
    else:
        knobs.check()


@settings(max_examples=examples(60), deadline=None)
@given(
    trajectories=st.integers(-5, 10**12),
    passes=st.integers(-5, 10**12),
    seed=st.one_of(
        st.integers(-(2**60), 2**60), st.sampled_from([limits.SEED[1], limits.SEED[0] - 1])
    ),
)
def test_episode_bounds_are_checked_before_a_world_is_loaded(trajectories, passes, seed):
    inside = (
        limits.TRAJECTORIES[0] <= trajectories <= limits.TRAJECTORIES[1]
        and limits.PASSES[0] <= passes <= limits.PASSES[1]
        and limits.SEED[0] <= seed <= limits.SEED[1] - trajectories + 1
    )
    args = [
        "episode",
        "--agent",
        "oracle",
        "--world",
        "no-such-world",
        "--trajectories",
        str(trajectories),
        "--passes",
        str(passes),
        "--seed",
        str(seed),
    ]
    result = CliRunner().invoke(aliencode, args)
    assert result.exit_code == 2 and "Traceback" not in result.output
    # in range, the command goes on to the world, which does not exist
    assert ("no-such-world" in result.output) == inside, result.output


@settings(max_examples=examples(40), deadline=None)
@given(
    text=st.one_of(
        st.sampled_from(["nan", "inf", "-inf", "0", "-1", "3600.5", "1e400", "x", ""]),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
    )
)
def test_seconds_are_finite_positive_and_bounded(text):
    result = CliRunner().invoke(
        alienlogic, ["prove", "--world", "no-such-world", "--goal", "p", "--seconds", text]
    )
    try:
        inside = 0 < float(text) <= 3600
    except ValueError:
        inside = False
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert ("Invalid value for '--seconds'" in result.output) == (not inside), result.output
