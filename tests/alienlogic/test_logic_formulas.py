"""Formulas: syntax, printing, interning, substitution."""

import pickle
from itertools import islice

import pytest
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from alienlogic import (
    BOT,
    And,
    Eq,
    Exists,
    Fn,
    Forall,
    Impl,
    Name,
    Not,
    Or,
    Pred,
    ProofSyntaxError,
    parse_formula,
)
from alienlogic.semantics import holds, interpretations, signature, value
from alienlogic.substitution import fresh_name, match_instance, replaces, substitute

names = st.sampled_from(["a", "b", "x", "y", "alice"])
terms = st.recursive(
    names.map(Name),
    lambda t: st.tuples(st.sampled_from(["f", "g"]), st.lists(t, min_size=1, max_size=2)).map(
        lambda p: Fn(p[0], tuple(p[1]))
    ),
    max_leaves=3,
)
atoms = st.one_of(
    st.just(BOT),
    st.sampled_from(["p", "q", "NOTE", "ORACLE", "BOTH"]).map(Pred),
    st.tuples(st.sampled_from(["P", "Likes"]), st.lists(terms, min_size=1, max_size=2)).map(
        lambda p: Pred(p[0], tuple(p[1]))
    ),
    st.tuples(terms, terms).map(lambda p: Eq(*p)),
)
formulas = st.recursive(
    atoms,
    lambda f: st.one_of(
        f.map(Not),
        st.tuples(st.sampled_from([And, Or, Impl]), f, f).map(lambda p: p[0](p[1], p[2])),
        st.tuples(st.sampled_from([Forall, Exists]), st.sampled_from(["x", "y"]), f).map(
            lambda p: p[0](p[1], p[2])
        ),
    ),
    max_leaves=8,
)


@settings(max_examples=examples(200), deadline=None)
@given(formulas)
def test_printing_round_trips_to_the_same_object(f):
    assert parse_formula(str(f)) is f


def test_equal_formulas_are_one_object():
    assert parse_formula("AND(p, Likes(a, f(b)))") is And(
        Pred("p"), Pred("Likes", (Name("a"), Fn("f", (Name("b"),))))
    )
    assert parse_formula("AND(p, q)") is not parse_formula("AND(q, p)")
    assert {parse_formula("NOT(p)"): 1}[Not(Pred("p"))] == 1


def test_formulas_are_immutable_and_pickle_back_to_the_interned_object():
    f = parse_formula("FORALL(x, P(x))")
    with pytest.raises(AttributeError):
        f.var = "y"
    assert pickle.loads(pickle.dumps(f)) is f


@pytest.mark.parametrize(
    "text, expected",
    [
        ("NOTE", Pred("NOTE")),
        ("ORACLE(a)", Pred("ORACLE", (Name("a"),))),
        ("AND(BOTH, NOTE)", And(Pred("BOTH"), Pred("NOTE"))),
        ("EQUAL", Pred("EQUAL")),
        ("  IMPL( p ,q )  ", Impl(Pred("p"), Pred("q"))),
        ("EQ(f(a, b), c)", Eq(Fn("f", (Name("a"), Name("b"))), Name("c"))),
        (
            "EXISTS(x, FORALL(y, Likes(x, y)))",
            Exists("x", Forall("y", Pred("Likes", (Name("x"), Name("y"))))),
        ),
    ],
)
def test_keywords_are_whole_words(text, expected):
    assert parse_formula(text) is expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("NOT", "expected '('"),
        ("AND(p)", "expected ','"),
        ("P(Alice)", "expected a term (a lower-case name), found 'Alice'"),
        ("P(BOT)", "found 'BOT'"),
        ("FORALL(X, p)", "expected a term"),
        ("f()", "expected a term"),
        ("BOT(a)", "found '('"),
        ("p q", "found 'q'"),
        ("AND(p, q", "expected ')'"),
        ("", "expected a formula"),
        ("p & q", "the character '&'"),
        ("AND(p, # q)\n)", "expected a formula"),
    ],
)
def test_syntax_errors_say_what_was_expected(text, expected):
    with pytest.raises(ProofSyntaxError) as info:
        parse_formula(text)
    assert expected in info.value.message
    assert info.value.line == 1 and info.value.column >= 1


def test_nesting_is_bounded():
    with pytest.raises(ProofSyntaxError) as info:
        parse_formula("NOT(" * 250 + "p" + ")" * 250)
    assert info.value.reason_id == "TOO_DEEP"
    assert parse_formula("NOT(" * 150 + "p" + ")" * 150).height == 151


def test_free_names_and_size():
    f = parse_formula("FORALL(x, AND(Likes(x, a), EQ(f(x), b)))")
    assert f.free == {"a", "b", "f/1"}
    assert f.size == 9
    assert parse_formula("p").size == 1


def test_substitution_replaces_free_occurrences_only():
    f = parse_formula("AND(P(x), FORALL(x, Q(x)))")
    assert substitute(f, "x", Name("a")) is parse_formula("AND(P(a), FORALL(x, Q(x)))")


def test_substitution_renames_to_avoid_capture():
    f = parse_formula("EXISTS(y, Likes(x, y))")
    result = substitute(f, "x", Name("y"))
    assert result is parse_formula("EXISTS(y1, Likes(y, y1))")
    assert fresh_name("y", {"y1", "y2"}) == "y3"


@settings(max_examples=examples(150), deadline=None)
@given(formulas, st.sampled_from(["x", "y"]), terms)
def test_substitution_means_assigning_the_term(f, var, t):
    """In every model, φ[t/x] holds exactly when φ holds with x set to t's value."""
    result = substitute(f, var, t)
    sig = signature([f, result, Eq(t, t)])
    for m in islice(interpretations(sig, 2), 300):
        assert holds(result, m) == holds(f, m, {var: value(t, m, {})})


def test_instances():
    body = parse_formula("IMPL(P(x), Likes(x, b))")
    ok, term = match_instance(body, "x", parse_formula("IMPL(P(f(a)), Likes(f(a), b))"))
    assert ok and term is Fn("f", (Name("a"),))
    assert not match_instance(body, "x", parse_formula("IMPL(P(a), Likes(c, b))"))[0]
    assert match_instance(parse_formula("p"), "x", parse_formula("p")) == (True, None)
    captured = parse_formula("EXISTS(y, Likes(x, y))")
    assert not match_instance(captured, "x", parse_formula("EXISTS(y, Likes(y, y))"))[0]


def test_replacement_of_some_occurrences():
    a, b = Name("a"), Name("b")
    src = parse_formula("AND(P(a), Likes(a, a))")
    assert replaces(src, a, b, parse_formula("AND(P(b), Likes(a, b))"))
    assert replaces(src, a, b, src)
    assert not replaces(src, a, b, parse_formula("AND(P(c), Likes(a, a))"))
    bound = parse_formula("FORALL(a, P(a))")
    assert not replaces(bound, a, b, parse_formula("FORALL(a, P(b))"))
