"""Parse AlienCode source into the syntax tree of `syntax.py`.

An LALR parser (lalr.py, lexer.py) over tables that lark derives from
grammar.lark at build time (grammar_build.py), so that a run does not import
lark. The grammar spells no keyword: a layout pass retypes NAME tokens that
are the world's surface keywords and inserts indentation tokens, so one set
of tables serves every world. Syntax errors become AlienSyntaxError with a
line, a column and what was expected.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from alienworlds.ruleset import Limits

from . import lalr
from . import syntax as s
from .errors import AlienSyntaxError, short
from .lexer import Token, UnexpectedCharacter, lex
from .sites import CONSTANT_KEYWORDS, OPERATION_BY_NAME, STATEMENT_KEYWORDS

GRAMMAR = Path(__file__).with_name("grammar.lark")
MAX_INT_DIGITS = 1300  # beyond any integer the limits allow; int() of longer text is refused
TAB = 8

_CONSTANT_TYPES = {"YES": "YES", "NO": "NO", "none": "NONE"}


def token_types(keywords: Mapping[str, str]) -> dict[str, str]:
    """Map each surface keyword of a world to its token type."""
    table: dict[str, str] = {}
    for word in STATEMENT_KEYWORDS:
        table[keywords.get(word, word)] = word
    for word in CONSTANT_KEYWORDS:
        table[keywords.get(word, word)] = _CONSTANT_TYPES[word]
    for name in OPERATION_BY_NAME:
        table[keywords.get(name, name)] = "OPERATION"
    return table


def too_large(which: str, line: int | None = None, column: int | None = None) -> AlienSyntaxError:
    """A program refused before it runs because it exceeds a limit."""
    return AlienSyntaxError(which, line, column, kind="LimitExceeded")


def time_limit(limits: Limits) -> AlienSyntaxError:
    return too_large(f"time limit of {limits.wall_seconds:g} seconds")


@dataclass
class Budget:
    """What one parse may use: tokens, and time until the run's deadline."""

    limits: Limits
    deadline: float

    @classmethod
    def unlimited(cls) -> Budget:
        return cls(Limits(), float("inf"))


CLOCK_EVERY = 1024  # tokens between two looks at the clock


def layout(stream: Iterable[Token], types: Mapping[str, str], budget: Budget) -> Iterator[Token]:
    """Keyword retyping plus Python-style INDENT/DEDENT tokens; counts tokens
    against the parse's budget."""
    parens = 0
    levels = [0]
    last: Token | None = None
    limits, deadline = budget.limits, budget.deadline
    max_tokens = limits.max_tokens
    count = 0
    for tok in stream:
        count += 1
        if count > max_tokens:
            raise too_large(f"source size of {max_tokens} tokens", tok.line, tok.column)
        if count % CLOCK_EVERY == 0 and time.monotonic() > deadline:
            raise time_limit(limits)
        kind = tok.type
        if kind == "NAME" and tok.value in types:
            tok = tok.retyped(types[tok.value])
        elif kind == "_NL":
            if parens:
                continue
            yield tok
            last = tok
            indent_text = tok.value.rsplit("\n", 1)[-1]
            indent = indent_text.count(" ") + indent_text.count("\t") * TAB
            # Indentation tokens sit where the next line's text begins.
            line, column = tok.end_line or 1, len(indent_text) + 1
            if indent > levels[-1]:
                levels.append(indent)
                yield Token(
                    "_INDENT",
                    indent_text,
                    line=line,
                    column=column,
                    end_line=line,
                    end_column=column,
                )
            else:
                while indent < levels[-1]:
                    levels.pop()
                    yield Token(
                        "_DEDENT",
                        indent_text,
                        line=line,
                        column=column,
                        end_line=line,
                        end_column=column,
                    )
                if indent != levels[-1]:
                    raise AlienSyntaxError(
                        "unindent does not match any outer indentation level", line, column
                    )
            continue
        elif kind == "LPAR" or kind == "CALL_OPEN":
            parens += 1
        elif kind == "RPAR":
            parens = max(0, parens - 1)
        last = tok
        yield tok
    while len(levels) > 1:
        levels.pop()
        yield last.retyped("_DEDENT", "") if last else Token("_DEDENT", "")


