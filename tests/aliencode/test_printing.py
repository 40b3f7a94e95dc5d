"""Python-compatible printing (docs/aliencode.md)."""

import tracemalloc

import pytest
from alienworlds.ruleset.text import TextTooLong, render
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from aliencode import Limits, run_source


def out(src: str) -> str:
    result = run_source(src)
    assert result.error is None, result.text()
    return result.output


def test_top_level_like_str_inside_like_repr():
    assert out('EMIT("x", STRAND("x", 2), KNOT("y"))') == "x ['x', 2] ('y',)"


def test_floats_like_python():
    assert out("EMIT(FRACTURE(1, 3), SHATTER(0.1, 0.2), 2.5, 1e20, 1e-7)") == (
        f"{1 / 3} {0.1 + 0.2} 2.5 {1e20} {1e-7}"
    )


def test_quotes_follow_python_repr():
    values = ["it's", 'say "hi"', "both ' and \"", "tab\t", "nl\n", "é", "\\"]
    assert render(values) == str(values)


def test_self_containing_list():
    assert out("SET xs AS STRAND(1)\nANNEX(xs, xs)\nEMIT(xs)") == "[1, [...]]"


def test_nested_tuple_and_list():
    value = [(1,), (), [(2, [3])], None, True, 2.0]
    assert render(value) == str(value)


# -- rendering within its budget, charged (limits contract, class 2) --------------


values = st.recursive(
    st.one_of(
        st.integers(-(2**300), 2**300),
        st.floats(allow_nan=False),
        st.text(max_size=6),
        st.booleans(),
        st.none(),
    ),
    lambda kids: st.one_of(st.lists(kids, max_size=4), st.lists(kids, max_size=3).map(tuple)),
    max_leaves=25,
)


@settings(max_examples=examples(200), deadline=None)
@given(values, st.integers(0, 200))
def test_render_is_repr_within_any_budget(value, budget):
    """The text is Python's, or TextTooLong exactly when it is longer than the budget."""
    want = repr(value) if isinstance(value, (list, tuple)) else str(value)
    spent = []
    try:
        got = render(value, budget=budget, charge=spent.append)
    except TextTooLong:
        assert len(want) > budget
        return
    assert got == want and len(want) <= budget
    elements = want.count(",") + 1 if isinstance(value, (list, tuple)) else 0
    assert sum(spent) >= min(elements, 1) and sum(spent) >= len(want) // 64


def test_render_charges_each_element_as_it_goes():
    spent = []
    render(list(range(10_000)), budget=10**6, charge=spent.append)
    assert sum(spent) >= 10_000 and max(spent) <= 1000  # charged in slices: checkpoints can run


def test_deep_wide_values_render_in_little_memory_regression():
    """Was a bug: rendering stacked every element of each container on the
    path before descending (700 MB for deep, wide structures)."""
    level = [0]
    for _ in range(300):
        level = [level] * 10_000
    tracemalloc.start()
    try:
        with pytest.raises(TextTooLong):
            render(level, budget=100_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000


def test_emit_builds_no_text_beyond_the_output_budget_regression():
    """Was a bug: EMIT rendered every argument in full against the whole
    budget (3,000 copies of a list holding 9,990 characters escaped tenfold
    peaked at 2.4 GB)."""
    tag = chr(0xE0001)  # printed escaped, as \\U000e0001
    source = f'SET t AS STRAND(PARE("{tag}", 9990))\nEMIT(' + ", ".join(["t"] * 3000) + ")"
    tracemalloc.start()
    try:
        result = run_source(source)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (
        result.error.kind == "LimitExceeded"
        and result.error.message == "output size of 100000 characters"
    )
    assert peak < 20_000_000


def test_fuse_builds_no_text_beyond_the_length_limit_regression():
    """Was a bug: FUSE rendered every value (2,000 lists of 99,000
    characters each: 20 s, past the 10 s backstop) before checking."""
    source = (
        "SET xs AS PARE(STRAND(123456789), 9000)\nEMIT(GAUGE(FUSE("
        + ", ".join(["xs"] * 2000)
        + ")))"
    )
    result = run_source(source)
    assert (
        result.error.kind == "LimitExceeded" and result.error.message == "sequence length of 100000"
    )
    assert result.steps < 100_000


def test_rendering_costs_steps():
    """Printing or fusing a long list costs about one step per element."""
    loop = (
        "SET xs AS EXTENT(15000)\nSET n AS 0\nWHILE YES:\n    SET s AS FUSE(xs)\n"
        "    SET n AS SHATTER(n, 1)\n    UPON OVER(n, 200):\n        CEASE\nEMIT(n)"
    )
    result = run_source(loop)
    assert result.error is not None and "step limit" in result.error.message
    assert run_source(loop, limits=Limits(max_steps=10**8)).output == "201"
