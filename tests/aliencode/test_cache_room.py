"""aliencode/cache_room.py: the compiling caches' bounds, raised for a block."""

from __future__ import annotations

import pytest

import aliencode.parser as P
from aliencode import cache_room
from aliencode.craft_cache import CACHE


def _bounds():
    return P.TREE_CACHE_CHARS, P.PIECE_CACHE_CHARS, CACHE.capacity, CACHE.capacity_bytes


def test_the_bounds_are_raised_in_the_block_and_put_back_after():
    before = _bounds()
    with cache_room.roomy():
        inside = _bounds()
    assert inside == (
        cache_room.TREE_CHARS,
        cache_room.PIECE_CHARS,
        cache_room.CRAFTS,
        cache_room.CRAFT_BYTES,
    )
    assert all(i > b for i, b in zip(inside, before))
    assert _bounds() == before


def test_a_bound_already_higher_is_never_lowered_and_an_error_restores(monkeypatch):
    monkeypatch.setattr(P, "TREE_CACHE_CHARS", cache_room.TREE_CHARS * 2)
    before = _bounds()
    with pytest.raises(KeyError), cache_room.roomy():
        assert P.TREE_CACHE_CHARS == cache_room.TREE_CHARS * 2
        raise KeyError("x")
    assert _bounds() == before
