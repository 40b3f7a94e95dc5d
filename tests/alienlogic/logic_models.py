"""Semantic consequence for the soundness tests: every line of a proof must
hold in every finite model (domains of 1..3 elements) of the premises and the
assumptions open at that line."""

from __future__ import annotations

from alienlogic import Formula, Proof
from alienlogic.semantics import holds, interpretations, signature


def open_assumptions(proof: Proof) -> list[tuple[Formula, ...]]:
    """For each step of an accepted proof, the assumptions of its open boxes."""
    stack: list[tuple[int, Formula]] = []
    out = []
    for step in proof.steps:
        if step.rule == "assume":
            while stack and stack[-1][0] >= step.depth:
                stack.pop()
            stack.append((step.depth, step.formula))
        else:
            while stack and stack[-1][0] > step.depth:
                stack.pop()
        out.append(tuple(f for _, f in stack))
    return out


def unsound_line(proof: Proof, max_size: int = 3) -> tuple[int, object] | None:
    """The first (line, model) where a line fails although the premises and
    its open assumptions hold; None when every line is a consequence."""
    formulas = [*proof.premises, *(s.formula for s in proof.steps)]
    sig = signature(formulas)
    propositional = (
        not sig.constants and not sig.functions and all(a == 0 for _, a in sig.predicates)
    )
    contexts = open_assumptions(proof)
    for model in interpretations(sig, 1 if propositional else max_size):
        memo: dict[Formula, bool] = {}

        def true(f: Formula) -> bool:
            v = memo.get(f)
            if v is None:
                v = memo[f] = holds(f, model)
            return v

        if not all(true(p) for p in proof.premises):
            continue
        for n, (step, context) in enumerate(zip(proof.steps, contexts), start=1):
            if not true(step.formula) and all(true(a) for a in context):
                return n, model
    return None