def _pos(tok: Token) -> s.Pos:
    return s.Pos(tok.line or 1, tok.column or 1)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'"}


def _unescape(body: str) -> str:
    if "\\" not in body:
        return body
    out = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append(
                _ESCAPES.get(nxt, "\\" + nxt)
            )  # unknown escapes stay as written, as in Python
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


class _Builder:
    """Syntax dataclasses from the values a grammar rule reduces (a method
    per rule or alias of grammar.lark, called by the LALR parser)."""

    def __init__(self, operations: Mapping[str, str]) -> None:
        self.operations = operations  # surface spelling -> standard name

    # expressions
    def int_lit(self, c):
        tok = c[0]
        digits = tok.value.lstrip("-")
        value = int(tok.value) if len(digits) <= MAX_INT_DIGITS else None
        return s.IntLit(value, tok.value, _pos(tok))

    def float_lit(self, c):
        return s.FloatLit(float(c[0].value), c[0].value, _pos(c[0]))

    def str_lit(self, c):
        return s.StrLit(_unescape(c[0].value[1:-1]), _pos(c[0]))

    def yes_lit(self, c):
        return s.BoolLit(True, _pos(c[0]))

    def no_lit(self, c):
        return s.BoolLit(False, _pos(c[0]))

    def none_lit(self, c):
        return s.NoneLit(_pos(c[0]))

    def name(self, c):
        return s.Name(c[0].value, _pos(c[0]))

    def op_call(self, c):
        tok = c[0]
        args = tuple(c[1]) if len(c) > 1 else ()
        return s.OpCall(self.operations[tok.value], tok.value, args, _pos(tok))

    def call(self, c):
        func, paren = c[0], c[1]
        args = tuple(c[2]) if len(c) > 2 else ()
        return s.Call(func, args, _pos(paren))

    def args(self, c):
        return list(c)

    # statements
    def set_names(self, c):
        return list(c)

    def sweep_names(self, c):
        return list(c)

    def expr_list(self, c):
        return list(c)

    def set_stmt(self, c):
        names, values = c[1], c[3]
        return s.Set(tuple(t.value for t in names), tuple(values), _pos(c[0]))

    def expr_stmt(self, c):
        return s.ExprStmt(c[0], c[0].pos)

    def cease(self, c):
        return s.Cease(_pos(c[0]))

    def bypass(self, c):
        return s.Bypass(_pos(c[0]))

    def idle(self, c):
        return s.Idle(_pos(c[0]))

    def deliver(self, c):
        return s.Deliver(c[1] if len(c) > 1 else None, _pos(c[0]))

    def simple_stmt(self, c):
        return c[0]

    def suite(self, c):
        return tuple(c)

    def upon(self, c):
        branches = [(c[1], c[2])]
        default = None
        for extra in c[3:]:
            if extra[0] == "lest":
                branches.append((extra[1], extra[2]))
            else:
                default = extra[1]
        return s.If(tuple(branches), default, _pos(c[0]))

    def lest(self, c):
        return ("lest", c[1], c[2])

    def default(self, c):
        return ("default", c[1])

    def sweep(self, c):
        names = tuple(t.value for t in c[1])
        return s.Sweep(names, c[3], c[4], _pos(c[0]))

    def while_stmt(self, c):
        return s.While(c[1], c[2], _pos(c[0]))

    def params(self, c):
        return [t.value for t in c]

    def craft(self, c):
        name = c[1].value
        params = tuple(c[2]) if len(c) == 4 else ()
        return s.Craft(name, params, c[-1], _pos(c[0]))

    def start(self, c):
        return s.Program(tuple(c))


_TERMINAL_TEXT = {
    "LPAR": "'('",
    "CALL_OPEN": "'('",
    "RPAR": "')'",
    "COMMA": "','",
    "COLON": "':'",
    "NAME": "a name",
    "INT": "a number",
    "FLOAT": "a number",
    "STRING": "a string",
    "_NL": "end of line",
    "_INDENT": "an indented block",
    "_DEDENT": "end of the block",
    "$END": "end of the program",
    "OPERATION": "an operation",
    "YES": "YES",
    "NO": "NO",
    "NONE": "none",
}


