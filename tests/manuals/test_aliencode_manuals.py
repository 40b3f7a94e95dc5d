"""Generated AlienCode manuals: committed copies are current (they double as
golden files) and no manual reveals a rule."""

import re

import pytest
from alienworlds.manuals import build
from alienworlds.manuals.aliencode import render
from alienworlds.ruleset.world import shipped_worlds

from aliencode.world_schema import load

EXPECTED = build.expected()


@pytest.mark.parametrize("path", sorted(EXPECTED), ids=lambda p: p.name)
def test_committed_manual_is_current(path):
    assert path.exists(), f"missing {path}; run `python -m alienworlds.manuals.build`"
    assert path.read_text(encoding="utf-8") == EXPECTED[path], (
        f"{path} is stale; run `python -m alienworlds.manuals.build`"
    )


@pytest.mark.parametrize("name", shipped_worlds("aliencode"))
@pytest.mark.parametrize("fmt", ["text", "md"])
def test_manual_reveals_no_rule(name, fmt):
    world = load(name)
    text = render(world, fmt)
    for rule in world.rules:
        # an atomic expression (R34's `0`) is ordinary text in any manual; a compound one is not
        if " " in rule.actual:
            assert rule.actual not in text
        assert rule.name not in text
        assert not re.search(rf"\b{re.escape(rule.id)}\b", text), rule.id


def test_manual_is_the_same_for_worlds_with_the_same_keywords():
    assert render(load("demo"), "text") == render(load("standard"), "text")


def test_manual_covers_every_operation_and_statement():
    from aliencode.sites import OPERATIONS, STATEMENT_KEYWORDS

    text = render(load("standard"), "md")
    for op in OPERATIONS:
        assert f"`{op.name}(" in text
    for word in STATEMENT_KEYWORDS:
        assert word in text
