"""The manual: current, correct examples, and silent about the world's rules."""

import re

import pytest
from alienworlds.manuals.alienlogic import EXAMPLES, committed, main, render

from alienlogic import RULES, check, load_world


def test_committed_manuals_are_current():
    stale = [
        str(path)
        for path, text in committed().items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]
    assert not stale, f"regenerate with `python -m alienworlds.manuals.alienlogic`: {stale}"
    assert main(["--check"]) == 0


def test_every_rule_has_an_accepted_example():
    assert [e.rule for e in EXAMPLES] == list(RULES)
    for e in EXAMPLES:
        v = check(e.proof)
        assert v.accepted, (e.rule, v.as_dict(detail=True))
        assert f"[{e.rule}" in e.proof


@pytest.mark.parametrize("name", ["demo", "main"])
@pytest.mark.parametrize("fmt", ["md", "text"])
def test_manual_states_nothing_of_the_world(fmt, name):
    w = load_world(name)
    text = render(w, fmt)
    for rule in w.rules:
        assert not re.search(rf"\b{re.escape(rule.id)}\b", text)
        for secret in (rule.name, rule.require, rule.conclusion, w.description[:40]):
            assert not secret or secret not in text
    body = text.split("\n\n", 1)[1]  # everything after the title naming the world
    assert render(load_world("standard"), fmt).split("\n\n", 1)[1] == body


def test_manual_shows_a_real_rejection():
    text = render(load_world("standard"), "md")
    assert '"reason_class": "RULE_VIOLATION", "reason_id": "MISMATCH"' in text
    for name in RULES:
        assert f"### `{name}`" in text


def test_unknown_format_is_refused():
    with pytest.raises(ValueError):
        render(load_world("standard"), "html")
