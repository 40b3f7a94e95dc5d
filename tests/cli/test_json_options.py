"""Options that take JSON (episode --param, sweep --runtime-env): any
nesting gives exit 2 and one line past 32 levels, decided on the text
before the parser recurses, never an internal error."""

from __future__ import annotations

from alienworlds.cli.aliencode import main
from click.testing import CliRunner
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

nestings = st.tuples(st.integers(0, 5000), st.sampled_from(["[", '{"a": ']), st.booleans())


def document(levels: int, opener: str, quoted: bool) -> str:
    closer = "]" if opener == "[" else "}"
    inner = '"[[[{{"' if quoted else "1"  # brackets inside a string do not nest
    return opener * levels + inner + closer * levels


@settings(max_examples=examples(30), deadline=None)
@given(nestings)
def test_a_param_nested_past_the_bound_is_refused_in_one_line(nesting):
    levels, opener, quoted = nesting
    result = CliRunner().invoke(
        main,
        [
            "episode",
            "--agent",
            "oracle",
            "--world",
            "no-such-world",
            "--param",
            f"x={document(levels, opener, quoted)}",
        ],
    )
    assert result.exit_code == 2 and "internal error" not in result.output
    refused = "nest deeper than 32 levels" in result.output
    assert refused == (levels > 32), result.output
    assert refused or "no-such-world" in result.output


@settings(max_examples=examples(30), deadline=None)
@given(levels=st.integers(0, 5000), quoted=st.booleans())
def test_a_runtime_env_at_any_nesting_is_refused_in_one_line(tmp_path_factory, levels, quoted):
    # an array at any depth: never a JSON object, so no Ray is started whatever the depth
    folder = tmp_path_factory.mktemp("sweep")
    (folder / "sweep.toml").write_text('worlds = ["demo"]\nagents = ["oracle"]\n', encoding="utf-8")
    result = CliRunner().invoke(
        main,
        [
            "sweep",
            str(folder / "sweep.toml"),
            "--out",
            str(folder / "out"),
            "--ray",
            "local",
            "--runtime-env",
            document(levels + 1, "[", quoted),
        ],
    )
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == ["aliencode sweep: --runtime-env: expected a JSON object"]
    assert not (folder / "out").exists()
