"""More room in the compiling caches, for one long job of one process.

The parser keeps the syntax trees of texts and pieces of texts it parsed
(parser.py), and the compiler the CRAFTs of the top level it compiled
(craft_cache.py); each is bounded for a process that runs for days, a
server. Generating a world and then auditing its bank meets the same
candidate answers twice, thousands of them: under those bounds the audit
found few of the generation's left (eval-a: 22.2 s of CPU to audit after
generating, 11.5 s with no bound at all; docs/performance.md). The parser's
bounds are read when a tree is kept, the cache's when a CRAFT is, so a
change applies at once; what is over a bound put back goes as new entries
come.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from . import parser
from .craft_cache import CACHE

# What generating eval-a and auditing it kept with no bound at all: 2.9 million
# characters of trees, 1.4 million of pieces, 6,354 CRAFTs of 8.0 MB of host code
# (some 50 MB more held than under the server's bounds).
TREE_CHARS = 4_000_000
PIECE_CHARS = 2_000_000
CRAFTS = 16_384
CRAFT_BYTES = 32_000_000


@contextmanager
def roomy() -> Iterator[None]:
    """The caches' bounds raised to the ones above (never lowered) for the block."""
    trees, pieces, crafts, craft_bytes = before = (
        parser.TREE_CACHE_CHARS,
        parser.PIECE_CACHE_CHARS,
        CACHE.capacity,
        CACHE.capacity_bytes,
    )
    parser.TREE_CACHE_CHARS = max(trees, TREE_CHARS)
    parser.PIECE_CACHE_CHARS = max(pieces, PIECE_CHARS)
    CACHE.capacity = max(crafts, CRAFTS)
    CACHE.capacity_bytes = max(craft_bytes, CRAFT_BYTES)
    try:
        yield
    finally:
        (
            parser.TREE_CACHE_CHARS,
            parser.PIECE_CACHE_CHARS,
            CACHE.capacity,
            CACHE.capacity_bytes,
        ) = before
