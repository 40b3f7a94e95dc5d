"""generate/audited_files.py: files reach the output folder only once audited."""

from __future__ import annotations

import pytest
from alienworlds.generate.audited_files import AuditFailed, check_free, write_audited

OUTPUTS = ("world.toml", "bank.toml", "certificates")
FILES = {"world.toml": "w\n", "bank.toml": "b\n", "certificates/c1.json": "{}\n"}


def _holding(out, files):
    """`out` made, holding `files` (path relative to it -> text)."""
    for rel, text in files.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(text)
    return out


def _seen(folder):
    return {str(p.relative_to(folder)): p.read_text() for p in folder.rglob("*") if p.is_file()}


def test_passing_files_are_written_and_the_report_returned(tmp_path):
    audited = []

    def audit(folder):
        audited.append(_seen(folder))
        return [], "report"

    out = tmp_path / "out"
    assert write_audited(FILES, out, OUTPUTS, audit) == "report"
    assert audited == [FILES]  # the audit read the very files, before they were placed
    assert _seen(out) == FILES
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no temporary folder left


def test_a_failed_audit_leaves_the_folder_as_it_was(tmp_path):
    old = {"world.toml": "old\n", "certificates/old.json": "old\n", "notes.txt": "mine\n"}
    out = _holding(tmp_path / "out", old)
    before = _seen(out)
    with pytest.raises(AuditFailed) as caught:
        write_audited(FILES, out, OUTPUTS, lambda folder: (["T3: reference fails"], None), True)
    assert caught.value.problems == ["T3: reference fails"]
    assert "a bug of the generator" in str(caught.value) and "T3: reference fails" in str(
        caught.value
    )
    assert _seen(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_files_there_are_refused_unless_forced_and_then_replaced_whole(tmp_path):
    old = {"bank.toml": "old\n", "certificates/stale.json": "stale\n", "notes.txt": "mine\n"}
    out = _holding(tmp_path / "out", old)
    with pytest.raises(FileExistsError, match="bank.toml, certificates; use --force"):
        write_audited(FILES, out, OUTPUTS, lambda folder: ([], None))
    with pytest.raises(FileExistsError):
        check_free(out, OUTPUTS, force=False)
    check_free(out, OUTPUTS, force=True)
    check_free(tmp_path / "elsewhere", OUTPUTS, force=False)
    with pytest.raises(FileExistsError, match="is a file, not a folder"):
        check_free(out / "notes.txt", OUTPUTS, force=True)
    write_audited(FILES, out, OUTPUTS, lambda folder: ([], None), force=True)
    # the stale certificate went with the folder it was in; what is not an output stays
    assert _seen(out) == {**FILES, "notes.txt": "mine\n"}


def test_an_audit_that_raises_leaves_nothing_behind(tmp_path):
    def audit(folder):
        raise RuntimeError("the auditor broke")

    with pytest.raises(RuntimeError):
        write_audited(FILES, tmp_path / "out", OUTPUTS, audit)
    assert list(tmp_path.iterdir()) == []
