"""The protocol as Inspect tasks, end to end: through the `inspect` command
with Inspect's mock model (offline, the log served by `inspect view`), and
in process with scripted models playing the built-in agents, whose scores
match `aliencode episode` with those agents."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest
import scripted_model  # noqa: F401  (registers the aw-scripted models)
from alienworlds.cli.aliencode import main as aliencode
from alienworlds.inspect_eval.offline import cache_name
from alienworlds.inspect_eval.scorers import best_at_n
from alienworlds.inspect_eval.tasks import aliencode as aliencode_task
from alienworlds.inspect_eval.tasks import alienlogic as alienlogic_task
from click.testing import CliRunner
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.scorer import Score

INSPECT = str(Path(sys.executable).with_name("inspect"))


def offline_env(**extra: str):
    """No network: any download attempt goes to a dead proxy and fails."""
    dead = "http://127.0.0.1:9"
    return {
        **os.environ,
        **extra,
        "HTTP_PROXY": dead,
        "HTTPS_PROXY": dead,
        "http_proxy": dead,
        "https_proxy": dead,
        "NO_PROXY": "",
        "INSPECT_LOG_LEVEL": "warning",
    }


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_mock_model_runs_a_full_episode_offline_and_the_log_opens_in_inspect_view(tmp_path):
    # an empty token-encoding cache: the task sets it up on first use, without the network
    cache = tmp_path / "tiktoken"
    logs = tmp_path / "logs"
    started = time.perf_counter()
    run = subprocess.run(
        [
            INSPECT,
            "eval",
            "alienworlds/aliencode",
            "--model",
            "mockllm/model",
            "-T",
            "world=demo",
            "--log-dir",
            str(logs),
            "--display",
            "plain",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=offline_env(TIKTOKEN_CACHE_DIR=str(cache)),
        cwd=tmp_path,
    )
    print(
        "inspect eval alienworlds/aliencode --model mockllm/model -T world=demo: "
        f"{time.perf_counter() - started:.1f} s"
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert [p.name for p in cache.iterdir()] == [cache_name()]
    [path] = list(logs.glob("*.eval"))
    log = read_eval_log(str(path))
    assert log.status == "success" and log.eval.task == "alienworlds/aliencode"
    [sample] = log.samples
    # the whole protocol ran: the conversation holds the manual and every round's prompt
    assert sample.messages[0].role == "system" and "MANUAL" in sample.messages[0].text
    assert sum("Exploration round" in m.text for m in sample.messages if m.role == "user") == 4
    record = sample.metadata["alienworlds"]["events"]
    assert [e["milestone"] for e in record if e["type"] == "milestone"] == [0, 1, 2, 3, 4]
    assert sum(1 for e in record if e["type"] == "reply") == 5 * (
        6 * 3 + 1
    )  # every milestone's rule report and answers
    score = sample.scores["milestones"]
    assert (
        score.value["endpoint"] == 0.0 and [score.value[f"M{t}"] for t in range(5)] == [0.0] * 5
    )  # the mock answers nothing
    metrics = {r.reducer: r.metrics for r in log.results.scores}
    assert set(metrics) == {"best_at_n", "mean_at_n"}
    assert metrics["mean_at_n"]["endpoint (Mean@n)"].value == 0.0
    assert metrics["best_at_n"]["floor (Best@n)"].value == score.value["floor"] < 1
    # the summary names each value after its reducer
    assert "endpoint (Best@n)" in run.stdout and "endpoint (Mean@n)" in run.stdout

    port = free_port()
    view = subprocess.Popen(
        [INSPECT, "view", "--log-dir", str(logs), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=offline_env(),
        cwd=tmp_path,
    )
    try:
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        deadline = time.monotonic() + 60
        while True:
            try:
                listing = json.loads(
                    opener.open(f"http://127.0.0.1:{port}/api/log-files", timeout=5).read()
                )
                break
            except OSError:
                assert view.poll() is None and time.monotonic() < deadline, (
                    "inspect view did not start"
                )
                time.sleep(0.2)
        [name] = [f["name"] for f in listing["files"] if f["name"].endswith(path.name)]
        served = json.loads(
            opener.open(
                f"http://127.0.0.1:{port}/api/logs/{quote(name, safe='')}", timeout=30
            ).read()
        )
        assert served["status"] == "success" and served["eval"]["task"] == "alienworlds/aliencode"
    finally:
        view.terminate()
        view.wait(timeout=10)


@pytest.fixture(scope="module")
def cli_reports(tmp_path_factory):
    out = tmp_path_factory.mktemp("episodes")
    result = CliRunner().invoke(
        aliencode,
        [
            "episode",
            "--agent",
            "oracle,naive,fixed",
            "--world",
            "demo",
            "--out",
            str(out),
            "--json",
            "--no-progress",
        ],
    )
    assert result.exit_code == 0, result.output
    return {r["agent"]: r["report"] for r in json.loads(result.stdout)}


@pytest.mark.parametrize("agent", ["oracle", "naive", "fixed"])
def test_scripted_models_score_as_the_episode_command(agent, cli_reports, tmp_path):
    [log] = inspect_eval(
        aliencode_task(world="demo"),
        model=f"aw-scripted/{agent}",
        model_args={"world": "demo"},
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    [sample] = log.samples
    score = sample.scores["milestones"]
    expected = cli_reports[agent]
    # Inspect's 0-1 scale: the report's percentages divided by 100
    assert [score.value[f"M{m['t']}"] for m in expected["milestones"]] == [
        m["accuracy"] / 100 for m in expected["milestones"]
    ]
    assert score.value["endpoint"] == expected["endpoint"] / 100
    assert score.value["gain"] == expected["gain"] / 100
    end = expected["milestones"][-1]
    assert score.value["rule_report"] == end["rule_report_score"] / end["rule_report_of"]
    assert expected["floor"] is not None and score.value["floor"] == expected["floor"] / 100
    assert score.value["chance_corrected"] == expected["endpoint_chance_corrected"] / 100
    assert all(-1 <= v <= 1 for k, v in score.value.items() if k != "chance_corrected")
    graded = score.metadata["report"]
    for ours, theirs in zip(graded["milestones"], expected["milestones"]):
        assert ours["task_scores"] == theirs["task_scores"] and ours["budget"] == theirs["budget"]
    if agent == "fixed":  # its probes went through Inspect's tool interface
        calls = [e for e in sample.events if e.event == "tool"]
        assert len(calls) == expected["milestones"][-1]["budget"]["calls"] > 0
        assert all(c.function == "run_aliencode" for c in calls)


def test_epochs_are_trajectories_with_their_own_seeds(tmp_path):
    [log] = inspect_eval(
        aliencode_task(world="demo", condition="direct", trajectories=2, passes=1, seed=3),
        model="aw-scripted/naive",
        model_args={"world": "demo"},
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    assert sorted(s.metadata["alienworlds"]["events"][0]["seed"] for s in log.samples) == [3, 4]
    assert {r.reducer for r in log.results.scores} == {"best_at_n", "mean_at_n"}


def test_best_at_n_takes_the_highest_endpoint_and_its_whole_curve():
    reduce = best_at_n()
    scores = [
        Score(value={"endpoint": 50.0, "M0": 10.0}, metadata={"epoch": 3}),
        Score(value={"endpoint": 70.0, "M0": 5.0}, metadata={"epoch": 2}),
        Score(value={"endpoint": 70.0, "M0": 40.0}, metadata={"epoch": 1}),
    ]
    assert reduce(scores).value == {"endpoint": 70.0, "M0": 40.0}  # a tie goes to the lowest epoch
    assert reduce(scores[:2]).value == {"endpoint": 70.0, "M0": 5.0}


def test_the_alienlogic_task_offers_check_proof(tmp_path):
    bank = Path(__file__).resolve().parents[1] / "episode" / "data" / "alienlogic_demo.toml"
    [log] = inspect_eval(
        alienlogic_task(world="demo", bank=str(bank), passes=1),
        model="mockllm/model",
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    [sample] = log.samples
    exploring = [e for e in sample.events if e.event == "model" and e.tool_choice == "auto"]
    assert len(exploring) == 4 and all(
        [t.name for t in e.tools] == ["check_proof"] for e in exploring
    )  # one turn a round
    # the sample's input names the world: Inspect's log keeps it, no model call sends it
    sent = [m.text for e in sample.events if e.event == "model" for m in e.input]
    assert sent and not any(sample.input in text for text in sent)
    value = sample.scores["milestones"].value
    assert (
        value["endpoint"] == 0.0
        and value["unprovable_recognition"] == 0.0
        and "rule_report" not in value
    )


def test_with_out_the_traces_are_kept_and_a_rerun_resumes_them(tmp_path):
    task = dict(world="demo", condition="direct", passes=1, out=str(tmp_path / "runs"))
    [first] = inspect_eval(
        aliencode_task(**task),
        model="aw-scripted/oracle",
        model_args={"world": "demo"},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    trace = tmp_path / "runs" / "aliencode-demo-direct-seed0" / "t1" / "trace.jsonl"
    assert first.status == "success" and trace.exists()
    before = trace.read_bytes()
    [again] = inspect_eval(
        aliencode_task(**task),
        model="aw-scripted/oracle",
        model_args={"world": "demo"},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert (
        again.status == "success" and trace.read_bytes() == before
    )  # finished: nothing asked, nothing written
    assert not [e for e in again.samples[0].events if e.event == "model"]
    assert (
        [m.text for m in again.samples[0].messages]
        == [m.text for m in first.samples[0].messages]
        != []
    )
    assert (
        again.samples[0].scores["milestones"].value == first.samples[0].scores["milestones"].value
    )


@pytest.mark.parametrize(
    "name, value",
    [
        ("passes", 0),
        ("passes", 101),
        ("trajectories", 0),
        ("trajectories", 10**8),
        ("seed", 2**53),
        ("fixed_calls", 0),
        ("concurrency", 257),
        ("passes", "3"),
        ("passes", 2.5),
        ("trajectories", True),
    ],
)
def test_task_parameters_are_bounded_before_any_work(name, value, monkeypatch):
    from alienworlds.inspect_eval import tasks

    monkeypatch.setattr(
        tasks, "environment_for", lambda *a: pytest.fail("the world was loaded before the check")
    )
    with pytest.raises(ValueError, match=f"-T {name}="):
        tasks.aliencode(**{name: value})
