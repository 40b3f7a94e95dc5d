"""World side conditions: validation, the demo world, every operand, order."""

import pytest
from alienworlds.ruleset.world import parse_world

from alienlogic import CompiledWorld, WorldError, check, compile_world, load_world
from alienlogic.verdict import ALIEN_AXIOM_DISABLED, ALIEN_SIDE_CONDITION, RULE_VIOLATION
from alienlogic.world_schema import SCHEMA
from alienlogic.worlds import audit, default_world_spec


def world(*rules: str, name: str = "w"):
    body = "\n".join(f"[[rules]]\n{r.strip()}\n" for r in rules)
    return parse_world(
        f'format = 1\nname = "{name}"\nlanguage = "alienlogic"\n{body}', "w.toml", SCHEMA
    )


def rule(rule_id: str, target: str, **keys: object) -> str:
    lines = [f'id = "{rule_id}"', f'name = "rule {rule_id}"', f'target = "{target}"']
    for k, v in keys.items():
        lines.append(
            f"{k} = "
            f"""{
                "true"
                if v is True
                else "false"
                if v is False
                else repr(v).replace(chr(39), chr(34))
            }"""
        )
    return "\n".join(lines)


def proof(premises: str, goal: str, body: str) -> str:
    return f"PROOF\npremises: {premises}\ngoal: {goal}\n{body.strip()}\nEND\n"


MP = proof("IMPL(p, q), p", "q", "1. IMPL(p, q) [premise]\n2. p [premise]\n3. q [IMPL_E 1, 2]")


def problems(*rules: str) -> list[str]:
    with pytest.raises(WorldError) as info:
        compile_world(world(*rules))
    return [str(p) for p in info.value.problems]


# -- validation ----------------------------------------------------------------


@pytest.mark.parametrize(
    "rules, expected",
    [
        (
            [rule("X1", "MODUS_PONENS", disabled=True)],
            "w.toml: rule X1: key 'target': unknown inference rule 'MODUS_PONENS'",
        ),
        (
            [rule("X1", "IMPL_E")],
            "w.toml: rule X1: a rule needs at least one of disabled, require and conclusion",
        ),
        ([rule("X1", "IMPL_E", disabled="yes")], "rule X1: key 'disabled': expected true or false"),
        ([rule("X1", "IMPL_E", disabled=False)], "disabled = false alone changes nothing"),
        (
            [rule("X1", "IMPL_E", disabled=True, require="(== depth 0)")],
            "cannot also carry require or conclusion",
        ),
        (
            [rule("X1", "IMPL_E", require="(== depth")],
            "rule X1: key 'require': unexpected end of expression",
        ),
        ([rule("X1", "IMPL_E", require="(== lines 0)")], "unknown name 'lines'"),
        ([rule("X1", "IMPL_E", require="(ref 1 2)")], "operator 'ref' takes 1 arguments, got 2"),
        (
            [rule("X1", "IMPL_E", require="(is CONJ (ref 1))")],
            "the first operand of 'is' is a shape",
        ),
        (
            [rule("X1", "IMPL_E", require="(is depth (ref 1))")],
            "the first operand of 'is' is a shape",
        ),
        ([rule("X1", "IMPL_E", require="(== %step 1)")], "unknown name '%step'"),
        ([rule("X1", "IMPL_E", conclusion="IDENTITY")], "IDENTITY has no meaning"),
        ([rule("X1", "IMPL_E", require=3)], "key 'require': expected a rule expression (a string)"),
        ([rule("X1", "IMPL_E", actual="(+ a 1)", disabled=True)], "key 'actual': unknown key"),
        (
            [
                rule("X1", "AND_E1", conclusion="(left (ref 1))"),
                rule("X2", "AND_E1", conclusion="(right (ref 1))"),
            ],
            "rule X2: key 'conclusion': rule X1 already patches the conclusion of AND_E1",
        ),
    ],
)
def test_invalid_rules_are_reported_with_file_rule_and_key(rules, expected):
    found = problems(*rules)
    assert any(expected in p for p in found), found


