"""The language registry: one entry per language, every reference loads."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest
from alienworlds.episode.environment_loader import make_environment
from alienworlds.episode.languages import (
    LANGUAGES,
    SHARED_AGENTS,
    Language,
    LanguageUnknown,
    language,
    load_world,
    register,
)
from alienworlds.generate.knobs import KnobTable
from alienworlds.ruleset.references import Reference


@pytest.mark.parametrize("name", sorted(LANGUAGES))
def test_every_reference_of_an_entry_loads(name):
    entry = language(name)
    assert entry.name == name
    for f in fields(Language):
        value = getattr(entry, f.name)
        if isinstance(value, Reference):
            loaded = value.load()
            assert callable(loaded) or isinstance(loaded, KnobTable), (name, f.name)
    assert set(entry.agents) == set(SHARED_AGENTS)
    assert all(callable(ref.load()) for ref in entry.agents.values())


@pytest.mark.parametrize("name", sorted(LANGUAGES))
def test_the_one_world_loader_loads_each_main_world(name):
    world = load_world(name)
    assert world.language == name and world.name == "main"
    assert load_world(name, "demo").name == "demo"


@pytest.mark.parametrize("bad", ["klingon", "", None, ["aliencode"]])
def test_an_unknown_language_is_named_with_the_known_ones(bad):
    with pytest.raises(LanguageUnknown, match="one of aliencode, alienlogic"):
        language(bad)
    with pytest.raises(LanguageUnknown):
        make_environment(bad, "demo")


def test_a_registered_language_is_found(monkeypatch):
    monkeypatch.setattr("alienworlds.episode.languages.LANGUAGES", dict(LANGUAGES))
    from alienworlds.episode import languages

    twin = replace(LANGUAGES["aliencode"], name="aliencode-twin")
    register(twin)
    assert languages.language("aliencode-twin") is twin
    assert languages.load_world("aliencode-twin", "demo").name == "demo"
    assert "aliencode-twin" not in LANGUAGES  # the module's table, not the caller's copy
