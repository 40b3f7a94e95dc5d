"""The cache of bank audits environments read (episode/audit_cache.py)."""

from __future__ import annotations

import multiprocessing
import os
import time
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
from alienworlds.episode import aliencode_env, audit_cache
from alienworlds.episode.aliencode_env import AlienCodeEnvironment, bank_audit
from alienworlds.episode.audit_cache import audit_path, cached_audit, tree_digest
from alienworlds.tasks.aliencode_audit import audit
from alienworlds.tasks.bank import load_bank

from aliencode import Limits
from aliencode.world_schema import load


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "alienworlds" / "audits"


def counting(value, calls: list):
    def compute():
        calls.append(1)
        return value

    return compute


def test_an_audit_is_computed_once_then_read(cache_home):
    calls: list = []
    assert cached_audit("t", ("w", "b"), counting({"floor": 1.5}, calls)) == {"floor": 1.5}
    assert cached_audit("t", ("w", "b"), counting({"floor": 9.9}, calls)) == {"floor": 1.5}
    assert len(calls) == 1
    # another key is another audit
    assert cached_audit("t", ("w", "c"), counting([2], calls)) == [2] and len(calls) == 2
    kept = audit_path("t", ("w", "b"))
    assert kept.is_file() and kept.parent == cache_home


def test_a_damaged_file_is_computed_again_and_replaced(cache_home):
    calls: list = []
    cached_audit("t", ("k",), counting("first", calls))
    path = audit_path("t", ("k",))
    for damage in (b"", b"\x80\x05not a pickle", path.read_bytes()[:-3]):
        path.write_bytes(damage)
        assert cached_audit("t", ("k",), counting("again", calls)) == "again"
        assert cached_audit("t", ("k",), counting("unused", calls)) == "again"
    assert len(calls) == 4


def test_an_unwritable_cache_computes_every_time_and_says_nothing(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    calls: list = []
    assert cached_audit("t", ("k",), counting(3, calls)) == 3
    assert cached_audit("t", ("k",), counting(3, calls)) == 3 and len(calls) == 2


def test_a_value_that_does_not_pickle_is_returned_and_not_kept(cache_home):
    calls: list = []
    value = cached_audit("t", ("k",), counting(lambda: 1, calls))
    assert value() == 1 and not audit_path("t", ("k",)).exists()
    assert not [p for p in cache_home.iterdir() if p.name.startswith(".")]  # no temporary left


def test_other_code_never_reads_an_audit_and_writing_removes_the_old_one(cache_home, monkeypatch):
    calls: list = []
    monkeypatch.setattr(audit_cache, "code_digest", lambda: "code one")
    cached_audit("t", ("k",), counting("by code one", calls))
    cached_audit("t", ("other",), counting("kept", calls))
    old = audit_path("t", ("k",))
    monkeypatch.setattr(audit_cache, "code_digest", lambda: "code two")
    assert audit_path("t", ("k",)) != old
    assert cached_audit("t", ("k",), counting("by code two", calls)) == "by code two"
    assert not old.exists() and not old.with_suffix(".lock").exists()
    assert audit_path("t", ("k",)).is_file()
    monkeypatch.setattr(audit_cache, "code_digest", lambda: "code one")
    assert cached_audit("t", ("other",), counting("unused", calls)) == "kept"  # another key stays
    assert len(calls) == 3


def test_the_code_digest_reads_every_package_of_the_project():
    import alienworlds.generate.aliencode
    import alienworlds.serve
    import alienworlds.tasks

    import aliencode
    import alienlogic

    audit_cache.code_digest.cache_clear()
    read = []
    original = Path.read_bytes
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Path, "read_bytes", lambda p: read.append(p) or original(p))
        audit_cache.code_digest()
    folders = {p.parent for p in read}
    packages = (aliencode, alienlogic, alienworlds.tasks, alienworlds.serve, aliencode_env)
    for module in (*packages, alienworlds.generate.aliencode):
        assert Path(module.__file__).parent in folders, module.__name__
    # its data too: the main world's bank
    assert Path(alienworlds.tasks.__file__).parent / "aliencode" / "main.toml" in read


