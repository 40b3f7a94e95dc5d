"""Textbook proofs the standard calculus must accept."""

from pathlib import Path

import pytest

from alienlogic import Theorem, check, parse_formula, parse_proof

ROOT = Path(__file__).resolve().parents[2]


def proof(premises: str, goal: str, body: str) -> str:
    return f"PROOF\npremises: {premises}\ngoal: {goal}\n{body.strip()}\nEND\n"


PROPOSITIONAL = {
    "modus ponens": proof(
        "IMPL(p, q), p",
        "q",
        """
1. IMPL(p, q)   [premise]
2. p            [premise]
3. q            [IMPL_E 1, 2]
""",
    ),
    "contraposition": proof(
        "IMPL(p, q)",
        "IMPL(NOT(q), NOT(p))",
        """
1. IMPL(p, q)             [premise]
2. | NOT(q)               [assume]
3. | | p                  [assume]
4. | | q                  [IMPL_E 1, 3]
5. | | BOT                [NOT_E 2, 4]
6. | NOT(p)               [NOT_I 3-5]
7. IMPL(NOT(q), NOT(p))   [IMPL_I 2-6]
""",
    ),
    "de morgan": proof(
        "NOT(OR(p, q))",
        "AND(NOT(p), NOT(q))",
        """
1. NOT(OR(p, q))          [premise]
2. | p                    [assume]
3. | OR(p, q)             [OR_I1 2]
4. | BOT                  [NOT_E 1, 3]
5. NOT(p)                 [NOT_I 2-4]
6. | q                    [assume]
7. | OR(p, q)             [OR_I2 6]
8. | BOT                  [NOT_E 7, 1]
9. NOT(q)                 [NOT_I 6-8]
10. AND(NOT(p), NOT(q))   [AND_I 5, 9]
""",
    ),
    "excluded middle from double negation": proof(
        "",
        "OR(p, NOT(p))",
        """
1. | NOT(OR(p, NOT(p)))        [assume]
2. | | p                       [assume]
3. | | OR(p, NOT(p))           [OR_I1 2]
4. | | BOT                     [NOT_E 1, 3]
5. | NOT(p)                    [NOT_I 2-4]
6. | OR(p, NOT(p))             [OR_I2 5]
7. | BOT                       [NOT_E 1, 6]
8. NOT(NOT(OR(p, NOT(p))))     [NOT_I 1-7]
9. OR(p, NOT(p))               [DNE 8]
""",
    ),
    "distribution": proof(
        "AND(p, OR(q, r))",
        "OR(AND(p, q), AND(p, r))",
        """
1. AND(p, OR(q, r))            [premise]
2. p                           [AND_E1 1]
3. OR(q, r)                    [AND_E2 1]
4. | q                         [assume]
5. | AND(p, q)                 [AND_I 2, 4]
6. | OR(AND(p, q), AND(p, r))  [OR_I1 5]
7. | r                         [assume]
8. | AND(p, r)                 [AND_I 2, 7]
9. | OR(AND(p, q), AND(p, r))  [OR_I2 8]
10. OR(AND(p, q), AND(p, r))   [OR_E 3, 4-6, 7-9]
""",
    ),
    "explosion": proof(
        "p, NOT(p)",
        "q",
        """
1. p        [premise]
2. NOT(p)   [premise]
3. BOT      [NOT_E 1, 2]
4. q        [BOT_E 3]
""",
    ),
    "weakening with reit": proof(
        "q",
        "IMPL(p, IMPL(r, q))",
        """
1. q                     [premise]
2. | p                   [assume]
3. | | r                 [assume]
4. | | q                 [reit 1]
5. | IMPL(r, q)          [IMPL_I 3-4]
6. IMPL(p, IMPL(r, q))   [IMPL_I 2-5]
""",
    ),
    "repeated premise": proof(
        "p, p",
        "AND(p, p)",
        """
1. p          [premise]
2. p          [premise]
3. AND(p, p)  [AND_I 1, 2]
""",
    ),
    "ordinary names that look like keywords": proof(
        "IMPL(NOTE, ORACLE), NOTE",
        "AND(ORACLE, IMPL(BOTH, BOTH))",
        """
1. IMPL(NOTE, ORACLE)              [premise]
2. NOTE                            [premise]
3. ORACLE                          [IMPL_E 2, 1]
4. | BOTH                          [assume]
5. IMPL(BOTH, BOTH)                [IMPL_I 4-4]
6. AND(ORACLE, IMPL(BOTH, BOTH))   [AND_I 3, 5]
""",
    ),
}

