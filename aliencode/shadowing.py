"""Which rules of an AlienCode world can act anywhere at all.

A call site resolves to the first rule of its site whose scope matches
(compiler.Bindings), and a scope depends only on two facts about the place:
inside a CRAFT body or not, inside a loop of that body or not. So the four
combinations decide, from the world alone, whether a rule ever changes what
some program computes: a rule is inert when removing it resolves every
place to the same behaviour.

This is what makes a red herring (an IDENTITY rule) a discovery target: it
counts only when it shadows an altered rule of its site in a narrower scope,
so that the site keeps the manual's meaning there and removing the herring
spreads the altered rule to that scope. A stand-alone IDENTITY rule, or an
altered rule hidden by earlier ones, is indistinguishable from no rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from alienworlds.ruleset import Rule, World

from .compiler import Context

PLACES = tuple(
    Context(in_function=in_function, in_loop=in_loop)
    for in_function in (False, True)
    for in_loop in (False, True)
)


@dataclass(frozen=True)
class InertRule:
    """A rule that changes nothing any program can observe."""

    rule: Rule

    def message(self) -> str:
        if self.rule.red_herring:
            return (
                f"rule {self.rule.id}: this red herring shadows no altered rule of site "
                f"{self.rule.target}; a red herring must come before an altered rule of its "
                "site with a wider scope, or no program can tell it from no rule"
            )
        return (
            f"rule {self.rule.id}: this altered rule never applies: earlier rules of site "
            f"{self.rule.target} take every scope it names"
        )


def behaviour(rules: tuple[Rule, ...], site: str, place: Context) -> str | None:
    """The id of the rule that changes `site` at `place`, None for the manual."""
    for rule in rules:
        if rule.target == site and place.matches(rule.scope):
            return None if rule.red_herring else rule.id
    return None


def inert_rules(world: World) -> list[InertRule]:
    """The rules whose removal alone changes no place of their site, in file order."""
    inert = []
    for rule in world.rules:
        without = world.without(rule.id).rules
        if all(
            behaviour(world.rules, rule.target, place) == behaviour(without, rule.target, place)
            for place in PLACES
        ):
            inert.append(InertRule(rule))
    return inert
