"""Inspect as Inspect users expect: the token encoding set up offline on
first use (or a clear failure with exit 1), scores on the 0-1 scale with
each value named after its reducer, a smoke option, and the main world
named in the task arguments."""

import hashlib
import subprocess

import pytest
import scripted_model  # noqa: F401  (registers the aw-scripted models)
from alienworlds.inspect_eval import tasks
from alienworlds.inspect_eval.offline import (
    ENCODING_SHA256,
    EncodingUnavailable,
    cache_name,
    ensure_encoding,
    tiktoken_cache_dir,
)
from alienworlds.inspect_eval.scorers import best_at_n, mean_at_n, milestone_scores
from alienworlds.inspect_eval.tasks import aliencode as aliencode_task
from hypothesis import given
from hypothesis import strategies as st
from inspect_ai import eval as inspect_eval
from inspect_ai.scorer import SampleScore, Score
from test_inspect_tasks import INSPECT, offline_env

from aliencode.world_schema import load as load_aliencode
from alienlogic import load_world as load_alienlogic


def test_the_encoding_is_written_into_the_cache_tiktoken_reads(tmp_path):
    folder = tmp_path / "cache"
    written = ensure_encoding({"TIKTOKEN_CACHE_DIR": str(folder)})
    assert written == folder / cache_name()
    assert hashlib.sha256(written.read_bytes()).hexdigest() == ENCODING_SHA256
    assert ensure_encoding({"TIKTOKEN_CACHE_DIR": str(folder)}) == written  # already there
    assert tiktoken_cache_dir({"DATA_GYM_CACHE_DIR": "/x"}) == "/x"
    assert tiktoken_cache_dir({"TIKTOKEN_CACHE_DIR": "/y", "DATA_GYM_CACHE_DIR": "/x"}) == "/y"


def test_an_encoding_that_cannot_be_set_up_names_the_fix(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    with pytest.raises(EncodingUnavailable, match="export TIKTOKEN_CACHE_DIR=") as raised:
        ensure_encoding({"TIKTOKEN_CACHE_DIR": str(blocker / "cache")})
    assert str(blocker / "cache") in raised.value.message
    with pytest.raises(EncodingUnavailable, match="turned off"):
        ensure_encoding({"TIKTOKEN_CACHE_DIR": ""})


def test_inspect_eval_without_the_encoding_exits_1_with_the_fix_and_no_traceback(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    run = subprocess.run(
        [INSPECT, "eval", "alienworlds/aliencode", "--model", "mockllm/model", "-T", "world=demo"],
        capture_output=True,
        text=True,
        timeout=300,
        env=offline_env(TIKTOKEN_CACHE_DIR=str(blocker / "cache")),
        cwd=tmp_path,
    )
    shown = " ".join((run.stdout + run.stderr).split())  # Inspect wraps long lines
    assert run.returncode == 1, shown
    assert "export TIKTOKEN_CACHE_DIR=~/.cache/alienworlds-tiktoken" in shown
    assert "Traceback" not in shown and "Task interrupted" not in shown


def test_the_smoke_option_runs_a_few_tasks_one_round_and_the_passes_its_arguments_say(tmp_path):
    [log] = inspect_eval(
        aliencode_task(world="demo", smoke=True, passes=2),
        model="aw-scripted/oracle",
        model_args={"world": "demo"},
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    assert log.eval.task_args["smoke"] is True and log.eval.task_args["passes"] == 2
    [sample] = log.samples
    assert "(smoke test)" in sample.input
    events = sample.metadata["alienworlds"]["events"]
    header = events[0]
    assert header["protocol"]["rounds"] == tasks.SMOKE_ROUNDS and header["protocol"]["passes"] == 2
    assert len(header["tasks"]) == tasks.SMOKE_TASKS
    assert len({t["band"] for t in header["tasks"]}) > 1  # spread over the bands
    answers = [e for e in events if e["type"] == "reply" and "/rules" not in e["key"]]
    assert len(answers) == (tasks.SMOKE_ROUNDS + 1) * tasks.SMOKE_TASKS * 2
    value = sample.scores["milestones"].value
    assert value["endpoint"] == value["M0"] == value["M1"] == 1.0 and "M2" not in value


def test_the_default_world_is_named_in_the_task_arguments():
    assert tasks.MAIN_WORLD == load_aliencode(None).name == load_alienlogic(None).name
    assert load_aliencode(tasks.MAIN_WORLD).hash == load_aliencode(None).hash
    assert load_alienlogic(tasks.MAIN_WORLD).hash == load_alienlogic(None).hash


def test_smoke_must_be_a_boolean(monkeypatch):
    monkeypatch.setattr(
        tasks, "environment_for", lambda *a: pytest.fail("the world was loaded before the check")
    )
    with pytest.raises(ValueError, match="-T smoke="):
        tasks.aliencode(smoke="yes")


scores = st.dictionaries(
    st.sampled_from(["endpoint", "M0", "M1", "gain", "floor"]),
    st.floats(-1, 1, allow_nan=False),
    min_size=1,
).map(lambda v: {"endpoint": 0.0, **v})


@given(st.lists(scores, min_size=1, max_size=6))
def test_each_reducer_names_its_values(values):
    epochs = [Score(value=v, metadata={"epoch": i}) for i, v in enumerate(values, 1)]
    metric = milestone_scores()
    for reducer, label in ((best_at_n(), "Best@n"), (mean_at_n(), "Mean@n")):
        reduced = reducer(epochs)
        shown = metric([SampleScore(score=reduced, sample_id="w")])
        assert shown == {f"{k} ({label})": v for k, v in reduced.value.items()}
    mean = mean_at_n()(epochs).value
    for key in mean:
        having = [v[key] for v in values if key in v]
        assert mean[key] == pytest.approx(sum(having) / len(having))
