"""Could a bank task show a rule? A cheap look as the rule is drawn.

The bank needs, for every rule of the world, a task that lists it: one whose
output changes when the rule alone is removed (bank.py, the coverage pass).
Learning that no template makes such a task costs a full instantiation of
every template using the rule's site (seconds). Some rules are like that
whatever the rest of the world: a comparison made non-strict where the
templates' inputs seldom tie, or a red herring hiding its rule in the only
scope the templates use.

So as a rule is drawn, the templates using its site in its scope run their
naive solutions on one draw of their inputs (seeded by the template alone)
in a world of that site's rules alone, with the rule and without it; the
rule is kept when at least MIN_SHOWN templates print differently. The answer
depends only on the site's rules and is cached per process. It is a
necessary condition, not a sufficient one (the other sites' rules and the
trivial strategies decide the rest); the generator draws a rule again when
the bank still cannot cover it.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

from alienworlds.ruleset import Rule
from alienworlds.tasks.aliencode_grading import Programs, outcomes, prints
from alienworlds.tasks.bank import Task

from aliencode import Limits, World
from aliencode.unparse import value_literal

from .instances import Instantiation, draw_tables
from .library import Template, fill, template_sites, templates

_LIMITS = Limits()
MIN_SHOWN = (
    3  # templates that must show a rule as it is drawn: some are lost to the battery or to porting
)


def uses(template: Template, rule: Rule) -> bool:
    """Whether the template uses the rule's site where the rule's scope holds."""
    pairs = template_sites(template)
    return any(
        (rule.target, scope) in pairs
        for scope in ((rule.scope,) if rule.scope != "anywhere" else ("top", "function", "loop"))
    )


@cache
def _trial(template: Template) -> Task | None:
    """The template's naive solution with one draw of its runs, unported."""
    rng = random.Random(f"alienworlds exposure:{template.id}")
    code = {n: value_literal(gen.draw(rng, {})) for n, gen in template.params}
    tables = draw_tables(template, rng)
    if tables is None:
        return None
    plain = World(name="standard", language="aliencode")
    return Instantiation(plain, None, "exposure", _LIMITS).shape(
        template, tables, fill(template.naive, code), [], ""
    )[0]


def shows(rule_id: str, site_rules: tuple[Rule, ...]) -> bool:
    """Whether removing the rule `rule_id` from the world of `site_rules` (one
    site's rules, in world order) changes what MIN_SHOWN templates print."""
    plain = tuple(replace(r, id=f"S{k}", name="") for k, r in enumerate(site_rules))
    return _shows(next(f"S{k}" for k, r in enumerate(site_rules) if r.id == rule_id), plain)


@cache
def _shows(rule_id: str, site_rules: tuple[Rule, ...]) -> bool:
    world = World(name="exposure", language="aliencode", rules=site_rules)
    rule, without = world.rule(rule_id), world.without(rule_id)
    programs = Programs(
        _LIMITS
    )  # its cache knows a world by name and rule ids: one per set of site rules
    shown = 0
    for template in templates():
        task = _trial(template) if uses(template, rule) else None
        if task is not None and not prints(
            without,
            _LIMITS,
            task.naive,
            task,
            outcomes(world, _LIMITS, task.naive, task, programs),
            programs,
        ):
            shown += 1
            if shown == MIN_SHOWN:
                return True
    return False
