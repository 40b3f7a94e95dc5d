import pytest
from alienworlds.episode import Episode, Settings, make_agent
from alienworlds.episode.aliencode_env import AlienCodeEnvironment


@pytest.fixture(scope="session")
def demo_env():
    return AlienCodeEnvironment("demo")


@pytest.fixture(scope="session")
def fixed_probe_trace(demo_env, tmp_path_factory):
    """A finished demo episode of the explorer's fixed-probe variant (48
    probes of the protocol's sequence): its folder and report."""
    out = tmp_path_factory.mktemp("explorer-fixed")
    report = Episode(demo_env, make_agent("explorer-fixed", demo_env), out, Settings()).run()
    return out, report
