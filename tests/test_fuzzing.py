"""The size of the suite's properties (tests/fuzzing.py)."""

from __future__ import annotations

import pytest
from fuzzing import PARTS, FuzzSettingError, examples, offset, scale, share
from hypothesis import settings


def test_the_default_run_draws_a_quarter_and_never_below_ten():
    assert [examples(n, None) for n in (3, 10, 12, 40, 41, 100, 250, 800)] == [
        3,
        10,
        10,
        10,
        10,
        25,
        62,
        200,
    ]


def test_a_full_run_draws_the_stated_size_and_a_multiple_that_many_times():
    assert scale("full") == 1 and examples(250, scale("full")) == 250
    assert scale("20") == 20 and examples(250, scale("20")) == 5000
    assert scale(None) is None and scale("  ") is None


@pytest.mark.parametrize("value", ["0", "-2", "half", "1.5", "FULL"])
def test_a_size_that_names_nothing_is_refused_with_what_to_give(value):
    with pytest.raises(FuzzSettingError, match="give `full` or a whole number"):
        scale(value)


def test_properties_that_state_no_size_draw_the_suites_default():
    assert settings().max_examples == examples(100)


def test_a_corpus_is_replayed_whole_in_a_full_run_and_a_quarter_by_default():
    cases = list(range(10))
    assert share(cases, 1) == cases and share(cases, 3) == cases
    parts = [share(cases, None, part) for part in range(PARTS)]
    assert parts[1] == [1, 5, 9] and sorted(sum(parts, [])) == cases


def test_the_runs_part_is_drawn_once_and_kept_for_the_processes_it_starts():
    environ = {}
    drawn = offset(environ)
    assert 0 <= drawn < PARTS and environ["ALIENWORLDS_FUZZ_OFFSET"] == str(drawn)
    assert offset(environ) == drawn and offset({"ALIENWORLDS_FUZZ_OFFSET": "2"}) == 2
    for wrong in ("4", "-1", "one"):
        with pytest.raises(FuzzSettingError, match="from 0 to 3"):
            offset({"ALIENWORLDS_FUZZ_OFFSET": wrong})
