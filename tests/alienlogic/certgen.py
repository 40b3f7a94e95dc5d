"""Malformed certificates: mutations of valid ones, for the re-checker's
robustness tests (every problem listed, no internal error, bounded work)."""

from __future__ import annotations

import copy
import json
import random

# Values a hostile certificate puts where something else belongs.
HOSTILE: list[object] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    3,
    10**9,
    10**30,
    -(10**18),
    2.5,
    float("1e308"),
    "",
    "*",
    "0",
    "1",
    "h",
    "x" * 5000,
    "NOT(",
    "BOT",
    "FORALL(x, P(x))",
    "P/1",
    "P/999999",
    "f/0",
    [],
    {},
    [1, 2, 3],
    ["0", "1"],
    [[0], "1"],
    {"a": 1},
    {"*": 7},
    [[[[[]]]]],
    list(range(200)),
    {"values": [], "order": []},
]


def paths(obj: object, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON value: a path of keys and indices."""
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += paths(v, prefix + (i,))
    return out


def _parent(obj: object, path: tuple) -> tuple[object, object]:
    for key in path[:-1]:
        obj = obj[key]  # type: ignore[index]
    return obj, path[-1]


def mutate(cert: dict, rng: random.Random, n: int | None = None) -> dict:
    """`cert` with 1 to 3 random faults: a value replaced by a hostile one,
    a key dropped or added, a list grown or emptied, two values swapped."""
    out = copy.deepcopy(cert)
    for _ in range(n or rng.randint(1, 3)):
        places = [p for p in paths(out) if p]
        if not places:
            break
        path = rng.choice(places)
        parent, key = _parent(out, path)
        kind = rng.choice(["hostile", "hostile", "hostile", "drop", "add", "grow", "empty", "swap"])
        if kind == "hostile":
            parent[key] = copy.deepcopy(rng.choice(HOSTILE))  # type: ignore[index]
        elif kind == "drop":
            if isinstance(parent, dict):
                del parent[key]
            else:
                parent.pop(key)  # type: ignore[union-attr]
        elif kind == "add" and isinstance(parent, dict):
            parent[rng.choice(["extra", "*", "P/1", "FORALL", "0"])] = copy.deepcopy(
                rng.choice(HOSTILE)
            )
        elif kind == "grow" and isinstance(parent[key], list):  # type: ignore[index]
            items = parent[key]  # type: ignore[index]
            parent[key] = items + [
                copy.deepcopy(rng.choice(items or HOSTILE)) for _ in range(rng.choice([1, 5, 300]))
            ]  # type: ignore[index]
        elif kind == "empty":
            parent[key] = (
                type(parent[key])() if isinstance(parent[key], (list, dict)) else parent[key]
            )  # type: ignore[index]
        else:
            other = rng.choice(places)
            if not (other[: len(path)] == path or path[: len(other)] == other):
                p2, k2 = _parent(out, other)
                parent[key], p2[k2] = p2[k2], parent[key]  # type: ignore[index]
    return out


def named_cases(valid: dict) -> dict[str, dict | str]:
    """The faults an audit found, and their relatives, by name."""
    cases: dict[str, dict | str] = {}

    def case(name: str, **changes: object) -> None:
        c = copy.deepcopy(valid)
        for dotted, value in changes.items():
            parent, key = _parent(c, tuple(dotted.split("__")))
            parent[key] = value  # type: ignore[index]
        cases[name] = c

    case("goal a number", goal=7)
    case("premises a string", premises="p")
    case("atoms as a list", connectives__atoms=["p", "q"])
    case("model atoms as a list", model__atoms=["p"])
    case("domain 10^9", model__domain=10**9)
    case("domain zero", model__domain=0)
    case("named huge", model__named=list(range(3000)))
    case("classes of integers", classes={"1": 1, "2": 2})
    case("values of integers", truth__values=[0, 1])
    case("a cyclic order", truth__order=[["0", "1"], ["1", "0"]])
    case(
        "a table of the wrong size",
        connectives__NOT=[{"args": ["*"], "class": "any", "table": ["1"]}],
    )
    case(
        "no catch-all rule",
        connectives__AND=[
            {"args": ["any", "any"], "class": "any", "table": [["0", "0"], ["0", "1"]]}
        ],
    )
    case("a predicate of arity 10^6", model__predicates={"P/1000000": []})
    case("format 1", format=1)
    cases["bounded: universe of integers"] = {
        "format": 1,
        "kind": "bounded",
        "premises": [],
        "goal": "p",
        "bounds": {"universe": [1, 2, 3], "terms": [], "depth": 3},
    }
    cases["bounded: depth 10^9"] = {
        "format": 1,
        "kind": "bounded",
        "premises": [],
        "goal": "p",
        "bounds": {"universe": ["p"], "terms": [], "depth": 10**9},
    }
    cases["not JSON"] = "{format: 2"
    cases["nested 100000 deep"] = "[" * 100_000 + "]" * 100_000
    cases["a number 5000 digits long"] = json.dumps(valid).replace(
        '"domain": 1', '"domain": ' + "9" * 5000, 1
    )
    cases["a list"] = "[1, 2]"
    return cases
