"""The main world: its shape, and a probing plan of at most 48 proofs (the
protocol's budget) that exposes every patch and the condition behind it."""

from collections import Counter

import pytest

from alienlogic import check, load_world
from alienlogic.verdict import ALIEN_AXIOM_DISABLED, ALIEN_SIDE_CONDITION

WORLD = load_world("main")


def proof(premises: str, goal: str, body: str) -> str:
    lines = [line.strip() for line in body.strip().splitlines()]
    return f"PROOF\npremises: {premises}\ngoal: {goal}\n" + "\n".join(lines) + "\nEND\n"


# (proof, expected): "ok" when accepted, else the rule id it is refused with.
# Each patch has a probe that triggers it; most have a contrasting probe that
# shows what the rule does accept, which pins the condition down.
PLAN = [
    (proof("", "OR(p, NOT(p))", "1. OR(p, NOT(p)) [LEM]"), "Q3"),
    (proof("NOT(NOT(p))", "p", "1. NOT(NOT(p)) [premise]\n2. p [DNE 1]"), "Z14"),
    (proof("NOT(NOT(p))", "NOT(NOT(p))", "1. NOT(NOT(p)) [premise]\n2. NOT(NOT(p)) [DNE 1]"), "ok"),
    (proof("p", "OR(q, p)", "1. p [premise]\n2. OR(q, p) [OR_I2 1]"), "M8"),
    (proof("AND(p, q)", "q", "1. AND(p, q) [premise]\n2. q [AND_E2 1]"), "X21"),
    (proof("AND(p, q)", "p", "1. AND(p, q) [premise]\n2. p [AND_E2 1]"), "ok"),
    (
        proof("IMPL(p, q), p", "q", "1. IMPL(p, q) [premise]\n2. p [premise]\n3. q [IMPL_E 1, 2]"),
        "F5",
    ),
    (
        proof("IMPL(p, q), p", "q", "1. IMPL(p, q) [premise]\n2. p [premise]\n3. q [IMPL_E 2, 1]"),
        "ok",
    ),
    (
        proof(
            "IMPL(p, q), p",
            "AND(q, q)",
            """
        1. IMPL(p, q) [premise]
        2. p [premise]
        3. q [IMPL_E 2, 1]
        4. q [IMPL_E 2, 1]
        5. AND(q, q) [AND_I 3, 4]""",
        ),
        "W9",
    ),
    (
        proof(
            "IMPL(p, q), p",
            "AND(q, q)",
            """
        1. IMPL(p, q) [premise]
        2. p [premise]
        3. q [IMPL_E 2, 1]
        4. q [reit 3]
        5. AND(q, q) [AND_I 3, 4]""",
        ),
        "ok",
    ),
    (
        proof("p, q", "AND(q, p)", "1. p [premise]\n2. q [premise]\n3. AND(q, p) [AND_I 2, 1]"),
        "J17",
    ),
    (proof("p", "AND(p, p)", "1. p [premise]\n2. AND(p, p) [AND_I 1, 1]"), "J17"),
    (proof("p, q", "AND(p, q)", "1. p [premise]\n2. q [premise]\n3. AND(p, q) [AND_I 1, 2]"), "ok"),
    (proof("p, NOT(p)", "BOT", "1. p [premise]\n2. NOT(p) [premise]\n3. BOT [NOT_E 2, 1]"), "P2"),
    (proof("p, NOT(p)", "BOT", "1. p [premise]\n2. NOT(p) [premise]\n3. BOT [NOT_E 1, 2]"), "ok"),
    (
        proof(
            "p, NOT(p)",
            "AND(BOT, BOT)",
            """
        1. p [premise]
        2. NOT(p) [premise]
        3. BOT [NOT_E 1, 2]
        4. BOT [NOT_E 1, 2]
        5. AND(BOT, BOT) [AND_I 3, 4]""",
        ),
        "N26",
    ),
    (
        proof(
            "OR(p, p)",
            "AND(p, p)",
            """
        1. OR(p, p) [premise]
        2. | p [assume]
        3. | p [assume]
        4. p [OR_E 1, 2-2, 3-3]
        5. | p [assume]
        6. | p [assume]
        7. p [OR_E 1, 5-5, 6-6]
        8. AND(p, p) [AND_I 4, 7]""",
        ),
        "H11",
    ),
    (
        proof(
            "OR(p, p)",
            "AND(p, p)",
            """
        1. OR(p, p) [premise]
        2. | p [assume]
        3. | p [assume]
        4. p [OR_E 1, 2-2, 3-3]
        5. p [reit 4]
        6. AND(p, p) [AND_I 4, 5]""",
        ),
        "ok",
    ),
    (
        proof(
            "p, NOT(p)",
            "q",
            "1. p [premise]\n2. NOT(p) [premise]\n3. BOT [NOT_E 1, 2]\n4. q [BOT_E 3]",
        ),
        "D30",
    ),
    (
        proof(
            "p, NOT(p)",
            "IMPL(r, q)",
            """
        1. p [premise]
        2. NOT(p) [premise]
        3. BOT [NOT_E 1, 2]
        4. | r [assume]
        5. | q [BOT_E 3]
        6. IMPL(r, q) [IMPL_I 4-5]""",
        ),
        "ok",
    ),
    (
        proof(
            "",
            "IMPL(p, IMPL(q, IMPL(r, p)))",
            """
        1. | p [assume]
        2. | | q [assume]
        3. | | | r [assume]
        4. | | | p [reit 1]
        5. | | IMPL(r, p) [IMPL_I 3-4]
        6. | IMPL(q, IMPL(r, p)) [IMPL_I 2-5]
        7. IMPL(p, IMPL(q, IMPL(r, p))) [IMPL_I 1-6]""",
        ),
        "V6",
    ),
    (
        proof(
            "",
            "IMPL(p, IMPL(q, p))",
            """
        1. | p [assume]
        2. | | q [assume]
        3. | | p [reit 1]
        4. | IMPL(q, p) [IMPL_I 2-3]
        5. IMPL(p, IMPL(q, p)) [IMPL_I 1-4]""",
        ),
        "ok",
    ),
    (proof("", "IMPL(p, p)", "1. | p [assume]\n2. IMPL(p, p) [IMPL_I 1-1]"), "S19"),
    (
        proof("", "IMPL(p, p)", "1. | p [assume]\n2. | p [reit 1]\n3. IMPL(p, p) [IMPL_I 1-2]"),
        "S19",
    ),
    (
        proof(
            "q",
            "IMPL(p, q)",
            "1. q [premise]\n2. | p [assume]\n3. | q [reit 1]\n4. IMPL(p, q) [IMPL_I 2-3]",
        ),
        "G4",
    ),
    (
        proof("q", "IMPL(p, q)", "1. | p [assume]\n2. | q [premise]\n3. IMPL(p, q) [IMPL_I 1-2]"),
        "Y13",
    ),
    (
        proof(
            "q",
            "IMPL(p, q)",
            """
        1. q [premise]
        2. | p [assume]
        3. | AND(q, p) [AND_I 1, 2]
        4. | q [AND_E1 3]
        5. IMPL(p, q) [IMPL_I 2-4]""",
        ),
        "ok",
    ),
    (
        proof(
            "p",
            "NOT(NOT(p))",
            "1. p [premise]\n2. | NOT(p) [assume]\n3. | BOT [NOT_E 1, 2]\n4. NOT(NOT(p)) [NOT_I "
            "2-3]",
        ),
        "L27",
    ),
    (
        proof(
            "NOT(p)",
            "NOT(AND(p, q))",
            """
        1. NOT(p) [premise]
        2. | AND(p, q) [assume]
        3. | p [AND_E1 2]
        4. | BOT [NOT_E 3, 1]
        5. NOT(AND(p, q)) [NOT_I 2-4]""",
        ),
        "ok",
    ),
    (
        proof(
            "",
            "IMPL(FORALL(x, P(x)), FORALL(y, P(y)))",
            """
        1. | FORALL(x, P(x)) [assume]
        2. | P(c) [FORALL_E 1]
        3. | FORALL(y, P(y)) [FORALL_I 2]
        4. IMPL(FORALL(x, P(x)), FORALL(y, P(y))) [IMPL_I 1-3]""",
        ),
        "C8",
    ),
    (
        proof(
            "FORALL(x, P(x))",
            "FORALL(y, P(y))",
            "1. FORALL(x, P(x)) [premise]\n2. P(c) [FORALL_E 1]\n3. FORALL(y, P(y)) [FORALL_I 2]",
        ),
        "ok",
    ),
    (
        proof(
            "FORALL(x, P(x))",
            "AND(P(a), P(b))",
            """
        1. FORALL(x, P(x)) [premise]
        2. P(a) [FORALL_E 1]
        3. P(b) [FORALL_E 1]
        4. AND(P(a), P(b)) [AND_I 2, 3]""",
        ),
        "U15",
    ),
    (
        proof(
            "FORALL(x, P(x))", "P(f(a))", "1. FORALL(x, P(x)) [premise]\n2. P(f(a)) [FORALL_E 1]"
        ),
        "E22",
    ),
    (proof("FORALL(x, P(x))", "P(a)", "1. FORALL(x, P(x)) [premise]\n2. P(a) [FORALL_E 1]"), "ok"),
    (proof("P(a)", "EXISTS(x, P(x))", "1. P(a) [premise]\n2. EXISTS(x, P(x)) [EXISTS_I 1]"), "B40"),
    (
        proof(
            "P(a)",
            "EXISTS(x, P(x))",
            """
        1. P(a) [premise]
        2. | P(a) [assume]
        3. | EXISTS(x, P(x)) [EXISTS_I 2]
        4. IMPL(P(a), EXISTS(x, P(x))) [IMPL_I 2-3]
        5. EXISTS(x, P(x)) [IMPL_E 1, 4]""",
        ),
        "ok",
    ),
    (
        proof(
            "",
            "IMPL(P(f(a)), EXISTS(x, P(x)))",
            """
        1. | P(f(a)) [assume]
        2. | EXISTS(x, P(x)) [EXISTS_I 1]
        3. IMPL(P(f(a)), EXISTS(x, P(x))) [IMPL_I 1-2]""",
        ),
        "K36",
    ),
    (
        proof(
            "",
            "IMPL(EXISTS(x, P(x)), EXISTS(y, P(y)))",
            """
        1. | EXISTS(x, P(x)) [assume]
        2. | | P(c) [assume]
        3. | | EXISTS(y, P(y)) [EXISTS_I 2]
        4. | EXISTS(y, P(y)) [EXISTS_E 1, 2-3]
        5. IMPL(EXISTS(x, P(x)), EXISTS(y, P(y))) [IMPL_I 1-4]""",
        ),
        "W2",
    ),
    (
        proof(
            "EXISTS(x, P(x))",
            "EXISTS(y, P(y))",
            """
        1. EXISTS(x, P(x)) [premise]
        2. | P(c) [assume]
        3. | EXISTS(y, P(y)) [EXISTS_I 2]
        4. EXISTS(y, P(y)) [EXISTS_E 1, 2-3]""",
        ),
        "ok",
    ),
    (
        proof(
            "EQ(a, b), P(a)",
            "P(b)",
            "1. EQ(a, b) [premise]\n2. P(a) [premise]\n3. P(b) [EQ_E 1, 2]",
        ),
        "T7",
    ),
    (
        proof(
            "EQ(a, b), P(a)",
            "P(b)",
            "1. EQ(a, b) [premise]\n2. P(a) [premise]\n3. P(b) [EQ_E 2, 1]",
        ),
        "ok",
    ),
    (
        proof(
            "",
            "IMPL(p, EQ(a, a))",
            "1. | p [assume]\n2. | EQ(a, a) [EQ_I]\n3. IMPL(p, EQ(a, a)) [IMPL_I 1-2]",
        ),
        "A33",
    ),
    (
        proof(
            "",
            "IMPL(p, EQ(a, a))",
            "1. EQ(a, a) [EQ_I]\n2. | p [assume]\n3. | EQ(a, a) [reit 1]\n4. IMPL(p, EQ(a, a)) "
            "[IMPL_I 2-3]",
        ),
        "ok",
    ),
]


