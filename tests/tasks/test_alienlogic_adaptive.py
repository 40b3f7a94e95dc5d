"""The adaptive knowledge-free AlienLogic strategies (docs/validity.md): their
answers are deterministic, their proofs are real proofs of their calculus, and
on the main bank none of them beats refusing everything."""

import pytest

from alienlogic import check, load_world, parse_proof
from alienlogic.prover import StepClock, prove
from alienworlds.ruleset.world import standard_world
from alienworlds.tasks import alienlogic_adaptive as adaptive
from alienworlds.tasks.alienlogic_adaptive import (BEST_CUT, CLASSICAL_ONLY, STYLES, Answerer,
                                                   above_refusal, best, checker, combinations,
                                                   every_cut, graded, library_guards, passes,
                                                   quartiles, size, strategies, style_world)
from alienworlds.tasks.alienlogic_grading import REFUSAL_TEXT, logic_tasks
from alienworlds.tasks.alienlogic_validity import battery
from alienworlds.tasks.bank import load_bank

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
    combos = combinations(TASKS, passed, refused)
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


def test_no_combination_of_a_style_and_a_cut_beats_refusing_everything_on_main(main_graded):
    # the balance of docs/validity.md in every slice an adversary can cut: knowledge-free
    # proofs succeed no more often on provable tasks than they "prove" unprovable ones
    passed, refused = main_graded
    assert refused == {t.id for t in TASKS if not t.provable}
    combos = combinations(TASKS, passed, refused)
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
    assert {"syntax-first-order", "syntax-propositional", BEST_CUT} <= names
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
        name: len(s.passed) for name, s in validity.strategies.items() if name in passed}
    assert above_refusal(TASKS, passed) == {}


def test_above_refusal_names_the_strategies_and_the_provable_tasks_they_pass():
    tasks = [t for t in TASKS if t.id in ("L16", "L27", "L55")]  # provable, provable, unprovable
    passed = {"a": {"L16", "L27"}, "b": {"L16", "L55"}, "c": {"L55"}}
    assert above_refusal(tasks, passed) == {"a": {"L16", "L27"}, "b": {"L16"}}
