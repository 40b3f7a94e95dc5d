"""Refusals: one proof per standard failure id, the published exploits and
their variants, and the unsound quantifier moves."""

from pathlib import Path

import pytest

from alienlogic import FAILURES, REASON_CLASSES, Theorem, check, parse_formula
from alienlogic.verdict import ANSWER_MISMATCH, PARSE_ERROR


def proof(premises: str, goal: str, body: str) -> str:
    return f"PROOF\npremises: {premises}\ngoal: {goal}\n{body.strip()}\nEND\n"


MODUS_PONENS = proof(
    "IMPL(p, q), p", "q", "1. IMPL(p, q) [premise]\n2. p [premise]\n3. q [IMPL_E 1, 2]"
)

# id -> (proof, rejected step); ANSWER_MISMATCH cases are graded against TASK.
CATALOGUE = {
    "SYNTAX": (proof("p", "p", "1. p [premise"), 1),
    "TOO_DEEP": (proof("p", "NOT(" * 201 + "p" + ")" * 201, "1. p [premise]"), None),
    "LINE_NUMBER": (proof("p", "p", "1. p [premise]\n3. p [reit 1]"), 2),
    "ASSUME_AT_TOP": (proof("", "IMPL(p, p)", "1. p [assume]\n2. IMPL(p, p) [IMPL_I 1-1]"), 1),
    "DEPTH_JUMP": (proof("", "IMPL(p, p)", "1. | | p [assume]"), 1),
    "BOX_WITHOUT_ASSUMPTION": (proof("p", "p", "1. p [premise]\n2. | p [reit 1]"), 2),
    "REF_NOT_EARLIER": (proof("p", "p", "1. p [premise]\n2. p [reit 2]"), 2),
    "REF_NOT_ACCESSIBLE": (
        proof("", "p", "1. | p [assume]\n2. IMPL(p, p) [IMPL_I 1-1]\n3. p [reit 1]"),
        3,
    ),
    "RANGE_NOT_A_BOX": (
        proof("q", "IMPL(q, q)", "1. q [premise]\n2. | p [assume]\n3. IMPL(q, q) [IMPL_I 1-2]"),
        3,
    ),
    "RANGE_NOT_CLOSED": (
        proof("", "IMPL(p, p)", "1. | p [assume]\n2. | IMPL(p, p) [IMPL_I 1-1]"),
        2,
    ),
    "RANGE_NOT_ACCESSIBLE": (
        proof(
            "",
            "IMPL(q, q)",
            """
1. | p [assume]
2. | | q [assume]
3. | | q [reit 2]
4. | IMPL(q, q) [IMPL_I 2-3]
5. IMPL(p, IMPL(q, q)) [IMPL_I 1-4]
6. IMPL(q, q) [IMPL_I 2-3]
""",
        ),
        6,
    ),
    "BOX_ENDS_IN_SUBPROOF": (
        proof("", "IMPL(p, q)", "1. | p [assume]\n2. | | q [assume]\n3. IMPL(p, q) [IMPL_I 1-2]"),
        3,
    ),
    "GOAL_NOT_REACHED": (proof("p", "q", "1. p [premise]"), None),
    "UNKNOWN_RULE": (
        proof("IMPL(p, q), p", "q", "1. IMPL(p, q) [premise]\n2. p [premise]\n3. q [MP 1, 2]"),
        3,
    ),
    "CITATION_COUNT": (
        proof("IMPL(p, q), p", "q", "1. IMPL(p, q) [premise]\n2. p [premise]\n3. q [IMPL_E 1]"),
        3,
    ),
    "EXPECTED_LINE": (proof("AND(p, q)", "p", "1. AND(p, q) [premise]\n2. p [AND_E1 1-1]"), 2),
    "EXPECTED_RANGE": (proof("", "IMPL(p, p)", "1. | p [assume]\n2. IMPL(p, p) [IMPL_I 1]"), 2),
    "NOT_A_PREMISE": (proof("p", "q", "1. q [premise]"), 1),
    "PREMISE_REPEATED": (
        proof("p", "AND(p, p)", "1. p [premise]\n2. p [premise]\n3. AND(p, p) [AND_I 1, 2]"),
        2,
    ),
    "WRONG_SHAPE": (proof("OR(p, q)", "p", "1. OR(p, q) [premise]\n2. p [AND_E1 1]"), 2),
    "MISMATCH": (
        proof("IMPL(p, q), r", "q", "1. IMPL(p, q) [premise]\n2. r [premise]\n3. q [IMPL_E 1, 2]"),
        3,
    ),
    "WRONG_CONCLUSION": (
        proof("p, q", "AND(p, q)", "1. p [premise]\n2. q [premise]\n3. AND(p, q) [AND_I 2, 1]"),
        3,
    ),
    "NOT_AN_INSTANCE": (
        proof(
            "FORALL(x, Likes(x, x))",
            "Likes(a, b)",
            "1. FORALL(x, Likes(x, x)) [premise]\n2. Likes(a, b) [FORALL_E 1]",
        ),
        2,
    ),
    "NOT_FRESH": (
        proof("P(c)", "FORALL(x, P(x))", "1. P(c) [premise]\n2. FORALL(x, P(x)) [FORALL_I 1]"),
        2,
    ),
    "PREMISES_MISMATCH": (MODUS_PONENS, None),
    "GOAL_MISMATCH": (
        MODUS_PONENS.replace("goal: q", "goal: p").replace("3. q [IMPL_E 1, 2]", "3. p [reit 2]"),
        None,
    ),
}
TASK = Theorem((parse_formula("IMPL(p, q)"), parse_formula("p")), parse_formula("q"))
TASK_WITH_OTHER_PREMISES = Theorem(
    (parse_formula("IMPL(p, q)"), parse_formula("p"), parse_formula("p")), parse_formula("q")
)


