"""The parser keeps the trees of texts it parsed lately (aliencode/parser.py)."""

import sys
import threading

import pytest

from aliencode import AlienSyntaxError, Limits
from aliencode import parser as P


def test_a_text_parsed_again_gives_the_same_tree_without_parsing():
    parser = P.Parser()
    source = "SET x AS SHATTER(1, 2)\nEMIT(x)"
    first = parser.parse(source)
    calls = []
    parser._parse = lambda *a: calls.append(a)  # a second parse would land here
    assert parser.parse(source) is first
    assert parser.parse(source + "\n") is first  # the same text once a line end is added
    assert calls == []


def test_limits_are_part_of_the_key():
    parser = P.Parser()
    source = "EMIT(" + "1, " * 40 + "1)"
    parser.parse(source)
    with pytest.raises(AlienSyntaxError):
        parser.parse(source, Limits(max_tokens=20))


def test_errors_are_raised_every_time_and_never_kept():
    parser = P.Parser()
    for _ in range(3):
        with pytest.raises(AlienSyntaxError):
            parser.parse("EMIT(")
    assert parser._trees == {}


def test_the_cache_holds_at_most_its_bound_of_characters(monkeypatch):
    monkeypatch.setattr(P, "TREE_CACHE_CHARS", 500)
    parser = P.Parser()
    sources = [f"EMIT({'SHATTER(1, ' * k}1{')' * k})" for k in range(40)]
    for source in sources:
        parser.parse(source)
        assert parser._held == sum(len(text) for text, _ in parser._trees) <= 500
    # the most recent texts stay; the oldest went first
    assert (sources[-1] + "\n", Limits()) in parser._trees
    assert (sources[0] + "\n", Limits()) not in parser._trees
    parser.parse("EMIT(" + "SHATTER(1, " * 50 + "1" + ")" * 50 + ")")  # over the bound alone
    assert parser._held == sum(len(text) for text, _ in parser._trees) <= 500


def test_threads_parsing_at_once_each_get_their_own_limits_and_a_sound_cache(monkeypatch):
    """Sessions of one process parse from several threads. Was a bug: the layout
    pass read its limits from the parser's shared postlexer, so a parse could run
    under another thread's token limit (50 wrong verdicts in 3,200), and the
    tree cache's eviction failed with 'dictionary changed size during iteration'."""
    monkeypatch.setattr(P, "TREE_CACHE_CHARS", 20_000)  # evicting all the time
    parser = P.Parser()
    wide = "EMIT(" + ", ".join(["1"] * 300) + ")"  # over 600 tokens
    tight, loose = Limits(max_tokens=100), Limits()
    wrong: list[tuple[int, int]] = []
    failed: list[BaseException] = []

    def worker(k: int) -> None:
        limits = tight if k % 2 else loose
        try:
            for i in range(300):
                try:
                    parser.parse(f"{wide}\nEMIT({k * 1000 + i % 50})", limits)
                    refused = False
                except AlienSyntaxError:
                    refused = True
                if refused != (limits is tight):
                    wrong.append((k, i))
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            failed.append(exc)

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the host allows
    try:
        threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switch)
    assert failed == [] and wrong == []
    assert parser._held == sum(len(text) for text, _ in parser._trees) <= 20_000
