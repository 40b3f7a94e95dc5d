"""What explaining costs: every observation has its own account, so what one
costs never changes what another teaches; a decision's predicting is bounded
by a count; a packed probe stays within what the engine can explain; a
recorded value's copy is the value's size, whatever it holds."""

import json
import random

from alienworlds.episode.trace import read_trace
from alienworlds.explore.aliencode.design import Atom, Designer, Scored, explaining, pack
from alienworlds.explore.aliencode.engine import Budget, Engine, Prediction
from alienworlds.explore.aliencode.evaluate import freeze, snapshot
from alienworlds.explore.aliencode.metrics import _texts, base_engine
from alienworlds.explore.aliencode.view import read_view
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st


def _unprinted(rng):
    """A program whose rule calls never reach the output: every combination
    of their outcomes is a distinct run that prints the same, far more runs
    than any account allows (integer literals in a CRAFT are a rule of the
    demo world, and so are OVER, PLUCK and ORDER)."""
    a, b, c = (rng.randrange(-9, 9) for _ in range(3))
    return (
        f"CRAFT f():\n    SET x AS OVER({a}, {b})\n    SET y AS PLUCK(STRAND({a}, {b}, {c}), "
        f"{rng.randrange(3)})\n"
        f'    SET z AS ORDER(STRAND({c}, {b}, {a}))\n    EMIT("done")\nf()'
    )


def _engine(system, rules, budget):
    view = read_view(system, rules)
    engine = Engine(view, budget=budget)
    for example in view.examples:
        engine.observe(example.program, example.output, tool=False)
    return engine


def test_costly_observations_never_change_what_later_ones_teach(fixed_probe_trace, demo_env):
    events = read_trace(fixed_probe_trace[0])
    system, rules = _texts(events)
    probes = [
        (json.loads(e["arguments"])["code"], e["feedback"])
        for e in events
        if e.get("type") == "tool" and e.get("status") == "ran"
    ][:16]
    budget = Budget(runs_each=400)
    plain = _engine(system, rules, budget)
    statuses = [plain.observe(code, shown).status for code, shown in probes]
    burdened = _engine(system, rules, budget)
    rng = random.Random(5)
    for _ in range(
        25
    ):  # 10,000 runs spent on them in all: more than one observation may take 25 times over
        code = _unprinted(rng)
        outcome = demo_env.run_tool({"code": code})
        assert (
            outcome.status == "ran" and burdened.observe(code, outcome.feedback).status == "costly"
        )
    assert sum(o.runs for o in burdened.observations if o.status == "costly") == 25 * 400
    assert [burdened.observe(code, shown).status for code, shown in probes] == statuses
    assert "explained" in statuses and burdened.alive == plain.alive


def test_a_decision_predicts_within_its_count(fixed_probe_trace):
    system, rules = _texts(read_trace(fixed_probe_trace[0]))
    engine = base_engine(system, rules)
    designer = Designer(engine, 0, decision_runs=300, decision_work=10**9)
    before = engine.runs
    designer.choose("r1/1")
    # two searches, each stopping once over its share: at most one prediction more each
    assert engine.runs - before <= 2 * (300 + engine.budget.predict)
    again = Designer(base_engine(system, rules), 0, decision_runs=300, decision_work=10**9).choose(
        "r1/1"
    )
    assert again == Designer(
        base_engine(system, rules), 0, decision_runs=300, decision_work=10**9
    ).choose("r1/1")


def _scored(line, slot, runs, carried, gain=1.0):
    prediction = Prediction({"a": 0.5, "b": 0.5}, frozenset({slot}), runs, carried)
    return Scored(Atom(slot, "top", (line,)), prediction, gain)


