"""Bank audits an environment needs, kept on disk between processes.

An environment needs its bank's audit (the rules each task enters, the
worked examples' outputs, the floor of the validity battery) before its
first round, and auditing AlienCode's main bank takes about half a minute
of CPU. The audit is a pure function of the world, the bank, the limits and
this project's code, so it is kept in the user's cache directory (the one
the grammar tables use, ruleset/cache_files.py) under a name made of a digest
of all four: code digests every file of every package of the project, so an
edited or upgraded project never reads an audit of other code. Every process
after the first one (another episode, each worker of a sweep, a restarted
server) reads it in a few milliseconds.

`world check` never reads this cache: it is the verifier, and audits anew.

The file is written as every cache file is (whole or not at all); a file
that cannot be read is computed again and replaced; a directory that
cannot be written means computing in memory, silently. While one process
computes an audit, others that want the same one wait for it (a lock file
beside it, where the platform has `fcntl`), so a sweep's workers audit a
bank once. Writing an audit removes the ones kept for the same world, bank
and limits under other code, so the cache holds one audit of each.

The files are pickles: like Python's own bytecode caches, they are trusted
because only their owner can write the directory.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import pickle
import sys
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import TypeVar

from alienworlds.ruleset.cache_files import cache_dir, write_cache_file

try:
    import fcntl
except ImportError:  # not on this platform: processes may compute the same audit at once
    fcntl = None

T = TypeVar("T")

# Every package of the project (pyproject.toml's list): an audit may read any of them.
# The namespace's subpackages are named bare: find_spec locates a folder without
# importing it, so nothing here imports the layers above this one.
LIBRARIES = ("aliencode", "alienlogic", "alienworlds")
SUBPACKAGES = (
    "cli",
    "ruleset",
    "manuals",
    "tasks",
    "repl",
    "episode",
    "inspect_eval",
    "porting",
    "generate",
    "sweep",
    "explore",
    "serve",
)
SUFFIXES = (".py", ".lark", ".toml", ".json", ".txt", ".md")  # code and the data it reads


@cache
def code_digest() -> str:
    """A digest of every file of the project's packages that code or data
    is read from (about 40 ms, once a process)."""
    roots = []
    for name in (*LIBRARIES, *(f"{LIBRARIES[-1]}.{sub}" for sub in SUBPACKAGES)):
        spec = importlib.util.find_spec(name)
        roots += [(name, Path(p)) for p in (spec.submodule_search_locations or [])] if spec else []
    return tree_digest(roots)


def tree_digest(roots: list[tuple[str, Path]]) -> str:
    """A digest of the names and contents of the code and data files under
    each (label, folder)."""
    digest = hashlib.sha256(repr(sys.version_info[:2]).encode())
    for label, root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix in SUFFIXES and "__pycache__" not in path.parts:
                digest.update(f"{label}/{path.relative_to(root)}\0".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def _name(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:24]


def audit_path(kind: str, key: tuple[object, ...]) -> Path:
    """Where the audit of `kind` for `key` (world, bank, limits) is kept
    under this code."""
    return cache_dir() / "audits" / f"{kind}-{_name(kind, key)}-{_name(code_digest())}.pickle"


def cached_audit(kind: str, key: tuple[object, ...], compute: Callable[[], T]) -> T:
    """The value `compute()` gives for `key`, read from the cache when kept
    there by this code, else computed and kept (see the module docstring)."""
    path = audit_path(kind, key)
    found = _read(path)
    if found is not None:
        return found
    with _locked(path):
        found = _read(path)  # another process may have computed it meanwhile
        if found is not None:
            return found
        value = compute()
        _write(path, value)
    return value


def _read(path: Path):
    try:
        with open(path, "rb") as kept:
            return pickle.load(kept)
    except Exception:  # noqa: BLE001 - missing, partial or from other code: compute it
        return None


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield
        return
    try:
        if fcntl is not None:
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # closing releases the lock


def _write(path: Path, value: object) -> None:
    try:
        written = write_cache_file(
            path, lambda out: pickle.dump(value, out, pickle.HIGHEST_PROTOCOL)
        )
    except Exception:  # noqa: BLE001 - a value that does not pickle is not kept
        return
    if not written:
        return
    stem = path.name.rsplit("-", 1)[0]
    for other in path.parent.glob(f"{stem}-*"):
        if other.stem != path.stem and other.suffix in (".pickle", ".lock"):
            with contextlib.suppress(OSError):
                other.unlink()