TREE_CACHE_CHARS = 1_000_000  # source characters whose trees one parser keeps (some 50 MB)
PIECE_CACHE_CHARS = 250_000  # the same for pieces of a text (Parser._by_pieces)
# Tokens that go on a statement of the top level begun on an earlier line.
CONTINUING = frozenset({"LEST", "DEFAULT"})


def normalized(source: str) -> str:
    """`source` as the parser reads it: CR LF as LF, ending in a line feed."""
    text = source.replace("\r\n", "\n")
    return text if text.endswith("\n") else text + "\n"


def _kept(cache: dict[tuple, object], key: tuple, value: object, held: int, bound: int) -> int:
    """Keep `value` under `key` (whose first item is a text) in `cache`, least
    recently used first, unless the text alone is over `bound` characters;
    drop the oldest until the texts kept (`held` of them before) fit; the
    characters held after."""
    if len(key[0]) > bound:
        return held
    held += len(key[0])
    while held > bound:
        oldest = next(iter(cache))
        held -= len(oldest[0])
        del cache[oldest]
    cache[key] = value
    return held


class Parser:
    """A parser for one keyword spelling (the standard one or a world's)."""

    def __init__(self, keywords: Mapping[str, str] | None = None) -> None:
        self.keywords = dict(keywords or {})
        self.types = token_types(self.keywords)
        self._operations = {
            surface: std
            for surface, std in ((self.keywords.get(n, n), n) for n in OPERATION_BY_NAME)
        }
        self._tables = lalr.tables()
        self._reduce = lalr.reductions(self._tables.rules, _Builder(self._operations))
        # Trees of texts parsed lately: audits and generators grade the same
        # answers, calls and references again and again (a generated bank
        # parses each distinct text about four times). Trees are immutable;
        # only successful parses are kept, so every error is raised afresh.
        self._trees: dict[tuple[str, Limits], s.Program] = {}
        self._held = 0  # characters of the texts in _trees
        # Statements of the top level parsed lately, by the text of their
        # piece and its line (`_by_pieces`): programs written by a strategy
        # share most of their helpers.
        self._pieces: dict[tuple[str, int], tuple[s.Stmt, ...]] = {}
        self._pieces_held = 0
        continuing = "|".join(
            re.escape(word) for word, kind in sorted(self.types.items()) if kind in CONTINUING
        )
        self._piece_ends = re.compile(rf"\n(?=[^ \t\f\r\n#\\])(?!(?:{continuing})(?![A-Za-z0-9_]))")
        # One parse at a time: the tree cache is shared. Sessions of one
        # process (the web server's, Inspect's) parse from several threads;
        # unguarded, the cache's eviction failed mid-iteration.
        self._lock = threading.Lock()

    def surface(self, keyword: str) -> str:
        return self.keywords.get(keyword, keyword)

    def parse(
        self, source: str, limits: Limits | None = None, deadline: float | None = None
    ) -> s.Program:
        """The syntax tree of `source`; raise AlienSyntaxError (a SyntaxError,
        or LimitExceeded beyond the limits' source size and tokens, or past
        `deadline`, a time.monotonic() value)."""
        limits = limits or Limits()
        if len(source) > limits.max_source:
            raise too_large(f"source size of {limits.max_source} characters")
        text = normalized(source)
        with self._lock:
            return self._cached(text, limits, deadline)

    def _cached(self, text: str, limits: Limits, deadline: float | None) -> s.Program:
        key = (text, limits)
        tree = self._trees.pop(key, None)
        if tree is not None:
            self._trees[key] = tree  # re-inserted: the dict's order is least recently used first
            return tree
        tree = self._parse(text, limits, deadline)
        self._held = _kept(self._trees, key, tree, self._held, TREE_CACHE_CHARS)
        return tree

    def _parse(self, text: str, limits: Limits, deadline: float | None) -> s.Program:
        budget = Budget(
            limits, time.monotonic() + limits.wall_seconds if deadline is None else deadline
        )
        try:
            tree = self._by_pieces(text, budget)
            if tree is not None:
                return tree
            tokens = layout(lex(text, self._tables.terminals), self.types, budget)
            return lalr.parse(tokens, self._tables, self._reduce)
        except AlienSyntaxError:
            raise
        except (UnexpectedCharacter, lalr.UnexpectedToken) as exc:
            raise self.syntax_error(exc, text) from None
        except RecursionError:
            raise AlienSyntaxError("the program is nested too deeply", None, None) from None
        except Exception as exc:  # noqa: BLE001 - a failure of ours, reported without host detail
            raise internal_error(exc) from None

    def _by_pieces(self, text: str, budget: Budget) -> s.Program | None:
        """The tree of `text` from the trees of its pieces, each parsed on
        its own or found parsed before at the same line; None when a piece
        does not parse alone, to parse the whole text again (which reports
        the error found first, as it always did).

        A piece ends where a line begins with a character that no line
        break, indentation, comment or continuation begins, unless the line
        goes on with LEST or DEFAULT (`_piece_ends`). No token crosses such
        a place (only a run of line breaks spans lines, and it stops at that
        character), so a piece's tokens depend only on its text and line. A
        piece that parses alone (`_NL? stmt*`) closes its brackets and its
        blocks, so the next starts as the text does; and a statement never
        goes on past a line break into a line that begins with a token
        starting a statement. So the whole text parses to the statements of
        its pieces, in order; tests/aliencode/test_statement_cache.py
        checks it against the whole parse."""
        # a token takes one character at least: a text this short cannot
        # reach the token limit, which only the whole parse counts
        if len(text) > budget.limits.max_tokens:
            return None
        ends = [m.end() for m in self._piece_ends.finditer(text)]
        body: list[s.Stmt] = []
        cache = self._pieces
        line = 1
        for a, b in zip([0, *ends], [*ends, len(text)]):
            piece = text[a:b]
            key = (piece, line)
            found = cache.pop(key, None)
            if found is None:
                if time.monotonic() > budget.deadline:
                    return None
                try:
                    tokens = layout(lex(piece, self._tables.terminals, line), self.types, budget)
                    found = lalr.parse(tokens, self._tables, self._reduce).body
                except Exception:  # noqa: BLE001 - reported by the whole parse
                    return None
                self._pieces_held = _kept(cache, key, found, self._pieces_held, PIECE_CACHE_CHARS)
            else:
                cache[key] = found  # now the most recently used
            body.extend(found)
            line += piece.count("\n")
        return s.Program(tuple(body))

    def _describe(self, terminal: str) -> str:
        if terminal in _TERMINAL_TEXT:
            return _TERMINAL_TEXT[terminal]
        if terminal in STATEMENT_KEYWORDS:
            return self.surface(terminal)
        return terminal.lower()

    def _expected(self, names: Iterable[str]) -> str:
        words = sorted({self._describe(n) for n in names if not n.startswith("__")})
        if len(words) > 8:
            words = words[:8] + ["…"]
        return ", ".join(words)

    def syntax_error(
        self, exc: UnexpectedCharacter | lalr.UnexpectedToken, text: str
    ) -> AlienSyntaxError:
        """The error to report for a token or character the grammar refuses."""
        if isinstance(exc, UnexpectedCharacter):
            line, column = exc.line, exc.column
            ch = text[exc.pos] if exc.pos < len(text) else ""
            if ch in "\"'":
                return AlienSyntaxError("unterminated string", line, column)
            if ch == "-":
                return AlienSyntaxError(
                    "a minus sign may only start a number literal, as in -7", line, column
                )
            return AlienSyntaxError(f"unexpected character {ch!r}", line, column)
        tok = exc.token
        line, column = tok.line or 1, tok.column or 1
        expected = exc.expected
        end = _ends_input(tok, text)  # more lines could complete the program (a shell reads on)
        if tok.type == lalr.END:
            return AlienSyntaxError(
                f"unexpected end of the program; expected {self._expected(expected)}",
                line,
                column,
                at_end=True,
            )
        if tok.type == "_INDENT":
            return AlienSyntaxError("unexpected indent", line, column)
        if "_INDENT" in expected and len(expected) == 1:
            return AlienSyntaxError("expected an indented block", line, column, at_end=end)
        shown = (
            self._describe(tok.type) if tok.type in ("_NL", "_DEDENT") else repr(short(tok.value))
        )
        if tok.type == "OPERATION" or tok.type in STATEMENT_KEYWORDS:
            shown = f"keyword {short(tok.value)}"
        return AlienSyntaxError(
            f"unexpected {shown}; expected {self._expected(expected)}", line, column, at_end=end
        )


