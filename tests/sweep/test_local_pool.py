"""The local executor's handling of a pool that breaks between two of its
own looks: a worker that dies after the driver's last wait makes the next
`submit` raise, and that job must wait for the fresh pool, not end the
sweep with an internal error."""

from __future__ import annotations

from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool

import pytest
from alienworlds.sweep import local
from alienworlds.sweep.plan import Job


def job(key: str) -> Job:
    return Job(
        key=key,
        language="aliencode",
        world_label="demo",
        world="demo",
        world_text=None,
        bank_name=None,
        bank_text=None,
        agent_label="fixed",
        agent="fixed",
        agent_class=None,
    )


class FakePool:
    """A pool that runs each job at once; the first pool breaks on its
    second submit, as if its worker died just after the first job."""

    made: list[FakePool] = []

    def __init__(self, **_: object) -> None:
        self.submitted: list[str] = []
        FakePool.made.append(self)

    def submit(self, fn, job: Job, *args, **kwargs) -> Future:
        if len(FakePool.made) == 1 and self.submitted:
            raise BrokenProcessPool("A child process terminated abruptly")
        self.submitted.append(job.key)
        future: Future = Future()
        future.set_result({"key": job.key, "status": "done"})
        return future

    def shutdown(self, **_: object) -> None:
        pass


@pytest.fixture
def fake_pool(monkeypatch):
    FakePool.made = []
    monkeypatch.setattr(local, "ProcessPoolExecutor", FakePool)
    return FakePool


def test_a_submit_to_a_broken_pool_runs_its_job_in_the_next_pool(fake_pool, tmp_path):
    outcomes: list[dict] = []
    local.run_local([job("a"), job("b"), job("c")], tmp_path, 2, {}, outcomes.append)
    # jobs that end together are reported in the order `wait` gives them
    assert sorted((o["key"], o["status"]) for o in outcomes) == [
        ("a", "done"),
        ("b", "done"),
        ("c", "done"),
    ]
    assert [p.submitted for p in fake_pool.made] == [["a"], ["b", "c"]]


def test_a_job_refused_by_a_broken_pool_is_not_counted_as_a_start(fake_pool, monkeypatch, tmp_path):
    """Only a job that reached a worker counts towards MAX_STARTS: with one
    start allowed, the refused job still runs."""
    monkeypatch.setattr(local, "MAX_STARTS", 1)
    outcomes: list[dict] = []
    local.run_local([job("a"), job("b")], tmp_path, 1, {}, outcomes.append)
    assert [(o["key"], o["status"]) for o in outcomes] == [("a", "done"), ("b", "done")]
