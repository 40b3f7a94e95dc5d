"""benchmarks/rule_coverage.py's seeds and counts (the measurement itself runs on
demand: `python benchmarks/rule_coverage.py --seeds 1-16 --flat`)."""

import importlib.util
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

from alienworlds.generate.aliencode.coverage_prior import CoveragePrior, parse_prior, prior_toml
from alienworlds.ruleset import Rule

_SPEC = importlib.util.spec_from_file_location(
    "rule_coverage_bench", Path(__file__).parents[2] / "benchmarks" / "rule_coverage.py"
)
bench = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench)


def test_seed_lists_and_ranges():
    assert bench.seeds_of("1-3") == ["1", "2", "3"]
    assert bench.seeds_of("eval-a,4-5,x") == ["eval-a", "4", "5", "x"]


def test_a_seed_counts_its_world_as_covered_and_its_redrawn_rules_as_uncovered(monkeypatch):
    rules = (
        Rule(id="G01", name="", target="PLUCK", actual="(get seq (- i 1))"),
        Rule(id="G02", name="", target="ATOP", actual="IDENTITY", scope="loop"),
        Rule(id="G03", name="", target="ATOP", actual="(> a b)"),
    )
    drawn_again = [
        Rule(id="G04", name="", target="APART", actual="(== a b)"),
        Rule(id="G04", name="", target="APART", actual="(!= (+ a 2) b)"),
    ]
    seen = {}

    def generate(seed, prior=None):
        seen[seed] = prior
        return SimpleNamespace(world=SimpleNamespace(rules=rules), uncovered=drawn_again)

    monkeypatch.setattr(bench, "generate", generate)
    seed, outcomes, _ = bench.measure("s", flat=True)
    assert seed == "s" and seen["s"] == CoveragePrior()
    covered = Counter(kind for kind, _, was in outcomes if was)
    uncovered = Counter(kind for kind, _, was in outcomes if not was)
    assert covered == Counter(
        {("PLUCK", "anywhere"): 1, ("ATOP", "herring loop"): 1, ("ATOP", "anywhere"): 1}
    )
    assert uncovered == Counter({("APART", "anywhere"): 2})
    assert [f for _, f, was in outcomes if not was] == ["(== a b)", "(!= (+ a N) b)"]
    bench.measure("t", flat=False)
    assert seen["t"] is None  # the shipped prior
    counts = {k: (covered[k], uncovered[k]) for k in covered.keys() | uncovered.keys()}
    assert parse_prior(prior_toml(counts, "s")).counts == counts


def test_held_out_loss_rewards_the_predictor_that_tells_outcomes_apart():
    # Within one kind, expression "a" is always covered and "b" never: knowing the
    # expression predicts each held-out seed better than the kind alone.
    kind = ("UNDER", "anywhere")
    results = [
        (str(s), [(kind, "a", True), (kind, "a", True), (kind, "b", False)], 0.0) for s in range(6)
    ]
    assert bench.held_out_loss(results, True) < bench.held_out_loss(results, False)
    # One expression per kind: the expression adds nothing.
    same = [(str(s), [(kind, "a", True), (kind, "a", s % 2 == 0)], 0.0) for s in range(6)]
    assert bench.held_out_loss(same, True) >= bench.held_out_loss(same, False)
