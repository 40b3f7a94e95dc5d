"""The adaptive knowledge-free AlienLogic strategies (docs/validity.md): their
answers are deterministic, their proofs are real proofs of their calculus, and
on the main bank none of them beats refusing everything."""

import pytest
from alienworlds.ruleset.world import standard_world
from alienworlds.tasks import alienlogic_adaptive as adaptive
from alienworlds.tasks.alienlogic_adaptive import (
    BASE_STYLES,
    BEST_CUT,
    BEST_CUTS,
    CLASSICAL_ONLY,
    FEATURES,
    PROVER_BUDGET,
    PROVER_TICKS,
    STYLES,
    Answerer,
    above_refusal,
    best,
    best_combination,
    checker,
    combinations,
    every_cut,
    every_region,
    graded,
    library_guards,
    passes,
    quartiles,
    routed,
    size,
    strategies,
    style_world,
)
from alienworlds.tasks.alienlogic_grading import LogicTask, logic_tasks
from alienworlds.tasks.alienlogic_validity import battery
from alienworlds.tasks.answer_text import REFUSAL_TEXT
from alienworlds.tasks.bank import load_bank
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from alienlogic import Theorem, check, load_world, parse_formula, parse_proof
from alienlogic.prover import StepClock, prove

WORLD = load_world("main")
BANK = load_bank("alienlogic", "main")
TASKS = logic_tasks(BANK)


@pytest.fixture(scope="module")
def answerer() -> Answerer:
    answerer = Answerer()
    for task in TASKS:
        for style in STYLES:
            answerer.proof(task.theorem, style)
    return answerer


@pytest.fixture(scope="module")
def validity():
    return battery(WORLD, BANK)


def _answers(answerer: Answerer) -> dict[tuple[str, str], str]:
    named = strategies(TASKS)
    return {(name, t.id): strategy(t, answerer) for name, strategy in named.items() for t in TASKS}


def test_answers_are_deterministic_and_bounded_by_search_steps(answerer, monkeypatch):
    # a second, fresh run gives the same answers to every task
    assert _answers(Answerer()) == _answers(answerer)
    # and the prover's allowance is a count of search steps, never seconds
    clocks = []

    def spy(*args, **kwargs):
        clocks.append(kwargs.get("clock"))
        return prove(*args, **kwargs)

    monkeypatch.setattr(adaptive, "prove", spy)
    Answerer().proof(TASKS[0].theorem, "standard")
    assert len(clocks) == 1 and isinstance(clocks[0], StepClock)


def test_every_style_answers_every_main_theorem_with_a_checked_proof_or_a_refusal(answerer):
    standard = standard_world("alienlogic")
    for task in TASKS:
        for style in STYLES:
            text = answerer.proof(task.theorem, style)
            if text is None:
                continue
            proof = parse_proof(text)
            # a proof in the style's calculus, hence in the standard one, of exactly the task
            assert check(proof, style_world(style), task=task.theorem).accepted, (task.id, style)
            assert check(proof, standard, task=task.theorem).accepted, (task.id, style)
            if style.startswith("intuitionistic"):
                assert not {s.rule for s in proof.steps} & set(CLASSICAL_ONLY), (task.id, style)
    # the standard prover proves every theorem of the bank (all are classically valid)
    assert all(answerer.proof(t.theorem, "standard") for t in TASKS)


def test_the_intuitionistic_style_refuses_classical_only_theorems(answerer):
    by_id = {t.id: t for t in TASKS}
    # Peirce's law and excluded middle need classical reasoning
    for task_id in ("L03", "L55"):
        assert answerer.prove_else_refuse(by_id[task_id].theorem, "intuitionistic") == REFUSAL_TEXT
        assert answerer.prove_else_refuse(by_id[task_id].theorem, "standard") != REFUSAL_TEXT


def test_a_routed_style_proves_in_its_calculus_with_guarded_routing(monkeypatch):
    calls = []

    def spy(*args, **kwargs):
        calls.append((args[0], kwargs["route_guarded"]))
        return prove(*args, **kwargs)

    monkeypatch.setattr(adaptive, "prove", spy)
    answerer = Answerer()
    for style in STYLES:
        answerer.proof(TASKS[0].theorem, style)
    assert [on for _, on in calls] == [routed(s) for s in STYLES]
    by_style = dict(zip(STYLES, (world.rules for world, _ in calls), strict=True))
    twins = [s for s in STYLES if routed(s)]
    assert {"standard-routed", "library-guarded-routed"} <= set(twins)
    for style in twins:
        assert by_style[style] == by_style[style.removesuffix("-routed")]


