"""Rule-expression parsing and canonical text (docs/worlds.md)."""

import pytest
from hypothesis import given, settings, strategies as st

from alienworlds.ruleset import RuleSyntaxError, parse, to_text
from alienworlds.ruleset.expr import Call, Const, Identity, Sym


def test_parse_shapes():
    assert parse("(get seq (- i 1))") == Call("get", (Sym("seq"), Call("-", (Sym("i"), Const(1)))))
    assert parse("IDENTITY") == Identity()
    assert parse('(join "a b" args)') == Call("join", (Const("a b"), Sym("args")))
    assert parse("(+ n -7.5)") == Call("+", (Sym("n"), Const(-7.5)))
    assert parse("(if true none false)") == Call("if", (Const(True), Const(None), Const(False)))


def test_canonical_text_normalises_spacing():
    assert to_text(parse("(  +   n\n 7 )")) == "(+ n 7)"


@pytest.mark.parametrize(
    "text,column",
    [("(get seq", 9), (")", 1), ('("x" 1)', 2), ("", 1), ("(a) b", 5), ('"open', 1), ("(+ 1 (foo IDENTITY))", 11)],
)
def test_syntax_errors_carry_a_column(text, column):
    with pytest.raises(RuleSyntaxError) as info:
        parse(text)
    assert info.value.column == column


atoms = st.one_of(
    st.integers(-10**6, 10**6).map(Const),
    st.floats(allow_nan=False, allow_infinity=False).map(Const),
    st.text(max_size=8).map(Const),
    st.sampled_from([True, False, None]).map(Const),
    st.sampled_from(["a", "b", "seq", "n"]).map(Sym),
)
exprs = st.recursive(atoms, lambda kids: st.builds(lambda op, args: Call(op, tuple(args)), st.sampled_from(["+", "get", "if", "join"]), st.lists(kids, max_size=3)), max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(exprs)
def test_text_round_trip(expr):
    assert parse(to_text(expr)) == expr
    assert to_text(parse(to_text(expr))) == to_text(expr)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_garbage_never_crashes(text):
    try:
        parse(text)
    except RuleSyntaxError:
        pass
