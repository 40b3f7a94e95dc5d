"""Finding, loading and auditing AlienLogic worlds."""

from __future__ import annotations

import os

from alienworlds.ruleset import world as ruleset_world
from alienworlds.ruleset.world import World

from .kernel import compile_world
from .world_schema import SCHEMA

DEFAULT_WORLD_ENV = "ALIENLOGIC_WORLD"
MAIN_WORLD = "main"


def default_world_spec() -> str:
    """The world a command uses when none is named.

    $ALIENLOGIC_WORLD when set; otherwise the main evaluation world `main`
    (README.md), and, as long as no `main` world ships, `standard`.
    """
    spec = os.environ.get(DEFAULT_WORLD_ENV)
    if spec:
        return spec
    if MAIN_WORLD in ruleset_world.shipped_worlds(SCHEMA.language):
        return MAIN_WORLD
    return "standard"


def load_world(spec: str | None = None) -> World:
    """A world by shipped name or path (default: `default_world_spec()`),
    validated and compiled; raises WorldError listing every problem."""
    world = ruleset_world.load_world(spec or default_world_spec(), SCHEMA)
    compile_world(world)  # problems between rules, such as two conclusion patches
    return world


def audit(world: World) -> list[str]:
    """Things that are legal but surely unintended: rules that can never fire."""
    problems = []
    disabled: dict[str, str] = {}
    for rule in world.rules:
        if rule.target in disabled and rule.id != disabled[rule.target]:
            problems.append(
                f"rule {rule.id}: never applies, rule {disabled[rule.target]} disables "
                f"{rule.target} earlier"
            )
        elif rule.disabled:
            disabled[rule.target] = rule.id
    return problems
