import pytest
from alienworlds.episode.aliencode_env import AlienCodeEnvironment


@pytest.fixture(scope="session")
def demo_env():
    return AlienCodeEnvironment("demo")


@pytest.fixture(scope="session")
def main_env():
    return AlienCodeEnvironment("main")