def test_the_world_has_24_opaque_patches():
    rules = WORLD.rules
    assert len(rules) == 24 and len({r.id for r in rules}) == 24
    ids = [r.id for r in rules]
    assert not any(i.startswith("R") and i[1:].isdigit() for i in ids)
    numbers = sorted(int("".join(c for c in i if c.isdigit())) for i in ids)
    assert numbers != list(range(numbers[0], numbers[0] + 24))  # not contiguous
    kinds = Counter(
        "disabled" if r.disabled else "conclusion" if r.conclusion else "require" for r in rules
    )
    assert kinds["disabled"] >= 2 and kinds["conclusion"] >= 2
    first_order = {"FORALL_I", "FORALL_E", "EXISTS_I", "EXISTS_E", "EQ_I", "EQ_E"}
    assert sum(r.target in first_order for r in rules) >= 6
    untouched = {"assume", "AND_E1", "OR_I1"}
    assert not untouched & {r.target for r in rules}


def test_the_plan_fits_the_budget_and_exposes_every_patch():
    assert len(PLAN) <= 48
    exposed = {expected for _, expected in PLAN if expected != "ok"}
    assert exposed == {r.id for r in WORLD.rules}


@pytest.mark.parametrize(
    "text, expected", PLAN, ids=[f"{i:02d}-{e}" for i, (_, e) in enumerate(PLAN, 1)]
)
def test_probe(text, expected):
    v = check(text, WORLD)
    if expected == "ok":
        assert v.accepted, v.as_dict(detail=True)
    else:
        assert not v.accepted and v.reason_id == expected, v.as_dict(detail=True)
        assert v.reason_class in (ALIEN_AXIOM_DISABLED, ALIEN_SIDE_CONDITION)
        assert check(text).accepted  # the manual's calculus accepts what the world refuses