def test_catalogue_covers_every_failure_id():
    assert set(CATALOGUE) == set(FAILURES)
    assert {cls for cls, _ in FAILURES.values()} <= set(REASON_CLASSES)


def test_every_failure_id_is_documented():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "alienlogic.md").read_text()
    for reason_id, (cls, _) in FAILURES.items():
        assert f"| `{reason_id}` | {cls} |" in doc


@pytest.mark.parametrize("reason_id", list(CATALOGUE))
def test_refusal(reason_id):
    text, step = CATALOGUE[reason_id]
    task = (
        TASK_WITH_OTHER_PREMISES
        if reason_id == "PREMISES_MISMATCH"
        else TASK
        if reason_id == "GOAL_MISMATCH"
        else None
    )
    v = check(text, task=task)
    assert not v.accepted and not v.goal_match
    assert (v.reason_class, v.reason_id) == (FAILURES[reason_id][0], reason_id), v.as_dict(
        detail=True
    )
    assert v.rejected_step == step
    assert v.detail
    public = v.as_dict()
    assert "detail" not in public and "rule_name" not in public
    if v.reason_class == PARSE_ERROR:
        assert public["message"].startswith("line ")
    if v.reason_class == ANSWER_MISMATCH:
        # refused before any step is checked: the steps cannot change the verdict
        assert not v.verifier_passed
        broken = text.replace("1. IMPL(p, q) [premise]", "1. IMPL(p, q) [reit 9]")
        assert broken != text and check(broken, task=task).reason_id == reason_id


def test_syntax_error_names_line_and_expectation():
    v = check(proof("p", "p", "1. p [premise]\n2. AND(p [reit 1]"))
    assert v.message == "line 5, column 10: expected ',', found '['"
    assert v.rejected_step == 2 and v.n_steps == 0


def test_goal_in_open_box_is_not_reached():
    v = check(proof("", "q", "1. | q [assume]"))
    assert (v.reason_id, v.verifier_passed, v.goal_match) == ("GOAL_NOT_REACHED", True, False)
    assert check(proof("", "q", "")).reason_id == "GOAL_NOT_REACHED"


