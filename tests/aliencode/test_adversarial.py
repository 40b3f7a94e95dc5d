"""Hostile AlienCode programs (docs/aliencode.md: programs come from untrusted models).

Every case must end in a clean AlienError or clean output, within 2 seconds of
wall time, printing nothing of the host (no traceback, no file path, no memory
address, no host object, no mangled name) and touching neither the file
system nor the network (watched with an audit hook while the program runs).

Cases that currently break one of these promises are interpreter bugs: they
stay here, marked `xfail(strict=True, reason="BUG: ...")`, so the fix makes
them pass loudly. Tests named `..._regression` guard bugs this suite found
that have since been fixed.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import textwrap
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest
from machine_speed import scaled

from aliencode import Limits, run_source
from aliencode.world_schema import load as load_world

ALLOWED_KINDS = frozenset(
    {
        "SyntaxError",
        "NameError",
        "TypeError",
        "IndexError",
        "ZeroDivisionError",
        "ValueError",
        "OverflowError",
        "LimitExceeded",
    }
)
# seconds per hostile program, on the machine the budgets were set on (machine_speed.py)
TIME_BUDGET = scaled(2.0)
# The budget is applied to the CPU time of the run (the interpreter is single
# threaded), and wall time is held to WALL_SLACK times the budget: a loaded CI
# machine must not turn a 0.7 s case into a failure, while a program whose
# steps do not bound its work still fails.
WALL_SLACK = 3.0
# Every limit is the default one except the wall-clock backstop, lowered (from
# 10 s) to the wall-time allowance so that a case breaking the budget fails in
# seconds. (A lower backstop would fail sound cases on a loaded machine: the
# CPU budget is what catches work the steps do not bound.)
LIMITS = Limits(wall_seconds=TIME_BUDGET * WALL_SLACK)
DEFAULT = Limits()
REPO = Path(__file__).resolve().parents[2]

# -- what a program may not do to the host --------------------------------------

_FORBIDDEN_EVENTS = (
    "open",
    "os.",
    "socket.",
    "subprocess.",
    "shutil.",
    "import",
    "ctypes.",
    "urllib.",
    "http.",
    "glob.",
    "tempfile.",
    "pty.",
    "webbrowser.",
    "sqlite3.",
    "marshal.",
    "pickle.",
    "builtins.input",
    "sys.settrace",
    "sys.setprofile",
)
_watch = {"on": False, "events": []}


def _audit(event: str, args: tuple) -> None:
    if _watch["on"] and event.startswith(_FORBIDDEN_EVENTS):
        _watch["events"].append((event, repr(args)[:200]))


sys.addaudithook(_audit)  # process-wide and permanent, but inert unless a case runs

_HOST_TEXT = (
    "Traceback",
    'File "',
    "<aliencode>",
    "NoneType",
    "builtin",
    "<class",
    "<module",
    "<bound",
    "<lambda>",
    "site-packages",
    ".py",
    "object at",
    "_s_",
    "_r_",
    "__",
)
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{4,}")
_PATH = re.compile(r"(?:[A-Za-z]:)?[/\\][\w.-]+[/\\]")
_FUNCTION_TEXT = re.compile(r"<function [A-Za-z_]\w*>")


def host_leaks(text: str, source: str = "") -> list[str]:
    """What in `text` looks like the host (ignoring what the program wrote itself)."""
    found = [w for w in _HOST_TEXT if w in text and w not in source]
    if _ADDRESS.search(text):
        found.append("memory address")
    if _PATH.search(text) and "/" not in source and "\\" not in source:
        found.append("file path")
    if "<" in _FUNCTION_TEXT.sub("", text) and "<" not in source:
        found.append("host object text")
    return found


@dataclass
class Outcome:
    result: object | None
    raised: BaseException | None
    elapsed: float
    cpu: float
    events: list
    warnings: list


def run_hostile(source: str, limits: Limits = LIMITS, world=None) -> Outcome:
    run_source("IDLE", world=world)  # warm the parser cache: its one-off work is not the program's
    _watch["events"] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _watch["on"] = True
        start, cpu_start = time.perf_counter(), time.process_time()
        try:
            result, raised = run_source(source, world=world, limits=limits), None
        except BaseException as exc:  # noqa: BLE001 - the promise is that nothing escapes
            result, raised = None, exc
        finally:
            elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
            _watch["on"] = False
    return Outcome(
        result, raised, elapsed, cpu, list(_watch["events"]), [str(w.message) for w in caught]
    )


def assert_hostile_clean(source: str, outcome: Outcome, limits: Limits = LIMITS) -> None:
    assert outcome.raised is None, (
        f"run_source raised {type(outcome.raised).__name__}: {outcome.raised!r}"
    )
    result = outcome.result
    assert outcome.cpu < TIME_BUDGET, (
        f"took {outcome.cpu:.2f}s of CPU (budget {TIME_BUDGET}s): {result.text()[-200:]!r}"
    )
    assert outcome.elapsed < TIME_BUDGET * WALL_SLACK, (
        f"took {outcome.elapsed:.2f}s of wall time: {result.text()[-200:]!r}"
    )
    assert not outcome.events, f"touched the host: {outcome.events}"
    assert not outcome.warnings, f"host warnings: {outcome.warnings}"
    if result.error is not None:
        err = result.error
        assert err.kind in ALLOWED_KINDS, str(err)
        assert "time limit" not in err.message, (
            "stopped by the wall-clock backstop, not by a deterministic limit"
        )
        assert re.fullmatch(r"\[AlienError\] \w+: .+", str(err).splitlines()[0]), str(err)
        assert err.line is None or err.line >= 1
    text = result.text()
    leaks = host_leaks(text, source)
    assert not leaks, f"host detail {leaks} in {text[-300:]!r}"
    assert len(result.output) <= limits.max_output
    assert result.steps <= limits.max_steps + 1


@dataclass(frozen=True)
class Case:
    id: str
    source: str
    kind: str | None = (
        None  # expected error kind; None: must run without error; "*": any clean error
    )
    output: str | None = None  # expected output (exact), when given
    message: str | None = None  # a fragment the error message must contain
    limits: Limits | None = None  # instead of LIMITS

    def param(self, *marks):
        return pytest.param(self, id=self.id, marks=marks)


def check_case(case: Case, limits: Limits | None = None) -> None:
    limits = limits or case.limits or LIMITS
    outcome = run_hostile(case.source, limits)
    assert_hostile_clean(case.source, outcome, limits)
    result = outcome.result
    if case.kind is None:
        assert result.error is None, result.text()[-300:]
    elif case.kind == "*":
        assert result.error is not None, "expected an error"
    else:
        assert result.error is not None and result.error.kind == case.kind, result.text()[-300:]
    if case.output is not None:
        assert result.output == case.output
    if case.message is not None:
        assert case.message in result.error.message, result.error.message


# Cases whose steps are deep host recursions (binary user recursion) run with a
# fifth of the default step budget: a recursion oscillating at a CPython frame
# chunk boundary makes each step several times dearer, at a depth that depends
# on the caller's stack (see test_recursion_cost_does_not_depend_on_the_host_stack_regression).
SHORT = Limits(max_steps=200_000, wall_seconds=6.0)


def shared_structure(depth: int, line: str) -> str:
    """Two equal, distinct lists of 2**depth leaves built from depth+1 shared lists, then `line`."""
    return (
        "SET xs AS STRAND(1)\nSET ys AS STRAND(1)\n"
        f"SWEEP i IN EXTENT({depth}):\n    SET xs AS STRAND(xs, xs)\n    SET ys AS STRAND(ys, ys)\n"
        + line
    )


def nest(lines_per_level: list[str], depth: int, body: str) -> str:
    """`depth` nested block headers (cycling through `lines_per_level`) around `body`."""
    out = []
    for i in range(depth):
        out.append("    " * i + lines_per_level[i % len(lines_per_level)].format(i=i))
    out.append("    " * depth + body)
    return "\n".join(out) + "\n"


# =============================================================================
# reaching for the host
# =============================================================================

HOST_NAMES = [
    "__import__",
    "eval",
    "exec",
    "open",
    "exit",
    "quit",
    "globals",
    "locals",
    "vars",
    "dir",
    "__builtins__",
    "getattr",
    "setattr",
    "type",
    "object",
    "print",
    "compile",
    "input",
    "breakpoint",
    "__name__",
    "__file__",
    "__class__",
    "__loader__",
    # the interpreter's own helpers and its name mangling
    "_m",
    "_s_EMIT",
    "_s_SWEEP",
    "_r_x2b",
    "_fail",
    "_fn",
    "_d",
    "_MAXD",
    "_at_depth",
    "_w_0",
    "a_x",
    "a_a_x",
]


@pytest.mark.parametrize("name", HOST_NAMES)
def test_host_name_is_not_defined(name: str) -> None:
    for source in (
        f"EMIT({name})",
        f'{name}("os")',
        f"SET y AS STRAND({name})",
        f"CRAFT f():\n    DELIVER {name}\nEMIT(f())",
    ):
        case = Case(name, source, "NameError", output="", message=f"name '{name}' is not defined")
        check_case(case)


@pytest.mark.parametrize("name", HOST_NAMES)
def test_host_name_is_an_ordinary_program_name(name: str) -> None:
    """Binding a host's name only binds the program's own variable."""
    check_case(Case(name, f"SET {name} AS 7\nEMIT({name})", None, output="7"))
    check_case(
        Case(name, f"CRAFT {name}(q):\n    DELIVER PARE(q, 2)\nEMIT({name}(21))", None, output="42")
    )
    check_case(
        Case(
            name, f"CRAFT f({name}):\n    DELIVER SHATTER({name}, 1)\nEMIT(f(1))", None, output="2"
        )
    )


SYNTAX_ATTACKS = [
    # attributes and subscripts
    Case("attribute", "x.y"),
    Case("attribute-call", "EMIT(STRAND(1).append)"),
    Case("dunder-class", "SET x AS 1\nEMIT(x.__class__)"),
    Case("str-join", 'EMIT(",".join(STRAND("a")))'),
    Case("subscript", "SET x AS STRAND(1)\nEMIT(x[0])"),
    Case("slice-syntax", 'EMIT("abc"[::-1])'),
    Case("mro-walk", "EMIT(KNOT().__class__.__base__.__subclasses__())"),
    # imports and host statements
    Case("import", "import os"),
    Case("from-import", "from os import system"),
    Case("dunder-import-call", '__import__("os").system("echo pwned > pwned.txt")'),
    Case("open-write", 'open("pwned.txt", "w").write("x")'),
    Case("def", "def f():\n    pass"),
    Case("class", "class A:\n    pass"),
    Case("for", "for i in range(3):\n    print(i)"),
    Case("try", "try:\n    IDLE\nexcept:\n    IDLE"),
    Case("with", 'with open("x") as h:\n    IDLE'),
    Case("decorator", "@deco\nCRAFT f():\n    IDLE"),
    Case("del", "SET x AS 1\ndel x"),
    Case("assert", "assert NO"),
    Case("global", "global x"),
    Case("semicolon", "EMIT(1); EMIT(2)"),
    # lambda and operators
    Case("lambda", "SET f AS lambda: 1"),
    Case("lambda-call", "EMIT((lambda x: x)(1))"),
    Case("plus", "EMIT(1 + 2)"),
    Case("power", "EMIT(2 ** 100000)"),
    Case("unary-minus-name", "SET x AS 1\nEMIT(-x)"),
    Case("not", "EMIT(not YES)"),
    Case("compare", "EMIT(1 == 1)"),
    Case("walrus", "EMIT(x := 5)"),
    Case("ternary", "SET x AS 1 if YES else 2"),
    Case("star-args", "EMIT(*STRAND(1, 2))"),
    Case("keyword-arg", "CRAFT f(x):\n    DELIVER x\nEMIT(f(x=1))"),
    Case("f-string", 'EMIT(f"{1}")'),
    Case("backtick", "EMIT(`1`)"),
    Case("dict", 'EMIT({"a": 1})'),
    # operations are not values
    Case("emit-as-value", "SET e AS EMIT"),
    Case("emit-as-argument", "EMIT(STRAIN(EMIT, STRAND(1)))"),
    Case("operation-as-value", "SET f AS SHATTER\nEMIT(f(1, 2))"),
    Case("operation-in-list", "EMIT(STRAND(PLUCK, GAUGE))"),
    Case("craft-keyword-name", "CRAFT EMIT(x):\n    DELIVER x"),
    Case("set-keyword", "SET EMIT AS 1"),
]


@pytest.mark.parametrize("case", [c.param() for c in SYNTAX_ATTACKS])
def test_host_syntax_is_a_syntax_error(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    check_case(Case(case.id, case.source, "SyntaxError", output=""))
    assert list(tmp_path.iterdir()) == []


def test_python_keywords_are_plain_names() -> None:
    source = textwrap.dedent("""\
        SET if, else AS 1, 2
        SET True AS 5
        SET None AS 6
        CRAFT class(def, lambda):
            DELIVER SHATTER(def, lambda)
        EMIT(class(if, else), True, None)
        """)
    check_case(Case("keywords", source, None, output="3 5 6"))


def test_bare_python_words_are_unknown_names() -> None:
    for word in ("pass", "yield", "print", "exit", "os", "sys"):
        check_case(Case(word, word, "NameError", output="", message=f"'{word}'"))


STRING_TRICKS = [
    Case("percent-s", 'EMIT(RESIDUE("%s", STRAND(1)))', "TypeError", output=""),
    Case("percent-tuple", 'EMIT(RESIDUE("%s %s", KNOT(1, 2)))', "TypeError", output=""),
    Case("percent-width-bomb", 'EMIT(RESIDUE("%999999999d", 1))', "TypeError", output=""),
    Case("percent-c", 'EMIT(RESIDUE("%c", 65))', "TypeError", output=""),
    Case("percent-empty-tuple", 'EMIT(RESIDUE("abc", KNOT()))', "TypeError", output=""),
    Case("percent-right", 'EMIT(RESIDUE(5, "%s"))', "TypeError", output=""),
    Case("format-braces-are-text", 'EMIT(FUSE("{0.__class__}", 1))', None, output="{0.__class__}1"),
]


@pytest.mark.parametrize("case", [c.param() for c in STRING_TRICKS])
def test_string_tricks(case: Case) -> None:
    check_case(case)


# =============================================================================
# resource exhaustion
# =============================================================================

BIG_DIGITS = "7" * 100_000

RESOURCE_CASES = [
    # huge powers and integers
    Case(
        "coil-10-1e9",
        "EMIT(COIL(10, 1000000000))",
        "LimitExceeded",
        output="",
        message="integer size",
    ),
    Case(
        "coil-2-64-2-64",
        "EMIT(COIL(COIL(2, 64), COIL(2, 64)))",
        "LimitExceeded",
        message="integer size",
    ),
    Case("coil-2-2-20", "EMIT(COIL(2, COIL(2, 20)))", "LimitExceeded", message="integer size"),
    Case("coil-negative-base", "EMIT(COIL(-3, 999999))", "LimitExceeded", message="integer size"),
    Case("coil-float", "EMIT(COIL(2.0, 1000000000))", "OverflowError"),
    Case("coil-tiny", "EMIT(COIL(10, -1000000000))", None, output="0.0"),
    Case(
        "pare-big-ints",
        "EMIT(PARE(COIL(2, 4000), COIL(2, 4000)))",
        "LimitExceeded",
        message="integer size",
    ),
    Case(
        "squaring-loop",
        "SET x AS 2\nWHILE YES:\n    SET x AS PARE(x, x)",
        "LimitExceeded",
        message="integer size",
    ),
    Case(
        "coil-loop",
        "SET x AS 3\nWHILE YES:\n    SET x AS COIL(x, 3)",
        "LimitExceeded",
        message="integer size",
    ),
    Case(
        "float-squaring-loop",
        "SET x AS 2.0\nWHILE YES:\n    SET x AS PARE(x, x)",
        "LimitExceeded",
        message="step",
    ),
    Case(
        "literal-100000-digits",
        f"EMIT({BIG_DIGITS})",
        "LimitExceeded",
        output="",
        message="integer size",
    ),
    Case(
        "negative-literal-100000-digits",
        f"EMIT(-{BIG_DIGITS})",
        "LimitExceeded",
        message="integer size",
    ),
    Case(
        "float-literal-100000-digits",
        f"EMIT({BIG_DIGITS}.5, 1e{BIG_DIGITS[:5000]})",
        None,
        output="inf inf",
    ),
    Case("unused-huge-literal", f"CRAFT f():\n    DELIVER {BIG_DIGITS}\nEMIT(1)", None, output="1"),
    # recursion
    Case(
        "recursion-without-base",
        "CRAFT f(n):\n    DELIVER f(SHATTER(n, 1))\nf(0)",
        "LimitExceeded",
        message="call depth",
    ),
    Case(
        "mutual-recursion",
        "CRAFT f(n):\n    DELIVER g(n)\nCRAFT g(n):\n    DELIVER f(n)\nEMIT(f(1))",
        "LimitExceeded",
        message="call depth",
    ),
    Case(
        "recursion-through-strain",
        "CRAFT f(x):\n    DELIVER STRAIN(f, STRAND(x))\nEMIT(f(1))",
        "LimitExceeded",
        message="call depth",
    ),
    Case(
        "deep-but-legal-recursion",
        "CRAFT f(n):\n    UPON ATOP(n, 150):\n        DELIVER n\n    DELIVER f(SHATTER(n, "
        "1))\nEMIT(f(0))",
        None,
        output="150",
    ),
    Case(
        "exponential-recursion",
        "CRAFT fib(n):\n    UPON UNDER(n, 2):\n        DELIVER n\n    DELIVER "
        "SHATTER(fib(WEAVE(n, 1)), fib(WEAVE(n, 2)))\nEMIT(fib(40))",
        "LimitExceeded",
        message="step",
        limits=SHORT,
    ),
    Case(
        "self-returning-calls",
        "CRAFT f(x):\n    DELIVER f\nSET g AS f\nWHILE YES:\n    SET g AS g(1)",
        "LimitExceeded",
        message="step",
    ),
    # infinite loops
    Case("while-yes", "WHILE YES:\n    IDLE", "LimitExceeded", output="", message="step limit"),
    Case("while-bypass", "WHILE 1:\n    BYPASS", "LimitExceeded", message="step limit"),
    Case(
        "while-nested",
        "WHILE YES:\n    UPON NO:\n        CEASE\n    LEST YES:\n        SWEEP v IN STRAND():\n  "
        "          CEASE",
        "LimitExceeded",
        message="step limit",
    ),
    Case(
        "sweep-growing-list",
        "SET xs AS STRAND(1)\nSWEEP v IN xs:\n    ANNEX(xs, v)",
        "LimitExceeded",
    ),
    # output floods
    Case("emit-loop", 'WHILE YES:\n    EMIT("flood")', "LimitExceeded", message="output"),
    Case(
        "emit-huge-string", 'EMIT(PARE("x", 100000))', "LimitExceeded", output="", message="output"
    ),
    Case("emit-many-args", "EMIT(" + "1, " * 30_000 + "1)", None, output=" ".join(["1"] * 30_001)),
    Case(
        "emit-many-lines",
        "EMIT(" + 'PARE("ab", 9999), ' * 6 + "1)",
        "LimitExceeded",
        message="output",
    ),
    Case("pare-string-1e9", 'EMIT(PARE("x", 1000000000))', "LimitExceeded", message="length"),
    Case(
        "string-doubling",
        'SET s AS "x"\nWHILE YES:\n    SET s AS SHATTER(s, s)',
        "LimitExceeded",
        message="length",
    ),
    # memory bombs
    Case(
        "list-doubling",
        "SET xs AS STRAND(1)\nWHILE YES:\n    SET xs AS SHATTER(xs, xs)",
        "LimitExceeded",
        message="length",
    ),
    Case(
        "pare-list-1e9",
        "EMIT(GAUGE(PARE(STRAND(1), 1000000000)))",
        "LimitExceeded",
        message="length",
    ),
    Case("extent-1e12", "EMIT(GAUGE(EXTENT(1000000000000)))", "LimitExceeded", message="length"),
    Case(
        "extent-wide",
        "EMIT(GAUGE(EXTENT(-1000000000000, 1000000000000)))",
        "LimitExceeded",
        message="length",
    ),
    Case("annex-forever", "SET xs AS STRAND()\nWHILE YES:\n    ANNEX(xs, xs)", "LimitExceeded"),
    Case(
        "gather-copies",
        'SET s AS PARE("ab", 50000)\nSET keep AS STRAND()\nWHILE YES:\n    ANNEX(keep, GATHER(s))',
        "LimitExceeded",
        message="step",
    ),
    # cycles
    Case(
        "cycle-emit",
        "SET xs AS STRAND(1)\nANNEX(xs, xs)\nEMIT(xs, KNOT(xs))",
        None,
        output="[1, [...]] ([1, [...]],)",
    ),
    Case(
        "cycle-akin-self",
        "SET xs AS STRAND(1)\nANNEX(xs, xs)\nEMIT(AKIN(xs, xs), APART(xs, xs))",
        None,
        output="True False",
    ),
    Case(
        "cycle-akin-other",
        "SET xs AS STRAND(1)\nANNEX(xs, xs)\nSET ys AS STRAND(1)\nANNEX(ys, ys)\nEMIT(AKIN(xs, "
        "ys))",
        "LimitExceeded",
    ),
    Case(
        "cycle-order",
        "SET xs AS STRAND(1)\nANNEX(xs, xs)\nSET ys AS STRAND(1)\nANNEX(ys, "
        "ys)\nEMIT(ORDER(STRAND(xs, ys)))",
        "LimitExceeded",
    ),
    Case(
        "cycle-apex",
        "SET xs AS STRAND(1)\nANNEX(xs, xs)\nSET ys AS STRAND(1)\nANNEX(ys, ys)\nEMIT(APEX(xs, "
        "ys))",
        "LimitExceeded",
    ),
    Case("cycle-order-self", "SET xs AS STRAND(1)\nANNEX(xs, xs)\nEMIT(ORDER(xs))", "TypeError"),
    Case(
        "cycle-mutual",
        "SET xs AS STRAND(1)\nSET ys AS STRAND(xs)\nANNEX(xs, ys)\nEMIT(xs, ys, FUSE(xs), "
        "INDEX(xs))",
        None,
        output="[1, [[...]]] [[1, [...]]] [1, [[...]]] [(0, 1), (1, [[1, [...]]])]",
    ),
    Case(
        "cycle-imprint",
        "SET xs AS STRAND(1, 2)\nIMPRINT(xs, 0, xs)\nEMIT(xs, GAUGE(xs))",
        None,
        output="[[...], 2] 2",
    ),
    # exponential shared structure: 2**60 leaves, 61 distinct lists
    *(
        Case(f"shared-{what}", shared_structure(60, line), "LimitExceeded")
        for what, line in [
            ("akin", "EMIT(AKIN(xs, ys))"),
            ("apart", "EMIT(APART(xs, ys))"),
            ("emit", "EMIT(xs)"),
            ("fuse", "EMIT(GAUGE(FUSE(xs)))"),
            ("order", "EMIT(ORDER(STRAND(xs, ys)))"),
            ("under", "EMIT(UNDER(xs, ys))"),
            ("nadir", "EMIT(NADIR(xs, ys))"),
        ]
    ),
    # deep values built at run time
    Case(
        "deep-list-emit",
        "SET xs AS STRAND()\nSWEEP i IN EXTENT(100000):\n    SET xs AS "
        "STRAND(xs)\nEMIT(GAUGE(xs))\nEMIT(xs)",
        "LimitExceeded",
        output="1",
        message="nesting",
    ),
    Case(
        "deep-list-akin",
        "SET xs AS STRAND()\nSET ys AS STRAND()\nSWEEP i IN EXTENT(50000):\n    SET xs AS "
        "STRAND(xs)\n    SET ys AS STRAND(ys)\nEMIT(AKIN(xs, ys))",
        "LimitExceeded",
        message="nesting",
    ),
    Case(
        "deep-list-order",
        "SET xs AS STRAND()\nSET ys AS STRAND()\nSWEEP i IN EXTENT(50000):\n    SET xs AS "
        "STRAND(xs)\n    SET ys AS STRAND(ys)\nEMIT(ORDER(STRAND(xs, ys)))",
        "LimitExceeded",
        message="nesting",
    ),
    Case(
        "deep-knot-fuse",
        "SET xs AS KNOT()\nSWEEP i IN EXTENT(50000):\n    SET xs AS KNOT(xs)\nEMIT(FUSE(xs))",
        "LimitExceeded",
        message="nesting",
    ),
    # long source text
    Case("long-line-of-spaces", "EMIT(1)" + " " * 1_000_000 + "# trailing", None, output="1"),
    Case("long-comment", "#" + "x" * 1_000_000 + "\nEMIT(2)", None, output="2"),
    Case("long-name", f"SET {'v' * 100_000} AS 1\nEMIT({'v' * 100_000})", None, output="1"),
    Case("many-lines", "IDLE\n" * 20_000 + "EMIT(3)", None, output="3"),
    Case("deep-parentheses", "EMIT(" + "(" * 5000 + "1" + ")" * 5000 + ")", None, output="1"),
    Case("nested-upon-100", nest(["UPON YES:"], 100, "EMIT(4)"), None, output="4"),
    Case("nested-strand-100", "EMIT(GAUGE(" + "STRAND(" * 100 + ")" * 100 + "))", None, output="1"),
    Case("nested-craft-25", nest(["CRAFT f{i}():"], 25, "EMIT(5)") + "EMIT(6)", None, output="6"),
    Case("nested-loops-19", nest(["SWEEP v{i} IN STRAND(1):"], 19, "EMIT(7)"), None, output="7"),
    # names shadowing names
    Case(
        "craft-param-named-like-craft",
        "CRAFT f(f):\n    DELIVER f\nEMIT(f(3), f)",
        None,
        output="3 <function f>",
    ),
    Case(
        "craft-shadowed-inside",
        "CRAFT f(x):\n    CRAFT f(y):\n        DELIVER SHATTER(y, 100)\n    DELIVER "
        "f(x)\nEMIT(f(1), f(2))",
        None,
        output="101 102",
    ),
    Case(
        "craft-rebound-to-int",
        "CRAFT f():\n    DELIVER 1\nSET f AS 2\nEMIT(f())",
        "TypeError",
        message="not a function",
    ),
    Case(
        "craft-redefined",
        "CRAFT f():\n    DELIVER 1\nCRAFT f():\n    DELIVER 2\nEMIT(f())",
        None,
        output="2",
    ),
    Case(
        "local-before-set",
        "SET x AS 1\nCRAFT f():\n    EMIT(x)\n    SET x AS 2\nf()",
        "NameError",
        message="'x'",
    ),
    Case(
        "call-wrong-arity", "CRAFT f(a, b):\n    DELIVER a\nEMIT(f(1))", "TypeError", message="f()"
    ),
    Case(
        "strain-wrong-arity",
        "CRAFT g(a, b):\n    DELIVER a\nEMIT(STRAIN(g, STRAND(1, 2)))",
        "TypeError",
    ),
    Case("call-a-list", "SET q AS STRAND(1)\nEMIT(q(2))", "TypeError", message="not a function"),
    Case("call-none", "SET q AS none\nEMIT(q())", "TypeError", message="not a function"),
    Case(
        "function-values-print-plainly",
        "CRAFT f():\n    IDLE\nEMIT(f, STRAND(f), f(), FUSE(f))",
        None,
        output="<function f> [<function f>] None <function f>",
    ),
    Case(
        "order-functions",
        "CRAFT f():\n    IDLE\nCRAFT g():\n    IDLE\nEMIT(ORDER(STRAND(f, g)))",
        "TypeError",
    ),
    Case("unpack-too-many", 'SET a, b AS "abc"', "ValueError"),
    Case("unpack-int", "SET a, b AS 1", "TypeError"),
    Case("sweep-two-names-over-ints", "SWEEP i, v IN STRAND(1, 2):\n    IDLE", "TypeError"),
]


@pytest.mark.parametrize("case", [c.param() for c in RESOURCE_CASES])
def test_resource_attack(case: Case) -> None:
    check_case(case)


# The hidden main world binds many sites to rules (compiled lambdas, spliced
# expressions, in-place helpers): hostile programs must stay clean there too.
# Only the generic promises are checked; outputs differ by design.
MAIN_WORLD_CASES = RESOURCE_CASES + SYNTAX_ATTACKS + STRING_TRICKS


@pytest.fixture(scope="module")
def main_world():
    return load_world("main")


@pytest.mark.parametrize("case", [c.param() for c in MAIN_WORLD_CASES])
def test_hostile_program_in_the_main_world(case: Case, main_world) -> None:
    limits = case.limits or LIMITS
    outcome = run_hostile(case.source, limits, world=main_world)
    assert_hostile_clean(case.source, outcome, limits)


def test_main_world_annex_is_charged_regression(main_world) -> None:
    """Was a bug: where ANNEX prepends (main world, in loops) the in-place
    helper's seq.insert(0, v) moved n elements for no steps (10 s, stopped by
    the wall clock)."""
    source = "SET xs AS EXTENT(99000)\nWHILE YES:\n    ANNEX(xs, 1)\n    EXPEL(xs)"
    outcome = run_hostile(source, LIMITS, world=main_world)
    assert_hostile_clean(source, outcome, LIMITS)


def test_huge_power_costs_nothing_before_refusal() -> None:
    """COIL(10, 10**9) is refused up front: few steps, output untouched."""
    outcome = run_hostile('EMIT("before")\nEMIT(COIL(10, 1000000000))\nEMIT("after")')
    assert_hostile_clean("", outcome)
    result = outcome.result
    assert result.output == "before"
    assert result.error.kind == "LimitExceeded" and result.error.line == 2
    assert result.steps < 100
    assert result.text() == "before\n[AlienError] LimitExceeded: integer size of 2048 bits (line 2)"


def test_step_limit_is_deterministic() -> None:
    source = (
        "SET n AS 0\nWHILE YES:\n    SET n AS SHATTER(n, 1)\n"
        "    UPON OVER(n, 5):\n        EMIT(n)\n        CEASE"
    )
    results = [run_source(source, limits=Limits(max_steps=s)).as_dict() for s in (10, 10, 11)]
    assert results[0] == results[1]
    assert results[0]["error"]["kind"] == "LimitExceeded"
    full = run_source(source).as_dict()
    assert full["error"] is None and full["output"] == "6"


# =============================================================================
# deep nesting of the source (run in a child process: a crash there must not
# take the test session with it)
# =============================================================================

_CHILD = textwrap.dedent("""\
    import json, sys, time, warnings
    from aliencode import Limits, run_source
    source = sys.stdin.read()
    run_source("IDLE")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start, cpu_start = time.perf_counter(), time.process_time()
        try:
            r = run_source(source, limits=Limits(wall_seconds=6.0))
            report = {"raised": None, "kind": r.error.kind if r.error else None, \
"text": r.text()[-2000:]}
        except BaseException as exc:
            report = {"raised": type(exc).__name__ + ": " + str(exc)[:300], "kind": None, \
"text": ""}
        report["elapsed"] = time.perf_counter() - start
        report["cpu"] = time.process_time() - cpu_start
    report["warnings"] = [str(w.message) for w in caught]
    print(json.dumps(report))
    """)


def run_in_child(source: str) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD],
        input=source,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )
    assert proc.returncode == 0, f"child died with {proc.returncode}: {proc.stderr[-500:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


def check_nesting(source: str) -> dict:
    report = run_in_child(source)
    assert report["raised"] is None, f"run_source raised {report['raised']}"
    assert report["cpu"] < TIME_BUDGET and report["elapsed"] < TIME_BUDGET * WALL_SLACK, report
    assert report["kind"] is None or report["kind"] in ALLOWED_KINDS, report["text"]
    assert not host_leaks(report["text"], source), report["text"]
    assert not report["warnings"], report["warnings"]
    return report


NESTING_OK = [
    Case("parentheses-5000", "EMIT(" + "(" * 5000 + "1" + ")" * 5000 + ")"),
    Case("upon-100", nest(["UPON YES:"], 100, "EMIT(1)")),
    Case(
        "lest-chain-200",
        "UPON NO:\n    IDLE\n" + "LEST NO:\n    IDLE\n" * 200 + "DEFAULT:\n    EMIT(2)\n",
    ),
    Case(
        "mixed-blocks-18",
        nest(["UPON YES:", "SWEEP v{i} IN STRAND(1):", "CRAFT f{i}():"], 18, "EMIT(3)"),
    ),
]
# Were bugs: run_source raised a host RecursionError (the compiler recursed per
# level) or a host SyntaxError ("too many statically nested blocks" beyond 20
# nested loops). Now refused cleanly.
NESTING_REFUSED = [
    Case("strand-5000", "EMIT(" + "STRAND(" * 5000 + ")" * 5000 + ")"),
    Case("strand-1000", "EMIT(" + "STRAND(" * 1000 + ")" * 1000 + ")"),
    Case(
        "user-calls-2000",
        "CRAFT f(x):\n    DELIVER x\nEMIT(" + "f(" * 2000 + "1" + ")" * 2000 + ")",
    ),
    Case("chained-calls-2000", "CRAFT f(x):\n    DELIVER f\nEMIT(f" + "(1)" * 2000 + ")"),
    Case("upon-1000", nest(["UPON YES:"], 1000, "EMIT(1)")),
    Case(
        "lest-chain-1000",
        "UPON NO:\n    IDLE\n" + "LEST NO:\n    IDLE\n" * 1000 + "DEFAULT:\n    EMIT(2)\n",
    ),
    Case("sweep-21", nest(["SWEEP v{i} IN STRAND(1):"], 21, "EMIT(1)")),
    Case("while-21", nest(["WHILE YES:"], 21, "CEASE")),
]


@pytest.mark.parametrize("case", [c.param() for c in NESTING_OK])
def test_deep_nesting_within_reason(case: Case) -> None:
    check_nesting(case.source)


@pytest.mark.parametrize("case", [c.param() for c in NESTING_REFUSED])
def test_deep_nesting_is_refused_cleanly_regression(case: Case) -> None:
    report = check_nesting(case.source)
    assert report["kind"] in ("SyntaxError", "LimitExceeded"), report["text"]


# =============================================================================
# work that steps must account for
# =============================================================================

_TWO_LONG_STRINGS = (
    'SET s AS PARE("x", 99999)\nSET a AS SHATTER(s, "y")\nSET b AS SHATTER(s, "y")\n'
)
_BIG_INTS = "SET x AS WEAVE(COIL(2, 4095), 1)\nSET y AS WEAVE(COIL(2, 2047), 1)\n"

# Were bugs (10-12 s each, stopped by the wall clock): SOME_OF/EVERY_OF charged
# nothing per element, comparing long strings inside AKIN/APEX was free, and
# the pairs INDEX builds cost far more than their steps.
UNCHARGED_WORK_FIXED = [
    Case(
        "some-of-loop",
        "SET xs AS PARE(STRAND(0), 100000)\nWHILE NEGATE(SOME_OF(xs)):\n    IDLE",
        "LimitExceeded",
    ),
    Case(
        "every-of-loop",
        "SET xs AS PARE(STRAND(1), 100000)\nWHILE EVERY_OF(xs):\n    IDLE",
        "LimitExceeded",
    ),
    Case(
        "akin-lists-of-long-strings",
        _TWO_LONG_STRINGS
        + "SET xs AS PARE(STRAND(a), 100000)\nSET ys AS PARE(STRAND(b), 100000)\nWHILE AKIN(xs, "
        "ys):\n    IDLE",
        "LimitExceeded",
    ),
    Case(
        "apex-of-long-strings",
        _TWO_LONG_STRINGS + "SET xs AS PARE(STRAND(a, b), 50000)\nWHILE APEX(xs):\n    IDLE",
        "LimitExceeded",
    ),
    Case(
        "index-accumulation",
        "SET xs AS EXTENT(100000)\nSET keep AS STRAND()\nWHILE YES:\n    ANNEX(keep, INDEX(xs))",
        "LimitExceeded",
    ),
]


@pytest.mark.parametrize("case", [c.param() for c in UNCHARGED_WORK_FIXED])
def test_uncharged_work_regression(case: Case) -> None:
    check_case(case, LIMITS)


UNCHARGED_WORK_BUGS = [
    # ORDER's fast path sorts strings natively: comparing two 100 000-character
    # strings with a common prefix is free, ~0.6 s per ORDER for ~106 000 steps.
    Case(
        "order-of-long-strings",
        'SET s AS PARE("x", 99999)\nSET a AS SHATTER(s, "a")\nSET b AS SHATTER(s, "b")\n'
        "SET xs AS PARE(STRAND(b, a), 50000)\nWHILE ORDER(xs):\n    IDLE",
        "LimitExceeded",
    ),
    # A statement costs the same steps however many operations it holds: 300
    # big-integer divisions per loop iteration are charged like one.
    # (Kept narrow enough that the wall-clock backstop, checked every 10 000
    # steps, still stops them in a few seconds.)
    Case(
        "wide-expression-of-divisions",
        _BIG_INTS + "WHILE YES:\n    SET t AS STRAND(" + ", ".join(["HALVE(x, y)"] * 30) + ")",
        "LimitExceeded",
    ),
    Case(
        "wide-expression-of-comparisons",
        _TWO_LONG_STRINGS
        + "WHILE YES:\n    SET t AS STRAND("
        + ", ".join(["UNDER(a, b)"] * 60)
        + ")",
        "LimitExceeded",
    ),
    Case(
        "wide-list-display",
        "WHILE YES:\n    SET t AS STRAND(" + ", ".join(["0"] * 20_000) + ")",
        "LimitExceeded",
    ),
]


@pytest.mark.parametrize("case", [c.param() for c in UNCHARGED_WORK_BUGS])
def test_uncharged_work_fixed_regression(case: Case) -> None:
    check_case(case, LIMITS)


@pytest.mark.parametrize("op", ["UNDER(xs, ys)", "AKIN(xs, ys)"], ids=["compare", "deep_equal"])
def test_recursion_cost_does_not_depend_on_the_host_stack_regression(op: str) -> None:
    """Was a bug: the recursive container comparisons got 6-12x slower per
    step when their recursion oscillated at a CPython 3.11 frame-stack chunk
    boundary (each call mapped and unmapped a chunk): 1M steps took 4-8 s at
    the unlucky structure depth.

    Where the boundary falls depends on the caller's own stack depth, so every
    structure depth over a window wider than a chunk is measured (each run
    spends the same 10 000 steps; best of two against timing noise) and the
    slowest must stay within 3x of the typical one."""
    probe = Limits(max_steps=10_000)

    def cost(depth: int) -> float:
        source = shared_structure(depth, f"EMIT({op})")
        best = float("inf")
        for _ in range(2):
            cpu = time.process_time()
            result = run_source(source, limits=probe)
            best = min(best, time.process_time() - cpu)
            assert result.error is not None and result.error.kind == "LimitExceeded"
        return best

    costs = {depth: cost(depth) for depth in range(16, 110)}
    typical = statistics.median(costs.values())
    worst = max(costs, key=costs.get)
    assert costs[worst] < 3 * typical, (
        f"structure depth {worst}: {costs[worst] * 1e3:.0f} ms for 10 000 steps, typically "
        f"{typical * 1e3:.0f} ms"
    )


def test_calling_a_constant_is_a_type_error_without_host_warnings() -> None:
    """compile() warns about calls on constants ("'int' object is not callable;
    perhaps you missed a comma?"); none of that may reach the user."""
    for source in ("EMIT(5(1))", "EMIT(none())", 'EMIT("s"(1))', "EMIT(2.5())", "EMIT(YES(1))"):
        check_case(Case(source, source, "TypeError", output="", message="not a function"))


def test_calling_an_operation_result_regression() -> None:
    """Was a bug: STRAND(1)(2) was reported as 'STRAND: invalid operands' (the
    call shared the operation's position, so the error blamed the operation)."""
    for source in (
        "EMIT(STRAND(1)(2))",
        "EMIT(KNOT()(1))",
        "EMIT(PLUCK(STRAND(5), 0)(1))",
        "EMIT(SHATTER(1, 2)(3))",
    ):
        check_case(Case(source, source, "TypeError", output="", message="value is not a function"))


def test_literals_respect_the_length_limit_regression() -> None:
    """Was a bug: a string literal or a STRAND/KNOT argument list longer than
    the sequence length limit made a value beyond the limit."""
    n = DEFAULT.max_length + 1
    check_case(
        Case(
            "long-literal",
            f'SET s AS "{"x" * n}"\nEMIT(GAUGE(s))',
            "LimitExceeded",
            output="",
            message="length",
        )
    )
    # (a smaller limit keeps the argument list quick to parse)
    small = Limits(max_length=1000, wall_seconds=6.0)
    for op in ("STRAND", "KNOT", "FUSE", "NADIR"):
        check_case(
            Case(
                op,
                f"EMIT(GAUGE({op}({', '.join(['0'] * 1001)})))",
                "LimitExceeded",
                output="",
                message="length",
            ),
            small,
        )
    check_case(
        Case(
            "at-the-limit", f"EMIT(GAUGE(STRAND({', '.join(['0'] * 1000)})))", None, output="1000"
        ),
        small,
    )


# =============================================================================
# the command line
# =============================================================================

_CLI = (
    "import sys; from alienworlds.cli.aliencode import main; sys.exit(main(prog_name='aliencode'))"
)


def cli(args: list[str], source: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    start = time.perf_counter()
    args = (
        args if "--world" in args else ["--world", "standard", *args]
    )  # the command's default is the hidden main world
    proc = subprocess.run(
        [sys.executable, "-c", _CLI, "run", *args, "-"],
        input=source,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        env=env,
    )
    proc.elapsed = time.perf_counter() - start
    return proc


def test_cli_json_step_limit(tmp_path: Path) -> None:
    proc = cli(["--max-steps", "1000", "--json"], "WHILE YES:\n    IDLE\n", tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == ""
    report = json.loads(proc.stdout)
    assert report["error"]["kind"] == "LimitExceeded"
    assert "1000 steps" in report["error"]["message"]
    assert report["output"] == "" and report["steps"] == 1001
    assert list(tmp_path.iterdir()) == []


def test_cli_json_recursion_and_flood(tmp_path: Path) -> None:
    proc = cli(
        ["--json", "--max-steps", "5000"],
        "CRAFT f(n):\n    EMIT(n)\n    DELIVER f(SHATTER(n, 1))\nf(0)\n",
        tmp_path,
    )
    assert proc.returncode == 1 and proc.stderr == ""
    report = json.loads(proc.stdout)
    assert report["error"]["kind"] == "LimitExceeded"
    assert report["output"].splitlines()[:3] == ["0", "1", "2"]
    proc = cli(["--json"], 'WHILE YES:\n    EMIT("flood")\n', tmp_path)
    assert proc.returncode == 1 and proc.stderr == ""
    report = json.loads(proc.stdout)
    assert (
        report["error"]["kind"] == "LimitExceeded" and "output size" in report["error"]["message"]
    )
    assert len(report["output"]) <= DEFAULT.max_output


def test_cli_text_mode_huge_power(tmp_path: Path) -> None:
    proc = cli([], "EMIT(COIL(10, 1000000000))\n", tmp_path)
    assert proc.returncode == 1
    assert proc.stdout == "[AlienError] LimitExceeded: integer size of 2048 bits (line 1)\n"
    assert proc.stderr == ""


def test_cli_host_reach_touches_nothing(tmp_path: Path) -> None:
    for source in (
        '__import__("os").system("touch pwned")\n',
        'open("pwned", "w")\n',
        "EMIT(__import__)\n",
    ):
        proc = cli(["--max-steps", "100"], source, tmp_path)
        assert proc.returncode == 1, proc.stdout
        assert proc.stdout.startswith("[AlienError] ") and proc.stderr == ""
        assert not host_leaks(proc.stdout, source)
    assert list(tmp_path.iterdir()) == []


def test_cli_deep_nesting_regression(tmp_path: Path) -> None:
    """Was a bug: `aliencode run` died with a Python traceback (RecursionError)."""
    proc = cli([], "EMIT(" + "STRAND(" * 2000 + ")" * 2000 + ")\n", tmp_path)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and proc.stdout.startswith("[AlienError] ")


def test_cli_prints_no_host_warning(tmp_path: Path) -> None:
    proc = cli([], "EMIT(5(1))\n", tmp_path)
    assert proc.returncode == 1
    assert proc.stdout == "[AlienError] TypeError: int value is not a function (line 1)\n"
    assert proc.stderr == ""
