"""The certifier: matrices and their soundness checks, saturation, and
certificates re-checked from data (tampered ones refused)."""

import copy
import json
import random
from functools import reduce
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from alienlogic import Theorem, check, load_world, parse_formula, parse_proof
from alienlogic.certify import bound_plans, check_certificate, dump_certificate, find_certificate, load_certificate
from alienworlds.cli.alienlogic import cli
from alienlogic.matrices import Matrix, MatrixError, Model, heyting, library, unsound_rules, value
from alienlogic.oracle import Oracle
from alienlogic.saturation import Bounds, _Index, closure, ground_terms, saturate
from alienlogic.semantics import signature
from logic_models import open_assumptions
from logic_proofgen import generate
from test_logic_worlds import world as make_world, rule

ROOT = Path(__file__).resolve().parents[2]
MAIN = load_world("main")
STANDARD = load_world("standard")
CERTS = ROOT / "tasks" / "alienlogic" / "certificates"


def theorem(premises: str, goal: str) -> Theorem:
    return Theorem(tuple(parse_formula(p) for p in premises.split(";") if p.strip()), parse_formula(goal))


def by_name(name: str) -> Matrix:
    return next(m for m in library() if m.name == name)


# -- matrices --------------------------------------------------------------------


def test_library_matrices_are_lattices_with_heyting_implication():
    for m in library():
        n = m.size
        for a in range(n):
            assert m.leq[m.bottom][a] and m.leq[a][m.top]
            for b in range(n):
                for c in range(n):  # residuation for the base algebras
                    if "/" not in m.name:
                        assert m.leq[m.meet[c][a]][b] == m.leq[c][m.impl[a][b]]


def test_soundness_checks_match_what_each_matrix_validates():
    assert unsound_rules(by_name("B2"), STANDARD) == []
    g3 = unsound_rules(by_name("G3"), STANDARD)
    assert {p.split(":")[0] for p in g3} == {"DNE", "LEM"}
    assert [p.split(":")[0] for p in unsound_rules(by_name("B2/AND-left"), STANDARD)] == ["AND_E2"]
    assert {p.split(":")[0] for p in unsound_rules(by_name("B2/OR-left"), STANDARD)} == {"OR_I2", "LEM"}
    for m in library():
        for n in (1, 2):
            assert unsound_rules(m, MAIN, n) == [], m.name


def test_patched_conclusions_are_read_as_paths():
    inert = make_world(rule("X1", "DNE", conclusion="(ref 1)"))
    assert unsound_rules(by_name("G3"), inert) == ["LEM: not sound (context=1, A=h)"]
    reckless = make_world(rule("X1", "IMPL_I", conclusion="(last 1)"))
    assert any(p.startswith("IMPL_I: not sound") for p in unsound_rules(by_name("B2"), reckless))
    opaque = make_world(rule("X1", "AND_E1", conclusion="(if (is ATOM (ref 1)) (ref 1) (left (ref 1)))"))
    assert any("cannot check its patched conclusion" in p for p in unsound_rules(by_name("B2"), opaque))
    deep = make_world(rule("X1", "AND_E1", conclusion="(left (left (ref 1)))"))
    assert any("looks inside a formula the rule does not fix" in p for p in unsound_rules(by_name("B2"), deep))


def test_matrix_data_round_trips_and_bad_data_is_refused():
    for m in library():
        assert Matrix.from_data(json.loads(json.dumps(m.as_data()))) == m
    data = by_name("G3").as_data()
    with pytest.raises(MatrixError, match="antisymmetric"):
        Matrix.from_data({**data, "order": data["order"] + [["1", "0"]]})
    with pytest.raises(MatrixError, match="not a lattice"):
        heyting("V", ("0", "a", "b"), [(0, 1), (0, 2)])
    with pytest.raises(MatrixError, match="malformed"):
        Matrix.from_data({"elements": ["0"]})


def _random_model(m: Matrix, formulas, n: int, rng: random.Random) -> Model:
    sig = signature(formulas)
    from itertools import product
    dom = range(n)
    return Model(
        n,
        {name: rng.randrange(m.size) for name, a in sig.predicates if a == 0},
        {(name, a): {args: rng.randrange(m.size) for args in product(dom, repeat=a)} for name, a in sig.predicates if a > 0},
        {c: rng.randrange(n) for c in sig.constants},
        {(name, a): {args: rng.randrange(n) for args in product(dom, repeat=a)} for name, a in sig.functions},
    )


