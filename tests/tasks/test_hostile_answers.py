"""10,000 hostile answers (benchmarks/hostile_answers.py, a fixed seed)
through the AlienLogic reader and grader, the checker and the other
readers (predictions, rule reports): no exception, and each answer done within 0.5 s of CPU
time. Most answers are small here (sizes scaled by 0.1) and about one in a
thousand is large; a second test gives every kind one large answer. A
larger run, with the slowest answers reported, is
`python benchmarks/hostile_answers.py`."""

import gc
import importlib.util
import sys
import time
from pathlib import Path

import pytest
from fuzzing import examples
from machine_speed import scaled

_SPEC = importlib.util.spec_from_file_location(
    "hostile_answers", Path(__file__).parents[2] / "benchmarks" / "hostile_answers.py"
)
hostile = importlib.util.module_from_spec(_SPEC)
sys.modules.setdefault("hostile_answers", hostile)
_SPEC.loader.exec_module(hostile)

# CPU seconds per answer, for all the readers together (machine_speed.py)
LIMIT = scaled(0.5)


@pytest.fixture(autouse=True)
def own_heap():
    """Time each answer's own work: the objects the rest of the suite left
    alive are frozen, so a garbage collection the answer triggers does not
    walk them (in a full run that walk alone took over 0.5 s)."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


def test_thousands_of_hostile_answers_end_cleanly_and_quickly():
    """Ten thousand in a full run (tests/fuzzing.py), a quarter by default."""
    fns = hostile.readers()
    kinds = set()
    for i, (kind, text) in enumerate(
        hostile.answers(seed=2024, count=examples(10000), large=1000, scale=0.1)
    ):
        kinds.add(kind)
        start = time.process_time()
        for fn in fns.values():
            fn(text)  # any exception fails the test
        spent = time.process_time() - start
        assert spent < LIMIT, (i, kind, len(text), spent)
    assert kinds == {k.__name__ for k in hostile.KINDS}


def test_large_answers_of_every_kind_end_within_the_limit():
    fns = hostile.readers()
    for kind in hostile.KINDS:
        rng = hostile.random.Random(f"large:{kind.__name__}")
        text = kind(rng, hostile.Sizes(rng, True, 1.0))
        start = time.process_time()
        for fn in fns.values():
            fn(text)
        assert time.process_time() - start < LIMIT, (kind.__name__, len(text))
