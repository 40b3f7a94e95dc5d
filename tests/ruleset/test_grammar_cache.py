"""The on-disk cache of analysed grammars (ruleset/grammar.py): keyed by the
grammar's text, its options and lark's version, written whole or not at
all, and never in the way: a missing, corrupt or unwritable cache only
means building the parser again."""

from __future__ import annotations

import os
import stat

import pytest
from alienworlds.ruleset import grammar
from alienworlds.ruleset.grammar import cache_path, cached_parser

GRAMMAR = """
start: NUMBER ("+" NUMBER)*
%import common.NUMBER
%ignore " "
"""
OPTIONS = {"parser": "lalr", "lexer": "basic"}


@pytest.fixture(autouse=True)
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache"


def numbers(parser) -> list[str]:
    return [str(tok) for tok in parser.parse("1 + 22 + 333").children]


def test_the_first_parser_writes_the_cache_and_the_next_reads_it(cache_home):
    path = cache_path(GRAMMAR, OPTIONS)
    assert path.parent == cache_home / "alienworlds"
    assert numbers(cached_parser(GRAMMAR, **OPTIONS)) == ["1", "22", "333"]
    assert path.is_file()
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary left
    written = path.stat().st_mtime_ns
    assert numbers(cached_parser(GRAMMAR, **OPTIONS)) == ["1", "22", "333"]
    assert path.stat().st_mtime_ns == written  # read, not written again


def test_the_key_follows_the_grammar_the_options_and_lark(monkeypatch):
    path = cache_path(GRAMMAR, OPTIONS)
    assert cache_path(GRAMMAR + "\n", OPTIONS) != path
    assert cache_path(GRAMMAR, {**OPTIONS, "maybe_placeholders": False}) != path
    monkeypatch.setattr(grammar.lark, "__version__", "0.0.0")
    assert cache_path(GRAMMAR, OPTIONS) != path


def test_a_corrupt_cache_file_is_rebuilt():
    path = cache_path(GRAMMAR, OPTIONS)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a cache\n")
    assert numbers(cached_parser(GRAMMAR, **OPTIONS)) == ["1", "22", "333"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_an_unwritable_cache_directory_is_ignored(cache_home):
    cache_home.mkdir()
    cache_home.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        assert numbers(cached_parser(GRAMMAR, **OPTIONS)) == ["1", "22", "333"]
    finally:
        cache_home.chmod(stat.S_IRWXU)
    assert not (cache_home / "alienworlds").exists()


def test_a_cache_home_that_is_a_file_is_ignored(cache_home):
    cache_home.write_text("in the way")
    assert numbers(cached_parser(GRAMMAR, **OPTIONS)) == ["1", "22", "333"]
