"""Checked compilation and evaluation of rule expressions."""

import pytest
from alienworlds.ruleset import (
    LanguageError,
    LimitExceeded,
    Limits,
    Meter,
    RuleSyntaxError,
    compile_rule,
    evaluate,
)
from alienworlds.ruleset.compile import check, function_used_as_value, operator_namespace
from alienworlds.ruleset.expr import parse
from alienworlds.ruleset.operators import make_operators
from hypothesis import given
from hypothesis import strategies as st


@pytest.mark.parametrize(
    "text,env,value",
    [
        ("(get seq (- i 1))", {"seq": [1, 2, 3], "i": 1}, 1),
        ("(slice seq (- lo 1) (- hi 1))", {"seq": "abcdef", "lo": 2, "hi": 4}, "bc"),
        ("(^ n 27)", {"n": 100}, 127),
        ('(if (> n 3) "big" (and n 0))', {"n": 2}, 0),
        ('(join "-" args)', {"args": [1, "a", [2, "b"]]}, "1-a-[2, 'b']"),
        ("(reverse args)", {"args": (1, 2)}, (2, 1)),
        ("(set seq 0 9)", {"seq": [1, 2]}, [9, 2]),
        ("(sort_desc seq)", {"seq": [2, 3, 1]}, [3, 2, 1]),
        ("(sum seq)", {"seq": [1, 2.5]}, 3.5),
        ("(max args)", {"args": [[1, 2], [1, 3]]}, [1, 3]),
        ("(enumerate seq)", {"seq": "ab"}, [(0, "a"), (1, "b")]),
        ('(or none 0 "x")', {}, "x"),
    ],
)
def test_evaluate(text, env, value):
    assert evaluate(text, env) == value


def test_short_circuit_is_lazy():
    assert evaluate("(and false (/ 1 0))", {}) is False
    assert evaluate("(if true 1 (/ 1 0))", {}) == 1


@pytest.mark.parametrize(
    "text,kind",
    [
        ("(/ 1 0)", "ZeroDivisionError"),
        ("(get seq 5)", "IndexError"),
        ('(+ 1 "a")', "TypeError"),
        ("(min seq)", "ValueError"),
    ],
)
def test_language_errors(text, kind):
    with pytest.raises(LanguageError) as info:
        evaluate(text, {"seq": []})
    assert info.value.kind == kind


def test_limits_checked_before_the_work():
    with pytest.raises(LimitExceeded):
        evaluate("(** 10 1000000000)", {})
    with pytest.raises(LimitExceeded):
        evaluate("(* seq 1000000000)", {"seq": [1]})
    with pytest.raises(LimitExceeded):
        evaluate("(range 0 1000000000000)", {})


def test_unknown_names_operators_and_arity_are_refused():
    for text in ("(foo n)", "(+ n m)", "(+ n)", "(get)"):
        with pytest.raises(RuleSyntaxError):
            compile_rule(text, ("n",))


def test_lazy_parameters_are_forced_where_used():
    fn = compile_rule("(or a b)", ("a", "b"), lazy=frozenset({"b"})).bind(
        operator_namespace(make_operators(Meter(Limits())))
    )
    calls = []
    assert fn(1, lambda: calls.append(1)) == 1
    assert calls == []


def test_compiled_code_has_no_builtins():
    rule = compile_rule("(+ a 1)", ("a",))
    fn = rule.bind(operator_namespace(make_operators(Meter(Limits()))))
    assert fn.__globals__["__builtins__"] == {}


# -- function operands ------------------------------------------------------------------

_VALUE = st.sampled_from(["seq", "1", '"x"', "none"])


def _around(inner: str) -> st.SearchStrategy[str]:
    """`inner` placed in one operator context of the rule language (where
    it is used as a value, not called)."""
    return st.sampled_from(
        [
            f"(list (tuple {inner}))",
            f"(if 1 {inner} seq)",
            f"(if {inner} seq seq)",
            f"(and seq {inner})",
            f"(or {inner} seq)",
            f"(get (list (tuple {inner})) 0)",
            f"(append seq {inner})",
            f"(filter pred (append seq {inner}))",
            f"(== {inner} seq)",
            f"(filter {inner} seq)" if inner != "pred" else f"(filter (if 1 {inner} {inner}) seq)",
        ]
    )


@given(st.recursive(st.just("pred"), lambda inner: inner.flatmap(_around), max_leaves=4))
def test_a_function_operand_used_as_a_value_is_refused(text):
    """Generated contexts of STRAIN's predicate: wherever it is not the
    first operand of filter, the rule is refused at the symbol's column."""
    expr = parse(text)
    leak = function_used_as_value(expr, {"pred"})
    assert leak is not None and leak.name == "pred" and text[leak.column - 1 :].startswith("pred")
    with pytest.raises(RuleSyntaxError):
        check(expr, {"pred", "seq"}, functions=frozenset({"pred"}))


@given(
    st.recursive(
        _VALUE,
        lambda inner: st.one_of(
            st.tuples(inner, inner).map(lambda p: f"(concat {p[0]} {p[1]})"),
            inner.map(lambda e: f"(filter pred {e})"),
            inner.map(lambda e: f"(reverse {e})"),
        ),
        max_leaves=6,
    )
)
def test_a_called_function_operand_is_accepted(text):
    expr = parse(f"(filter pred {text})")
    assert function_used_as_value(expr, {"pred"}) is None
    check(expr, {"pred", "seq"}, functions=frozenset({"pred"}))
