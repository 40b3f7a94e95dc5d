"""The coverage prior: its file format, its estimates, and the drawer obeying it."""

from __future__ import annotations

import pytest
from alienworlds.generate.aliencode.coverage_prior import (
    PLACES,
    CoveragePrior,
    PriorError,
    kind,
    parse_prior,
    place,
    prior_toml,
    shipped,
)
from alienworlds.generate.aliencode.world_draw import SELDOM, Knobs, draw_world
from alienworlds.ruleset import Rule
from hypothesis import given
from hypothesis import strategies as st

from aliencode.sites import SITES

SITE_NAMES = sorted(SITES)
counts_st = st.dictionaries(
    st.tuples(st.sampled_from(SITE_NAMES), st.sampled_from(PLACES)),
    st.tuples(st.integers(0, 50), st.integers(0, 50)).filter(any),
    max_size=30,
)


@given(counts_st, st.text(min_size=1, max_size=20))
def test_the_written_counts_read_back(counts, seeds):
    assert parse_prior(prior_toml(counts, seeds)).counts == counts


@given(counts_st.filter(bool))
def test_acceptance_is_a_probability_one_for_the_best_kind(counts):
    prior = CoveragePrior(counts)
    chances = [prior.acceptance(*k) for k in counts]
    assert all(0 < a <= 1 for a in chances)
    assert max(chances) == pytest.approx(1.0)
    # a kind never counted is judged by its site and place, and keeps a chance too
    assert 0 < prior.acceptance("PLUCK", "herring top") <= 1


def test_more_often_covered_means_more_often_accepted():
    prior = CoveragePrior({("WEAVE", "anywhere"): (9, 1), ("APART", "anywhere"): (1, 9)})
    assert prior.rate("WEAVE", "anywhere") > prior.rate("APART", "anywhere")
    assert prior.acceptance("APART", "anywhere") < prior.acceptance("WEAVE", "anywhere") / 2


def test_no_counts_accept_every_kind():
    assert CoveragePrior().acceptance("APART", "herring loop") == 1.0


def test_the_shipped_prior_keeps_the_keystone_pair_and_every_kind_a_chance():
    prior = shipped()
    assert prior.counts, "coverage.toml has counts"
    for site in ("PLUCK", "CARVE"):
        assert prior.acceptance(site, "anywhere") > 0.9
    assert prior.acceptance("STRAND", "function") > 0.9
    assert all(prior.acceptance(s, p) > 0 for s in SITE_NAMES for p in PLACES)


def test_kinds_name_a_rule_by_site_and_place():
    assert place("loop", True) == "herring loop" and place("top", False) == "top"
    rule = Rule(id="G01", name="", target="ATOP", actual="(> a b)", scope="function")
    herring = Rule(id="G02", name="", target="ATOP", actual="IDENTITY", scope="loop")
    assert kind(rule) == ("ATOP", "function")
    assert kind(herring) == ("ATOP", "herring loop")


@pytest.mark.parametrize(
    "text, message",
    [
        ("covered = 3", "'covered' must be a table of sites"),
        ("[covered]\nAPART = 2", "covered.APART must be a table of places"),
        ('[covered.APART]\n"herring anywhere" = 2', "unknown place 'herring anywhere'"),
        ("[uncovered.APART]\nloop = -1", "uncovered.APART.loop must be a count"),
        ("[uncovered.APART]\nloop = true", "uncovered.APART.loop must be a count"),
        ("rates = 1", "unknown key 'rates'"),
        ("[covered", "coverage.toml: "),
    ],
)
def test_a_broken_file_is_refused_with_where(text, message):
    with pytest.raises(PriorError) as raised:
        parse_prior(text)
    assert message in str(raised.value)


SMALL = Knobs(altered=4, red_herrings=1, scoped=1, renamed=2, tasks=5)


def test_the_drawer_turns_away_a_kind_the_prior_all_but_never_accepts():
    flat = draw_world("prior-0", SMALL, prior=CoveragePrior())
    drawn = {r.target for r in flat.world.rules if r.target not in ("PLUCK", "CARVE")}
    assert drawn, "the flat world has a rule besides the keystone pair"
    site = sorted(drawn)[0]
    # every other kind always covered, `site` never: its acceptance is about 1e-7
    counts = {(s, p): (1000, 0) for s in SITE_NAMES for p in PLACES if s != site}
    counts |= {(site, p): (0, 1000) for p in PLACES}
    biased = draw_world("prior-0", SMALL, prior=CoveragePrior(counts))
    assert site not in {r.target for r in biased.world.rules}
    assert biased.rejected[SELDOM] > 0
    assert SELDOM not in flat.rejected


def test_red_herrings_are_drawn_where_the_prior_weighs_them():
    # every red herring in loops or at top level uncovered, every one in CRAFT bodies covered
    counts = {(s, "herring function"): (1000, 0) for s in SITE_NAMES}
    counts |= {(s, p): (0, 1000) for s in SITE_NAMES for p in ("herring loop", "herring top")}
    counts |= {(s, p): (1000, 0) for s in SITE_NAMES for p in ("anywhere", "function", "loop")}
    # drawn by the scope weights alone, a red herring is in a CRAFT body half the time
    for seed in ("prior-1", "prior-2", "prior-3"):
        world = draw_world(seed, SMALL, prior=CoveragePrior(counts)).world
        assert [r.scope for r in world.rules if r.red_herring] == ["function"]
