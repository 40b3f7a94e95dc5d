"""Statements, functions, scoping and control flow (docs/aliencode.md)."""

from aliencode import run_source


def out(src: str) -> str:
    result = run_source(src)
    assert result.error is None, result.text()
    return result.output


def test_set_and_parallel_set():
    assert out("SET x AS 1\nSET a, b AS x, 2\nSET a, b AS b, a\nEMIT(a, b)") == "2 1"


def test_set_unpacks_one_sequence():
    assert out("SET a, b AS STRAND(1, 2)\nEMIT(b, a)") == "2 1"
    assert run_source("SET a, b AS STRAND(1, 2, 3)").error.kind == "ValueError"


def test_set_count_mismatch_is_a_syntax_error():
    assert run_source("SET a, b AS 1, 2, 3").error.kind == "SyntaxError"
    assert run_source("SET a AS 1, 2").error.kind == "SyntaxError"


def test_upon_lest_default():
    prog = """
CRAFT sign(n):
    UPON OVER(n, 0):
        DELIVER "pos"
    LEST UNDER(n, 0):
        DELIVER "neg"
    DEFAULT:
        DELIVER "zero"
EMIT(sign(5), sign(-5), sign(0))
"""
    assert out(prog) == "pos neg zero"


def test_sweep_one_and_two_names():
    assert out('SWEEP c IN "ab":\n    EMIT(c)') == "a\nb"
    assert out("SWEEP i, v IN INDEX(STRAND(7, 8)):\n    EMIT(i, v)") == "0 7\n1 8"
    assert out("SWEEP x IN KNOT(1, 2):\n    EMIT(x)") == "1\n2"


def test_while_cease_bypass_idle():
    prog = """
SET i AS 0
WHILE YES:
    SET i AS SHATTER(i, 1)
    UPON AKIN(RESIDUE(i, 2), 0):
        BYPASS
    UPON OVER(i, 6):
        CEASE
    IDLE
    EMIT(i)
"""
    assert out(prog) == "1\n3\n5"


def test_functions_recursion_and_values():
    prog = """
CRAFT fact(n):
    UPON BENEATH(n, 1):
        DELIVER 1
    DELIVER PARE(n, fact(WEAVE(n, 1)))
CRAFT apply(f, x):
    DELIVER f(x)
EMIT(fact(20), apply(fact, 5))
EMIT(fact)
"""
    assert out(prog) == "2432902008176640000 120\n<function fact>"


def test_function_without_deliver_returns_none():
    assert out("CRAFT f():\n    IDLE\nEMIT(f())") == "None"
    assert out("CRAFT f():\n    DELIVER\nEMIT(f())") == "None"


def test_locals_and_outer_reads():
    prog = """
SET g AS 10
CRAFT f(x):
    SET y AS SHATTER(x, g)
    DELIVER y
CRAFT h():
    SET g AS 1
    DELIVER g
EMIT(f(1), h(), g)
"""
    assert out(prog) == "11 1 10"


def test_nested_functions_close_over_locals():
    prog = """
CRAFT adder(n):
    CRAFT add(x):
        DELIVER SHATTER(x, n)
    DELIVER add
SET add3 AS adder(3)
EMIT(add3(4))
"""
    assert out(prog) == "7"


def test_strings_are_sequences():
    assert out('SET s AS "héllo"\nEMIT(GAUGE(s), PLUCK(s, 1), CARVE(s, -2))') == "5 é lo"


def test_string_escapes():
    assert (
        out('EMIT("a\\tb", "q\\"q", \'it\\\'s\', "back\\\\slash")') == "a\tb q\"q it's back\\slash"
    )
    assert out('EMIT(STRAND("a\\nb"))') == "['a\\nb']"


def test_negative_literal_is_one_literal():
    assert out("EMIT(-7, -2.5, WEAVE(0, -3))") == "-7 -2.5 3"
    assert run_source("EMIT(-x)").error.kind == "SyntaxError"


def test_comments_and_blank_lines():
    assert out("# head\n\nEMIT(1)  # tail\n\n# end") == "1"


def test_multiline_call():
    assert out("EMIT(SHATTER(1,\n   2),\n 3)") == "3 3"


def test_output_trailing_whitespace_removed():
    assert out('EMIT("a  ")\nEMIT()') == "a"


def test_cease_and_deliver_placement():
    assert run_source("CEASE").error.kind == "SyntaxError"
    assert run_source("DELIVER 1").error.kind == "SyntaxError"
    assert (
        run_source("SWEEP x IN STRAND(1):\n    CRAFT f():\n        CEASE").error.kind
        == "SyntaxError"
    )
    assert run_source("CRAFT f(a, a):\n    IDLE").error.kind == "SyntaxError"


def test_operations_are_not_values():
    assert run_source("SET f AS EMIT").error.kind == "SyntaxError"


def test_mutation_is_visible_through_aliases():
    assert out("SET a AS STRAND(1)\nSET b AS a\nANNEX(b, 2)\nEMIT(a)") == "[1, 2]"


def test_yes_no_none():
    assert out("EMIT(YES, NO, none, STRAND(YES, none))") == "True False None [True, None]"
