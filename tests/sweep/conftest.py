import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(
    0, str(HERE)
)  # sweep_agents, for the pool's workers too (spawned workers get this path)
sys.path.insert(0, str(HERE.parent / "episode"))  # fake_openai

from sweep_testing import twin_world  # noqa: E402


@pytest.fixture(scope="session")
def twin(tmp_path_factory) -> Path:
    return twin_world(tmp_path_factory.mktemp("worlds") / "twin")


@pytest.fixture(scope="session")
def ray_local():
    """One embedded Ray for every test that needs it (its start-up takes seconds)."""
    import ray  # the test extra installs it: CI runs this test, never skips it

    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    yield ray
    if started:
        ray.shutdown()
