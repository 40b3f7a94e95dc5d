"""The hypothesis space and its update from verdicts."""

import random

import pytest
from alienworlds.explore.alienlogic.observe import DISABLED, PASS, SIDE, STANDARD, observe
from alienworlds.explore.alienlogic.probes import sample
from alienworlds.explore.alienlogic.space import NEW, Space, entropy

from alienlogic import RULES, check, load_world, parse_proof

DEMO = load_world("demo")
MAIN = load_world("main")


def _proof(text: str):
    return parse_proof("PROOF\n" + text.strip() + "\nEND\n")


def _see(space: Space, world, proof) -> dict:
    verdict = check(proof, world).as_dict()
    space.add(observe(proof, verdict))
    return verdict


def test_before_any_observation_every_rule_is_open_and_unpatched_is_likeliest():
    space = Space()
    for rule in RULES:
        rs = space.rule(rule)
        assert rs.count > 1 and rs.dis_weight > 0
        b = rs.belief()
        assert not b.patched and 0 < b.probability < 1
    assert space.log2_count() > 100


def test_a_disabled_rule_is_located_with_its_id():
    space = Space()
    v = _see(
        space,
        DEMO,
        _proof("premises: NOT(NOT(p))\ngoal: p\n1. NOT(NOT(p)) [premise]\n2. p [DNE 1]"),
    )
    assert v["reason_class"] == "ALIEN_AXIOM_DISABLED"
    b = space.rule("DNE").belief()
    assert b.disabled and b.disabled_id == "K4" and b.probability == 1.0
    assert space.rule("DNE").count == 1


def test_a_changed_conclusion_is_located_with_its_id():
    space = Space()
    _see(
        space, DEMO, _proof("premises: AND(p, q)\ngoal: p\n1. AND(p, q) [premise]\n2. p [AND_E1 1]")
    )
    b = space.rule("AND_E1").belief()
    assert not b.disabled  # the step reached the side conditions
    v = _see(
        space, DEMO, _proof("premises: AND(p, q)\ngoal: q\n1. AND(p, q) [premise]\n2. q [AND_E1 1]")
    )
    assert v[
        "accepted"
    ]  # the standard calculus refuses this step: only a conclusion patch accepts it
    b = space.rule("AND_E1").belief()
    assert b.conclusion == "(right (ref 1))" and b.conclusion_id == "K9" and not b.requires
    assert (
        b.probability > 0.5
    )  # beside it survive only extra side conditions that held at the second step


def test_a_side_condition_is_located_by_its_context():
    space = Space()
    ok = _proof(
        "premises: IMPL(p, q), p\ngoal: q\n1. IMPL(p, q) [premise]\n2. p [premise]\n3. q [IMPL_E "
        "1, 2]"
    )
    reused = _proof(
        "premises: IMPL(p, q), p\ngoal: q\n1. IMPL(p, q) [premise]\n2. p [premise]\n"
        "3. OR(IMPL(p, q), r) [OR_I1 1]\n4. q [IMPL_E 1, 2]"
    )
    assert _see(space, DEMO, ok)["accepted"]
    assert _see(space, DEMO, reused)["reason_id"] == "K20"
    rs = space.rule("IMPL_E")
    texts = {t for t, rid in rs.belief().requires if rid == "K20"}
    # the guard is about the first citation's earlier use: every survivor that
    # reports K20 here reads times-cited of line 1
    assert texts and all("times-cited" in t for t in texts)


def test_the_space_does_not_depend_on_the_order_of_observations():
    rng = random.Random(3)
    probes = [
        p
        for rule in ("IMPL_E", "NOT_E", "AND_E2", "reit", "FORALL_E")
        for p in sample(rule, rng, 4)
    ]
    observations = [observe(p.proof, check(p.proof, MAIN).as_dict()) for p in probes]
    a, b = Space(), Space()
    for o in observations:
        a.add(o)
    for o in reversed(observations):
        b.add(o)
    for rule in RULES:
        assert a.rule(rule).count == b.rule(rule).count, rule
        assert a.rule(rule).mass == pytest.approx(b.rule(rule).mass)


def test_prediction_is_a_distribution_and_a_seen_probe_teaches_nothing():
    space = Space()
    rng = random.Random(8)
    for probe in sample("NOT_E", rng, 5) + sample("BOT_E", rng, 5):
        before = space.predict(probe.proof)
        assert sum(before.values()) == pytest.approx(1.0)
        v = _see(space, MAIN, probe.proof)
        after = space.predict(probe.proof)
        assert entropy(after) == pytest.approx(0.0, abs=1e-9)
        (outcome,) = [k for k, p in after.items() if p > 1e-9]
        if v["accepted"] or v["verifier_passed"]:
            assert outcome == ("ok",)
        else:
            assert outcome[0] == v["rejected_step"] and outcome[2] in (v["reason_id"], NEW)


def test_a_first_unseen_id_is_predicted_as_new_and_known_ids_by_name():
    space = Space()
    probe = _proof("premises: AND(p, q)\ngoal: p\n1. AND(p, q) [premise]\n2. p [AND_E1 1]")
    dist = space.predict(probe)
    refusals = [k for k in dist if len(k) == 3]
    assert any(k[1] == SIDE and k[2] == NEW for k in refusals) and any(
        k[1] == DISABLED for k in refusals
    )
    assert ("ok",) in dist and not any(k[1] == STANDARD for k in refusals)  # the step is standard
    _see(space, DEMO, probe)
    assert {k for k, p in space.predict(probe).items() if p > 0} == {(2, SIDE, "K9")}


def test_verdicts_the_standard_calculus_cannot_explain_are_set_aside():
    proof = _proof("premises: p\ngoal: p\n1. p [premise]\n2. p [reit 7]")
    forged = {
        "accepted": False,
        "verifier_passed": False,
        "rejected_step": 2,
        "reason_class": "ALIEN_SIDE_CONDITION",
        "reason_id": "X1",
    }
    o = observe(proof, forged)
    assert not o.explained and not o.records
    real = observe(proof, check(proof, DEMO).as_dict())
    assert real.explained and [r.outcome for r in real.records] == [PASS, "applies"]
    assert observe("not a proof", {"accepted": False, "reason_class": "PARSE_ERROR"}).records == ()
