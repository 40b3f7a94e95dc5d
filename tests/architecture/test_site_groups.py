"""Site groups are defined once, in aliencode/sites.py.

Every module of the package is read with `ast`; a tuple, list or set literal
that spells out every member of a site group (the arithmetic or comparison
operations) restates the group, and the next change to the group would miss
it. Such modules take the group from `aliencode.sites` instead.
"""

from __future__ import annotations

import ast
from pathlib import Path

from test_import_graph import FOLDERS, ROOT

from aliencode.sites import ARITHMETIC, COMPARISON, operations_in

GROUPS = {"arithmetic": frozenset(ARITHMETIC), "comparison": frozenset(COMPARISON)}

# Literals that must keep their own order, which is not the manual's: the
# porting search enumerates BINARY in it (the order fixes what a generation
# seed gives), and the differential fuzzer draws from it (it fixes what a
# fuzzing seed runs).
KEEP_ORDER = {("porting/search.py", "arithmetic"), ("porting/differential.py", "arithmetic")}


def restatements(root: Path) -> list[tuple[str, int, str]]:
    """(file, line, group) for every literal spelling out a whole group."""
    out = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            if name == "aliencode/sites.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, (ast.Tuple, ast.List, ast.Set)):
                    continue
                words = {e.value for e in node.elts if isinstance(e, ast.Constant)}
                for group, members in GROUPS.items():
                    if members <= words and (name, group) not in KEEP_ORDER:
                        out.append((name, node.lineno, group))
    return out


def test_no_module_restates_a_site_group():
    assert restatements(ROOT) == []


def test_the_scan_finds_a_restated_group(tmp_path):
    (tmp_path / "episode").mkdir()
    listed = ", ".join(f'"{op}"' for op in reversed(COMPARISON))
    (tmp_path / "episode" / "x.py").write_text(f"OPS = ({listed}, 'NEGATE')\n")
    assert restatements(tmp_path) == [("episode/x.py", 1, "comparison")]


def test_groups_follow_the_manual_categories():
    assert ARITHMETIC == operations_in("arithmetic") and "SHATTER" in ARITHMETIC
    assert COMPARISON == operations_in("comparison") and "AKIN" in COMPARISON
    assert operations_in("no such category") == ()
