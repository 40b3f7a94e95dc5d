"""docs/api.md: every example on the page runs (doctest, in an empty
folder), importing `alienworlds` loads none of the API's work, and a
language that does not exist is a clear error."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path

import pytest

import alienworlds

PAGE = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_the_pages_examples_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    failed, attempted = doctest.testfile(
        str(PAGE), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert attempted >= 20 and failed == 0


def test_importing_alienworlds_loads_nothing_else_of_ours():
    code = (
        "import json, sys, alienworlds\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('alienworlds', 'aliencode', 'alienlogic'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert json.loads(done.stdout) == ["alienworlds"]


def test_every_api_name_resolves_and_others_do_not():
    for name in alienworlds.API:
        assert getattr(alienworlds, name) is getattr(alienworlds.api, name)
    with pytest.raises(AttributeError, match="no_such_function"):
        alienworlds.no_such_function  # noqa: B018


@pytest.mark.parametrize("call", ["load_world", "load_bank", "generate_world"])
def test_an_unknown_language_is_named(call):
    args = {"load_world": ("klingon",), "load_bank": ("klingon", None)}.get(
        call, ("klingon", "seed")
    )
    with pytest.raises(alienworlds.LanguageUnknown, match="'klingon'; one of aliencode"):
        getattr(alienworlds, call)(*args)
