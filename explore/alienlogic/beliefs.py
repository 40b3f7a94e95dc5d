"""The world an explorer believes in: a world file written from its beliefs.

`world_text(beliefs)` writes the most probable hypothesis of every rule as
an AlienLogic world file (docs/worlds.md), in memory; `hypothesised_world`
reads it back through the world schema, so the prover and the certifier
work on it exactly as on a shipped world. A patch whose id was never
reported gets an invented one (`H1`, `H2`, ...). `report(beliefs)` states
the beliefs one rule id a line, `ID: TARGET disabled | require EXPR |
conclusion EXPR`, in the form the environment's disclosure uses.
"""

from __future__ import annotations

import json

from alienworlds.ruleset.world import World, parse_world

from alienlogic.world_schema import SCHEMA

from .space import Belief

NAME = "hypothesis"


def _patches(beliefs: list[Belief]) -> list[tuple[str, str, str, str | bool]]:
    """(id, target, key, value) per believed patch, ids invented where unseen."""
    out = []
    invented = 0

    def ident(rid: str | None) -> str:
        nonlocal invented
        if rid:
            return rid
        invented += 1
        return f"H{invented}"

    for b in beliefs:
        if b.disabled:
            out.append((ident(b.disabled_id), b.rule, "disabled", True))
            continue
        if b.conclusion is not None:
            out.append((ident(b.conclusion_id), b.rule, "conclusion", b.conclusion))
        for text, rid in b.requires:
            out.append((ident(rid), b.rule, "require", text))
    return out


def world_text(beliefs: list[Belief]) -> str:
    lines = [
        "format = 1",
        f'name = "{NAME}"',
        'language = "alienlogic"',
        'description = "The world an explorer believes in, written from its most probable '
        'hypotheses."',
    ]
    seen: set[str] = set()
    for rid, target, key, value in _patches(beliefs):
        while rid in seen:  # an id reported for two patches cannot be; keep the file valid
            rid += "'"
        seen.add(rid)
        lines += [
            "",
            "[[rules]]",
            f"id = {json.dumps(rid)}",
            f"name = {json.dumps(f'{target} {key}')}",
            f"target = {json.dumps(target)}",
            f"{key} = {json.dumps(value)}",
        ]
    return "\n".join(lines) + "\n"


def hypothesised_world(beliefs: list[Belief]) -> World:
    return parse_world(world_text(beliefs), f"<{NAME}>", SCHEMA)


def report(beliefs: list[Belief]) -> str:
    lines = []
    for rid, target, key, value in _patches(beliefs):
        shown = "disabled" if key == "disabled" else f"{key} {value}"
        lines.append(f"{rid}: {target} {shown}")
    return "\n".join(lines) if lines else "(every rule as the manual says)"