def test_every_problem_is_reported_at_once():
    found = problems(rule("A", "NOPE", disabled=True), rule("B", "IMPL_E", require="(bogus)"))
    assert len(found) == 2


def test_shipped_demo_world_is_valid_and_audited_clean():
    demo = load_world("demo")
    assert demo.language == "alienlogic" and len(demo.rules) == 4
    assert audit(demo) == []
    assert isinstance(compile_world(demo), CompiledWorld)


def test_audit_finds_rules_that_never_apply():
    w = world(rule("A", "DNE", disabled=True), rule("B", "DNE", require="(== depth 0)"))
    assert audit(w) == ["rule B: never applies, rule A disables DNE earlier"]


def test_default_world_is_main(monkeypatch):
    monkeypatch.delenv("ALIENLOGIC_WORLD", raising=False)
    assert default_world_spec() == "main"
    assert load_world().name == "main"
    monkeypatch.setenv("ALIENLOGIC_WORLD", "demo")
    assert default_world_spec() == "demo"
    assert load_world().name == "demo"


def test_missing_world_is_a_world_error():
    with pytest.raises(WorldError) as info:
        load_world("no-such-world")
    assert "shipped: standard, demo, main" in str(info.value)


# -- the demo world ------------------------------------------------------------------


DEMO_CASES = {
    "DNE is disabled": (
        proof("NOT(NOT(p))", "p", "1. NOT(NOT(p)) [premise]\n2. p [DNE 1]"),
        2,
        ALIEN_AXIOM_DISABLED,
        "K4",
    ),
    "AND_E1 gives the right conjunct": (
        proof("AND(p, q)", "q", "1. AND(p, q) [premise]\n2. q [AND_E1 1]"),
        None,
        None,
        None,
    ),
    "AND_E1 no longer gives the left one": (
        proof("AND(p, q)", "p", "1. AND(p, q) [premise]\n2. p [AND_E1 1]"),
        2,
        ALIEN_SIDE_CONDITION,
        "K9",
    ),
    "AND_E1 still needs a conjunction": (
        proof("OR(p, q)", "q", "1. OR(p, q) [premise]\n2. q [AND_E1 1]"),
        2,
        RULE_VIOLATION,
        "WRONG_SHAPE",
    ),
    "premises are not reiterated": (
        proof(
            "q",
            "IMPL(p, q)",
            "1. q [premise]\n2. | p [assume]\n3. | q [reit 1]\n4. IMPL(p, q) [IMPL_I 2-3]",
        ),
        3,
        ALIEN_SIDE_CONDITION,
        "K12",
    ),
    "other lines are": (
        proof("", "IMPL(p, p)", "1. | p [assume]\n2. | p [reit 1]\n3. IMPL(p, p) [IMPL_I 1-2]"),
        None,
        None,
        None,
    ),
    "modus ponens once": (MP, None, None, None),
    "the implication used twice": (
        proof(
            "IMPL(p, q), p",
            "AND(q, q)",
            """
1. IMPL(p, q) [premise]
2. p [premise]
3. q [IMPL_E 1, 2]
4. q [IMPL_E 1, 2]
5. AND(q, q) [AND_I 3, 4]
""",
        ),
        4,
        ALIEN_SIDE_CONDITION,
        "K20",
    ),
}


@pytest.mark.parametrize("name", list(DEMO_CASES))
def test_demo_world(name):
    text, step, reason_class, reason_id = DEMO_CASES[name]
    v = check(text, load_world("demo"))
    assert (v.rejected_step, v.reason_class, v.reason_id) == (step, reason_class, reason_id), (
        v.as_dict(detail=True)
    )
    assert v.accepted == (step is None)
    standard_refuses = {"AND_E1 gives the right conjunct", "AND_E1 still needs a conjunction"}
    assert check(text).accepted == (name not in standard_refuses)


