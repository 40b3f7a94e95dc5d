"""Rule-expression parsing and canonical text (docs/worlds.md)."""

import pytest
from alienworlds.ruleset import RuleSyntaxError, parse, to_text
from alienworlds.ruleset.expr import Call, Const, Identity, Sym
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st


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
    [
        ("(get seq", 9),
        (")", 1),
        ('("x" 1)', 2),
        ("", 1),
        ("(a) b", 5),
        ('"open', 1),
        ("(+ 1 (foo IDENTITY))", 11),
    ],
)
def test_syntax_errors_carry_a_column(text, column):
    with pytest.raises(RuleSyntaxError) as info:
        parse(text)
    assert info.value.column == column


atoms = st.one_of(
    st.integers(-(10**6), 10**6).map(Const),
    st.floats(allow_nan=False, allow_infinity=False).map(Const),
    st.text(max_size=8).map(Const),
    st.sampled_from([True, False, None]).map(Const),
    st.sampled_from(["a", "b", "seq", "n"]).map(Sym),
)
exprs = st.recursive(
    atoms,
    lambda kids: st.builds(
        lambda op, args: Call(op, tuple(args)),
        st.sampled_from(["+", "get", "if", "join"]),
        st.lists(kids, max_size=3),
    ),
    max_leaves=12,
)


@settings(max_examples=examples(200), deadline=None)
@given(exprs)
def test_text_round_trip(expr):
    assert parse(to_text(expr)) == expr
    assert to_text(parse(to_text(expr))) == to_text(expr)


@settings(max_examples=examples(300), deadline=None)
@given(st.text(max_size=40))
def test_garbage_never_crashes(text):
    try:
        parse(text)
    except RuleSyntaxError:
        pass


# -- hostile expressions: refused with a column, never a host exception ----------


@pytest.mark.parametrize(
    "text,needle",
    [
        ("(+ a 1" + "0" * 5000 + ")", "too long"),
        ("(+ a 1" + "0" * 700 + ")", "within 2048 bits"),
        ("(+ a " + str(2**2048) + ")", "within 2048 bits"),
        ("(+ a 1e99999)", "finite"),
        ("(+ a -1e400)", "finite"),
        ("(neg " * 25 + "a" + ")" * 25, "nested too deeply"),
        ("(neg " * 900 + "a" + ")" * 900, "too long"),
        ("(max " + " 1" * 250 + ")", "too large"),
        ('(concat s "' + "x" * 1001 + '")', "string constant"),
    ],
)
def test_hostile_expressions_are_refused(text, needle):
    with pytest.raises(RuleSyntaxError) as info:
        parse(text)
    assert needle in info.value.message


def test_constants_at_the_bounds_are_accepted():
    big = 2**2048 - 1
    assert parse(f"(+ a {big})") == Call("+", (Sym("a"), Const(big)))
    assert parse(f"(+ a {-big})").args[1].value == -big
    assert parse("(+ a 1e308)").args[1].value == 1e308
    assert parse("(+ a 1e-99999)").args[1].value == 0.0
    nested = "(neg " * 24 + "a" + ")" * 24
    assert to_text(parse(nested)) == nested


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 30), st.integers(1, 400))
def test_generated_hostile_expressions_never_crash(seed, depth, width):
    """Deep, wide and numeric extremes, seeded: a RuleSyntaxError or an expression."""
    import random

    rng = random.Random(seed)
    atoms = [
        "a",
        "1e99999",
        str(10 ** rng.randint(1, 900)),
        "-0.0",
        '"x"',
        "nan",
        "inf",
        str(2**2048),
    ]
    text = (
        "(neg " * depth
        + "(+ "
        + " ".join(rng.choice(atoms) for _ in range(width))
        + ")"
        + ")" * depth
    )
    try:
        expr = parse(text)
    except RuleSyntaxError:
        return
    assert parse(to_text(expr)) == expr