def test_the_intuitionistic_styles_have_no_routed_twin_because_routing_changes_nothing(answerer):
    # routing takes excluded middle, which the intuitionistic calculi lack: on every main
    # theorem the routed prover answers as the battery's unrouted one does
    unrouted = [s for s in BASE_STYLES if f"{s}-routed" not in STYLES]
    assert unrouted == ["intuitionistic", "intuitionistic-guarded"]
    for style in unrouted:
        for task in TASKS:
            found = prove(
                style_world(style),
                task.theorem,
                max_budget=PROVER_BUDGET,
                seconds=PROVER_TICKS,
                clock=StepClock(),
                route_guarded=True,
            )
            text = str(found.proof) if found.proof is not None else None
            assert text == answerer.proof(task.theorem, style), (style, task.id)


def test_routing_changes_what_the_library_guarded_prover_answers_on_main(answerer, validity):
    # the routed twin is a strategy of its own, not a copy: it answers some theorems
    # differently, and the battery scores it, at most the floor
    differ = [
        t.id
        for t in TASKS
        if answerer.proof(t.theorem, "library-guarded")
        != answerer.proof(t.theorem, "library-guarded-routed")
    ]
    assert differ
    scores = validity.strategies
    for style in STYLES:
        if routed(style):
            assert scores[f"prove-else-refuse-{style}"].accuracy <= scores["refuse-all"].accuracy


def test_library_guards_are_the_conditions_the_library_leaves_no_choice_about():
    guards = set(library_guards())
    # one depth limit for IMPL_I, one use-once guard for modus ponens' implication
    assert ("IMPL_I", "(<= depth 1)") in guards
    assert ("IMPL_E", "(== (times-cited (refline 2)) 0)") in guards
    # two citation orders for modus ponens, two scopes for ex falso: a world draws one,
    # so a system that knows only the library cannot obey either
    assert not {target for target, expr in guards if "(ref 2)" in expr and target == "IMPL_E"}
    assert not {expr for target, expr in guards if target == "BOT_E"}


@pytest.fixture(scope="module")
def main_graded(answerer):
    """Each named strategy's passes on main and the refusal's, by the world's checker."""
    return graded(TASKS, checker(WORLD), answerer)


def test_combinations_cut_at_every_value_the_bank_takes():
    cuts = every_cut(TASKS)
    sizes = sorted({size(t.theorem) for t in TASKS})
    # every size but the largest (above it nothing is left), both sides
    assert {c.k for c in cuts if c.name.startswith("size-")} == set(sizes[:-1])
    assert len([c for c in cuts if c.name.startswith("size-")]) == 2 * (len(sizes) - 1)
    assert {c.name for c in cuts} >= {"first-order", "propositional", "premises-le-0"}


def test_a_combination_proves_in_its_style_on_its_side_and_refuses_elsewhere(main_graded):
    passed, refused = main_graded
    combos = combinations(TASKS, passed, refused, boxes=False)
    assert len(combos) == len(STYLES) * len(every_cut(TASKS))
    proving = passed["prove-else-refuse-library-guarded"]
    for cut in every_cut(TASKS)[:6]:
        ids = combos[f"library-guarded-if-{cut.name}"]
        for task in TASKS:
            side = proving if cut.holds(task.theorem) else refused
            assert (task.id in ids) == (task.id in side), (cut.name, task.id)
    # the named syntactic heuristics are standard-style combinations
    assert passed["syntax-first-order"] == combos["standard-if-first-order"]
    assert best({"a": {"x"}, "b": {"x", "y"}, "c": {"y", "z"}}) == ("b", {"x", "y"})


def test_no_combination_of_a_style_and_cuts_beats_refusing_everything_on_main(main_graded):
    # the balance of docs/validity.md in every slice an adversary can cut, with one cut or
    # with a side or an interval on each of two features: knowledge-free proofs succeed no
    # more often on provable tasks than they "prove" unprovable ones
    passed, refused = main_graded
    assert refused == {t.id for t in TASKS if not t.provable}
    combos = combinations(TASKS, passed, refused)
    assert len(combos) == len(STYLES) * len(every_region(TASKS)) > 5000
    assert {name: len(ids) for name, ids in combos.items() if len(ids) > len(refused)} == {}


