"""Regenerate the committed manuals of every shipped world, both languages.

python -m alienworlds.manuals.build          # rewrite manuals/<language>/<world>.{txt,md}
python -m alienworlds.manuals.build --check  # exit 1 if any committed manual is stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from alienworlds.ruleset.world import shipped_worlds

HERE = Path(__file__).parent
FORMATS = {"txt": "text", "md": "md"}


def expected() -> dict[Path, str]:
    """Every committed manual and the text it should have."""
    from aliencode.world_schema import load

    from .aliencode import render
    from .alienlogic import committed

    out: dict[Path, str] = {}
    for name in ["standard", *shipped_worlds("aliencode")]:
        world = load(name)
        for suffix, fmt in FORMATS.items():
            out[HERE / "aliencode" / f"{name}.{suffix}"] = render(world, fmt)
    out.update(committed())
    return out


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="only report stale manuals")
    args = parser.parse_args()
    stale = []
    for path, text in expected().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{'stale' if args.check else 'wrote'} {path.relative_to(HERE.parent)}")
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
