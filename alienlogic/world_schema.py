"""What an AlienLogic world file may say (the language half of docs/worlds.md).

A rule targets a standard inference rule and carries one or more of
`disabled = true`, `require = "<predicate>"` and `conclusion =
"<expression>"`, written in the vocabulary of `predicates.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from alienworlds.ruleset.errors import RuleSyntaxError
from alienworlds.ruleset.expr import Identity, parse, to_text
from alienworlds.ruleset.world import Schema

from .predicates import FORMULA_FUNCTIONS, STEP_FUNCTIONS, validate
from .rules import RULES

FUNCTIONS = " ".join((*STEP_FUNCTIONS, *FORMULA_FUNCTIONS))


def _check_expression(
    raw: Mapping[str, object], key: str, problem: Callable[[str, str | None], None]
) -> str | None:
    text = raw[key]
    if not isinstance(text, str) or not text.strip():
        problem("expected a rule expression (a string)", key)
        return None
    try:
        expr = parse(text)
        if isinstance(expr, Identity):
            raise RuleSyntaxError(
                "IDENTITY has no meaning for an inference rule", text, expr.column
            )
        validate(expr, text)
    except RuleSyntaxError as exc:
        hint = (
            f" (functions of a step: {FUNCTIONS})"
            if exc.message.startswith("unknown operator")
            else ""
        )
        problem(f"{exc.message} at column {exc.column}{hint}", key)
        return None
    return to_text(expr)


def _check_rule(
    raw: Mapping[str, object], problem: Callable[[str, str | None], None]
) -> dict[str, object] | None:
    target = raw["target"]
    if target not in RULES:
        problem(f"unknown inference rule '{target}'; expected one of {', '.join(RULES)}", "target")
        return None
    if not any(k in raw for k in ("disabled", "require", "conclusion")):
        problem("a rule needs at least one of disabled, require and conclusion", None)
        return None
    out: dict[str, object] = {}
    disabled = raw.get("disabled", False)
    if not isinstance(disabled, bool):
        problem("expected true or false", "disabled")
    elif disabled and ("require" in raw or "conclusion" in raw):
        problem(
            "a disabled rule cannot also carry require or conclusion (they would never apply)",
            "disabled",
        )
    elif not disabled and not ("require" in raw or "conclusion" in raw):
        problem(
            "disabled = false alone changes nothing; give disabled = true, require or conclusion",
            "disabled",
        )
    else:
        out["disabled"] = disabled
    for key in ("require", "conclusion"):
        if key in raw:
            out[key] = _check_expression(raw, key, problem)
    return out


SCHEMA = Schema(
    language="alienlogic", rule_keys=("disabled", "require", "conclusion"), check_rule=_check_rule
)
