"""Write a generated world's files only once they pass the world check's audit.

Both generators end here: the files are written to a temporary folder beside
the output folder and audited there, as `world check DIR/world.toml` would
audit them; only then do they replace the output folder's own. A folder that
already holds one of them is refused unless `force`; nothing else in it is
touched, and an audit that finds problems leaves it as it was.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

Report = TypeVar("Report")


class AuditFailed(Exception):
    """The written files fail their audit: a bug of the generator."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(
            "the generated world fails its audit (a bug of the generator):\n" + "\n".join(problems)
        )
        self.problems = problems


def check_free(out: Path, outputs: tuple[str, ...], force: bool) -> None:
    """Raise FileExistsError when `out` holds one of `outputs` and not
    `force`, or is a file (asked before generating, too: a refusal after
    minutes of work would lose them)."""
    if out.exists() and not out.is_dir():
        raise FileExistsError(f"{out} is a file, not a folder")
    taken = [name for name in outputs if (out / name).exists()]
    if taken and not force:
        raise FileExistsError(
            f"{out} already holds {', '.join(taken)}; use --force to replace them"
        )


def write_audited(
    files: Mapping[str, str],
    out: Path,
    outputs: tuple[str, ...],
    audit: Callable[[Path], tuple[list[str], Report]],
    force: bool = False,
) -> Report:
    """Write `files` (path relative to `out` -> text) into `out` once
    `audit(folder)` finds no problem in them; its report. `outputs` are the
    names in `out` the files replace, all of them (a file or a folder).
    Raises FileExistsError (one of `outputs` is there, without `force`) or
    AuditFailed."""
    check_free(out, outputs, force)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        for rel, text in files.items():
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        problems, report = audit(tmp)
        if problems:
            raise AuditFailed(problems)
        out.mkdir(parents=True, exist_ok=True)
        for name in outputs:
            target = out / name
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
        for name in outputs:
            if (tmp / name).exists():
                os.replace(tmp / name, out / name)
        return report
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