# The published reference checker accepts these; each "proves" a formula from nothing.
EXPLOITS = {
    "sibling box reaches into a closed box": (
        proof(
            "",
            "IMPL(q, p)",
            """
1. | p [assume]
2. | q [assume]
3. | p [reit 1]
4. IMPL(q, p) [IMPL_I 2-3]
""",
        ),
        3,
        "REF_NOT_ACCESSIBLE",
    ),
    "sibling box uses a closed box's BOT": (
        proof(
            "",
            "IMPL(q, r)",
            """
1. | BOT [assume]
2. | q [assume]
3. | r [BOT_E 1]
4. IMPL(q, r) [IMPL_I 2-3]
""",
        ),
        3,
        "REF_NOT_ACCESSIBLE",
    ),
    "nested sibling boxes": (
        proof(
            "",
            "IMPL(r, IMPL(q, p))",
            """
1. | r [assume]
2. | | p [assume]
3. | | q [assume]
4. | | p [reit 2]
5. | IMPL(q, p) [IMPL_I 3-4]
6. IMPL(r, IMPL(q, p)) [IMPL_I 1-5]
""",
        ),
        4,
        "REF_NOT_ACCESSIBLE",
    ),
    "a closed box's line cited by an elimination": (
        proof(
            "IMPL(p, q)",
            "q",
            """
1. IMPL(p, q) [premise]
2. | p [assume]
3. IMPL(p, p) [IMPL_I 2-2]
4. q [IMPL_E 1, 2]
""",
        ),
        4,
        "REF_NOT_ACCESSIBLE",
    ),
    "range spans two sibling boxes": (
        proof(
            "",
            "IMPL(p, q)",
            """
1. | p [assume]
2. | q [assume]
3. | q [reit 2]
4. IMPL(p, q) [IMPL_I 1-3]
""",
        ),
        4,
        "RANGE_NOT_A_BOX",
    ),
    "range spans a box and the line after it": (
        proof(
            "q",
            "IMPL(p, q)",
            """
1. | p [assume]
2. q [premise]
3. IMPL(p, q) [IMPL_I 1-2]
""",
        ),
        3,
        "RANGE_NOT_A_BOX",
    ),
    "range starts inside a box": (
        proof(
            "",
            "IMPL(p, p)",
            """
1. | q [assume]
2. | | p [assume]
3. | | p [reit 2]
4. | p [reit 2]
5. IMPL(p, p) [IMPL_I 2-4]
""",
        ),
        4,
        "REF_NOT_ACCESSIBLE",
    ),
    "range starts at a line that opens no box": (
        proof(
            "",
            "IMPL(p, p)",
            """
1. | p [assume]
2. | p [reit 1]
3. | p [reit 2]
4. IMPL(p, p) [IMPL_I 2-3]
""",
        ),
        4,
        "RANGE_NOT_A_BOX",
    ),
    "range ends in a nested box": (
        proof(
            "",
            "IMPL(p, q)",
            """
1. | p [assume]
2. | | q [assume]
3. IMPL(p, q) [IMPL_I 1-2]
""",
        ),
        3,
        "BOX_ENDS_IN_SUBPROOF",
    ),
    "OR_E with one range over both boxes": (
        proof(
            "OR(p, q)",
            "p",
            """
1. OR(p, q) [premise]
2. | p [assume]
3. | q [assume]
4. | p [reit 2]
5. p [OR_E 1, 2-4, 3-4]
""",
        ),
        4,
        "REF_NOT_ACCESSIBLE",
    ),
    "OR_E citing a range over two boxes": (
        proof(
            "OR(p, q)",
            "p",
            """
1. OR(p, q) [premise]
2. | p [assume]
3. | q [assume]
4. | q [reit 3]
5. p [OR_E 1, 2-2, 2-4]
""",
        ),
        5,
        "RANGE_NOT_A_BOX",
    ),
}


@pytest.mark.parametrize("name", list(EXPLOITS))
def test_published_exploits_refused(name):
    text, step, reason = EXPLOITS[name]
    v = check(text)
    assert (v.accepted, v.rejected_step, v.reason_id) == (False, step, reason), v.as_dict(
        detail=True
    )