def invariant_breaks(proof, m: Matrix, model: Model) -> int | None:
    """The first line whose value is not above the meet of the premises and
    its open assumptions (the invariant semantic certificates rest on)."""
    meet = lambda values: reduce(lambda x, y: m.meet[x][y], values, m.top)  # noqa: E731
    top = meet(value(p, m, model) for p in proof.premises)
    for n, (step, ctx) in enumerate(zip(proof.steps, open_assumptions(proof)), 1):
        g = m.meet[top][meet(value(a, m, model) for a in ctx)]
        if not m.leq[g][value(step.formula, m, model)]:
            return n
    return None


def _accepted_main_proofs():
    from alienworlds.tasks.alienlogic_grading import logic_tasks
    from alienworlds.tasks.bank import load_bank

    bank = load_bank("alienlogic", "main")
    out = [parse_proof(t.reference) for t in logic_tasks(bank) if t.provable]
    out += [parse_proof(e.program) for e in bank.examples]
    return out


MAIN_PROOFS = _accepted_main_proofs()


def test_every_sound_matrix_keeps_the_invariant_on_accepted_main_proofs():
    rng = random.Random(7)
    for proof in MAIN_PROOFS:
        assert check(proof, MAIN).accepted
        for m in library():
            for n in (1, 2):
                for _ in range(4):
                    model = _random_model(m, [*proof.premises, *(s.formula for s in proof.steps)], n, rng)
                    assert invariant_breaks(proof, m, model) is None, (m.name, str(proof))


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.booleans())
def test_invariant_holds_for_generated_standard_proofs_in_sound_matrices(seed, first_order):
    proof = generate(seed, first_order=first_order)
    rng = random.Random(seed)
    for m in (by_name("B2"),):
        model = _random_model(m, [*proof.premises, *(s.formula for s in proof.steps)], rng.choice((1, 2)), rng)
        assert invariant_breaks(proof, m, model) is None


def test_an_unsound_matrix_breaks_the_invariant_somewhere():
    naive = parse_proof("PROOF\npremises: NOT(NOT(p))\ngoal: p\n1. NOT(NOT(p)) [premise]\n2. p [DNE 1]\nEND\n")
    g3 = by_name("G3")
    assert invariant_breaks(naive, g3, Model(1, {"p": 1}, {}, {}, {})) == 2


# -- saturation ------------------------------------------------------------------


def _bounds_for(proof) -> Bounds:
    formulas = [*proof.premises, *(s.formula for s in proof.steps), proof.goal]
    terms = tuple(ground_terms(formulas))
    depth = max((s.depth for s in proof.steps), default=0)
    return Bounds(tuple(closure(formulas, terms)), terms, max(depth, 1))


def lines_missed(proof, world) -> list[int]:
    """Lines of an accepted proof that saturation within the proof's own
    formulas and depth fails to derive (it must derive them all)."""
    result = saturate(world, proof.theorem, _bounds_for(proof))
    missed = []
    for n, (step, ctx) in enumerate(zip(proof.steps, open_assumptions(proof)), 1):
        got = result.derived.get(ctx)
        if got is not None and step.formula not in got:
            missed.append(n)
    if proof.goal not in result.derived[()]:
        missed.append(0)
    return missed


def contexts(proof, world) -> int:
    """How many contexts saturation within the proof's own bounds visits."""
    b = _bounds_for(proof)
    ix = _Index(b.universe, b.terms, Oracle(world))
    total = level = 1
    for d in range(b.depth):
        level *= len(ix.assumable(d, tuple(proof.premises)))
        total += level
    return total


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.integers(min_value=0, max_value=2**32 - 1), st.booleans())
def test_saturation_derives_every_line_of_generated_standard_proofs(seed, first_order):
    proof = generate(seed, first_order=first_order, n_steps=10)
    assume(contexts(proof, STANDARD) <= 1500)  # deep random nesting explodes; keep CI fast
    assert lines_missed(proof, STANDARD) == []


def test_saturation_derives_every_line_of_accepted_main_proofs():
    for proof in MAIN_PROOFS:
        assert lines_missed(proof, MAIN) == [], str(proof)


def test_saturation_respects_depth_and_shape_conditions():
    t = theorem("", "IMPL(p, IMPL(q, IMPL(r, AND(p, q))))")
    _, bounds = bound_plans(t)[0]
    assert not saturate(MAIN, t, bounds).goal_derivable
    assert saturate(MAIN.without("V6"), t, bounds).goal_derivable
    hoisted = theorem("", "IMPL(p, IMPL(q, IMPL(r, p)))")
    assert saturate(MAIN, hoisted, bound_plans(hoisted)[0][1]).goal_derivable


