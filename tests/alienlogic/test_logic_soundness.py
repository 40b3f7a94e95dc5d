"""Soundness as a property, and robustness on garbage.

Proofs come from random forward application of the standard rules
(logic_proofgen); every line of an accepted proof must hold in every model
of the premises and its open assumptions (truth tables for propositional
proofs, every interpretation over domains of 1 to 3 elements for first-order
ones). Broken variants test the refusals: reckless generation (closed boxes
reached into, siblings spanned, constants reused as fresh), random mutants
and re-cited steps. Whichever of them the checker accepts must be sound as
well. (Checking this suite against deliberately broken checkers finds each
of those faults within a few hundred examples.)
"""

import random

from fuzzing import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from logic_models import unsound_line
from logic_proofgen import generate, mutate, rederive

from alienlogic import Verdict, check, load_world

seeds = st.integers(min_value=0, max_value=2**32 - 1)
DEMO = load_world("demo")


@settings(max_examples=examples(300), deadline=None)
@given(seeds)
def test_generated_propositional_proofs_are_accepted_and_sound(seed):
    p = generate(seed, first_order=False)
    v = check(p)
    assert v.accepted, (v.as_dict(detail=True), str(p))
    assert unsound_line(p) is None


@settings(max_examples=examples(150), deadline=None)
@given(seeds)
def test_generated_first_order_proofs_are_accepted_and_sound(seed):
    p = generate(seed, first_order=True)
    v = check(p)
    assert v.accepted, (v.as_dict(detail=True), str(p))
    assert unsound_line(p) is None


@settings(max_examples=examples(800), deadline=None)
@given(seeds, st.booleans())
def test_accepted_reckless_proofs_are_sound(seed, first_order):
    p = generate(seed, first_order, reckless=0.15)
    if check(p).accepted:
        assert unsound_line(p) is None, str(p)


@settings(max_examples=examples(500), deadline=None)
@given(seeds, seeds, st.booleans())
def test_accepted_mutants_are_sound(seed, mutation, first_order):
    p = generate(seed, first_order)
    for variant in (mutate(p, mutation), rederive(p, mutation)):
        if check(variant).accepted:
            assert unsound_line(variant) is None, str(variant)


def test_broken_proofs_are_often_refused_and_sometimes_accepted():
    """The properties above are only meaningful if both outcomes occur, and
    the refusals are of many kinds."""
    proofs = [
        f(s)
        for s in range(300)
        for f in (
            lambda s: mutate(generate(s, s % 2 == 0), s),
            lambda s: rederive(generate(s, s % 2 == 0), s),
            lambda s: generate(s, s % 2 == 0, reckless=0.15),
        )
    ]
    verdicts = [check(p) for p in proofs]
    accepted = sum(v.accepted for v in verdicts)
    assert 0.1 * len(proofs) < accepted < 0.8 * len(proofs)
    reasons = {v.reason_id for v in verdicts}
    assert {"REF_NOT_ACCESSIBLE", "RANGE_NOT_A_BOX", "NOT_FRESH", "WRONG_CONCLUSION"} <= reasons
    assert len(reasons) >= 15


def test_generator_exercises_every_rule():
    used = {s.rule for seed in range(200) for s in generate(seed, seed % 2 == 0).steps}
    from alienlogic import RULES

    assert used == set(RULES)


VOCABULARY = [
    "PROOF",
    "END",
    "premises:",
    "goal:",
    "1.",
    "2.",
    "3.",
    "|",
    "[",
    "]",
    "premise",
    "assume",
    "IMPL_E",
    "OR_E",
    "EXISTS_E",
    "FORALL_I",
    "1-2",
    "2-3",
    ",",
    "p",
    "q",
    "P(a)",
    "x",
    "NOT(",
    "AND(",
    "FORALL(x,",
    "EQ(a,",
    ")",
    "BOT",
    "\n",
    " ",
    "-",
    "99999999999999999999",
    "0",
    "\r\n",
    "\t",
    "#",
    "é",
    "(",
]


def _assert_clean(text: str) -> None:
    for world in (None, DEMO):
        v = check(text, world)
        assert isinstance(v, Verdict)
        v.as_dict(detail=True)
        v.summary(detail=True)
        assert v.accepted == (v.reason_class is None)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_arbitrary_text_gets_a_verdict(text):
    _assert_clean(text)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from(VOCABULARY), max_size=60))
def test_token_soup_gets_a_verdict(tokens):
    _assert_clean("".join(tokens))
    _assert_clean("PROOF\npremises: p, q\ngoal: q\n" + " ".join(tokens) + "\nEND")


@settings(max_examples=examples(200), deadline=None)
@given(seeds, seeds)
def test_damaged_proof_text_gets_a_verdict(seed, damage):
    text = str(generate(seed, seed % 2 == 0))
    rng = random.Random(damage)
    chars = list(text)
    for _ in range(rng.randint(1, 6)):
        i = rng.randrange(len(chars))
        op = rng.choice(["drop", "insert", "swap"])
        if op == "drop":
            del chars[i]
        elif op == "insert":
            chars.insert(i, rng.choice("|[]()-,.0123456789 \npqxNOT"))
        else:
            j = rng.randrange(len(chars))
            chars[i], chars[j] = chars[j], chars[i]
    _assert_clean("".join(chars))
