"""Every template of the library can be made into a task under the manual:
some draw of its inputs (within the tries a bank gives it) runs the naive
solution cleanly, its two variants print the same, the private runs differ
enough and nothing shown states an output."""

from __future__ import annotations

import pytest
from alienworlds.generate.aliencode.instances import Instantiation
from alienworlds.generate.aliencode.library import fill, templates
from alienworlds.ruleset import World
from alienworlds.tasks.bank import BANDS, FAMILIES

from aliencode.unparse import value_literal


@pytest.mark.parametrize("template", templates(), ids=lambda t: t.id)
def test_a_template_makes_a_task_under_the_manual(template):
    make = Instantiation(World(name="standard", language="aliencode"), None, "library test")
    rng = make.rng("task", template.id)
    code = {name: value_literal(gen.draw(rng, {})) for name, gen in template.params}
    drawn = make._inputs(
        template, rng, fill(template.naive, code), [fill(v, code) for v in template.variants], ""
    )
    assert not isinstance(drawn, str), f"{template.id}: every draw failed ({drawn})"


def test_template_ids_are_unique_and_every_band_has_templates():
    ids = [t.id for t in templates()]
    assert len(ids) == len(set(ids)) and len(ids) >= 40
    assert {t.band for t in templates()} == set(BANDS)
    assert {t.family for t in templates()} == set(FAMILIES)
