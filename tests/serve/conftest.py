from pathlib import Path

import pytest
from alienworlds.episode.aliencode_env import AlienCodeEnvironment
from alienworlds.episode.alienlogic_env import AlienLogicEnvironment

LOGIC_BANK = Path(__file__).resolve().parents[1] / "episode" / "data" / "alienlogic_demo.toml"


@pytest.fixture(scope="session")
def demo_env():
    return AlienCodeEnvironment("demo")


@pytest.fixture(scope="session")
def logic_env():
    return AlienLogicEnvironment("demo", bank_path=LOGIC_BANK)
