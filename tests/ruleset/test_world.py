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
        (
            lambda t: t.replace('target = "A"', 'target = "Z"'),
            "rule X1: key 'target': unknown site",
        ),
        (lambda t: t + "bogus = 1\n", "rule X1: key 'bogus': unknown key"),
        (
            lambda t: t + '[[rules]]\nid = "X1"\nname = "n"\ntarget = "B"\n',
            "rule X1: key 'id': duplicate rule id",
        ),
        (
            lambda t: t.replace('language = "toy"', 'language = "other"'),
            "key 'language': expected language",
        ),
        (lambda t: t.replace("format = 1", "format = 2"), "key 'format'"),
        (lambda t: t.replace('KW = "NEW"', 'NOPE = "X"'), "key 'keywords.NOPE'"),
        (
            lambda t: t.replace('name = "one"', "name = 3"),
            "rule X1: key 'name': expected a non-empty string",
        ),
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


# -- hostile world files: every one a WorldError naming the file, never a crash ----

HOSTILE = [
    (
        lambda t: t.replace('id = "X1"', 'id = "' + "X" * 100_000 + '"'),
        "key 'id': at most 64 characters",
    ),
    (lambda t: t.replace('name = "one"', 'name = "' + "n" * 1000 + '"'), "rule X1: key 'name'"),
    (
        lambda t: t.replace('description = "d"', 'description = "' + "d" * 5000 + '"'),
        "key 'description'",
    ),
    (lambda t: t.replace('KW = "NEW"', 'KW = "' + "N" * 100 + '"'), "key 'keywords.KW'"),
    (lambda t: t.replace('KW = "NEW"', "K" * 1000 + ' = "NEW"'), "key 'keywords.KKKK"),
    (lambda t: t + "x = 1" + "0" * 5000 + "\n", "not valid TOML"),
    (lambda t: t + "x = " + "[" * 5000 + "]" * 5000 + "\n", "not valid TOML"),
    (
        lambda t: t + '[[rules]]\nid = "Y"\nname = "n"\ntarget = "A"\n' * 1001,
        "key 'rules': at most 1000 rules",
    ),
    (lambda t: t + "# " + "x" * (1 << 20) + "\n", "too large"),
]


@pytest.mark.parametrize("edit,needle", HOSTILE, ids=[f"hostile-{i}" for i in range(len(HOSTILE))])
def test_hostile_world_files_are_refused(edit, needle):
    with pytest.raises(WorldError) as info:
        parse_world(edit(GOOD), "w.toml", SCHEMA)
    text = str(info.value)
    assert text.startswith("w.toml: ") and needle in text
    assert len(text) < 2000  # problems quote names cut short