def test_explaining_multiplies_by_what_an_atom_leaves_unseen():
    seen = _scored("EMIT(1)", 0, 10, 1.0)  # its runs print different things: one goes on
    unseen = _scored("EMIT(2)", 1, 10, 10.0)  # every run prints the same: all go on
    assert explaining([seen]) == 10
    assert explaining([seen, unseen]) == 10 + 1 * 10
    assert explaining([unseen, seen]) == 10 + 10 * 10
    other = _scored("EMIT(3)", 2, 10, 10.0)
    assert explaining([unseen, other, seen]) == 10 + 10 * (10 + 10 * 10)


def test_a_packed_probe_stays_explainable():
    atoms = [_scored(f"EMIT({k})", k, 20, 20.0, gain=5.0 - k) for k in range(4)]
    for limit, packed in ((10, 1), (420, 2), (10**6, 4)):
        choice = pack(atoms, lambda source: source, {}, len(atoms), limit)
        assert len(choice.atoms) == packed
        assert packed == 1 or explaining(_in_order(atoms, choice)) <= limit


def _in_order(scored, choice):
    return [next(s for s in scored if s.atom == a) for a in choice.atoms]


def _lists(objects):
    """The distinct lists reachable from a value."""
    seen, stack = {}, [objects]
    while stack:
        v = stack.pop()
        if type(v) in (list, tuple) and id(v) not in seen:
            seen[id(v)] = v
            stack.extend(v)
    return [v for v in seen.values() if type(v) is list]


@settings(max_examples=examples(60), deadline=None, derandomize=True)
@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 5), st.booleans()), min_size=1, max_size=40
    )
)
def test_a_snapshot_keeps_shared_and_self_holding_lists_at_their_size(edges):
    """Worst cases for copying: lists holding each other and themselves,
    many times over (a rule that appends a list to itself makes them).
    The copy has the value's shape, one copy per list, and later changes
    of the value do not reach it."""
    nodes = [[k] for k in range(6)]
    for a, b, wrap in edges:
        nodes[a].append((nodes[b], b) if wrap else nodes[b])
    before = freeze(nodes[0])
    copy = snapshot(nodes[0])
    assert freeze(copy) == before
    assert len(_lists(copy)) == len(_lists(nodes[0]))
    assert not {id(v) for v in _lists(copy)} & {id(v) for v in _lists(nodes[0])}
    for node in nodes:
        node.append("later")
    assert freeze(copy) == before


def _emit_engine(believed, scope="top"):
    from alienworlds.explore.aliencode.view import Slot, View

    engine = Engine(View({}, [], [Slot("E1", "EMIT", scope), Slot("P1", "PLUCK", "anywhere")]))
    texts = [h.text for h in engine.spaces[0].hypotheses]
    engine.alive[0] = frozenset({texts.index(believed)})
    return engine


def test_probes_print_as_the_believed_emit_shows_values():
    from alienworlds.explore.aliencode.design import atom, plain

    from aliencode.compiler import Context

    dropping = Designer(_emit_engine("(slice args 1)"), 0)
    show = dropping.printer(Context())
    assert show("x") == ('EMIT("", x)',) and show("x", "y") == ('EMIT("", x, y)',)
    assert Designer(_emit_engine("(slice args 0 -1)"), 0).printer(Context())("x") == (
        'EMIT(x, "")',
    )
    assert (
        Designer(_emit_engine("(reverse args)"), 0).printer(Context()) is plain
    )  # one value shows as it is
    assert dropping.printer(Context(True, False)) is plain  # the rule holds at top level only
    assert (
        atom(1, "PLUCK", "loop", random.Random(3), None, dropping.printer)
        .lines[1]
        .startswith("    EMIT(PLUCK(")
    )
    everywhere = Designer(_emit_engine("(slice args 1)", "anywhere"), 0)
    looped = atom(1, "PLUCK", "loop", random.Random(3), None, everywhere.printer)
    # in a loop a second value would cost 6 units: computed there, printed after the loop
    assert looped.lines[0].startswith("SWEEP") and looped.lines[1].startswith(
        "    SET shown0 AS PLUCK("
    )
    assert looped.lines[-1] == 'EMIT("", shown0)'
