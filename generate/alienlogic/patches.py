"""Drawing a world's patches from the patch library (alienlogic.patch_library).

A patch is one side condition of one standard rule, as a world file writes
it. The library groups patches into schemes (disabled rules, citation
order, depth limits, use-once and duplicate-premise guards, what a box may
assume or end with, quantifier restrictions, conclusion rewrites); `draw`
picks from the schemes in turn, so a world gets a mix, and keeps a patch
only when it is compatible with those already drawn and the caller accepts
it (generator.py: it refuses some standard proofs, and the world stays usable).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from alienlogic.patch_library import PatchSpec, library

# Letters of opaque patch ids: none that reads like a task (L), an example (E)
# or a digit (I, O).
ID_LETTERS = "ABCDFGHJKMNPQRSTUVWXYZ"
ID_NUMBERS = range(2, 50)


def compatible(chosen: list[PatchSpec], candidate: PatchSpec) -> bool:
    """Whether `candidate` may join `chosen`: one patch per target and slot,
    nothing beside a disabled rule, one conclusion per target, one patch per group."""
    for p in chosen:
        if p == candidate:
            return False
        if p.target == candidate.target and (
            p.slot == candidate.slot
            or p.disabled
            or candidate.disabled
            or (p.conclusion and candidate.conclusion)
        ):
            return False
        if p.group and p.group == candidate.group:
            return False
    return True


def draw(
    rng: random.Random,
    n: int,
    accept: Callable[[list[PatchSpec], PatchSpec], bool],
    first_order: bool = True,
    keep: list[PatchSpec] = (),
    exclude: set[PatchSpec] = frozenset(),
) -> list[PatchSpec]:
    """`keep` and more patches up to `n`, compatible, none of `exclude`, each
    one `accept(chosen, patch)` keeps: the schemes taken in turn (in an
    order drawn each time), a random patch of each; fewer when the library
    runs out."""
    pool = [p for p in library() if (first_order or not p.first_order) and p not in exclude]
    schemes = sorted({p.scheme for p in pool})
    rng.shuffle(schemes)
    chosen: list[PatchSpec] = list(keep)
    rejected: set[PatchSpec] = set()
    turn = 0
    stalled = 0
    while len(chosen) < n and stalled < len(schemes):
        scheme = schemes[turn % len(schemes)]
        turn += 1
        options = [
            p for p in pool if p.scheme == scheme and p not in rejected and compatible(chosen, p)
        ]
        if not options:
            stalled += 1
            continue
        stalled = 0
        patch = rng.choice(options)
        if accept(chosen, patch):
            chosen.append(patch)
        else:
            rejected.add(patch)
    return chosen


def opaque_ids(rng: random.Random, n: int) -> list[str]:
    """`n` distinct ids such as `K20`: a letter and a number, drawn at random,
    so they say nothing about the patch and do not run in sequence."""
    space = [f"{letter}{number}" for letter in ID_LETTERS for number in ID_NUMBERS]
    return rng.sample(space, n)