def _ends_input(tok: Token, text: str) -> bool:
    """Whether `tok` is layout the input's end produced (the closing
    dedents, the end marker) with nothing but white space after it."""
    if tok.type not in ("_DEDENT", "$END"):
        return False
    if tok.end_pos is not None:
        offset = tok.end_pos
    else:  # a dedent at a line start: it sits where that line's text begins
        lines = text.split("\n")
        row = (tok.line or 1) - 1
        offset = sum(len(x) + 1 for x in lines[:row]) + (tok.column or 1) - 1
    return not text[offset:].strip()


def internal_error(exc: BaseException) -> AlienSyntaxError:
    return AlienSyntaxError(
        f"the interpreter failed ({type(exc).__name__}); please report this program",
        None,
        None,
        kind="InternalError",
    )


@lru_cache(maxsize=32)
def _parser_for(keywords: tuple[tuple[str, str], ...]) -> Parser:
    return Parser(dict(keywords))


def parser_for(keywords: Mapping[str, str] | None = None) -> Parser:
    return _parser_for(tuple(sorted((keywords or {}).items())))


# The grammar's terminals as one pattern, in the lexer's order of priority
# (a float before an integer, a number before a name), plus what the lexer
# ignores (comments, white space, line breaks, continuations) and a catch-all
# for a character no terminal takes. Counting with it is several times faster
# than running the lexer, and a test checks both agree. Repetitions are
# possessive, as in the grammar, so memory stays linear in the text.
_TOKEN = re.compile(
    r"""
    (?P<string>"(?:[^"\\\n]|\\[^\n])*+"|'(?:[^'\\\n]|\\[^\n])*+')
  | (?P<free>\#[^\n]*|\\[\t\ \f]*\r?\n|[\t\ \f\r\n]+)
  | (?P<number>-?(\d+\.\d*|\.\d+)([eE][+-]?\d+)?|-?\d+[eE][+-]?\d+|-?\d+)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<mark>[(),:])
  | (?P<other>.)
""",
    re.VERBOSE,
)


