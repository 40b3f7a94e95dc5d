"""The equivalence sampler's cases: every stride-th combination of the pools,
in itertools.product's order, however the indices are computed."""

from __future__ import annotations

import itertools
import math

from alienworlds.ruleset.equivalence import MAX_CASES, POOLS, cases
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st


def walked(kinds: dict[str, str | tuple]) -> list[dict[str, object]]:
    """The sample by walking every combination (the definition)."""
    names = list(kinds)
    pools = [kinds[n] if isinstance(kinds[n], tuple) else POOLS[kinds[n]] for n in names]
    total = math.prod(len(p) for p in pools) if pools else 1
    stride = max(1, -(-total // MAX_CASES))
    return [
        dict(zip(names, combo))
        for index, combo in enumerate(itertools.product(*pools))
        if index % stride == 0
    ]


kinds_of = st.dictionaries(
    st.sampled_from(["a", "b", "c", "d", "e"]),
    st.one_of(
        st.sampled_from(sorted(POOLS)),
        st.lists(st.integers(-5, 5), min_size=1, max_size=25).map(tuple),
    ),
    max_size=4,
)


@settings(max_examples=examples(60), deadline=None)
@given(kinds_of)
def test_cases_are_every_stride_th_combination(kinds):
    assert cases(kinds) == walked(kinds)


def test_the_worst_sites_keep_the_cap():
    """The largest pools at the most operands: the sample stays within
    MAX_CASES and matches the walk (the walk is what made these slow)."""
    for n in range(1, 5):
        kinds = {f"x{i}": "value" for i in range(n)}
        got = cases(kinds)
        assert len(got) <= MAX_CASES
        assert got == walked(kinds)