def test_the_digested_packages_are_the_projects():
    """A package added to pyproject.toml is digested too (its folder or its parent's)."""
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    packages = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["setuptools"]
    named = {*audit_cache.LIBRARIES, *(f"alienworlds.{s}" for s in audit_cache.SUBPACKAGES)}
    for package in packages["packages"]:
        assert package in named or package.rsplit(".", 1)[0] in named - {"alienworlds"}, package


def test_the_code_digest_changes_with_any_code_or_data_file(tmp_path):
    root = tmp_path / "pkg"
    (root / "sub").mkdir(parents=True)
    (root / "a.py").write_text("x = 1\n")
    (root / "sub" / "rules.toml").write_text("[a]\n")
    (root / "notes.bin").write_bytes(b"\x00")
    first = tree_digest([("pkg", root)])
    assert tree_digest([("pkg", root)]) == first
    (root / "notes.bin").write_bytes(b"\x01")  # not code or data the project reads
    assert tree_digest([("pkg", root)]) == first
    changed = []
    for edit in (
        lambda: (root / "a.py").write_text("x = 2\n"),
        lambda: (root / "sub" / "rules.toml").write_text("[b]\n"),
        lambda: (root / "sub" / "new.lark").write_text("start: A\n"),
        lambda: (root / "a.py").rename(root / "b.py"),
    ):
        edit()
        changed.append(tree_digest([("pkg", root)]))
    assert len({first, *changed}) == 5


def _compute_slowly(log: str) -> None:
    def compute():
        with open(log, "a") as out:
            out.write(f"{os.getpid()}\n")
        time.sleep(1.0)
        return "shared"

    assert cached_audit("t", ("shared",), compute) == "shared"


def test_processes_that_want_the_same_audit_at_once_compute_it_once(cache_home, tmp_path):
    log = str(tmp_path / "computed")
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_compute_slowly, args=(log,)) for _ in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert [w.exitcode for w in workers] == [0, 0, 0]
    assert len(open(log).read().split()) == 1


def test_an_environment_reads_the_audit_another_process_kept(cache_home, monkeypatch):
    world = load("demo")
    bank = load_bank("aliencode", "demo")
    computed = bank_audit(world, bank, Limits())
    direct = audit(world, bank)
    facts = lambda a: (a.tasks, a.examples, a.problems, a.validity)  # noqa: E731 - timing aside
    assert facts(computed) == facts(direct) and computed.validity.strategies
    # a new process: nothing in memory, and auditing would fail
    monkeypatch.setattr(aliencode_env, "_CACHE", {})
    monkeypatch.setattr(aliencode_env, "audit", lambda *a: pytest.fail("audited again"))
    env = AlienCodeEnvironment("demo")
    assert env.validity() == computed.validity
    assert [t.rules for t in env.tasks()] == [tuple(t.rules) for t in computed.tasks]


def test_environments_share_an_audit_and_grader_only_under_the_same_key(cache_home, monkeypatch):
    monkeypatch.setattr(aliencode_env, "_CACHE", {})
    first, same = AlienCodeEnvironment("demo"), AlienCodeEnvironment("demo")
    assert same._grader is first._grader
    other_limits = AlienCodeEnvironment("demo", limits=Limits(max_steps=Limits().max_steps // 2))
    assert other_limits._grader is not first._grader and other_limits.limits != first.limits
    bank = load_bank("aliencode", "demo")
    worded = replace(bank.tasks[0], prompt=bank.tasks[0].prompt + " (worded again)")
    edited = replace(bank, tasks=(worded, *bank.tasks[1:]))  # the same file, another bank
    assert AlienCodeEnvironment("demo", bank=edited)._grader is not first._grader
