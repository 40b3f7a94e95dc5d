"""Inert rules: the world-only verdict agrees with what programs print."""

from alienworlds.ruleset import Rule, World
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from aliencode import run_source
from aliencode.shadowing import inert_rules

# One literal at each of the four kinds of place a scope can tell apart.
PLACES_PROGRAM = """
CRAFT f():
    SWEEP k IN STRAND(0):
        EMIT(1)
    DELIVER 1
EMIT(1)
SWEEP k IN STRAND(0):
    EMIT(1)
EMIT(f())
"""

SCOPES = ("anywhere", "function", "loop", "top")


def literal_rule(index: int, scope: str, altered: bool) -> Rule:
    # distinct additions, so that two altered rules are told apart by output
    actual = f"(+ n {10 ** (index + 1)})" if altered else "IDENTITY"
    return Rule(id=f"R{index}", name="n", target="literal.int", actual=actual, scope=scope)


rule_lists = st.lists(st.tuples(st.sampled_from(SCOPES), st.booleans()), max_size=5)


@settings(max_examples=examples(150), deadline=None)
@given(rule_lists)
def test_inert_exactly_when_removing_changes_no_output(drawn):
    world = World(
        "t",
        "aliencode",
        rules=tuple(literal_rule(i, scope, altered) for i, (scope, altered) in enumerate(drawn)),
    )
    inert = {i.rule.id for i in inert_rules(world)}
    printed = run_source(PLACES_PROGRAM, world).output
    for rule in world.rules:
        unchanged = run_source(PLACES_PROGRAM, world.without(rule.id)).output == printed
        assert (rule.id in inert) == unchanged, (rule, printed)


def test_stand_alone_red_herring_is_inert_and_says_why():
    world = World("t", "aliencode", rules=(literal_rule(0, "anywhere", False),))
    [inert] = inert_rules(world)
    assert "shadows no altered rule of site literal.int" in inert.message()


def test_herring_in_a_narrower_scope_counts():
    world = World(
        "t", "aliencode", rules=(literal_rule(0, "top", False), literal_rule(1, "anywhere", True))
    )
    assert inert_rules(world) == []


def test_altered_rule_behind_a_wider_one_never_applies():
    world = World(
        "t", "aliencode", rules=(literal_rule(0, "anywhere", True), literal_rule(1, "loop", True))
    )
    [inert] = inert_rules(world)
    assert inert.rule.id == "R1" and "never applies" in inert.message()
