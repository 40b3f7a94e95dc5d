"""Inverse literals: the literal to write so the world reads the value meant."""

from __future__ import annotations

from alienworlds.porting.literals import invert
from alienworlds.porting.semantics import Ctx, WorldView
from alienworlds.ruleset import Rule, World
from hypothesis import given
from hypothesis import strategies as st

TOP, CRAFT = Ctx(), Ctx(True, False)


def view(*rules: tuple[str, str, str]) -> WorldView:
    return WorldView(
        World(
            "t",
            "aliencode",
            rules=tuple(
                Rule(id=f"R{k}", name="r", target=t, actual=a, scope=sc)
                for k, (t, a, sc) in enumerate(rules)
            ),
        )
    )


@given(
    st.integers(-(10**9), 10**9),
    st.sampled_from(["(+ n 7)", "(- n 3)", "(^ n 27)", "(- 40 n)", "(neg n)", "(+ (* n 1) 5)"]),
)
def test_invertible_integer_rules_are_inverted(value, rule):
    v = view(("literal.int", rule, "anywhere"))
    ok, written = invert(v, "literal.int", TOP, value)
    assert ok and type(written) is int
    assert v.fn("literal.int", TOP)(written) == value


@given(
    st.text(max_size=40),
    st.sampled_from(["(reverse s)", "(concat (slice s 1) (slice s 0 1))", '(concat s "!")']),
)
def test_string_rules_are_inverted_where_possible(value, rule):
    v = view(("literal.str", rule, "anywhere"))
    ok, written = invert(v, "literal.str", TOP, value)
    if rule.endswith('"!")') and not value.endswith("!"):
        assert not ok  # no literal ends up without the "!"
    else:
        assert ok and v.fn("literal.str", TOP)(written) == value


def test_a_scoped_rule_is_inverted_only_where_it_applies():
    v = view(("literal.int", "(* n 2)", "function"))
    assert invert(v, "literal.int", TOP, 7) == (True, 7)
    assert invert(v, "literal.int", CRAFT, 8) == (True, 4)
    assert invert(v, "literal.int", CRAFT, 7) == (
        False,
        None,
    )  # odd numbers cannot be written there


def test_booleans_and_floats():
    v = view(("literal.bool", "(not x)", "anywhere"), ("literal.float", "(* n 2.0)", "anywhere"))
    assert invert(v, "literal.bool", TOP, True) == (True, False)
    ok, written = invert(v, "literal.float", TOP, 0.3)
    assert ok and written * 2.0 == 0.3
