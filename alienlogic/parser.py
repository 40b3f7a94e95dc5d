"""Read formulas and proofs (lark LALR, grammar.lark), with clean errors.

The parser is built once, on first use, and transforms while it parses: no
parse tree is kept, nodes go straight into the interned formulas of
`formulas.py`. Every failure is a ProofSyntaxError naming the line, the
column and what was expected there.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .errors import ProofSyntaxError
from .formulas import BOT, And, Eq, Exists, Fn, Forall, Formula, Impl, Name, Node, Not, Or, Pred
from .proof import Citation, Proof, Step, line_number

GRAMMAR = Path(__file__).with_name("grammar.lark")

# Deeper formulas are refused: the printer and the checker recurse on them.
MAX_HEIGHT = 200

_FORMULA_START = frozenset({"BOT", "NOT", "AND", "OR", "IMPL", "FORALL", "EXISTS", "EQ", "NAME"})
_TERMINALS = {
    "NAME": "a name",
    "VAR": "a term (a lower-case name)",
    "RULE": "a rule name",
    "INT": "a number",
    "_NL": "a line break",
    "$END": "the end of the text",
}


def _check_height(node: Node, tok: Token) -> None:
    if node.height > MAX_HEIGHT:
        raise ProofSyntaxError(
            f"formula nested more than {MAX_HEIGHT} levels deep", tok.line, tok.column, "TOO_DEEP"
        )


@v_args(inline=True)
class _Build(Transformer):
    """Grammar rules to nodes, applied by the parser as it reduces."""

    def bot(self):
        return BOT

    def neg(self, body):
        return Not(body)

    def conj(self, left, right):
        return And(left, right)

    def disj(self, left, right):
        return Or(left, right)

    def impl(self, left, right):
        return Impl(left, right)

    def forall(self, var, body):
        return Forall(str(var), body)

    def exists(self, var, body):
        return Exists(str(var), body)

    def eq(self, left, right):
        return Eq(left, right)

    def atom(self, name):
        return Pred(str(name))

    def pred(self, name, *terms):
        return Pred(str(name), terms)

    def name(self, name):
        return Name(str(name))

    def fn(self, name, *terms):
        return Fn(str(name), terms)

    def line_ref(self, n):
        return Citation(line_number(n), line_number(n))

    def range_ref(self, a, b):
        return Citation(line_number(a), line_number(b), True)

    def premises(self, tok, *formulas):
        kept = tuple(f for f in formulas if f is not None)
        for f in kept:
            _check_height(f, tok)
        return kept

    def goal(self, tok, formula):
        _check_height(formula, tok)
        return formula

    def step(self, number, *rest):
        depth = 0
        while isinstance(rest[depth], Token) and rest[depth].type == "BAR":
            depth += 1
        formula, rule, *citations = rest[depth:]
        _check_height(formula, number)
        cites = tuple(c for c in citations if c is not None)
        return Step(line_number(number), depth, formula, str(rule), cites, number.line)

    def proof(self, premises, goal, *steps):
        return Proof(premises, goal, steps)

    def formula_text(self, formula):
        if formula.height > MAX_HEIGHT:
            raise ProofSyntaxError(
                f"formula nested more than {MAX_HEIGHT} levels deep", 1, 1, "TOO_DEEP"
            )
        return formula


@cache
def _parser() -> Lark:
    return Lark(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        start=["proof", "formula_text"],
        transformer=_Build(),
        cache=True,
    )


def parse_proof(text: str) -> Proof:
    """Parse a whole proof (PROOF ... END); raise ProofSyntaxError."""
    return _parse(text, "proof")


def parse_formula(text: str) -> Formula:
    """Parse one formula, e.g. `FORALL(x, IMPL(P(x), Q(x)))`; raise ProofSyntaxError."""
    return _parse(text, "formula_text")


def _parse(text: str, start: str):
    try:
        return _parser().parse(text, start=start)
    except ProofSyntaxError as exc:
        exc.step = _step_at(text, exc.line)
        raise
    except UnexpectedInput as exc:
        raise _translate(exc, text) from None


def _translate(exc: UnexpectedInput, text: str) -> ProofSyntaxError:
    line, column = exc.line, exc.column
    # The parser's own lookahead sets merge contexts that share a state;
    # asking the interactive parser gives what truly fits here.
    interactive = getattr(exc, "interactive_parser", None)
    if isinstance(exc, UnexpectedCharacters):
        found = f"the character {text[exc.pos_in_stream]!r}"
        expected = interactive.accepts() if interactive else exc.allowed
    elif isinstance(exc, UnexpectedToken):
        found = _found(exc.token)
        expected = interactive.accepts() if interactive else exc.expected
    elif isinstance(exc, UnexpectedEOF):
        found = "the end of the text"
        expected = set(exc.expected)
    else:  # pragma: no cover - lark raises only the three kinds above
        found, expected = "unexpected input", set()
    if line is None or line < 1:
        line = text.count("\n") + 1
        column = len(text) - text.rfind("\n")
    message = (
        f"expected {_describe(expected)}, found {found}" if expected else f"unexpected {found}"
    )
    return ProofSyntaxError(message, line, column, "SYNTAX", _step_at(text, line))


def _found(tok: Token) -> str:
    if tok.type == "$END":
        return "the end of the text"
    if tok.type == "_NL":
        return "the end of the line"
    return repr(str(tok))


def _describe(names: set[str]) -> str:
    names = set(names)
    parts: list[str] = []
    if _FORMULA_START <= names:
        names -= _FORMULA_START
        parts.append("a formula")
    terminals = {t.name: t for t in _parser().terminals}
    for name in sorted(names):
        if name in _TERMINALS:
            parts.append(_TERMINALS[name])
        elif name in terminals and terminals[name].pattern.type == "str":
            parts.append(repr(terminals[name].pattern.value))
        else:
            parts.append(name)
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def _step_at(text: str, line: int) -> int | None:
    """The position of the proof step written on `line`, if it is a step line
    (lines counted as the parser counts them: at each LF)."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines) or not _is_step_line(lines[line - 1]):
        return None
    return sum(1 for row in lines[:line] if _is_step_line(row))


def _is_step_line(row: str) -> bool:
    """Whether a line starts like a step: a number, then a dot."""
    s = row.lstrip()
    digits = len(s) - len(s.lstrip("0123456789"))
    return digits > 0 and s[digits:].lstrip().startswith(".")


def parse_formulas(text: str) -> tuple[Formula, ...]:
    """A comma-separated list of formulas (commas inside parentheses belong
    to the formulas), e.g. the premises `IMPL(p, q), p`; empty text gives ()."""
    parts, depth, current = [], 0, []
    for ch in text:
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        depth += ch == "("
        depth -= ch == ")"
        current.append(ch)
    parts.append("".join(current))
    return tuple(parse_formula(p) for p in parts if p.strip())
