"""Lark parsers whose analysed grammar is cached on disk.

Analysing a grammar into LALR tables takes longer than a small program's
whole run, so a parser's tables are kept in the user's cache directory
($XDG_CACHE_HOME/alienworlds, else ~/.cache/alienworlds), in a file named by
a digest of the grammar's text, its options, lark's version and Python's,
written as every cache file is (cache_files.py: whole or not at all); a file
that cannot be read or loaded is built again and replaced. When the directory
cannot be made or written, the parser is built in memory, silently.

Importing this module imports lark without the optional `regex` module,
which lark loads whenever it is installed and which no parser here uses
(their patterns are plain `re`): it cost a tenth of a run's start-up.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from .cache_files import cache_dir, write_cache_file

_UNUSED = ("regex",)  # optional modules lark imports when present


def _import_lark():
    if "lark" in sys.modules:
        return sys.modules["lark"]
    # A None entry makes `import regex` fail, which lark handles as "not
    # installed"; the entry is removed afterwards so that others may import it.
    blocked = [name for name in _UNUSED if name not in sys.modules]
    for name in blocked:
        sys.modules[name] = None
    try:
        import lark
    finally:
        for name in blocked:
            if sys.modules.get(name, 0) is None:
                del sys.modules[name]
    return lark


lark = _import_lark()


def cache_path(grammar: str, options: dict[str, object]) -> Path:
    """Where the tables of `grammar` built with `options` are kept."""
    plain = sorted(
        (k, v) for k, v in options.items() if v is None or isinstance(v, (str, int, bool))
    )
    key = repr((grammar, plain, lark.__version__, sys.version_info[:2]))
    return cache_dir() / f"grammar-{hashlib.sha256(key.encode()).hexdigest()[:32]}.lark"


# Options that are objects of the caller's, given again when a parser is loaded.
RUNTIME_OPTIONS = frozenset({"postlex", "transformer", "lexer_callbacks"})


def cached_parser(grammar: str, **options: object) -> lark.Lark:
    """`lark.Lark(grammar, **options)` (an LALR parser), its tables read
    from the cache when there, else built and cached."""
    path = cache_path(grammar, options)
    runtime = {k: v for k, v in options.items() if k in RUNTIME_OPTIONS}
    try:
        with open(path, "rb") as cached:
            # Lark.load, with the caller's objects (lark's own cache does the same)
            return lark.Lark.__new__(lark.Lark)._load(cached, **runtime)
    except Exception:  # noqa: BLE001 - missing, unreadable or stale: build it instead
        pass
    parser = lark.Lark(grammar, **options)
    write_cache_file(path, lambda out: parser.save(out, RUNTIME_OPTIONS))
    return parser
