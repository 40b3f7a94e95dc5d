"""The run's meter (aliencode/run_meter.py) holds its budget as a float and
counts exactly what the base meter counts."""

from __future__ import annotations

import json

from alienworlds.ruleset import LimitExceeded, Meter
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from aliencode import Limits, run_source
from aliencode.run_meter import RunMeter

# Generated code's charges (`_m.budget -= w` then the test) and operators'
# (`charge`), of every size up to well past a checkpoint's grant.
CHARGES = st.lists(
    st.tuples(st.booleans(), st.integers(0, 30_000)),
    max_size=60,
)


def _trace(meter: Meter, charges: list[tuple[bool, int]], weight: type) -> list[object]:
    meter.reset(float("inf"))
    seen: list[object] = []
    for generated, steps in charges:
        try:
            if generated:
                meter.budget -= weight(steps)
                if meter.budget < 0:
                    meter.checkpoint()
            else:
                meter.charge(steps)
        except LimitExceeded as exc:
            seen.append(str(exc))
            break
        # counts of the same type as the base meter's (an integer in a report)
        seen.append((meter.steps, type(meter.steps), meter.used, type(meter.used)))
    seen.append((meter.steps, type(meter.steps)))
    return seen


@settings(max_examples=examples(300), deadline=None)
@given(CHARGES, st.integers(1, 200_000))
def test_the_run_meter_counts_what_the_base_meter_counts(charges, max_steps):
    limits = Limits(max_steps=max_steps)
    base = _trace(Meter(limits), charges, int)
    run = _trace(RunMeter(limits), charges, float)
    assert run == base


def test_steps_of_a_run_are_an_integer():
    result = run_source("SET i AS 0\nWHILE UNDER(i, 30000):\n    SET i AS SHATTER(i, 1)\n")
    assert type(result.steps) is int and result.steps > 30_000
    assert f'"steps": {result.steps},' in json.dumps(result.as_dict())
