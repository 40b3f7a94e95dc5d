"""The run-time parser (lexer.py, lalr.py: no lark) gives exactly what lark's
parser of grammar.lark gives: the same trees, the same tokens and expected
sets in its errors, the same reported errors, the same limits. And the
shipped tables are what lark derives from the grammar now."""

from __future__ import annotations

import random
import time
from dataclasses import fields, is_dataclass
from pathlib import Path

import pytest
from alienworlds.tasks.bank import load_bank
from fuzzing import share
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark.exceptions import UnexpectedCharacters
from lark.exceptions import UnexpectedToken as LarkUnexpectedToken
from metering_gen import bypass_attempt
from test_properties import programs
from worst_cases import generate, issue_25_cases, issue_cases

from aliencode import Limits, lalr
from aliencode.errors import AlienSyntaxError, short
from aliencode.grammar_build import build_tables, lark_parser, render
from aliencode.lexer import UnexpectedCharacter, lex
from aliencode.parser import Budget, Parser, _Builder, layout

ROOT = Path(__file__).parents[2]

# A world that spells every keyword otherwise, some as another keyword's
# standard spelling, so retyping is exercised in both directions.
RENAMED = {
    "SET": "LET",
    "AS": "BE",
    "UPON": "WHEN",
    "LEST": "ELIF",
    "DEFAULT": "OTHERWISE",
    "SWEEP": "EACH",
    "WHILE": "AS",
    "CRAFT": "DEF",
    "DELIVER": "GIVE",
    "YES": "TRUE",
    "none": "NIL",
    "EMIT": "SAY",
    "PLUCK": "SET",
}
KEYWORDS = {"standard": {}, "renamed": RENAMED}
PARSERS = {name: Parser(words) for name, words in KEYWORDS.items()}
REFERENCES: dict[str, object] = {}


def reference(name: str):
    """lark's parser with the same layout pass and builder (built once)."""
    if name not in REFERENCES:
        parser = PARSERS[name]
        REFERENCES[name] = lark_parser(
            parser.types, Budget.unlimited(), _Builder(parser._operations)
        )
    return REFERENCES[name]


def normal(source: str) -> str:
    text = source.replace("\r\n", "\n")
    return text if text.endswith("\n") else text + "\n"


def flat(tree: object) -> tuple:
    """Every node, field and scalar of `tree` in order, with its type (a
    walk with a stack of its own: trees nest deeper than repr can go)."""
    out: list = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if is_dataclass(node):
            values = [getattr(node, f.name) for f in fields(node)]
            out.append((type(node).__name__, len(values)))
            stack.extend(reversed(values))
        elif isinstance(node, (tuple, list)):
            out.append((type(node).__name__, len(node)))
            stack.extend(reversed(node))
        else:
            out.append((type(node).__name__, repr(node)))
    return tuple(out)


def token_fields(tok) -> tuple:
    return (
        tok.type,
        tok.value,
        tok.start_pos,
        tok.line,
        tok.column,
        tok.end_line,
        tok.end_column,
        tok.end_pos,
    )


def alien(exc: AlienSyntaxError) -> tuple:
    return ("error", exc.kind, exc.message, exc.line, exc.column, exc.at_end)


def budget(limits: Limits, deadline: float | None) -> Budget:
    return Budget(limits, time.monotonic() + limits.wall_seconds if deadline is None else deadline)


def ours(name: str, text: str, limits: Limits, deadline: float | None) -> tuple[tuple, tuple]:
    """(what the tables' parser raised or built, what `Parser` reports)."""
    parser = PARSERS[name]
    table = lalr.tables()
    try:
        tokens = layout(lex(text, table.terminals), parser.types, budget(limits, deadline))
        raw: tuple = ("tree", flat(lalr.parse(tokens, table, parser._reduce)))
    except UnexpectedCharacter as exc:
        raw = ("character", exc.pos, exc.line, exc.column)
    except lalr.UnexpectedToken as exc:
        raw = ("token", token_fields(exc.token), sorted(exc.expected))
    except AlienSyntaxError as exc:
        raw = alien(exc)
    try:
        reported: tuple = ("tree", flat(parser._parse(text, limits, deadline)))
    except AlienSyntaxError as exc:
        reported = alien(exc)
    return raw, reported


def theirs(name: str, text: str, limits: Limits, deadline: float | None) -> tuple[tuple, tuple]:
    """The same through lark's lexer and LALR parser, lark's errors reported
    by the same describer."""
    parser = PARSERS[name]
    lark = reference(name)
    lark.options.postlex.budget = budget(limits, deadline)
    try:
        tree = ("tree", flat(lark.parse(text)))
        return tree, tree
    except UnexpectedCharacters as exc:
        raw = ("character", exc.pos_in_stream, exc.line, exc.column)
        error = UnexpectedCharacter(exc.pos_in_stream, exc.line, exc.column)
    except LarkUnexpectedToken as exc:
        raw = ("token", token_fields(exc.token), sorted(exc.expected))
        error = lalr.UnexpectedToken(exc.token, frozenset(exc.expected))
    except AlienSyntaxError as exc:
        return alien(exc), alien(exc)
    return raw, alien(parser.syntax_error(error, text))


