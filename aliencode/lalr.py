"""An LALR(1) driver for the tables that `grammar_build.py` derives from
grammar.lark with lark, so that parsing needs no lark at run time.

The tables (grammar_tables.json) hold the lexer's terminals, one action map
per state and, for each grammar rule, how its value is built. The driver
reproduces lark's LALR parser with an inline transformer: the same shifts and
reductions, the same children handed to the same builder methods, the same
tokens and expected sets in its errors.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import NamedTuple

from .lexer import Terminals, Token

TABLES = Path(__file__).with_name("grammar_tables.json")
END = "$END"  # the type of the token that ends every input


class UnexpectedToken(Exception):
    """`token` has no action in the current state; `expected` are the
    terminals that had one (lark's set: the state's upper-case symbols)."""

    def __init__(self, token: Token, expected: frozenset[str]) -> None:
        super().__init__(f"unexpected {token.type} at line {token.line}, column {token.column}")
        self.token = token
        self.expected = expected


class Rule(NamedTuple):
    """How one rule's value is built from the values it reduces.

    `keep` lists the children that stay (punctuation and layout tokens are
    dropped), each with whether it is a helper rule's list to splice in (a
    repetition such as stmt*). `inline`: a single kept child is the value
    itself (lark's `?rule`). `action` names the builder method; None for a
    helper rule, whose value is its list of kept children."""

    origin: str
    size: int
    keep: tuple[tuple[int, bool], ...]
    inline: bool
    action: str | None


class Tables(NamedTuple):
    """The tables (named tuples, as Rule: cheaper to define than dataclasses)."""

    terminals: Terminals
    states: tuple[dict[str, int], ...]  # symbol -> state to shift to (>= 0) or ~rule index
    rules: tuple[Rule, ...]
    start: int
    end: int


@cache
def tables() -> Tables:
    """The shipped tables, read once."""
    return tables_from(json.loads(TABLES.read_text(encoding="utf-8")))


def tables_from(data: dict) -> Tables:
    lexer = data["lexer"]
    return Tables(
        terminals=Terminals.from_table(lexer["terminals"], lexer["ignored"], lexer["multiline"]),
        states=tuple(data["states"]),
        rules=tuple(
            Rule(origin, size, tuple((i, splice) for i, splice in keep), inline, action)
            for origin, size, keep, inline, action in data["rules"]
        ),
        start=data["start"],
        end=data["end"],
    )


Reducer = Callable[[list], object]
Reduction = tuple[int, str, Reducer]  # values popped, the rule's symbol, its value's maker


def reductions(rules: tuple[Rule, ...], builder: object) -> tuple[Reduction, ...]:
    """For each rule: how many values it pops, the symbol it goes to and
    the function from the popped values to its value."""
    return tuple((rule.size, rule.origin, _reducer(rule, builder)) for rule in rules)


def _reducer(rule: Rule, builder: object) -> Reducer:
    action = getattr(builder, rule.action) if rule.action else None
    keep, inline = rule.keep, rule.inline
    if action and not inline and len(keep) == rule.size and not any(s for _, s in keep):
        return action  # every child stays as it is

    def reduce(children: list) -> object:
        kept: list = []
        for i, splice in keep:
            if not splice:
                kept.append(children[i])
            elif kept:
                kept.extend(children[i])
            else:
                # A repetition's list grows in place: copying it at every
                # step of a left-recursive rule would be quadratic.
                kept = children[i]
        if inline and len(kept) == 1:
            return kept[0]
        return action(kept) if action else kept

    return reduce


def parse(tokens: Iterable[Token], table: Tables, reduce: tuple[Reduction, ...]) -> object:
    """The value of the start rule over `tokens`, then the end of input
    (a token at the last token's position); raise UnexpectedToken."""
    states = table.states
    stack = [table.start]
    values: list = []
    token = None
    # One loop per token, written out (no call per token): parsing is a
    # good part of a bank audit.
    for token in tokens:
        kind = token.type
        while True:
            actions = states[stack[-1]]
            step = actions.get(kind)
            if step is None:
                raise _unexpected(token, actions)
            if step >= 0:
                stack.append(step)
                values.append(token)
                break
            size, origin, make = reduce[~step]
            if size:
                children = values[-size:]
                del stack[-size:]
                del values[-size:]
            else:
                children = []
            values.append(make(children))
            stack.append(states[stack[-1]][origin])
    last = token.retyped(END, "") if token else Token(END, "", 0, 1, 1)
    # The end of input only reduces (the tables' builder checks that no
    # state shifts it), until the start rule's value is complete.
    while True:
        actions = states[stack[-1]]
        step = actions.get(END)
        if step is None:
            raise _unexpected(last, actions)
        size, origin, make = reduce[~step]
        if size:
            children = values[-size:]
            del stack[-size:]
            del values[-size:]
        else:
            children = []
        value = make(children)
        values.append(value)
        stack.append(states[stack[-1]][origin])
        if stack[-1] == table.end:
            return value


def _unexpected(token: Token, actions: dict[str, int]) -> UnexpectedToken:
    return UnexpectedToken(token, frozenset(s for s in actions if s.isupper()))
