"""World files: loading, validation messages, hashing (docs/worlds.md)."""

import pytest

from alienworlds.ruleset import Schema, World, WorldError, parse_world
from alienworlds.ruleset.world import Rule


def check_rule(raw, problem):
    if raw["target"] not in ("A", "B"):
        problem("unknown site", "target")
    return {"actual": raw.get("actual")}


SCHEMA = Schema("toy", ("actual", "scope"), check_rule, keywords=frozenset({"KW"}))

GOOD = """
format = 1
name = "w"
language = "toy"
description = "d"
[keywords]
KW = "NEW"
[[rules]]
id = "X1"
name = "one"
target = "A"
actual = "(+ a 1)"
"""


def test_load_good_world():
    world = parse_world(GOOD, "w.toml", SCHEMA)
    assert world.name == "w" and world.keywords == {"KW": "NEW"}
    assert world.rules == (Rule(id="X1", name="one", target="A", actual="(+ a 1)"),)
    assert world.surface("KW") == "NEW"


def test_hash_is_canonical():
    a = parse_world(GOOD, "a.toml", SCHEMA)
    b = parse_world(GOOD.replace('description = "d"', 'description = "d"\n'), "b.toml", SCHEMA)
    assert a.hash == b.hash and a.hash.startswith("sha256:")
    assert a.hash != a.without("X1").hash


@pytest.mark.parametrize(
    "edit,needle",
    [
        (lambda t: t.replace('target = "A"', 'target = "Z"'), "rule X1: key 'target': unknown site"),
        (lambda t: t + 'bogus = 1\n', "rule X1: key 'bogus': unknown key"),
        (lambda t: t + '[[rules]]\nid = "X1"\nname = "n"\ntarget = "B"\n', "rule X1: key 'id': duplicate rule id"),
        (lambda t: t.replace('language = "toy"', 'language = "other"'), "key 'language': expected language"),
        (lambda t: t.replace("format = 1", "format = 2"), "key 'format'"),
        (lambda t: t.replace('KW = "NEW"', 'NOPE = "X"'), "key 'keywords.NOPE'"),
        (lambda t: t.replace('name = "one"', "name = 3"), "rule X1: key 'name': expected a non-empty string"),
        (lambda t: t + "[[rules]\n", "not valid TOML"),
    ],
)
def test_every_problem_names_file_rule_and_key(edit, needle):
    with pytest.raises(WorldError) as info:
        parse_world(edit(GOOD), "w.toml", SCHEMA)
    text = str(info.value)
    assert text.startswith("w.toml: ")
    assert needle in text


def test_several_problems_reported_together():
    bad = GOOD.replace('target = "A"', 'target = "Z"').replace("format = 1", "format = 9")
    with pytest.raises(WorldError) as info:
        parse_world(bad, "w.toml", SCHEMA)
    assert len(info.value.problems) == 2


def test_standard_world_is_empty():
    assert World(name="standard", language="toy").rules == ()
