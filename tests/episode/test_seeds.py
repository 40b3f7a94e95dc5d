"""Each trajectory has its own seed (base seed + index), recorded in its
trace and sent to the endpoint."""

from alienworlds.cli.aliencode import main
from alienworlds.episode.trace import read_trace
from click.testing import CliRunner
from fake_openai import FakeServer, OracleModel


def probes(directory):
    return [e["arguments"] for e in read_trace(directory) if e["type"] == "tool"]


def test_fixed_trajectories_get_their_own_seeds(tmp_path):
    result = CliRunner().invoke(
        main,
        [
            "episode",
            "--agent",
            "fixed",
            "--world",
            "demo",
            "--trajectories",
            "3",
            "--seed",
            "5",
            "--out",
            str(tmp_path),
            "--no-progress",
        ],
    )
    assert result.exit_code == 0, result.output
    dirs = [tmp_path / f"t{i}" for i in (1, 2, 3)]
    assert [read_trace(d)[0]["seed"] for d in dirs] == [5, 6, 7]
    assert [read_trace(d)[0]["agent"]["seed"] for d in dirs] == [5, 6, 7]
    sequences = [probes(d) for d in dirs]
    assert (
        all(sequences) and len({tuple(s) for s in sequences}) == 3
    )  # three different probe sequences


def test_the_openai_agent_sends_each_trajectorys_seed(demo_env, tmp_path):
    with FakeServer(OracleModel(demo_env)) as server:
        result = CliRunner().invoke(
            main,
            [
                "episode",
                "--agent",
                "openai",
                "--model",
                "m",
                "--base-url",
                server.url,
                "--world",
                "demo",
                "--condition",
                "direct",
                "--trajectories",
                "2",
                "--seed",
                "40",
                "--out",
                str(tmp_path),
                "--no-progress",
            ],
        )
    assert result.exit_code == 0, result.output
    assert sorted({b["seed"] for b in server.requests}) == [40, 41]
    assert [read_trace(tmp_path / t)[0]["seed"] for t in ("t1", "t2")] == [40, 41]
