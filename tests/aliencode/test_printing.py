"""Python-compatible printing (docs/aliencode.md)."""

from aliencode import run_source
from alienworlds.ruleset.text import render


def out(src: str) -> str:
    result = run_source(src)
    assert result.error is None, result.text()
    return result.output


def test_top_level_like_str_inside_like_repr():
    assert out('EMIT("x", STRAND("x", 2), KNOT("y"))') == "x ['x', 2] ('y',)"


def test_floats_like_python():
    assert out("EMIT(FRACTURE(1, 3), SHATTER(0.1, 0.2), 2.5, 1e20, 1e-7)") == (
        f"{1/3} {0.1+0.2} 2.5 {1e20} {1e-7}"
    )


def test_quotes_follow_python_repr():
    values = ["it's", 'say "hi"', "both ' and \"", "tab\t", "nl\n", "é", "\\"]
    assert render(values) == str(values)


def test_self_containing_list():
    assert out("SET xs AS STRAND(1)\nANNEX(xs, xs)\nEMIT(xs)") == "[1, [...]]"


def test_nested_tuple_and_list():
    value = [(1,), (), [(2, [3])], None, True, 2.0]
    assert render(value) == str(value)