def test_world_failures_report_only_the_opaque_id():
    v = check(DEMO_CASES["DNE is disabled"][0], load_world("demo"))
    public = v.as_dict()
    assert (
        public["reason_id"] == "K4" and "DNE" not in str(public) and "negation" not in str(public)
    )
    assert v.as_dict(detail=True)["rule_name"] == "No double-negation elimination"


# -- every operand -----------------------------------------------------------------------

CHAIN = proof(
    "IMPL(p, q), p, AND(r, s)",
    "AND(q, r)",
    """
1. IMPL(p, q) [premise]
2. p [premise]
3. AND(r, s) [premise]
4. q [IMPL_E 1, 2]
5. | NOT(q) [assume]
6. | BOT [NOT_E 5, 4]
7. NOT(NOT(q)) [NOT_I 5-6]
8. r [AND_E1 3]
9. AND(q, r) [AND_I 4, 8]
""",
)


@pytest.mark.parametrize(
    "target, predicate, holds",
    [
        ("IMPL_E", "(== depth 0)", True),
        ("NOT_E", "(== depth 0)", False),
        ("IMPL_E", "(== line 4)", True),
        ("IMPL_E", "(> line 4)", False),
        ("NOT_I", "(== nrefs 1)", True),
        ("AND_I", "(== nrefs 1)", False),
        ("AND_I", "(is AND conclusion)", True),
        ("AND_I", "(is OR conclusion)", False),
        ("IMPL_E", "(is IMPL (ref 1))", True),
        ("IMPL_E", "(is IMPL (ref 2))", False),
        ("IMPL_E", "(== (refline 2) 2)", True),
        ("IMPL_E", "(== (refline 3) none)", True),
        ("NOT_I", "(and (is NOT (ref 1)) (is BOT (last 1)))", True),
        ("NOT_I", "(== (- (lastline 1) (refline 1)) 1)", True),
        ("NOT_I", "(== (ref 1) (last 1))", False),
        ("AND_E1", "(== (times-cited 3) 0)", True),
        ("AND_I", "(== (times-cited 4) 1)", True),
        ("AND_I", "(== (times-cited 4) 0)", False),
        ("IMPL_E", "(premise? (refline 1))", True),
        ("AND_I", "(premise? (refline 1))", False),
        ("AND_I", "(premise? 99)", False),
        ("IMPL_E", "(== (left (ref 1)) (ref 2))", True),
        ("IMPL_E", "(== (right (ref 1)) conclusion)", True),
        ("IMPL_E", "(== (left conclusion) none)", True),
        ("NOT_I", "(== (sub conclusion) (sub (ref 1)))", False),
        ("NOT_I", "(is NOT (sub conclusion))", True),
        ("AND_I", "(< (size conclusion) 3)", False),
        ("AND_I", "(== (size conclusion) 3)", True),
        ("NOT_E", "(is BOT conclusion)", True),
        ("AND_E1", "(is ATOM conclusion)", True),
        ("AND_E1", "(is PRED conclusion)", False),
    ],
)
def test_every_operand(target, predicate, holds):
    v = check(CHAIN, world(rule("Z9", target, require=predicate)))
    assert v.accepted == holds, v.as_dict(detail=True)
    if not holds:
        assert (v.reason_class, v.reason_id) == (ALIEN_SIDE_CONDITION, "Z9")


@pytest.mark.parametrize(
    "predicate",
    [
        "(is EXISTS (ref 1))",
        "(is FORALL (sub (ref 1)))",
        "(is EQ (right (ref 1)))",
        "(is PRED (right (ref 1)))",
        "(== (left (right (ref 1))) (right (right (ref 1))))",
    ],
)
def test_first_order_shapes(predicate):
    text = proof(
        "NOT(FORALL(x, EQ(f(x), x)))",
        "NOT(FORALL(x, EQ(f(x), x)))",
        "1. NOT(FORALL(x, EQ(f(x), x))) [premise]",
    )
    text_ex = proof(
        "EXISTS(y, P(y))",
        "EXISTS(y, P(y))",
        "1. EXISTS(y, P(y)) [premise]\n2. EXISTS(y, P(y)) [reit 1]",
    )
    shapes_text = proof(
        "IMPL(P(a), EQ(a, b))",
        "IMPL(P(a), EQ(a, b))",
        "1. IMPL(P(a), EQ(a, b)) [premise]\n2. IMPL(P(a), EQ(a, b)) [reit 1]",
    )
    w = world(rule("Z1", "reit", require=predicate))
    results = [check(t, w).accepted for t in (text_ex, shapes_text)] + [check(text).accepted]
    expected = {
        "(is EXISTS (ref 1))": [True, False, True],
        "(is FORALL (sub (ref 1)))": [False, False, True],
        "(is EQ (right (ref 1)))": [False, True, True],
        "(is PRED (right (ref 1)))": [False, False, True],
        "(== (left (right (ref 1))) (right (right (ref 1))))": [True, False, True],
    }[predicate]
    assert results == expected


