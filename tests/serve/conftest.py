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


class Tally:
    """The security suite's cases by kind, and how many held."""

    def __init__(self) -> None:
        self.cases: dict[str, list[int]] = {}

    def check(self, kind: str, held: bool, detail: str = "") -> None:
        counts = self.cases.setdefault(kind, [0, 0])
        counts[0] += 1
        counts[1] += bool(held)
        assert held, f"{kind}: {detail}"


TALLY = Tally()


@pytest.fixture(scope="session")
def tally():
    return TALLY


def pytest_terminal_summary(terminalreporter):
    if not TALLY.cases:
        return
    terminalreporter.write_sep("-", "study server security cases")
    total = held = 0
    for kind, (n, ok) in sorted(TALLY.cases.items()):
        terminalreporter.write_line(f"{kind:<28} {ok:>5} of {n:>5} held")
        total, held = total + n, held + ok
    terminalreporter.write_line(f"{'all':<28} {held:>5} of {total:>5} held")