NEVER = float("inf")  # no deadline: a verdict must not depend on the machine's speed


def assert_same(source: str, name: str = "standard", limits: Limits | None = None, deadline=NEVER):
    limits = limits or Limits()
    text = normal(source)
    mine, lark = ours(name, text, limits, deadline), theirs(name, text, limits, deadline)
    assert mine == lark, short(source, 300)


def bank_sources() -> list[str]:
    found = []
    for world in ("main", "demo"):
        for task in load_bank("aliencode", world).tasks:
            found += [task.reference, task.naive, *task.variants, *task.calls, task.program]
    return [source for source in found if source]


def file_sources() -> list[str]:
    paths = [*ROOT.glob("examples/**/*.alien"), *ROOT.glob("benchmarks/**/*.alien")]
    return [path.read_text(encoding="utf-8") for path in sorted(paths)]


def worst_sources() -> list[str]:
    """The worst-case programs a parse may see (longer ones are refused
    before parsing)."""
    cases = [*generate(0), *issue_cases(), *issue_25_cases()]
    sources = (case.source for case in cases if len(case.source) <= Limits().max_source)
    return list(dict.fromkeys(sources))  # each once


CORPUS = bank_sources() + file_sources()


def test_the_shipped_tables_are_what_lark_derives_from_the_grammar():
    shipped = lalr.TABLES.read_text(encoding="utf-8")
    assert shipped == render(build_tables()), "stale: run `python -m aliencode.grammar_build`"


def test_the_corpora_are_not_empty():
    assert len(CORPUS) > 200
    assert len(worst_sources()) > 50


@pytest.mark.parametrize("name", sorted(KEYWORDS))
def test_every_bank_and_example_program(name):
    for source in CORPUS:
        assert_same(source, name)


def test_the_worst_case_programs():
    for source in share(worst_sources()):
        assert_same(source)


def test_generated_metering_programs():
    for seed in range(40):
        assert_same(bypass_attempt(seed).source)


# Pieces that matter to the lexer, the layout pass or the grammar.
PIECES = [
    "(",
    ")",
    ",",
    ":",
    "\n",
    "\r",
    "\r\n",
    " ",
    "    ",
    "\t",
    "\f",
    "#",
    "# note\n",
    '"',
    "'",
    '"a\\"b"',
    "\\",
    "\\\n",
    "-",
    ".",
    "1",
    "-3",
    "2.5e3",
    ".5",
    "1e9",
    "e",
    "x",
    "$",
    "é",
    *sorted({*RENAMED, *RENAMED.values(), "IN", "CEASE", "BYPASS", "IDLE", "NO", "STRAIN"}),
]


def examples(count: int) -> settings:
    return settings(
        max_examples=count,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@st.composite
def mutated(draw) -> str:
    """A corpus or generated program with a few spans replaced by pieces."""
    source = draw(st.sampled_from(CORPUS) | programs())
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(0, len(source)))
        end = draw(st.integers(start, min(len(source), start + 12)))
        source = source[:start] + draw(st.sampled_from(["", *PIECES])) + source[end:]
    return source


@st.composite
def reindented(draw) -> str:
    """A corpus or generated program with some lines' indentation changed
    (dedents to no outer level, unexpected indents, tabs against spaces)."""
    lines = draw(st.sampled_from(CORPUS) | programs()).split("\n")
    for _ in range(draw(st.integers(1, 3))):
        row = draw(st.integers(0, len(lines) - 1))
        margin = draw(st.sampled_from(["", " ", "  ", "   ", "\t", " \t", "      ", "\f"]))
        lines[row] = margin + lines[row].lstrip(" \t\f")
    return "\n".join(lines)


garbage = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)

# Half the inputs under a token limit that may bite anywhere in them.
limits = st.just(Limits()) | st.integers(1, 200).map(lambda n: Limits(max_tokens=n))


@examples(200)
@given(programs(), st.sampled_from(sorted(KEYWORDS)))
def test_generated_programs(source, name):
    assert_same(source, name)


@examples(400)
@given(mutated() | reindented() | garbage, st.sampled_from(sorted(KEYWORDS)), limits)
def test_mutated_and_garbage_inputs(source, name, limit):
    assert_same(source, name, limit)


@examples(100)
@given(st.sampled_from(CORPUS) | programs(), st.integers(1, 3000))
def test_the_deadline_is_looked_at_on_the_same_token(source, copies):
    """A deadline already past stops both parsers at the same token."""
    lines = (source.strip("\n") + "\n") * (1 + copies // max(1, len(source)))
    assert_same(lines, "standard", Limits(), deadline=0.0)


def test_deep_nesting_and_long_inputs():
    rng = random.Random(28)
    for depth in (1, 50, 2000, 20_000):
        assert_same("EMIT(" * depth + "1" + ")" * depth)
        assert_same("EMIT(" * depth + "1" + ")" * (depth - 1))
    for depth in (1, 50, 1000):
        blocks = "".join(" " * i + "WHILE YES:\n" for i in range(depth))
        assert_same(blocks + " " * depth + "IDLE")
        assert_same(blocks + " " * (depth // 2) + "IDLE")
    for _ in range(20):
        words = [rng.choice(PIECES) for _ in range(rng.randrange(2000))]
        assert_same("".join(words))
