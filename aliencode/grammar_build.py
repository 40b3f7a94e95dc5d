"""Build time: derive the parser's tables from grammar.lark with lark.

lark stays the grammar's source of truth: it analyses grammar.lark into
LALR tables and orders the terminals, and this module writes what the
run-time parser (lexer.py, lalr.py) needs of that into grammar_tables.json.
After a change to the grammar, run

    python -m aliencode.grammar_build

A test rebuilds the tables and fails when the shipped file is stale. The
lark parser built here (`lark_parser`) is also the reference a differential
test holds the run-time parser to.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

from alienworlds.ruleset.grammar import cached_parser, lark

from .lalr import TABLES
from .lexer import Token
from .parser import GRAMMAR, Budget, _Builder, layout


class LarkLayout(lark.lark.PostLex):
    """The run-time layout pass (keyword retyping, indentation) as a lark
    post-lexer, over lark's tokens turned into ours."""

    always_accept = ("_NL",)

    def __init__(self, types: dict[str, str], budget: Budget) -> None:
        self.types = types
        self.budget = budget

    def process(self, stream: Iterator[lark.Token]) -> Iterator[Token]:
        ours = (
            Token(
                t.type, t.value, t.start_pos, t.line, t.column, t.end_line, t.end_column, t.end_pos
            )
            for t in stream
        )
        return layout(ours, self.types, self.budget)


def lark_parser(
    types: dict[str, str] | None = None,
    budget: Budget | None = None,
    builder: _Builder | None = None,
) -> lark.Lark:
    """lark's parser of grammar.lark with the options the run-time parser
    reproduces: LALR, lark's basic lexer, no placeholders for optional parts."""
    return cached_parser(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="basic",
        postlex=LarkLayout(types or {}, budget or Budget.unlimited()),
        transformer=builder,
        maybe_placeholders=False,
    )


class StaleGrammar(Exception):
    """The grammar uses a feature the run-time parser does not reproduce."""


def _require(condition: bool, what: str) -> None:
    if not condition:
        raise StaleGrammar(f"grammar.lark: {what}; lalr.py cannot reproduce lark's parser")


def build_tables() -> dict:
    """The run-time parser's tables, as JSON-ready data."""
    parser = lark_parser()
    lexer = parser.parser.lexer.lexer
    scanner = lexer.scanner
    _require(not lexer.callback, "a terminal is retyped by a lexer callback")
    table = parser.parser.parser.parser.parse_table
    index = {rule: i for i, rule in enumerate(parser.rules)}
    # lark numbers its states in an order that varies from run to run (it
    # walks sets of strings); renumbered in the order a walk from the start
    # state first reaches them, the tables are the same for every build.
    start = table.start_states["start"]
    number = {start: 0}
    order = [start]
    for state in order:
        for symbol in sorted(table.states[state]):
            action, arg = table.states[state][symbol]
            if action.name == "Shift" and arg not in number:
                number[arg] = len(order)
                order.append(arg)
    _require(len(order) == len(table.states), "a state is unreachable from the start")
    states = []
    for state in order:
        actions = {}
        for symbol, (action, arg) in table.states[state].items():
            if action.name == "Shift":
                _require(symbol != "$END", "the end of input is shifted")
                actions[symbol] = number[arg]
            else:
                actions[symbol] = ~index[arg]
        states.append(actions)
    return {
        "lexer": {
            "terminals": [[t.name, t.pattern.to_regexp()] for t in scanner.terminals],
            "ignored": sorted(lexer.ignore_types),
            "multiline": sorted(lexer.newline_types),
        },
        "states": states,
        "rules": [_rule(rule) for rule in parser.rules],
        "start": 0,
        "end": number[table.end_states["start"]],
    }


def _rule(rule) -> list:
    """[origin, size, kept children with whether each is spliced, inline, action]."""
    options = rule.options
    _require(not options.keep_all_tokens, f"{rule.origin.name} keeps all tokens")
    _require(options.template_source is None, f"{rule.origin.name} comes from a template")
    keep = [
        [i, not sym.is_term and sym.name.startswith("_")]
        for i, sym in enumerate(rule.expansion)
        if not (sym.is_term and sym.filter_out)
    ]
    inline = bool(options.expand1 and not rule.alias)
    name = rule.alias or rule.origin.name
    if rule.origin.name.startswith("_"):
        _require(not rule.alias and not inline, f"helper rule {name} is aliased or inlined")
        action = None
    elif hasattr(_Builder, name):
        action = name
    else:
        # lark would build a bare tree; only a rule that always passes its
        # single child through may go without a builder method.
        _require(inline and len(keep) == 1 and not keep[0][1], f"rule {name} has no builder method")
        action = None
    return [rule.origin.name, len(rule.expansion), keep, inline, action]


def render(data: dict) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n"


def main() -> None:
    text = render(build_tables())
    TABLES.write_text(text, encoding="utf-8")
    sys.stdout.write(f"wrote {TABLES.name}: {len(text)} characters\n")


if __name__ == "__main__":
    main()