# -- certificates ----------------------------------------------------------------


def test_stored_certificates_hold_and_cover_both_kinds():
    kinds = set()
    for path in sorted(CERTS.glob("*.json")):
        data = load_certificate(path)
        result = check_certificate(data, MAIN)
        assert result.ok, (path.name, result.problems)
        kinds.add(result.kind)
        if result.kind == "bounded":
            b = data["bounds"]
            assert b["depth"] >= 3 and b["lines"] is None and b["formula_size"] >= 3 and len(b["universe"]) >= 4
    assert kinds == {"semantic", "bounded"}


def test_tampered_certificates_are_refused():
    semantic = load_certificate(next(p for p in sorted(CERTS.glob("*.json")) if load_certificate(p)["kind"] == "semantic"))
    bounded = load_certificate(next(p for p in sorted(CERTS.glob("*.json")) if load_certificate(p)["kind"] == "bounded"))
    # the standard world makes the matrix's rules unsound or the goal provable
    assert not check_certificate(semantic, STANDARD, same_world=False).ok
    assert not check_certificate(bounded, STANDARD, same_world=False).ok
    # a model that is no countermodel
    broken = copy.deepcopy(semantic)
    top = broken["matrix"]["elements"][-1]
    for table in broken["model"]["predicates"].values():
        for row in table:
            row[1] = top
    broken["model"]["atoms"] = {k: top for k in broken["model"]["atoms"]}
    assert "no countermodel" in " ".join(check_certificate(broken, MAIN).problems)
    # a universe that leaves out the theorem itself
    thin = copy.deepcopy(bounded)
    thin["bounds"]["universe"] = [f for f in thin["bounds"]["universe"] if f != thin["goal"]]
    assert "lacks subformulas" in " ".join(check_certificate(thin, MAIN).problems)
    # another theorem, another world version, garbage
    other = theorem("p", "p")
    assert "is about" in " ".join(check_certificate(semantic, MAIN, other).problems)
    stale = {**semantic, "world_hash": "sha256:0"}
    assert "another version" in " ".join(check_certificate(stale, MAIN).problems)
    for junk in ({}, {"format": 1, "kind": "semantic"}, {**semantic, "matrix": {"elements": ["0"]}}, [1, 2]):
        assert check_certificate(junk, MAIN).problems


def test_a_conclusion_patch_reading_layout_cannot_be_saturated():
    odd = make_world(rule("X1", "AND_E2", conclusion="(if (premise? (refline 1)) (left (ref 1)) (right (ref 1)))"))
    t = theorem("AND(p, q)", "q")
    found = find_certificate(odd, t)
    assert not found.found and any("reads the proof's layout" in x for x in found.tried)
    bounded = load_certificate(next(p for p in sorted(CERTS.glob("*.json")) if load_certificate(p)["kind"] == "bounded"))
    assert "reads the proof's layout" in " ".join(check_certificate(bounded, odd, same_world=False).problems)


def test_a_provable_theorem_gets_no_certificate():
    found = find_certificate(MAIN, theorem("IMPL(p, q); p", "q"))
    assert not found.found and any("derivable" in t for t in found.tried)


def test_certify_command(tmp_path):
    runner = CliRunner()
    out = tmp_path / "c.json"
    result = runner.invoke(cli, ["certify", "--world", "main", "--premises", "AND(p, q)", "--goal", "q", "--out", str(out)])
    assert result.exit_code == 0 and "semantic certificate" in result.output
    assert runner.invoke(cli, ["certify", "--world", "main", "--check", str(out)]).exit_code == 0
    assert runner.invoke(cli, ["certify", "--world", "standard", "--check", str(out)]).exit_code == 1
    result = runner.invoke(cli, ["certify", "--world", "main", "--premises", "IMPL(p, q), p", "--goal", "q", "--json"])
    assert result.exit_code == 1 and json.loads(result.output)["certified"] is False
    assert runner.invoke(cli, ["certify", "--world", "main", "--goal", "AND(p"]).exit_code == 2
    assert runner.invoke(cli, ["certify", "--world", "main", "--check", str(tmp_path / "none.json")]).exit_code == 2
    result = runner.invoke(cli, ["certify", "--world", "main", "--all", "--check-stored", "--json"])
    data = json.loads(result.output)
    assert result.exit_code == 0 and data["all_hold"] and len(data["tasks"]) == 25
    assert dump_certificate(load_certificate(out)) == out.read_text()
