"""Pygments lexers for AlienCode and AlienLogic, generated from keyword tables.

`AlienCodeLexer` and `AlienLogicLexer` (registered as pygments plugins, so
`pygmentize -l aliencode` works) use the standard spellings;
`aliencode_lexer(world)` builds one for a world's renamed keywords.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pygments.lexer import RegexLexer, words
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)

from aliencode.sites import CONSTANT_KEYWORDS, OPERATION_BY_NAME, STATEMENT_KEYWORDS


def _aliencode_tokens(keywords: Mapping[str, str]) -> dict[str, list]:
    def spell(names):
        return [keywords.get(n, n) for n in names]

    return {
        "root": [
            (r"\s+", Whitespace),
            (r"#.*?$", Comment.Single),
            (r'"(?:[^"\\\n]|\\.)*"', String.Double),
            (r"'(?:[^'\\\n]|\\.)*'", String.Single),
            (r"-?(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?|-?\d+[eE][+-]?\d+", Number.Float),
            (r"-?\d+", Number.Integer),
            (words(spell(STATEMENT_KEYWORDS), suffix=r"\b"), Keyword),
            (words(spell(CONSTANT_KEYWORDS), suffix=r"\b"), Keyword.Constant),
            (words(spell(OPERATION_BY_NAME), suffix=r"\b"), Name.Builtin),
            (r"[A-Za-z_][A-Za-z0-9_]*", Name),
            (r"[(),:]", Punctuation),
            (r".", Text),
        ]
    }


class AlienCodeLexer(RegexLexer):
    """AlienCode, in the standard keywords."""

    name = "AlienCode"
    aliases = ["aliencode"]
    filenames = ["*.alien"]
    tokens = _aliencode_tokens({})


def aliencode_lexer(keywords: Mapping[str, str]) -> RegexLexer:
    """A lexer for a world that renames keywords."""
    if not keywords:
        return AlienCodeLexer()
    cls = type(
        "WorldAlienCodeLexer",
        (RegexLexer,),
        {"name": "AlienCode", "aliases": [], "tokens": _aliencode_tokens(keywords)},
    )
    return cls()


LOGIC_KEYWORDS = ("BOT", "NOT", "AND", "OR", "IMPL", "FORALL", "EXISTS", "EQ")
LOGIC_RULES = (
    "premise",
    "assume",
    "reit",
    "AND_I",
    "AND_E1",
    "AND_E2",
    "OR_I1",
    "OR_I2",
    "OR_E",
    "IMPL_I",
    "IMPL_E",
    "NOT_I",
    "NOT_E",
    "BOT_E",
    "DNE",
    "LEM",
    "FORALL_I",
    "FORALL_E",
    "EXISTS_I",
    "EXISTS_E",
    "EQ_I",
    "EQ_E",
)


class AlienLogicLexer(RegexLexer):
    """AlienLogic proofs: PROOF ... END blocks."""

    name = "AlienLogic"
    aliases = ["alienlogic"]
    filenames = ["*.proof"]
    flags = re.MULTILINE
    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"#.*?$", Comment.Single),
            (words(("PROOF", "END"), suffix=r"\b"), Keyword.Namespace),
            (words(("premises:", "goal:")), Keyword.Declaration),
            (r"^\d+\.", Number.Integer),
            (r"\[[^\]\n]*\]", Name.Decorator),
            (r"\|", Operator),
            (words(LOGIC_KEYWORDS, suffix=r"\b"), Keyword),
            (r"[A-Za-z_][A-Za-z0-9_]*", Name),
            (r"[(),]", Punctuation),
            (r".", Text),
        ]
    }
