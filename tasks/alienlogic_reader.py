"""Reading an AlienLogic answer from a model's reply (docs/alienlogic.md).

A reply answers with one proof block (`PROOF` … `END`, possibly inside a
fenced block, with prose around it) or with the refusal line
`ANSWER: UNPROVABLE` (tasks.answer_text reads both, in linear time). A
reply holding both, or several proof blocks, is ambiguous; one holding
neither is no answer. Either fails, with the reason worded here alone.
"""

from __future__ import annotations

from .answer_text import REFUSAL_TEXT, proof_blocks, refusal
from .grade import Reading

NO_ANSWER = f"no proof block (PROOF … END) and no refusal line ({REFUSAL_TEXT})"
BOTH = "ambiguous: the answer holds both a proof and a refusal"

# How a trace records a refusal in its answer events (explore's metrics read it).
RECORDED_REFUSAL = "UNPROVABLE"


def several(count: int) -> str:
    return f"ambiguous: the answer holds {count} proof blocks"


def read_answer(text: str) -> Reading:
    """The answer a reply holds: one proof's text, a refusal, or the
    problem that leaves nothing to judge. Never raises."""
    if not isinstance(text, str):
        return Reading(problem=NO_ANSWER)
    proofs = proof_blocks(text)
    refused = refusal(text)
    if proofs and refused:
        return Reading(problem=BOTH)
    if len(proofs) > 1:
        return Reading(problem=several(len(proofs)))
    if refused:
        return Reading(refused=True)
    if proofs:
        return Reading(answer=proofs[0])
    return Reading(problem=NO_ANSWER)
