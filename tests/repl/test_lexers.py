"""Syntax highlighting: pygments plugins by name, and keyword renaming."""

from alienworlds.repl.lexers import AlienCodeLexer, AlienLogicLexer, aliencode_lexer
from pygments.lexers import get_lexer_by_name
from pygments.token import Comment, Keyword, Name, Number, String


def kinds(lexer, text):
    return [(t, v) for t, v in lexer.get_tokens(text) if v.strip()]


def test_plugins_are_registered_by_name():
    assert isinstance(get_lexer_by_name("aliencode"), AlienCodeLexer)
    assert isinstance(get_lexer_by_name("alienlogic"), AlienLogicLexer)


def test_aliencode_tokens():
    toks = kinds(AlienCodeLexer(), 'SET x AS SHATTER(-7, "a#b")  # note')
    assert (Keyword, "SET") in toks and (Name.Builtin, "SHATTER") in toks
    assert (Number.Integer, "-7") in toks and (String.Double, '"a#b"') in toks
    assert (Comment.Single, "# note") in toks


def test_highlighting_follows_renamed_keywords():
    toks = kinds(aliencode_lexer({"SET": "LET", "SHATTER": "MERGE"}), "LET x AS MERGE(1, 2)\nSET")
    assert (Keyword, "LET") in toks and (Name.Builtin, "MERGE") in toks
    assert (Name, "SET") in toks


def test_alienlogic_tokens():
    toks = kinds(AlienLogicLexer(), "PROOF\n1. | AND(p, q)   [assume]\nEND")
    assert (Keyword.Namespace, "PROOF") in toks and (Keyword, "AND") in toks
