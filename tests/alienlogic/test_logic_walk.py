"""`kernel.walk`, the patch-free walk hypothesis engines use, agrees with
`check` in the standard world on generated proofs and their broken variants:
the first failure it records is the checker's verdict."""

from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from logic_proofgen import generate, mutate, rederive

from alienlogic import check
from alienlogic.kernel import APPLY, CONCLUDE, PLACE, walk

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def _agree(proof) -> None:
    verdict = check(proof)
    facts = walk(proof)
    first = next((f for f in facts if f.failure is not None), None)
    if verdict.verifier_passed:
        assert first is None and len(facts) == len(proof.steps)
        assert all(f.view is not None for f in facts)
        return
    assert first is not None and first.number == verdict.rejected_step
    assert first.failure.reason_id == verdict.reason_id
    # the walk stops only where no world can accept the step
    assert facts[-1].stage in (PLACE, APPLY) or len(facts) == len(proof.steps)
    assert all(f.stage == CONCLUDE for f in facts[:-1] if f.failure is not None)


@settings(max_examples=examples(150), deadline=None)
@given(seeds, seeds, st.booleans())
def test_walk_agrees_with_the_checker(seed, mutation, first_order):
    proof = generate(seed, first_order)
    for variant in (proof, mutate(proof, mutation), rederive(proof, mutation)):
        _agree(variant)


def test_walk_continues_past_a_conclusion_a_patch_could_accept():
    from alienlogic import parse_proof

    proof = parse_proof(
        "PROOF\npremises: AND(p, q)\ngoal: AND(p, p)\n1. AND(p, q) [premise]\n2. p [AND_E2 1]\n"
        "3. AND(p, p) [AND_I 2, 2]\n4. q [AND_I 9, 2]\nEND\n"
    )
    facts = walk(proof)
    assert [f.stage for f in facts] == [None, CONCLUDE, None, APPLY]
    assert (
        facts[1].failure.reason_id == "WRONG_CONCLUSION"
        and facts[1].view.conclusion is proof.steps[1].formula
    )
    assert facts[2].view.cited[2] == 0  # line 2 was cited by nobody before step 3
    assert facts[3].failure.reason_id == "REF_NOT_EARLIER" and facts[3].view is None