FIRST_ORDER = {
    "universal distributes over conjunction": proof(
        "FORALL(x, AND(P(x), Q(x)))",
        "AND(FORALL(x, P(x)), FORALL(x, Q(x)))",
        """
1. FORALL(x, AND(P(x), Q(x)))              [premise]
2. AND(P(c), Q(c))                         [FORALL_E 1]
3. P(c)                                    [AND_E1 2]
4. Q(c)                                    [AND_E2 2]
5. FORALL(x, P(x))                         [FORALL_I 3]
6. FORALL(x, Q(x))                         [FORALL_I 4]
7. AND(FORALL(x, P(x)), FORALL(x, Q(x)))   [AND_I 5, 6]
""",
    ),
    "existential syllogism": proof(
        "FORALL(x, IMPL(P(x), Q(x))), EXISTS(x, P(x))",
        "EXISTS(y, Q(y))",
        """
1. FORALL(x, IMPL(P(x), Q(x)))  [premise]
2. EXISTS(x, P(x))              [premise]
3. | P(c)                       [assume]
4. | IMPL(P(c), Q(c))           [FORALL_E 1]
5. | Q(c)                       [IMPL_E 4, 3]
6. | EXISTS(y, Q(y))            [EXISTS_I 5]
7. EXISTS(y, Q(y))              [EXISTS_E 2, 3-6]
""",
    ),
    "quantifier negation": proof(
        "NOT(EXISTS(x, P(x)))",
        "FORALL(x, NOT(P(x)))",
        """
1. NOT(EXISTS(x, P(x)))   [premise]
2. | P(c)                 [assume]
3. | EXISTS(x, P(x))      [EXISTS_I 2]
4. | BOT                  [NOT_E 1, 3]
5. NOT(P(c))              [NOT_I 2-4]
6. FORALL(x, NOT(P(x)))   [FORALL_I 5]
""",
    ),
    "swap universals": proof(
        "FORALL(x, FORALL(y, Likes(x, y)))",
        "FORALL(y, FORALL(x, Likes(x, y)))",
        """
1. FORALL(x, FORALL(y, Likes(x, y)))   [premise]
2. FORALL(y, Likes(a, y))              [FORALL_E 1]
3. Likes(a, b)                         [FORALL_E 2]
4. FORALL(x, Likes(x, b))              [FORALL_I 3]
5. FORALL(y, FORALL(x, Likes(x, y)))   [FORALL_I 4]
""",
    ),
    "exists-forall to forall-exists": proof(
        "EXISTS(x, FORALL(y, Likes(x, y)))",
        "FORALL(y, EXISTS(x, Likes(x, y)))",
        """
1. EXISTS(x, FORALL(y, Likes(x, y)))   [premise]
2. | FORALL(y, Likes(c, y))            [assume]
3. | Likes(c, d)                       [FORALL_E 2]
4. | EXISTS(x, Likes(x, d))            [EXISTS_I 3]
5. EXISTS(x, Likes(x, d))              [EXISTS_E 1, 2-4]
6. FORALL(y, EXISTS(x, Likes(x, y)))   [FORALL_I 5]
""",
    ),
    "a variable name as the arbitrary constant": proof(
        "FORALL(x, P(x))",
        "FORALL(x, OR(P(x), Q(x)))",
        """
1. FORALL(x, P(x))              [premise]
2. P(x)                         [FORALL_E 1]
3. OR(P(x), Q(x))               [OR_I1 2]
4. FORALL(x, OR(P(x), Q(x)))    [FORALL_I 3]
""",
    ),
    "symmetry of equality": proof(
        "EQ(a, b)",
        "EQ(b, a)",
        """
1. EQ(a, b)   [premise]
2. EQ(a, a)   [EQ_I]
3. EQ(b, a)   [EQ_E 1, 2]
""",
    ),
    "transitivity of equality": proof(
        "EQ(a, b), EQ(b, c)",
        "EQ(a, c)",
        """
1. EQ(a, b)   [premise]
2. EQ(b, c)   [premise]
3. EQ(a, c)   [EQ_E 2, 1]
""",
    ),
    "function terms and partial existential generalisation": proof(
        "Likes(f(a), f(a))",
        "EXISTS(z, Likes(z, f(a)))",
        """
1. Likes(f(a), f(a))          [premise]
2. EXISTS(z, Likes(z, f(a)))  [EXISTS_I 1]
""",
    ),
    "instance with a renamed bound variable": proof(
        "FORALL(x, EXISTS(y, Likes(x, y)))",
        "EXISTS(y1, Likes(y, y1))",
        """
1. FORALL(x, EXISTS(y, Likes(x, y)))   [premise]
2. EXISTS(y1, Likes(y, y1))            [FORALL_E 1]
""",
    ),
}


@pytest.mark.parametrize("name", list(PROPOSITIONAL) + list(FIRST_ORDER))
def test_textbook_proof_accepted(name):
    text = {**PROPOSITIONAL, **FIRST_ORDER}[name]
    v = check(text)
    assert v.accepted, v.as_dict(detail=True)
    assert v.as_dict() == {
        "accepted": True,
        "verifier_passed": True,
        "goal_match": True,
        "rejected_step": None,
        "reason_class": None,
        "reason_id": None,
        "n_steps": len(parse_proof(text).steps),
    }


def test_shipped_examples_accepted():
    files = sorted((ROOT / "examples").glob("*.proof"))
    assert len(files) >= 2
    for path in files:
        assert check(path.read_text()).accepted, path.name


def test_graded_against_its_own_task():
    text = PROPOSITIONAL["modus ponens"]
    task = Theorem((parse_formula("p"), parse_formula("IMPL(p, q)")), parse_formula("q"))
    assert check(text, task=task).accepted  # premises compare as a multiset


def test_comments_and_blank_lines_are_ignored():
    text = (
        PROPOSITIONAL["modus ponens"]
        .replace("PROOF\n", "# a classic\nPROOF  # begins\n\n")
        .replace("[IMPL_E 1, 2]", "[IMPL_E 1, 2]   # modus ponens\n   \n")
    )
    assert check(text).accepted
    assert parse_proof(text) == parse_proof(PROPOSITIONAL["modus ponens"])


def test_printed_proof_reads_back_and_checks_the_same():
    for text in FIRST_ORDER.values():
        p = parse_proof(text)
        assert parse_proof(str(p)) == p
        assert check(str(p)).accepted
