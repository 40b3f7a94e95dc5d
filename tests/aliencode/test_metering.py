"""Probe metering on the syntax tree (docs/aliencode.md)."""

import pytest

from aliencode import parse
from aliencode.metering import units


@pytest.mark.parametrize(
    "src,cost",
    [
        ("SET x AS 1", 0),
        ("EMIT()", 1),
        ("EMIT(1, 2, 3)", 3),
        ("EMIT(STRAND(1, 2, 3))", 1),
        ('EMIT("a") # EMIT(1, 2)', 1),
        ('SET s AS "EMIT(1, 2)"', 0),
        ("SWEEP i IN EXTENT(100):\n    EMIT(i)", 3),
        ("SWEEP i IN EXTENT(2):\n    WHILE NO:\n        EMIT(i, i)", 6),
        ("WHILE NO:\n    IDLE\nEMIT(1)", 1),
        ("CRAFT f(x):\n    EMIT(x)\nSWEEP i IN STRAND(1):\n    f(i)", 1),
        ("SWEEP i IN STRAND(1):\n    CRAFT f(x):\n        EMIT(x)", 3),
        ("EMIT(EMIT(1), 2)", 3),
    ],
)
def test_units(src, cost):
    assert units(parse(src)) == cost
