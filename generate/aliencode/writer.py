"""Writing a generated world as TOML, the same bytes every time."""

from __future__ import annotations

from alienworlds.generate.toml_string import basic_string as _string
from alienworlds.ruleset import World


def world_toml(world: World, version: str, knobs: object) -> str:
    settings = ", ".join(f"{k} = {v}" for k, v in vars(knobs).items())
    lines = [
        f"# A generated AlienCode world: alienworlds generator version {version} ({settings}).",
        "# The same seed and version give this file byte for byte. Keep the seed and",
        "# this file private: a world whose rules are known measures recall, not exploration.",
        "",
        "format = 1",
        f"name = {_string(world.name)}",
        f"language = {_string(world.language)}",
        f"description = {_string(world.description)}",
    ]
    if world.keywords:
        lines += ["", "[keywords]"]
        lines += [f"{k} = {_string(v)}" for k, v in sorted(world.keywords.items())]
    for rule in world.rules:
        lines += [
            "",
            "[[rules]]",
            f"id = {_string(rule.id)}",
            f"name = {_string(rule.name)}",
            f"target = {_string(rule.target)}",
            f"actual = {_string(rule.actual or 'IDENTITY')}",
        ]
        if rule.layer:
            lines.append(f"layer = {_string(rule.layer)}")
        if rule.scope != "anywhere":
            lines.append(f"scope = {_string(rule.scope)}")
    return "\n".join(lines) + "\n"