UNSOUND_QUANTIFIER_MOVES = {
    "generalise an assumption's constant": (
        proof(
            "",
            "IMPL(P(c), FORALL(x, P(x)))",
            """
1. | P(c) [assume]
2. | FORALL(x, P(x)) [FORALL_I 1]
3. IMPL(P(c), FORALL(x, P(x))) [IMPL_I 1-2]
""",
        ),
        "NOT_FRESH",
    ),
    "generalise only some occurrences": (
        proof(
            "Likes(c, c)",
            "FORALL(x, Likes(x, c))",
            """
1. Likes(c, c) [premise]
2. FORALL(x, Likes(x, c)) [FORALL_I 1]
""",
        ),
        "NOT_FRESH",
    ),
    "generalise a function term": (
        proof(
            "FORALL(x, P(f(x)))",
            "FORALL(y, P(y))",
            """
1. FORALL(x, P(f(x))) [premise]
2. P(f(a)) [FORALL_E 1]
3. FORALL(y, P(y)) [FORALL_I 2]
""",
        ),
        "NOT_AN_INSTANCE",
    ),
    "witness escapes its box": (
        proof(
            "EXISTS(x, P(x))",
            "P(c)",
            """
1. EXISTS(x, P(x)) [premise]
2. | P(c) [assume]
3. | P(c) [reit 2]
4. P(c) [EXISTS_E 1, 2-3]
""",
        ),
        "NOT_FRESH",
    ),
    "witness already named by a premise": (
        proof(
            "EXISTS(x, P(x)), Q(c)",
            "EXISTS(x, AND(P(x), Q(x)))",
            """
1. EXISTS(x, P(x)) [premise]
2. Q(c) [premise]
3. | P(c) [assume]
4. | AND(P(c), Q(c)) [AND_I 3, 2]
5. | EXISTS(x, AND(P(x), Q(x))) [EXISTS_I 4]
6. EXISTS(x, AND(P(x), Q(x))) [EXISTS_E 1, 3-5]
""",
        ),
        "NOT_FRESH",
    ),
    "witness named by an open assumption": (
        proof(
            "EXISTS(x, P(x))",
            "IMPL(Q(c), EXISTS(x, AND(P(x), Q(x))))",
            """
1. EXISTS(x, P(x)) [premise]
2. | Q(c) [assume]
3. | | P(c) [assume]
4. | | AND(P(c), Q(c)) [AND_I 3, 2]
5. | | EXISTS(x, AND(P(x), Q(x))) [EXISTS_I 4]
6. | EXISTS(x, AND(P(x), Q(x))) [EXISTS_E 1, 3-5]
7. IMPL(Q(c), EXISTS(x, AND(P(x), Q(x)))) [IMPL_I 2-6]
""",
        ),
        "NOT_FRESH",
    ),
    "instantiation captured by an inner quantifier": (
        proof(
            "FORALL(x, EXISTS(y, NOT(EQ(x, y))))",
            "EXISTS(y, NOT(EQ(y, y)))",
            """
1. FORALL(x, EXISTS(y, NOT(EQ(x, y)))) [premise]
2. EXISTS(y, NOT(EQ(y, y))) [FORALL_E 1]
""",
        ),
        "NOT_AN_INSTANCE",
    ),
    "existential from a non-instance": (
        proof(
            "Likes(a, b)",
            "EXISTS(x, Likes(x, x))",
            """
1. Likes(a, b) [premise]
2. EXISTS(x, Likes(x, x)) [EXISTS_I 1]
""",
        ),
        "NOT_AN_INSTANCE",
    ),
    "equality rewriting under a binder": (
        proof(
            "EQ(a, b), FORALL(b, Likes(a, b))",
            "FORALL(b, Likes(b, b))",
            """
1. EQ(a, b) [premise]
2. FORALL(b, Likes(a, b)) [premise]
3. FORALL(b, Likes(b, b)) [EQ_E 1, 2]
""",
        ),
        "WRONG_CONCLUSION",
    ),
    "equality used backwards": (
        proof(
            "EQ(a, b), P(b)",
            "P(a)",
            """
1. EQ(a, b) [premise]
2. P(b) [premise]
3. P(a) [EQ_E 1, 2]
""",
        ),
        "WRONG_CONCLUSION",
    ),
}


@pytest.mark.parametrize("name", list(UNSOUND_QUANTIFIER_MOVES))
def test_unsound_quantifier_moves_refused(name):
    text, reason = UNSOUND_QUANTIFIER_MOVES[name]
    v = check(text)
    assert (v.accepted, v.reason_id) == (False, reason), v.as_dict(detail=True)


@pytest.mark.parametrize("digits", [19, 4301, 20000])
def test_numbers_of_any_length_are_an_ordinary_rejection(digits):
    big = "9" * digits
    cases = {
        f"PROOF\npremises: p\ngoal: p\n{big}. p [premise]\nEND\n": ("STRUCTURE", "LINE_NUMBER", 1),
        f"PROOF\npremises: p\ngoal: p\n1. p [premise]\n2. p [reit {big}]\nEND\n": (
            "STRUCTURE",
            "REF_NOT_EARLIER",
            2,
        ),
        "PROOF\npremises:\ngoal: IMPL(p, p)\n1. | p [assume]\n2. IMPL(p, p) [IMPL_I "
        f"1-{big}]\nEND\n": (
            "STRUCTURE",
            "REF_NOT_EARLIER",
            2,
        ),
    }
    for text, (cls, rid, step) in cases.items():
        v = check(text)
        assert (v.reason_class, v.reason_id, v.rejected_step) == (cls, rid, step)
        assert str(digits) in v.as_dict(detail=True)["detail"]


def test_leading_zeros_do_not_make_a_number_long():
    text = "PROOF\npremises: p\ngoal: p\n1. p [premise]\n2. p [reit " + "0" * 5000 + "1]\nEND\n"
    assert check(text).accepted
