"""Property: a template of the library, filled with drawn parameters and
inputs and ported to a random generated world, prints in that world what it
prints under the manual (the bank's references are made this way)."""

from __future__ import annotations

import random
from functools import cache

from alienworlds.generate.aliencode import Knobs
from alienworlds.generate.aliencode.library import fill, templates
from alienworlds.generate.aliencode.world_draw import BOUNDS, draw_world
from alienworlds.porting import Porter, PortError
from alienworlds.ruleset import Limits, standard_world
from alienworlds.tasks.aliencode_grading import program_output
from fuzzing import examples
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from aliencode.unparse import value_literal

STANDARD = standard_world("aliencode")
LIMITS = Limits()


@cache
def porter(seed: int) -> Porter:
    return Porter(
        draw_world(
            f"template-property-{seed}", Knobs(altered=6, red_herrings=1, scoped=2, renamed=2)
        ).world,
        BOUNDS,
    )


def program(template, rng: random.Random) -> str:
    """The template's naive solution with drawn parameters, run on drawn
    inputs (bound before it) or called on drawn arguments (after it)."""
    code = {
        name: value_literal(gen.draw(rng, {}), STANDARD.surface) for name, gen in template.params
    }
    naive = fill(template.naive, code)
    drawn: dict[str, object] = {}
    for name, gen in template.generators():
        drawn[name] = gen.draw(rng, drawn)
    if template.function:
        call = (
            f"{template.craft}("
            f"{', '.join(value_literal(drawn[p], STANDARD.surface) for p in template.parameters)})"
        )
        return naive + (call if template.prints else f"EMIT({call})") + "\n"
    return (
        "".join(
            f"SET {name} AS {value_literal(value, STANDARD.surface)}\n"
            for name, value in drawn.items()
        )
        + naive
    )


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2), template=st.sampled_from(templates()), draw=st.integers(0, 2**32))
def test_a_ported_template_prints_in_the_world_what_it_prints_under_the_manual(
    seed, template, draw
):
    source = program(template, random.Random(draw))
    expected = program_output(STANDARD, LIMITS, source)
    assume("[AlienError]" not in expected)  # inputs a template's prompt rules out
    port = porter(seed)
    try:
        ported = port.port(source, examples=[], keywords={}, callers="manual").source
    except PortError:
        assume(
            False
        )  # a program the bounded search cannot port (the generator then drops the template)
    assert program_output(port.world, LIMITS, ported) == expected
