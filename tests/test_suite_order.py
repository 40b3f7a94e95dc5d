"""The files tests/suite_order.py runs first are files of the suite, and run
first (a renamed file would silently lose its place)."""

from __future__ import annotations

from pathlib import Path

from suite_order import FIRST, RUN_FIRST, first_files_first

TESTS = Path(__file__).parent


def test_every_file_named_to_run_first_exists():
    assert [name for name in RUN_FIRST if not (TESTS / name).is_file()] == []
    assert RUN_FIRST[0] == "aliencode/test_invariants.py"  # the audit the environments read


def test_named_files_come_first_in_their_order_and_the_rest_keep_theirs():
    class Item:
        def __init__(self, nodeid):
            self.nodeid = nodeid

    later = [Item("tests/a/test_x.py::t1"), Item("tests/a/test_x.py::t2")]
    named = [Item(f"tests/{name}::t") for name in reversed(RUN_FIRST)]
    items = [later[0], *named, later[1]]
    first_files_first(items)
    assert [i.nodeid.split("::")[0] for i in items] == [*FIRST, *(i.nodeid[:-4] for i in later)]
