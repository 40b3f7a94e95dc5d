from alienworlds.episode import answers
from alienworlds.tasks import answer_text
from alienworlds.tasks.answer_text import refusal


def test_fenced_blocks_tagged_untagged_and_unclosed():
    text = "Here:\n```aliencode\nEMIT(1)\n```\nand\n```\nEMIT(2)\n```\n"
    assert [b.body for b in answer_text.fenced_blocks(text)] == ["EMIT(1)", "EMIT(2)"]
    assert answer_text.pick_block(text, ("aliencode",)) == "EMIT(1)"
    assert answer_text.pick_block("```python\nEMIT(3)\n```", ("aliencode",)) == "EMIT(3)"
    assert (
        answer_text.pick_block("text\n```aliencode\nCRAFT f():\n    DELIVER 1\n", ("aliencode",))
        == "CRAFT f():\n    DELIVER 1"
    )
    assert answer_text.pick_block("no code at all", ("aliencode",)) is None


def test_last_preferred_block_wins_and_output_blocks_are_avoided():
    text = "```aliencode\nEMIT(1)\n```\n```output\n1\n```\n```aliencode\nEMIT(2)\n```"
    assert answer_text.pick_block(text, ("aliencode",), avoid=("output",)) == "EMIT(2)"
    assert answer_text.pick_block("```output\n1\n```", ("aliencode",), avoid=("output",)) is None


def test_predictions():
    assert answer_text.prediction("It prints:\n```output\n3 [1, 2]\nx\n```") == "3 [1, 2]\nx"
    assert answer_text.prediction("I think so.\nPREDICTION: 42 True") == "42 True"
    assert answer_text.prediction("**Prediction:** `7`") == "7"
    assert answer_text.prediction("```\n5\n```") == "5"
    assert answer_text.prediction("no idea") is None


def test_refusal_lines():
    assert refusal("This cannot be proved.\nANSWER: UNPROVABLE")
    assert refusal("**ANSWER:** `UNPROVABLE`.")
    assert not refusal("It is unprovable, I think")


def test_rule_lines_are_read_robustly():
    text = """My report:
- R01: (^ n 27)
* **R02**: IDENTITY
`R03` = `(reverse s)` because strings flip
R04 (SHATTER): (* a b) — multiplication
| R05 | (% b a) |
R06: UNKNOWN
R07: (** b a
R99: (+ a b)
"""
    got = answers.rule_lines(text, ["R01", "R02", "R03", "R04", "R05", "R06", "R07"])
    assert got == {
        "R01": "(^ n 27)",
        "R02": "IDENTITY",
        "R03": "(reverse s)",
        "R04": "(* a b)",
        "R05": "(% b a)",
        "R06": "UNKNOWN",
        "R07": "(** b a",
    }


def test_rule_expression_with_a_parenthesis_inside_a_string():
    assert answers.rule_lines('R25: (join ")" (reverse args)) ok', ["R25"]) == {
        "R25": '(join ")" (reverse args))'
    }