def test_conclusion_patch_replaces_only_the_conclusion():
    w = world(rule("C1", "IMPL_I", conclusion="(last 1)"))
    assert check(
        proof("q", "q", "1. q [premise]\n2. | p [assume]\n3. | q [reit 1]\n4. q [IMPL_I 2-3]"), w
    ).accepted
    v = check(
        proof(
            "q",
            "IMPL(p, q)",
            "1. q [premise]\n2. | p [assume]\n3. | q [reit 1]\n4. IMPL(p, q) [IMPL_I 2-3]",
        ),
        w,
    )
    assert (v.reason_class, v.reason_id) == (ALIEN_SIDE_CONDITION, "C1")
    v = check(proof("q", "q", "1. q [premise]\n2. | p [assume]\n3. q [IMPL_I 2]"), w)
    assert v.reason_id == "EXPECTED_RANGE"  # citations are still the standard rule's


def test_conclusion_patch_for_a_rule_deriving_any_formula():
    w = world(rule("C2", "OR_I1", conclusion="(ref 1)"))
    assert check(proof("p", "p", "1. p [premise]\n2. p [OR_I1 1]"), w).accepted
    assert (
        check(proof("p", "OR(p, q)", "1. p [premise]\n2. OR(p, q) [OR_I1 1]"), w).reason_id == "C2"
    )


def test_conclusion_patch_without_a_value_rejects():
    w = world(rule("C3", "reit", conclusion="(left (ref 1))"))
    v = check(proof("p", "p", "1. p [premise]\n2. p [reit 1]"), w)
    assert (v.reason_class, v.reason_id, v.rejected_step) == (ALIEN_SIDE_CONDITION, "C3", 2)


def test_rules_fire_in_file_order():
    a = rule("A1", "IMPL_E", require="(== depth 1)")
    b = rule("B1", "IMPL_E", require="(== line 99)")
    assert check(MP, world(a, b)).reason_id == "A1"
    assert check(MP, world(b, a)).reason_id == "B1"


def test_disabled_comes_before_other_checks():
    w = world(rule("D1", "IMPL_E", disabled=True))
    v = check(proof("p", "q", "1. p [premise]\n2. q [IMPL_E 7]"), w)
    assert (v.reason_class, v.reason_id) == (ALIEN_AXIOM_DISABLED, "D1")


def test_failing_expression_rejects_with_the_rule_id():
    w = world(
        rule("E1", "IMPL_E", require="(< conclusion 1)"),
        rule("E2", "premise", require="(> (ref depth) 0)"),
    )
    v = check(MP, w)
    assert (v.reason_class, v.reason_id, v.rejected_step) == (ALIEN_SIDE_CONDITION, "E2", 1)
    assert "failed" in v.detail
    v = check(MP, world(rule("E1", "IMPL_E", require="(< conclusion 1)")))
    assert (v.reason_id, v.rejected_step) == ("E1", 3)


def test_compiled_world_is_reused():
    demo = load_world("demo")
    compiled = compile_world(demo)
    assert compile_world(demo) is compiled and compile_world(compiled) is compiled
    assert check(MP, compiled).accepted
    assert check(MP, demo.without("K20")).accepted
    assert compile_world(None).world.name == "standard"
