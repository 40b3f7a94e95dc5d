"""Answering a theorem under what the explorer believes.

The prover (`alienlogic.prove`) searches for a proof in the hypothesised
world (the most probable hypothesis of every rule, written as a world file)
and in a cautious variant of it (every further side condition with
posterior probability 0.2 or more added); every proof it returns passes the
world it was found in. Of these proofs the answer is the one the posterior
deems most likely accepted. When the hypothesised world has no proof, the
certifier (`alienlogic.find_certificate`) looks for a certificate that none
exists there, and the independent re-checker (`alienlogic.check_certificate`)
must accept it: then the answer is the refusal `ANSWER: UNPROVABLE`. When
neither succeeds, the answer is the standard calculus's proof if some
surviving hypothesis accepts it, else the refusal. Answers are cached per
(observations, theorem).
"""

from __future__ import annotations

from dataclasses import dataclass

from alienworlds.ruleset.world import WorldError, standard_world

from alienlogic import Theorem, check_certificate, find_certificate, prove

from .beliefs import hypothesised_world
from .space import Space

REFUSAL = "ANSWER: UNPROVABLE"
# CPU seconds for one proof search (its effort is capped in steps first); the
# certifier's own clock is a backstop its finite candidate list never reaches
PROVE_SECONDS = 10.0
CERTIFY_SECONDS = 120.0
CAUTION = 0.2


@dataclass(frozen=True)
class Answer:
    text: str  # the reply: a fenced proof or the refusal
    how: str  # proved | cautious | certified | standard | none
    acceptance: float | None = None  # the posterior probability the proof is accepted


def fenced(proof: object) -> str:
    return f"```proof\n{str(proof).strip()}\n```"


class Answerer:
    def __init__(self) -> None:
        self._cache: dict[tuple[int, str], Answer] = {}

    def answer(self, space: Space, theorem: Theorem) -> Answer:
        key = (
            len(space.observations),
            f"{', '.join(map(str, theorem.premises))} |- {theorem.goal}",
        )
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._answer(space, theorem)
        return found

    def _answer(self, space: Space, theorem: Theorem) -> Answer:
        world = hypothesised_world(space.beliefs())
        result = prove(world, theorem, seconds=PROVE_SECONDS)
        if not result.found:
            cert = find_certificate(world, theorem, seconds=CERTIFY_SECONDS)
            if cert.found and check_certificate(cert.data, world, theorem).ok:
                return Answer(REFUSAL, "certified")
            standard = prove(standard_world("alienlogic"), theorem, seconds=PROVE_SECONDS)
            if standard.found and space.acceptance(standard.proof) > 0:
                return Answer(fenced(standard.proof), "standard", space.acceptance(standard.proof))
            return Answer(REFUSAL, "none")
        options = [Answer(fenced(result.proof), "proved", space.acceptance(result.proof))]
        try:
            cautious = hypothesised_world(space.cautious_beliefs(CAUTION))
        except (
            WorldError
        ):  # a further condition the schema refuses beside the others: no cautious world
            cautious = None
        if cautious is not None and cautious.hash != world.hash:
            careful = prove(cautious, theorem, seconds=PROVE_SECONDS)
            if careful.found:
                options.append(
                    Answer(fenced(careful.proof), "cautious", space.acceptance(careful.proof))
                )
        return max(options, key=lambda a: a.acceptance)
