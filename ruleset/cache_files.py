"""Files kept in the user's cache directory ($XDG_CACHE_HOME/alienworlds,
else ~/.cache/alienworlds): the grammar tables (grammar.py) and the bank
audits environments read (episode/audit_cache.py).

A cache file is written under a private temporary name in its folder and
renamed into place, so a reader sees a whole file or none; a folder that
cannot be made or written means nothing is kept, silently.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "alienworlds"


def write_cache_file(path: Path, save: Callable[[BinaryIO], object]) -> bool:
    """Keep what `save(out)` writes at `path` (see the module docstring);
    False when the folder cannot be written. Any other error of `save` is
    raised, with the temporary file removed."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError:
        return False
    try:
        with os.fdopen(handle, "wb") as out:
            save(out)
        os.replace(temporary, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            return False
        raise
    return True