def test_syntactic_heuristics_split_at_the_quartiles(answerer):
    assert quartiles([1, 2, 3, 4, 5, 6, 7, 8, 9]) == [3, 5, 7]
    assert quartiles([4, 4, 4]) == [] and quartiles([]) == []
    named = strategies(TASKS)
    cuts = quartiles([size(t.theorem) for t in TASKS])
    assert cuts and all({f"syntax-size-gt-{k}", f"syntax-size-le-{k}"} <= set(named) for k in cuts)
    above, below = named[f"syntax-size-gt-{cuts[0]}"], named[f"syntax-size-le-{cuts[0]}"]
    for task in TASKS:
        big = size(task.theorem) > cuts[0]
        # exactly one side refuses, the other answers the standard prover's proof
        assert (above(task, answerer) == REFUSAL_TEXT) != big
        assert (below(task, answerer) == REFUSAL_TEXT) == big
        proving = above if big else below
        assert proving(task, answerer) == answerer.proof(task.theorem, "standard")


def test_the_battery_runs_every_adaptive_strategy(validity):
    names = set(validity.strategies)
    assert {"refuse-all", "standard-proof", "standard-prover"} <= names
    assert {f"prove-else-refuse-{s}" for s in STYLES} <= names
    assert {"syntax-first-order", "syntax-propositional", BEST_CUT, BEST_CUTS} <= names
    assert any(n.startswith("syntax-size-") for n in names)
    assert any(n.startswith("syntax-premises-") for n in names)


def test_no_strategy_beats_refusing_everything_on_main(validity):
    refuse_all = validity.strategies["refuse-all"].accuracy
    unprovable = [t.id for t in TASKS if not t.provable]
    assert refuse_all == pytest.approx(100 * len(unprovable) / len(TASKS), abs=1e-3)
    over = {name: s.accuracy for name, s in validity.strategies.items() if s.accuracy > refuse_all}
    assert over == {}
    assert validity.floor == refuse_all


def test_the_generators_grade_agrees_with_the_banks_grader(answerer, validity):
    # the generator judges a bank before it is written with `checker`; on main it
    # must give the battery's own numbers
    passed = passes(TASKS, checker(WORLD), answerer)
    assert {name: len(ids) for name, ids in passed.items()} == {
        name: len(s.passed) for name, s in validity.strategies.items() if name in passed
    }
    assert above_refusal(TASKS, passed) == {}


def test_above_refusal_names_the_strategies_and_the_provable_tasks_they_pass():
    tasks = [t for t in TASKS if t.id in ("L16", "L27", "L55")]  # provable, provable, unprovable
    passed = {"a": {"L16", "L27"}, "b": {"L16", "L55"}, "c": {"L55"}}
    assert above_refusal(tasks, passed) == {"a": {"L16", "L27"}, "b": {"L16"}}


# -- combinations of a style with cuts on two features, on synthetic banks -------------


def theorem(size_: int, premises: int, first_order: bool = False) -> Theorem:
    """A theorem of the given size and number of premises: atoms as premises,
    negations around an atom (a predicate when first-order) as the goal."""
    atom = "P(a)" if first_order else "p"
    depth = size_ - premises - (2 if first_order else 1)
    assert depth >= 0
    goal = "NOT(" * depth + atom + ")" * depth
    return Theorem(tuple(parse_formula("q") for _ in range(premises)), parse_formula(goal))


def synthetic(rows: list[tuple[int, int, bool, bool, tuple[bool, ...]]]):
    """A bank from (size, premises, first-order, provable, the styles that
    answer correctly) rows: its tasks, each style's passes, the refusal's."""
    tasks = [
        LogicTask(f"T{i}", "synthetic", theorem(s, p, fo), provable)
        for i, (s, p, fo, provable, _) in enumerate(rows)
    ]
    refused = {t.id for t in tasks if not t.provable}
    passed = {
        f"prove-else-refuse-{style}": {t.id for t, row in zip(tasks, rows) if row[4][k]}
        for k, style in enumerate(STYLES)
    }
    return tasks, passed, refused


ALL, NONE = (True,) * len(STYLES), (False,) * len(STYLES)


