"""Output comparison for grading: trailing white space and equal numbers."""

import pytest
from alienworlds.tasks.compare import same_output


@pytest.mark.parametrize(
    "a,b",
    [
        ("5", "5\n"),
        ("a  \nb", "a\nb  \n\n"),
        ("2", "2.0"),
        ("[1, 2.0]", "[1.0, 2]"),
        ("x -3", "x -3.0"),
        ("", "\n  \n"),
        ("1e3", "1000"),
    ],
)
def test_same(a, b):
    assert same_output(a, b)


@pytest.mark.parametrize(
    "a,b",
    [
        ("5", "6"),
        ("a\nb", "a b"),
        ("2", "2.5"),
        (" 5", "5"),
        ("x2", "x2.0"),
        ("True", "1"),
        ("a\n\nb", "a\nb"),
        ("'2'", "'2.0'x"),
    ],
)
def test_different(a, b):
    assert not same_output(a, b)
