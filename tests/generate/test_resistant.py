"""Calibration-resistant rules and route coverage (generator version 5)."""

from __future__ import annotations

import random

import pytest
from alienworlds.explore.aliencode.space import site_space
from alienworlds.generate.aliencode import Knobs, schemes
from alienworlds.generate.aliencode.instances import ADAPTIVE, Instantiation, reported, stages
from alienworlds.generate.aliencode.library import templates
from alienworlds.generate.aliencode.probes import check_site
from alienworlds.generate.aliencode.world_draw import (
    BOUNDS,
    HERRING_TRIES,
    KEYSTONE,
    RESISTANT,
    draw_world,
)
from alienworlds.porting import Porter
from alienworlds.porting.compensation import Memo
from alienworlds.porting.semantics import STANDARD
from alienworlds.ruleset import Rule, World
from alienworlds.ruleset.equivalence import compare
from alienworlds.ruleset.expr import parse, to_text
from alienworlds.tasks.aliencode_validity import STRATEGIES
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from aliencode.sites import operand_kinds

DRAFTS = sorted(
    {
        (d.target, d.actual, d.scope)
        for d in (schemes.resistant(random.Random(k), True) for k in range(400))
    }
)


def test_the_family_draws_every_row_and_scoped_ones_only_when_allowed():
    assert len(DRAFTS) == len(schemes._RESISTANT)
    unscoped = {schemes.resistant(random.Random(k), False).scope for k in range(200)}
    assert unscoped == {"anywhere"}


@pytest.mark.parametrize("target, actual, scope", DRAFTS)
def test_each_resistant_change_is_one_the_explorer_can_learn_and_the_porter_undo(
    target, actual, scope
):
    assert to_text(parse(actual)) in {h.text for h in site_space(target).hypotheses}
    assert not compare(
        actual, "IDENTITY", operand_kinds(target), standard=STANDARD[target]
    ).equivalent
    world = World(
        name="resistant",
        language="aliencode",
        rules=(Rule(id="G01", name="", target=target, actual=actual, layer="x", scope=scope),),
    )
    problem, _ = check_site(Porter(world, BOUNDS, Memo()), target)
    assert problem is None, problem


@settings(max_examples=examples(3), deadline=None)
@given(seed=st.text(min_size=1, max_size=8), scoped=st.integers(0, 2))
def test_every_world_has_its_resistant_rules_within_the_scoped_knob(seed, scoped):
    knobs = Knobs(altered=5, red_herrings=0, scoped=scoped, renamed=0)
    rules = draw_world(seed, knobs).world.rules
    resistant = [r for r in rules if (r.target, r.actual, r.scope) in set(DRAFTS)]
    assert len(resistant) >= min(RESISTANT, knobs.altered - 2)
    assert sum(r.scope != "anywhere" for r in rules) == scoped


def _rules(*rows: tuple[str, str, str]) -> World:
    return World(
        name="flagging",
        language="aliencode",
        rules=tuple(
            Rule(id=f"G{k:02d}", name="", target=t, actual=a, layer="x", scope=s)
            for k, (t, a, s) in enumerate(rows, 1)
        ),
    )


KEYSTONE_PAIR = (
    ("PLUCK", "(get seq (- i 1))", "anywhere"),
    ("CARVE", "(slice seq (+ lo 1) hi)", "anywhere"),
)


@pytest.mark.parametrize("resistant", DRAFTS)
def test_every_strategy_flags_in_a_world_with_a_resistant_rule_and_the_costly_ones_run_last(
    resistant,
):
    world = _rules(*KEYSTONE_PAIR, resistant)
    assert reported(world) == ()
    staged = [n for stage in stages(world) for n in stage]
    assert sorted(staged) == sorted(STRATEGIES)
    assert staged[-6:] == [
        "mended-calibrating",
        "calibrating-avoidant",
        "sweep-mended-calibrating",
        "avoidant",
        "compact-calibrating",
        "self-calibrating",
    ]


def test_a_world_without_a_resistant_rule_reports_the_adaptive_strategies():
    world = _rules(*KEYSTONE_PAIR)
    assert reported(world) == ADAPTIVE
    staged = [n for stage in stages(world) for n in stage]
    assert sorted(staged) == sorted(n for n in STRATEGIES if n not in ADAPTIVE)
    # a resistant rule's expression in another scope is not resistant
    strand = schemes.STRAND_IN_CRAFTS
    assert reported(_rules(*KEYSTONE_PAIR, (strand.target, strand.actual, "top"))) == ADAPTIVE


def _template(template_id: str):
    return next(t for t in templates() if t.id == template_id)


def test_a_template_without_an_unavoidable_rule_is_not_made_into_a_task():
    # only PLUCK is altered: adding and multiplying have open routes everywhere
    world = World(
        name="routes",
        language="aliencode",
        rules=(
            Rule(id="G01", name="", target="PLUCK", actual="(get seq (- i 1))", layer="positions"),
        ),
    )
    make = Instantiation(world, Porter(world, BOUNDS, Memo()), "routes test")
    assert make.task(_template("sum-product"), []) == "no unavoidable rule"
    assert make.task(_template("element-at"), []) != "no unavoidable rule"


def test_a_resistant_rule_is_known_by_its_site_expression_and_scope():
    for target, actual, scope in DRAFTS:
        assert schemes.is_resistant(target, actual, scope)
        other = "top" if scope != "top" else "loop"
        assert not schemes.is_resistant(target, actual, other)
    assert not schemes.is_resistant("PLUCK", "(get seq (- i 1))", "anywhere")


@settings(max_examples=examples(3), deadline=None)
@given(seed=st.text(min_size=1, max_size=8))
def test_red_herrings_leave_the_keystone_pair_alone_while_other_sites_can_take_them(seed):
    drawn = draw_world(seed, Knobs(altered=7, red_herrings=2, scoped=1, renamed=0))
    herrings = [r for r in drawn.world.rules if r.red_herring]
    assert len(herrings) == 2
    if any(r.target in KEYSTONE for r in herrings):
        assert sum(drawn.rejected.values()) >= HERRING_TRIES