def test_a_box_beats_every_single_cut_and_the_search_finds_it():
    # X (size 5, one premise) is proved and accepted; every single cut's side holding X
    # holds A (size 5, no premise) or B (size 3, one premise), unprovable theorems every
    # style "proves", so one cut gains nothing; size > 3 and premises > 0 hold X and N, a
    # provable task no style passes, and gain one
    rows = [
        (5, 1, False, True, ALL),  # X
        (5, 0, False, False, NONE),  # A: proved, so the refusal's pass is lost
        (3, 1, False, False, NONE),  # B
        (7, 2, False, True, NONE),
    ]  # N
    tasks, passed, refused = synthetic(rows)
    one = combinations(tasks, passed, refused, boxes=False)
    assert max(len(ids) for ids in one.values()) == len(refused)
    name, ids = best_combination(tasks, passed, refused)
    assert name == "standard-if-size-gt-3-and-premises-gt-0" and ids == {"T0", "T1", "T2"}
    assert len(ids) == len(refused) + 1
    assert best_combination(tasks, passed, refused, boxes=False) == best(one)


def test_an_interval_of_one_feature_isolates_what_its_sides_do_not():
    # X at size 5 between unprovable theorems at sizes 4 and 6 that every style proves
    rows = [
        (4, 0, False, False, NONE),
        (5, 0, False, True, ALL),
        (6, 0, False, False, NONE),
        (8, 0, False, True, NONE),
    ]
    tasks, passed, refused = synthetic(rows)
    assert len(best_combination(tasks, passed, refused, boxes=False)[1]) == len(refused)
    name, ids = best_combination(tasks, passed, refused)
    assert name == "standard-if-size-gt-4-and-size-le-5" and ids == refused | {"T1"}


def region_count(tasks: list[LogicTask]) -> int:
    """The regions `every_region` must name: both sides of every cut, every
    interval of one feature, and every pair of conditions on two features."""
    cuts = [len(every_cut_values(f, tasks)) for f in FEATURES]
    conditions = [2 * c + c * (c - 1) // 2 for c in cuts]
    pairs = sum(
        conditions[i] * conditions[j] for i in range(len(cuts)) for j in range(i + 1, len(cuts))
    )
    return 2 * sum(cuts) + sum(c * (c - 1) // 2 for c in cuts) + pairs


def every_cut_values(feature, tasks: list[LogicTask]) -> list[int]:
    if feature.cuts is not None:
        return list(feature.cuts)
    return sorted({feature.measure(t.theorem) for t in tasks})[:-1]


ROWS = st.lists(
    st.tuples(
        st.integers(4, 11),
        st.integers(0, 2),
        st.booleans(),
        st.booleans(),
        st.tuples(*[st.booleans()] * len(STYLES)),
    ),
    min_size=1,
    max_size=9,
)


@settings(max_examples=examples(30), deadline=None)
@given(ROWS)
def test_every_combination_passes_exactly_what_its_definition_says(rows):
    tasks, passed, refused = synthetic(rows)
    regions = every_region(tasks)
    assert len(regions) == region_count(tasks) == len({r.name for r in regions})
    for region in regions:
        features = {}
        for cut in region.cuts:
            features.setdefault(id(cut.feature), []).append(cut)
        # at most two features, each one side or an interval (above a, at most b, a < b)
        assert len(features) <= 2
        for cuts in features.values():
            assert len(cuts) == 1 or (cuts[0].above and not cuts[1].above and cuts[0].k < cuts[1].k)
    combos = combinations(tasks, passed, refused)
    for style in STYLES:
        proving = passed[f"prove-else-refuse-{style}"]
        for region in regions:
            want = {
                t.id for t in tasks if t.id in (proving if region.holds(t.theorem) else refused)
            }
            assert combos[f"{style}-if-{region.name}"] == want
    # the best is a most-passing one, the first named on a tie, and one cut is a box too
    name, ids = best_combination(tasks, passed, refused)
    assert (name, ids) == best(combos)
    assert len(ids) >= len(best_combination(tasks, passed, refused, boxes=False)[1])


def test_the_count_of_regions_on_a_worst_bank_is_bounded_by_its_distinct_values():
    # the search's cost is its region count, set by the distinct values the bank's theorems
    # take: the worst bank the generator can write (99 theorems) with every size distinct
    tasks, passed, refused = synthetic(
        [(s + 8, s % 6, s % 2 == 0, s % 3 == 0, ALL) for s in range(99)]
    )
    regions = every_region(tasks)
    assert len(regions) == region_count(tasks) > 100_000
    name, ids = best_combination(tasks, passed, refused)
    # every style answers every task correctly, so the best proves everywhere it can
    style, _, where = name.partition("-if-")
    region = next(r for r in regions if r.name == where)
    assert ids == {t.id for t in tasks if region.holds(t.theorem) or t.id in refused}
    assert ids == passed[f"prove-else-refuse-{style}"]
