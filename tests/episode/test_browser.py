"""The report pages in a real headless browser (Debian's chromium).

Skipped, with the reason, only when no chromium is found outside CI;
`.ci/run` installs chromium and sets ALIENWORLDS_REQUIRE_CHROMIUM=1, which
turns a missing browser into a failure. The screenshot is kept as a test
artefact in out/test-artifacts/ (or $ALIENWORLDS_TEST_ARTIFACTS)."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from alienworlds.episode import Episode, Settings, make_agent
from alienworlds.episode.report import write_summary
from replay_testing import INJECTION, PAGE_TAGS, Elements, Hostile

REPO = Path(__file__).resolve().parents[2]
NAMES = ("chromium", "chromium-browser")
# headless, and nothing that talks to the network on its own
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-extensions",
    "--disable-default-apps",
    "--no-default-browser-check",
    "--hide-scrollbars",
    "--mute-audio",
)


def _chromium() -> str:
    found = os.environ.get("ALIENWORLDS_CHROMIUM") or next(
        (p for p in map(shutil.which, NAMES) if p), None
    )
    if found:
        return found
    if os.environ.get("ALIENWORLDS_REQUIRE_CHROMIUM"):
        pytest.fail(
            "chromium is required here (ALIENWORLDS_REQUIRE_CHROMIUM is set) but was not found: "
            "apt-get install -y chromium"
        )
    pytest.skip(
        "chromium not found (apt-get install -y chromium); outside CI the browser test is skipped"
    )


def _browse(binary: str, profile: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [binary, *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def test_replay_and_index_in_a_real_browser(demo_env, tmp_path):
    binary = _chromium()
    runs = tmp_path / "runs"
    Episode(demo_env, Hostile(make_agent("fixed", demo_env)), runs / "fixed", Settings()).run()
    Episode(demo_env, make_agent("naive", demo_env), runs / "naive", Settings()).run()
    write_summary(runs, [runs / "fixed", runs / "naive"])
    replay = runs / "fixed" / "replay.html"

    dumped = _browse(binary, tmp_path / "profile1", "--dump-dom", replay.as_uri())
    assert dumped.returncode == 0, dumped.stderr[-2000:]
    dom = Elements(dumped.stdout)
    assert {t for t, _ in dom.tags} <= PAGE_TAGS - {
        "img"
    }  # the markup in the model's text made no element
    body = dom.find("body")[0]
    assert "data-pwned" not in body
    sections = [a.get("id") for t, a in dom.tags if t == "section"]
    assert sections == [
        "overview",
        "setup",
        "m0",
        "round-1",
        "m1",
        "round-2",
        "m2",
        "round-3",
        "m3",
        "round-4",
        "m4",
    ]
    assert len(dom.classed("probe")) == 48 and len(dom.classed("tool-result")) == 48
    verdicts = [
        a["class"].split() for t, a in dom.tags if t == "td" and "verdict" in (a.get("class") or "")
    ]
    assert (
        len(verdicts) == 5 * 6 * 3 + 5 * 5
        and any("pass" in v for v in verdicts)
        and any("fail" in v for v in verdicts)
    )
    text = "".join(dom.text)
    assert (
        INJECTION in text
        and "Round 3" in text
        and "Milestone M4" in text
        and "probe 12 of round 4" in text
    )

    index = _browse(binary, tmp_path / "profile2", "--dump-dom", (runs / "index.html").as_uri())
    assert index.returncode == 0, index.stderr[-2000:]
    links = [a["href"] for a in Elements(index.stdout).find("a")]
    assert "fixed/replay.html" in links and "naive/replay.html" in links

    artefacts = Path(
        os.environ.get("ALIENWORLDS_TEST_ARTIFACTS") or REPO / "out" / "test-artifacts"
    )
    artefacts.mkdir(parents=True, exist_ok=True)
    shot = artefacts / "replay.png"
    shot.unlink(missing_ok=True)
    taken = _browse(
        binary,
        tmp_path / "profile3",
        "--window-size=1280,2400",
        f"--screenshot={shot}",
        replay.as_uri(),
    )
    assert taken.returncode == 0, taken.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    print(f"screenshot of the replay page: {shot}")