# Lines of a text, each with its line feed: no token crosses a line feed
# (strings and comments stop before one; a run of layout cut there is still
# layout), so a text's count is the sum of its lines'. A grader counts every
# answer of a battery, whose answers share most of their lines.
_LINES = re.compile(r"[^\n]*\n|[^\n]+")
LINE_CACHE_CHARS = 256  # longer lines are counted each time, not kept


def _line_tokens(line: str) -> tuple[int, bool]:
    """The tokens of one line up to a character no token takes (or all of
    them), and whether there is one."""
    count = 0
    for match in _TOKEN.finditer(line):
        kind = match.lastgroup
        if kind == "free":
            continue
        if kind == "other":
            return count, True
        count += 1
    return count, False


_kept_line_tokens = lru_cache(maxsize=16_384)(_line_tokens)


def token_count(source: str, stop_after: int | None = None) -> int | None:
    """How many tokens `source` holds: names, keywords, numbers, strings
    and punctuation; comments, line breaks and indentation are free (the
    unit of an answer's source budget). With `stop_after`, counting stops at
    the first token past it (enough to know the text is over a budget:
    stop_after + 1). None when a character before that point is no token's
    (the text does not lex). Each line is counted once per process (lines
    of at most LINE_CACHE_CHARS characters)."""
    count = 0
    for line in _LINES.findall(source):
        tokens, bad = (_kept_line_tokens if len(line) <= LINE_CACHE_CHARS else _line_tokens)(line)
        if stop_after is not None and count + tokens > stop_after:
            return stop_after + 1
        if bad:
            return None
        count += tokens
    return count


def parse(
    source: str,
    keywords: Mapping[str, str] | None = None,
    limits: Limits | None = None,
    deadline: float | None = None,
) -> s.Program:
    """Parse AlienCode `source` in the given surface keywords (standard by
    default), within the source limits (see `Parser.parse`)."""
    return parser_for(keywords).parse(source, limits, deadline)
