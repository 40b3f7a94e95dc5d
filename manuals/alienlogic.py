"""The AlienLogic manual, rendered for a world.

The manual states the standard calculus only: the formula language, the
proof format, every rule with its citations and an example, and what a
verdict looks like. Nothing of a world's rules appears in it; that is the
point of a world. Examples are checked by the test suite, and the rejection
shown is computed by the checker when the manual is rendered.

`render(world, "md")` gives Markdown, `render(world, "text")` plain text.
The manuals of the standard and the shipped worlds are committed under
manuals/alienlogic/ in both formats; regenerate them with

    python -m alienworlds.manuals.alienlogic          # rewrite stale manuals
    python -m alienworlds.manuals.alienlogic --check  # exit 1 if any is stale
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from alienworlds.ruleset.world import World, shipped_worlds

from alienlogic import FAILURES, RULES, check, load_world
from alienlogic.verdict import ALIEN_AXIOM_DISABLED, ALIEN_SIDE_CONDITION, ANSWER_MISMATCH


@dataclass(frozen=True)
class Example:
    rule: str
    proof: str


def _proof(premises: str, goal: str, *steps: str) -> str:
    return "\n".join(["PROOF", f"premises: {premises}".rstrip(), f"goal: {goal}", *steps, "END"])


# One example per rule, in the order of the rule table.
EXAMPLES: tuple[Example, ...] = (
    Example("premise", _proof("p", "p", "1. p                 [premise]")),
    Example(
        "assume",
        _proof(
            "", "IMPL(p, p)", "1. | p               [assume]", "2. IMPL(p, p)        [IMPL_I 1-1]"
        ),
    ),
    Example(
        "reit",
        _proof(
            "q",
            "IMPL(p, q)",
            "1. q                 [premise]",
            "2. | p               [assume]",
            "3. | q               [reit 1]",
            "4. IMPL(p, q)        [IMPL_I 2-3]",
        ),
    ),
    Example(
        "AND_I",
        _proof(
            "p, q",
            "AND(p, q)",
            "1. p                 [premise]",
            "2. q                 [premise]",
            "3. AND(p, q)         [AND_I 1, 2]",
        ),
    ),
    Example(
        "AND_E1",
        _proof(
            "AND(p, q)", "p", "1. AND(p, q)         [premise]", "2. p                 [AND_E1 1]"
        ),
    ),
    Example(
        "AND_E2",
        _proof(
            "AND(p, q)", "q", "1. AND(p, q)         [premise]", "2. q                 [AND_E2 1]"
        ),
    ),
    Example(
        "OR_I1",
        _proof("p", "OR(p, q)", "1. p                 [premise]", "2. OR(p, q)          [OR_I1 1]"),
    ),
    Example(
        "OR_I2",
        _proof("p", "OR(q, p)", "1. p                 [premise]", "2. OR(q, p)          [OR_I2 1]"),
    ),
    Example(
        "OR_E",
        _proof(
            "OR(p, q)",
            "OR(q, p)",
            "1. OR(p, q)          [premise]",
            "2. | p               [assume]",
            "3. | OR(q, p)        [OR_I2 2]",
            "4. | q               [assume]",
            "5. | OR(q, p)        [OR_I1 4]",
            "6. OR(q, p)          [OR_E 1, 2-3, 4-5]",
        ),
    ),
    Example(
        "IMPL_I",
        _proof(
            "IMPL(p, q), IMPL(q, r)",
            "IMPL(p, r)",
            "1. IMPL(p, q)        [premise]",
            "2. IMPL(q, r)        [premise]",
            "3. | p               [assume]",
            "4. | q               [IMPL_E 1, 3]",
            "5. | r               [IMPL_E 2, 4]",
            "6. IMPL(p, r)        [IMPL_I 3-5]",
        ),
    ),
    Example(
        "IMPL_E",
        _proof(
            "IMPL(p, q), p",
            "q",
            "1. IMPL(p, q)        [premise]",
            "2. p                 [premise]",
            "3. q                 [IMPL_E 1, 2]",
        ),
    ),
    Example(
        "NOT_I",
        _proof(
            "IMPL(p, q), NOT(q)",
            "NOT(p)",
            "1. IMPL(p, q)        [premise]",
            "2. NOT(q)            [premise]",
            "3. | p               [assume]",
            "4. | q               [IMPL_E 1, 3]",
            "5. | BOT             [NOT_E 2, 4]",
            "6. NOT(p)            [NOT_I 3-5]",
        ),
    ),
    Example(
        "NOT_E",
        _proof(
            "p, NOT(p)",
            "BOT",
            "1. p                 [premise]",
            "2. NOT(p)            [premise]",
            "3. BOT               [NOT_E 2, 1]",
        ),
    ),
    Example(
        "BOT_E",
        _proof(
            "p, NOT(p)",
            "q",
            "1. p                 [premise]",
            "2. NOT(p)            [premise]",
            "3. BOT               [NOT_E 1, 2]",
            "4. q                 [BOT_E 3]",
        ),
    ),
    Example(
        "DNE",
        _proof(
            "NOT(NOT(p))", "p", "1. NOT(NOT(p))       [premise]", "2. p                 [DNE 1]"
        ),
    ),
    Example("LEM", _proof("", "OR(p, NOT(p))", "1. OR(p, NOT(p))     [LEM]")),
    Example(
        "FORALL_I",
        _proof(
            "FORALL(x, AND(P(x), Q(x)))",
            "FORALL(y, P(y))",
            "1. FORALL(x, AND(P(x), Q(x)))  [premise]",
            "2. AND(P(c), Q(c))              [FORALL_E 1]",
            "3. P(c)                         [AND_E1 2]",
            "4. FORALL(y, P(y))              [FORALL_I 3]",
        ),
    ),
    Example(
        "FORALL_E",
        _proof(
            "FORALL(x, Likes(x, bob))",
            "Likes(f(alice), bob)",
            "1. FORALL(x, Likes(x, bob))  [premise]",
            "2. Likes(f(alice), bob)      [FORALL_E 1]",
        ),
    ),
    Example(
        "EXISTS_I",
        _proof(
            "Likes(alice, bob)",
            "EXISTS(y, Likes(alice, y))",
            "1. Likes(alice, bob)           [premise]",
            "2. EXISTS(y, Likes(alice, y))  [EXISTS_I 1]",
        ),
    ),
    Example(
        "EXISTS_E",
        _proof(
            "FORALL(x, IMPL(P(x), Q(x))), EXISTS(x, P(x))",
            "EXISTS(y, Q(y))",
            "1. FORALL(x, IMPL(P(x), Q(x)))  [premise]",
            "2. EXISTS(x, P(x))              [premise]",
            "3. | P(c)                       [assume]",
            "4. | IMPL(P(c), Q(c))           [FORALL_E 1]",
            "5. | Q(c)                       [IMPL_E 4, 3]",
            "6. | EXISTS(y, Q(y))            [EXISTS_I 5]",
            "7. EXISTS(y, Q(y))              [EXISTS_E 2, 3-6]",
        ),
    ),
    Example("EQ_I", _proof("", "EQ(a, a)", "1. EQ(a, a)          [EQ_I]")),
    Example(
        "EQ_E",
        _proof(
            "EQ(a, b), Likes(a, a)",
            "Likes(a, b)",
            "1. EQ(a, b)          [premise]",
            "2. Likes(a, a)       [premise]",
            "3. Likes(a, b)       [EQ_E 1, 2]",
        ),
    ),
)

CITATIONS = {
    "premise": "none",
    "assume": "none",
    "LEM": "none",
    "EQ_I": "none",
    "reit": "a",
    "AND_I": "a, b",
    "AND_E1": "a",
    "AND_E2": "a",
    "OR_I1": "a",
    "OR_I2": "a",
    "OR_E": "a, b-c, d-e",
    "IMPL_I": "a-b",
    "IMPL_E": "a, b",
    "NOT_I": "a-b",
    "NOT_E": "a, b",
    "BOT_E": "a",
    "DNE": "a",
    "FORALL_I": "a",
    "FORALL_E": "a",
    "EXISTS_I": "a",
    "EXISTS_E": "a, b-c",
    "EQ_E": "a, b",
}

# A proof with a mistake, to show what a rejection looks like.
REJECTED = _proof(
    "IMPL(p, q), q",
    "p",
    "1. IMPL(p, q)        [premise]",
    "2. q                 [premise]",
    "3. p                 [IMPL_E 1, 2]",
)

INTRO = (
    "AlienLogic is a natural-deduction proof language in the style of Fitch, for "
    "propositional and first-order logic with equality. You write a proof as numbered "
    "lines, each justified by a rule that cites earlier lines; the checker accepts the "
    "proof or tells you the first step it refuses."
)

FORMULAS = [
    ("BOT", "falsum, the contradiction"),
    ("NOT(φ)", "negation"),
    ("AND(φ, ψ)", "conjunction"),
    ("OR(φ, ψ)", "disjunction"),
    ("IMPL(φ, ψ)", "implication, φ implies ψ"),
    ("FORALL(x, φ)", "for every x, φ"),
    ("EXISTS(x, φ)", "for some x, φ"),
    ("EQ(s, t)", "the terms s and t are equal"),
    ("p, Likes(a, b)", "an atom; a predicate applied to terms"),
]

FORMULA_NOTES = (
    "Terms are names beginning with a lower-case letter (`x`, `alice`) and function "
    "applications `f(t, ...)`. A name bound by FORALL or EXISTS is a variable; any other "
    "name in a term is a constant. Atoms and predicates are names beginning with any "
    "letter. The keywords BOT, NOT, AND, OR, IMPL, FORALL, EXISTS and EQ are upper-case "
    "and reserved as whole words only: ORACLE, NOTE and BOTH are ordinary names. Formulas "
    "are equal only when they are written identically (bound variables included)."
)

FORMAT = (
    "A proof starts with `PROOF`, lists its premises (separated by commas, possibly "
    "none) and its goal, then numbered steps, and ends with `END`. A step is "
    "`N. formula [RULE citations]`; steps are numbered 1, 2, 3, ... Citations are line "
    "numbers and ranges `a-b`, separated by commas. `#` starts a comment that runs to "
    "the end of the line. The proof proves its goal when its last line is the goal, "
    "outside every box."
)

BOXES = [
    "Each `|` before a formula puts the line one box deeper. A box opens with an "
    "`assume` line one level deeper than the line before it; an `assume` line at the "
    "depth of the current box closes that box and opens a sibling.",
    "A box closes when a line leaves its depth. The lines of a closed box can never be "
    "cited again, from outside or from a sibling box; the box as a whole is cited as a "
    "range `a-b`, where a is its assumption and b its last line (a line of its own, not "
    "of a box nested in it).",
    "A line may cite any earlier line that is not in a closed box, including the "
    "assumptions of the boxes it is in.",
]

FRESHNESS = (
    "FORALL_I generalises a constant c that occurs in no premise, in no assumption of a "
    "box open at that line, and not in the result; every occurrence of c becomes the "
    "variable. EXISTS_E's box assumes the instance of the existential for a constant c "
    "with the same freshness, and its last line must not mention c. A term put for a "
    "variable must not be captured by a quantifier inside the formula. A premise may be "
    "asserted at most as many times as the premises list it."
)

VERDICT_TEXT = (
    "The checker answers with a verdict. `accepted` is true when every step checks and "
    "the proof ends in its goal. Otherwise `rejected_step` is the first step refused "
    "(or null when the steps check but the goal is not reached), `reason_class` says "
    "what kind of failure it is and `reason_id` which one. A parse error also carries a "
    "`message` with the line, the column and what was expected."
)

CLASSES = [
    ("PARSE_ERROR", "the text is not a proof in this format"),
    ("STRUCTURE", "numbering, boxes, citations of unreachable lines, or the goal not reached"),
    ("UNKNOWN_RULE", "the rule name is not one of the rules below"),
    ("RULE_VIOLATION", "the rule does not allow this step"),
    (ALIEN_AXIOM_DISABLED, "the rule may not be used here"),
    (ALIEN_SIDE_CONDITION, "a further condition on the step is not met"),
    (ANSWER_MISMATCH, "when a task is graded: the premises or the goal are not the task's"),
]


def example(rule: str) -> str:
    return next(e.proof for e in EXAMPLES if e.rule == rule)


def render(world: World, fmt: str = "md") -> str:
    """The manual for `world` as Markdown ("md") or plain text ("text"). It
    states the standard calculus, so it reads the same for every world; `world`
    keeps the call the same as AlienCode's, whose manual uses the world's keywords."""
    doc = _Doc(fmt)
    # No world name: a generated world's name is a hash of its seed, and a guessable seed
    # is found from it, giving back the world and its references (docs/generated-worlds.md).
    doc.title("AlienLogic manual")
    doc.para(INTRO)
    doc.heading("Formulas")
    doc.table(("formula", "meaning"), FORMULAS)
    doc.para(FORMULA_NOTES)
    doc.heading("Proofs")
    doc.para(FORMAT)
    doc.code(example("IMPL_E"))
    doc.heading("Boxes")
    for text in BOXES:
        doc.para(text)
    doc.heading("Rules")
    doc.table(
        ("rule", "citations", "derives"), [(n, CITATIONS[n], r.summary) for n, r in RULES.items()]
    )
    doc.para(FRESHNESS)
    for name, rule in RULES.items():
        doc.subheading(name)
        doc.para(f"Citations: {CITATIONS[name]}. Derives: {rule.summary}.")
        doc.code(example(name))
    doc.heading("Verdicts")
    doc.para(VERDICT_TEXT)
    doc.table(("reason class", "meaning"), CLASSES)
    doc.para("Standard failures have descriptive ids:")
    doc.table(("reason id", "class", "meaning"), [(i, c, m) for i, (c, m) in FAILURES.items()])
    doc.para("For example, this proof cites an implication whose antecedent is not line 2:")
    doc.code(REJECTED)
    doc.para("and is rejected with:")
    doc.code(json.dumps(check(REJECTED).as_dict()))
    return doc.text()


class _Doc:
    """Just enough document structure for Markdown and plain text."""

    def __init__(self, fmt: str) -> None:
        if fmt not in ("md", "text"):
            raise ValueError(f"unknown manual format {fmt!r}")
        self.md = fmt == "md"
        self.parts: list[str] = []

    def title(self, text: str) -> None:
        self.parts.append(f"# {text}" if self.md else f"{text}\n{'=' * len(text)}")

    def heading(self, text: str) -> None:
        self.parts.append(f"## {text}" if self.md else f"{text}\n{'-' * len(text)}")

    def subheading(self, text: str) -> None:
        self.parts.append(f"### `{text}`" if self.md else f"{text}:")

    def para(self, text: str) -> None:
        self.parts.append(text if self.md else textwrap.fill(text.replace("`", ""), width=88))

    def code(self, text: str) -> None:
        self.parts.append(
            f"```\n{text}\n```"
            if self.md
            else "\n".join("    " + line for line in text.splitlines())
        )

    def table(self, header: tuple[str, ...], rows) -> None:
        rows = [tuple(map(str, r)) for r in rows]
        if self.md:
            rows = [tuple(c.replace("|", "\\|") for c in r) for r in rows]
            lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
            lines += [
                "| " + " | ".join(f"`{c}`" if i == 0 else c for i, c in enumerate(r)) + " |"
                for r in rows
            ]
        else:
            widths = [max(len(x) for x in col) for col in zip(header, *rows)]
            lines = [
                "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in (header, *rows)
            ]
            lines.insert(1, "  ".join("-" * w for w in widths))
        self.parts.append("\n".join(lines))

    def text(self) -> str:
        return "\n\n".join(self.parts) + "\n"


COMMITTED = Path(__file__).parent / "alienlogic"
SUFFIXES = {"md": "md", "text": "txt"}


def committed() -> dict[Path, str]:
    """Every committed AlienLogic manual and the text it should have."""
    out: dict[Path, str] = {}
    for name in ["standard", *shipped_worlds("alienlogic")]:
        world = load_world(name)
        for fmt, suffix in SUFFIXES.items():
            out[COMMITTED / f"{name}.{suffix}"] = render(world, fmt)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regenerate the committed AlienLogic manuals.")
    parser.add_argument(
        "--check", action="store_true", help="only report stale manuals (exit 1 if any)"
    )
    args = parser.parse_args(argv)
    stale = [
        path
        for path, text in committed().items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]
    for path in stale:
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(committed()[path], encoding="utf-8")
        print(f"{'stale' if args.check else 'wrote'} {path.relative_to(COMMITTED.parent.parent)}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
