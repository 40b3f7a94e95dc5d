"""Error reporting: kinds, positions, output before the error (docs/aliencode.md)."""

import pytest

from aliencode import Limits, run_source


def test_error_after_output_with_line():
    result = run_source("EMIT(1)\nEMIT(2)\nEMIT(PLUCK(STRAND(), 0))\nEMIT(3)")
    assert result.text() == "1\n2\n[AlienError] IndexError: PLUCK: index out of range (line 3)"


def test_error_column_points_at_the_operation():
    result = run_source("EMIT(1, SHATTER(1, STRAND()))")
    assert (result.error.line, result.error.column) == (1, 9)


def test_error_inside_function_reports_the_function_line():
    prog = "CRAFT f(x):\n    DELIVER PLUCK(x, 5)\nEMIT(f(STRAND()))"
    assert run_source(prog).error.line == 2


def test_syntax_error_names_line_column_and_expectation():
    result = run_source("EMIT(1)\nSET x 1")
    err = result.error
    assert err.kind == "SyntaxError" and err.line == 2 and err.column == 7
    assert "expected" in err.message and "AS" in err.message


@pytest.mark.parametrize(
    "src,message",
    [
        ("EMIT(x)", "name 'x' is not defined"),
        ("CRAFT f():\n    EMIT(y)\n    SET y AS 1\nf()", "local name 'y' is used before it is set"),
        ("SET f AS 1\nf()", "int value is not a function"),
        ("CRAFT f(a):\n    DELIVER a\nf()", "f() missing 1 required argument: 'a'"),
        ("CRAFT f(a):\n    DELIVER a\nf(1, 2)", "f() takes 1 argument but 2 were given"),
        ("SWEEP a, b IN STRAND(1):\n    IDLE", "cannot unpack non-iterable int value"),
    ],
)
def test_host_errors_in_language_terms(src, message):
    result = run_source(src)
    assert result.error.message == message
    assert "a_" not in str(result.error)


@pytest.mark.parametrize(
    "src,limits,which",
    [
        ("WHILE YES:\n    IDLE", Limits(), "step limit"),
        ("CRAFT f(n):\n    DELIVER f(n)\nf(1)", Limits(), "call depth"),
        ("EMIT(COIL(10, 1000000000))", Limits(), "integer size"),
        ("EMIT(PARE(STRAND(1), 1000000000))", Limits(), "sequence length"),
        ('WHILE YES:\n    EMIT("flood")', Limits(max_steps=10**9), "output size"),
        ("SET x AS 2\nWHILE YES:\n    SET x AS PARE(x, x)", Limits(), "integer size"),
    ],
)
def test_limits_are_clean_errors(src, limits, which):
    result = run_source(src, limits=limits)
    assert result.error.kind == "LimitExceeded"
    assert result.error.message.startswith(which)


def test_step_limit_is_deterministic():
    prog = "SET i AS 0\nWHILE YES:\n    SET i AS SHATTER(i, 1)"
    first = run_source(prog, limits=Limits(max_steps=5000))
    second = run_source(prog, limits=Limits(max_steps=5000))
    assert first.steps == second.steps == 5001
    assert first.text() == second.text()


def test_steps_count_statements_and_expression_nodes():
    # top level: entry 1 + SWEEP 1 + EXTENT(10) 2 nodes + IDLE 1; each iteration: entry 1 + IDLE 1
    assert run_source("SWEEP i IN EXTENT(10):\n    IDLE\nIDLE").steps == 5 + 10 * 2
    # top: entry + CRAFT + two statements of 1 + 3 nodes; each call: entry + DELIVER + PARE(n, n) 3
    # nodes
    assert (
        run_source("CRAFT f(n):\n    DELIVER PARE(n, n)\nf(1)\nf(2)").steps
        == (1 + 1 + 4 + 4) + 2 * 5
    )
