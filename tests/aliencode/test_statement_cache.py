"""The parser builds a program's tree from the trees of its pieces (runs of
statements of the top level), each parsed on its own or found parsed before
(aliencode/parser.py, `Parser._by_pieces`): the tree is the one the whole
text parses to, and an error is the one the whole parse reports."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aliencode import AlienSyntaxError, Limits, lalr
from aliencode import parser as P
from aliencode.lexer import lex
from aliencode.world_schema import load

sys.path.insert(0, str(Path(__file__).parent))
from test_properties import PROPERTY, programs  # noqa: E402

MAIN = load("main")
UNLIMITED = P.Budget(Limits(), float("inf"))


def whole(parser: P.Parser, source: str):
    """The tree of the whole text parsed in one go, or the error."""
    text = P.normalized(source)
    tokens = P.layout(lex(text, parser._tables.terminals), parser.types, UNLIMITED)
    try:
        return lalr.parse(tokens, parser._tables, parser._reduce)
    except Exception as exc:  # noqa: BLE001 - compared by type
        return type(exc)


def error(parser: P.Parser, source: str) -> str:
    parser._trees.clear()
    with pytest.raises(AlienSyntaxError) as caught:
        parser.parse(source)
    return str(caught.value)


LIBRARY = (
    "CRAFT f(x):\n    DELIVER SHATTER(x, 1)\nCRAFT g(xs):\n    SWEEP v IN xs:\n        EMIT(f(v))\n"
)

SHAPES = [
    LIBRARY + "g(STRAND(1, 2))",
    "\n\n# a comment\n" + LIBRARY + "# between\n\nEMIT(1)\n# at the end",
    # UPON with LEST and DEFAULT at the top level: one statement
    "SET a AS 2\nUPON OVER(a, 3):\n    EMIT(1)\nLEST UNDER(a, 1):\n    EMIT(2)\nDEFAULT:\n"
    "    EMIT(3)\nEMIT(a)",
    # a line continued with a backslash, and brackets over lines
    "SET a AS SHATTER(1, \\\n    2)\nEMIT(STRAND(1,\n2,\n    3))\nEMIT(a)",
    LIBRARY.replace("\n", "\r\n") + "EMIT(f(2))",
    "CRAFT h(x): DELIVER x\nEMIT(h(1))",
]


@pytest.mark.parametrize("source", SHAPES)
@pytest.mark.parametrize("keywords", [{}, dict(MAIN.keywords)], ids=["standard", "main"])
def test_statements_parse_as_the_whole_text(source: str, keywords) -> None:
    parser = P.Parser(keywords)
    for _ in range(2):  # parsed, then found
        parser._trees.clear()
        assert parser.parse(source) == whole(parser, source)


@PROPERTY
@given(programs(), programs())
def test_generated_programs_parse_as_the_whole_text(first: str, second: str) -> None:
    parser = P.Parser()
    for source in (first, second, first + "\n" + second, second + "\n" + first):
        parser._trees.clear()
        assert parser.parse(source) == whole(parser, source)


def test_a_statement_is_shared_where_it_stands_at_the_same_place() -> None:
    parser = P.Parser()
    a = parser.parse(LIBRARY + "EMIT(f(1))")
    b = parser.parse(LIBRARY + "EMIT(f(2))")
    assert a.body[0] is b.body[0] and a.body[1] is b.body[1]
    moved = parser.parse("EMIT(0)\n" + LIBRARY)
    assert moved.body[1] == P.Parser().parse("EMIT(0)\n" + LIBRARY).body[1]
    assert moved.body[1].pos.line == 2 and moved.body[1] != a.body[0]


@pytest.mark.parametrize(
    "source",
    [
        LIBRARY + "EMIT(f(1)\nEMIT(2)\nSET ` AS 1",  # an unclosed call before a bad character
        LIBRARY + "LEST YES:\n    EMIT(1)",  # LEST with no UPON
        "EMIT(1)\n  EMIT(2)",  # an unexpected indent
        LIBRARY + "SET x AS 1\n      SET y AS 2\n    SET z AS 3",  # a dedent to no level
        "CRAFT f(x):\nEMIT(1)",  # a suite without its block
    ],
)
def test_errors_are_those_of_the_whole_parse(source: str) -> None:
    parser = P.Parser()
    parser.parse(LIBRARY + "EMIT(0)")  # its statements are found, the rest is not
    found = error(parser, source)
    parser._by_pieces = lambda text, budget: None  # the whole parse only
    assert found == error(parser, source)


def test_limits_hold_over_the_whole_text() -> None:
    parser = P.Parser()
    source = LIBRARY * 3 + "EMIT(" + "1, " * 60 + "1)"
    parser.parse(source)
    with pytest.raises(AlienSyntaxError, match="tokens"):
        parser.parse(source, Limits(max_tokens=80))


@given(st.lists(st.integers(0, 30), min_size=1, max_size=40))
def test_the_statements_held_stay_within_their_bound(sizes: list[int]) -> None:
    parser = P.Parser()
    bound = P.PIECE_CACHE_CHARS
    try:
        P.PIECE_CACHE_CHARS = 300
        for k in sizes:
            parser.parse(f"EMIT({'SHATTER(1, ' * k}1{')' * k})\nEMIT({k})")
            held = sum(len(text) for text, _ in parser._pieces)
            assert parser._pieces_held == held <= 300
    finally:
        P.PIECE_CACHE_CHARS = bound


# Lines that begin pieces and lines that must not: blocks, LEST and DEFAULT
# going on with an UPON, brackets and continuations over lines, comments,
# blank and badly indented lines, and a renamed keyword's standard spelling.
LINES = [
    "SET a AS 1",
    "EMIT(a)",
    "UPON OVER(a, 0):",
    "LEST YES:",
    "DEFAULT:",
    "    EMIT(1)",
    "  EMIT(2)",
    "\tSET a AS 3",
    "CRAFT f(x):",
    "    DELIVER x",
    "CRAFT g(): DELIVER 1",
    "EMIT(STRAND(1,",
    "2))",
    ")",
    "SET b AS SHATTER(1, \\",
    "\\",
    "# a comment",
    "",
    "   ",
    "f(2)",
    "SWEEP v IN STRAND(1, 2):",
    "        EMIT(v)",
    "EMIT('unclosed",
    "-1",
    "ELSEWHERE",
    "LESTER(1)",
]


def outcome(parser: P.Parser, source: str):
    parser._trees.clear()
    try:
        return parser.parse(source)
    except AlienSyntaxError as exc:
        return (str(exc), exc.kind)


@PROPERTY
@given(
    st.lists(st.lists(st.sampled_from(LINES), max_size=10), min_size=1, max_size=4),
    st.sampled_from([{}, dict(MAIN.keywords), {"LEST": "ELSEWHERE"}]),
)
def test_any_lines_parse_as_the_whole_text(texts: list[list[str]], keywords) -> None:
    """Pieces parsed in one text and found in others give what the whole
    parse gives, tree or error, whatever lines the texts are made of."""
    parser, alone = P.Parser(keywords), P.Parser(keywords)
    alone._by_pieces = lambda text, budget: None  # the whole parse only
    sources = ["\n".join(lines) for lines in texts]
    sources += [a + "\n" + b for a in sources for b in sources]
    for source in sources:
        assert outcome(parser, source) == outcome(alone, source)
