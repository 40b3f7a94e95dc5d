"""Cache files: written whole or not at all (ruleset/cache_files.py)."""

from __future__ import annotations

import pytest
from alienworlds.ruleset.cache_files import write_cache_file


def test_a_file_is_written_whole_and_replaces_the_old_one(tmp_path):
    path = tmp_path / "deep" / "folder" / "kept.bin"
    assert write_cache_file(path, lambda out: out.write(b"first"))
    assert write_cache_file(path, lambda out: out.write(b"second"))
    assert path.read_bytes() == b"second" and [p.name for p in path.parent.iterdir()] == [
        "kept.bin"
    ]


def test_an_unwritable_folder_keeps_nothing_and_says_so(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder would be")
    assert not write_cache_file(blocker / "kept.bin", lambda out: out.write(b"x"))


def test_a_failing_writer_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "kept.bin"
    write_cache_file(path, lambda out: out.write(b"old"))

    def half_then_fail(out):
        out.write(b"half")
        raise ValueError("cannot save this")

    with pytest.raises(ValueError, match="cannot save this"):
        write_cache_file(path, half_then_fail)

    def disk_full(out):
        raise OSError(28, "No space left on device")

    assert not write_cache_file(path, disk_full)
    assert path.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["kept.bin"]
