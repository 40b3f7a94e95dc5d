"""What an AlienCode world file may say (the language half of docs/worlds.md).

A rule targets a site (an operation, a literal kind, or SWEEP), gives the
`actual` behaviour as a rule expression over the site's operands (or
IDENTITY for a red herring), and may restrict itself to a `scope`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

from alienworlds.ruleset import RuleSyntaxError, World, load_world
from alienworlds.ruleset.compile import check
from alienworlds.ruleset.expr import Identity, parse, to_text
from alienworlds.ruleset.world import SCOPES, Schema, shown

from .sites import KEYWORDS, SITES, operand_kinds

DEFAULT_WORLD_ENV = "ALIENCODE_WORLD"


def _check_rule(
    raw: Mapping[str, object], problem: Callable[[str, str | None], None]
) -> dict[str, object] | None:
    target = raw["target"]
    if target not in SITES:
        problem(
            f"unknown site '{shown(target)}'; expected an operation such as PLUCK, a literal "
            "site (literal.int, literal.float, literal.str, literal.bool) or SWEEP",
            "target",
        )
        return None
    scope = raw.get("scope", "anywhere")
    if scope not in SCOPES:
        problem(f"expected one of {', '.join(SCOPES)}", "scope")
    actual = raw.get("actual")
    if not isinstance(actual, str) or not actual.strip():
        problem('expected a rule expression (a string), or "IDENTITY" for a red herring', "actual")
        return None
    try:
        expr = parse(actual)
        if not isinstance(expr, Identity):
            functions = frozenset(
                name for name, kind in operand_kinds(target).items() if kind == "pred"
            )
            check(expr, set(SITES[target].operands), text=actual, functions=functions)
    except RuleSyntaxError as exc:
        operands = " ".join(SITES[target].operands)
        problem(
            f"{exc.message} at column {exc.column} (site {target} has operands: {operands})",
            "actual",
        )
        return None
    return {"actual": to_text(expr), "scope": scope}


SCHEMA = Schema(
    language="aliencode",
    rule_keys=("actual", "scope"),
    check_rule=_check_rule,
    keywords=frozenset(KEYWORDS),
)


MAIN_WORLD = "main"


def default_world_name() -> str:
    """The world used when none is named: $ALIENCODE_WORLD, else `main`."""
    return os.environ.get(DEFAULT_WORLD_ENV) or MAIN_WORLD


def load(spec: str | None = None) -> World:
    """A world by shipped name or path (default: see default_world_name)."""
    return load_world(spec or default_world_name(), SCHEMA)
