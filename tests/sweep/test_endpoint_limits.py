"""A per-endpoint limit holds across every episode of a sweep, whatever
process or Ray worker runs it: a fake OpenAI-compatible endpoint never sees
more requests at once than the sweep file allows, although each episode
would send 4 at once and two run side by side."""

from __future__ import annotations

import json

import pytest
from alienworlds.cli.aliencode import main
from alienworlds.episode.aliencode_env import AlienCodeEnvironment
from click.testing import CliRunner
from fake_openai import FakeServer, OracleModel

LIMITED = """
[[endpoints]]
base_url = "{url}"
max_in_flight = {limit}
"""


def run(tmp_path, url: str, limit: int | None, *extra: str) -> dict:
    agents = ", ".join(
        f'{{ name = "openai", label = "{label}", model = "fake-{label}", base_url = "{url}", '
        'api_key_env = "ALIENWORLDS_NO_SUCH_KEY", concurrency = 4 }'
        for label in ("a", "b")
    )
    text = (
        'worlds = ["demo"]\n'
        f"agents = [{agents}]\n"
        'conditions = ["direct"]\ntrajectories = 2\npasses = 1\n'
    )
    if limit is not None:
        text += LIMITED.format(url=url, limit=limit)
    spec = tmp_path / "sweep.toml"
    spec.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(
        main, ["sweep", str(spec), "--out", str(tmp_path / "out"), "--no-progress", *extra]
    )
    assert result.exit_code == 0, result.output
    return json.loads((tmp_path / "out" / "sweep.json").read_text())["counts"]


@pytest.fixture(scope="module")
def model():
    return OracleModel(AlienCodeEnvironment("demo"))


def test_without_a_limit_the_episodes_overlap_at_the_endpoint(tmp_path, model):
    with FakeServer(model, delay=0.03) as server:
        assert run(tmp_path, server.url, None, "--jobs", "2")["done"] == 4
    assert server.max_inflight > 2  # what the limit below must prevent


def test_the_pool_keeps_requests_in_flight_within_the_limit(tmp_path, model):
    with FakeServer(model, delay=0.03) as server:
        assert run(tmp_path, server.url, 2, "--jobs", "2")["done"] == 4
    assert server.max_inflight == 2
    assert len(server.requests) == 4 * 7  # M0: the rule report and 6 tasks, per episode


def test_ray_keeps_requests_in_flight_within_the_limit(tmp_path, model, ray_local):
    with FakeServer(model, delay=0.03) as server:
        assert run(tmp_path, server.url, 1, "--ray", "local")["done"] == 4
    assert server.max_inflight == 1
