"""Worst cases of the limits contract, generated from a seed, and a runner
that measures them in child processes.

Each family attacks one class of the contract (docs/aliencode.md, "Limits"):
a program, a world file or both, with sizes and shapes drawn from the seed
near where the limits bite. `generate(seed)` gives every family's cases;
`run_batch(cases)` runs them in one child process and returns, per case, the
verdict and the child's CPU time, with the child's peak memory
(ru_maxrss) for the batch; `run_alone(case)` runs one case through the
`aliencode run` command in its own process (what benchmarks/limits.py
reports). The test suite runs a small fixed-seed slice
(test_worst_cases.py); the benchmark runs more.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from aliencode import Limits

MEMORY_BOUND_MB = 512
SECONDS_BOUND = 10.0


@dataclass(frozen=True)
class Case:
    family: str  # the class of the contract attacked
    name: str
    source: str
    world: str = "standard"  # a shipped world's name ...
    world_text: str | None = None  # ... or a world file's text
    expect: str | None = None  # a fragment the verdict must contain (None: any clean verdict)


@dataclass
class Measured:
    case: str
    verdict: str  # "ok", "<Kind>: <message>", "world error: ...", or "crash: ..."
    exit_code: int | None  # of `aliencode run` (run_alone only)
    cpu: float  # seconds of CPU of the case
    wall: float
    peak_mb: float  # the process's peak resident memory (for a batch: of the whole batch)
    outcome: str = ""  # run_alone: a digest of everything the run printed (output, error, steps)


# -- the families --------------------------------------------------------------

ESCAPED = [
    "\x01",
    "\x7f",
    chr(0xE0001),
    "\\",
    "\u200b",
]  # printed as \x01, ..., \U000e0001, \\, \u200b


def _lit(text: str) -> str:
    """An AlienCode string literal holding `text` (no character needs escaping but these)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def fold(rng: random.Random) -> list[Case]:
    """1. Compile-time folding of a float with an integer beyond floats."""
    cases = []
    for i in range(3):
        op = rng.choice(
            ["SHATTER", "WEAVE", "PARE", "HALVE", "RESIDUE", "FRACTURE", "COIL", "AKIN", "OVER"]
        )
        big = str(rng.randint(1, 9)) + "0" * rng.randint(309, 1200)
        pair = [f"{rng.uniform(-9, 9):.3f}", big]
        rng.shuffle(pair)
        world = rng.choice(["standard", "main"])
        cases.append(Case("fold", f"fold-{op}-{i}", f"EMIT({op}({pair[0]}, {pair[1]}))", world))
    rule = '[[rules]]\nid = "F"\nname = "n"\ntarget = "literal.int"\nactual = "(* n 1.5)"\n'
    cases.append(
        Case(
            "fold",
            "fold-literal-rule",
            "EMIT(1" + "0" * rng.randint(309, 600) + ")",
            world_text=_world(rule),
            expect="OverflowError",
        )
    )
    return cases


def render(rng: random.Random) -> list[Case]:
    """2. Rendering: many values near the budget, large lists fused, deep and wide values."""
    ch = rng.choice(ESCAPED)
    copies = rng.randint(1500, 3000)
    emit = (
        f"SET t AS STRAND(PARE({_lit(ch)}, {rng.randint(9000, 9990)}))\nEMIT("
        + ", ".join(["t"] * copies)
        + ")"
    )
    fuse = (
        f"SET xs AS PARE(STRAND({rng.randint(10**8, 10**9)}), {rng.randint(8000, 9000)})\n"
        "EMIT(GAUGE(FUSE(" + ", ".join(["xs"] * rng.randint(1000, 2000)) + ")))"
    )
    deep = (
        f"SET xs AS STRAND(0)\nSWEEP i IN EXTENT({rng.randint(40, 70)}):\n"
        "    SET xs AS PARE(STRAND(xs), 100000)\nEMIT(xs)"
    )
    nested = (
        f"SET xs AS STRAND()\nSWEEP i IN EXTENT({rng.randint(300, 399)}):\n    SET xs AS "
        "STRAND(xs, i, 2.5)\n"
        "WHILE YES:\n    SET s AS FUSE(xs)"
    )
    return [
        Case("render", "emit-copies", emit, expect="output size"),
        Case("render", "fuse-lists", fuse, expect="sequence length"),
        Case("render", "deep-wide", deep, expect="LimitExceeded"),
        Case("render", "fuse-nested-loop", nested, expect="step limit"),
    ]


def memory(rng: random.Random) -> list[Case]:
    """2. Memory: what a program keeps, built by operators or element by element."""
    bits = rng.randint(1800, 2047)
    extents = (
        f"SET b AS COIL(2, {bits})\nSET keep AS STRAND()\nSWEEP i IN EXTENT(78):\n"
        "    ANNEX(keep, EXTENT(b, SHATTER(b, 100000)))\nEMIT(GAUGE(keep))"
    )
    pairs = "SET xs AS EXTENT(100000)\nSET keep AS STRAND()\nWHILE YES:\n    ANNEX(keep, INDEX(xs))"
    strings = (
        f"SET s AS PARE({_lit(rng.choice(['ab', 'é', chr(0x1F600)]))}, "
        f"{rng.randint(20000, 24000)})\n"
        "SET keep AS STRAND()\nSET i AS 0\nWHILE YES:\n    ANNEX(keep, SHATTER(s, FUSE(i)))\n    "
        "SET i AS SHATTER(i, 1)"
    )
    waiting = (
        f"SET b AS COIL(2, {bits})\nCRAFT mk():\n    DELIVER EXTENT(b, SHATTER(b, 100000))\n"
        "EMIT(GAUGE(STRAND(" + ", ".join(["mk()"] * rng.randint(6, 12)) + ")))"
    )
    native = (
        f"SET b AS COIL(2, {bits})\nSET c AS STRAND()\nSET i AS 0\nWHILE YES:\n"
        "    SET c AS STRAND(c, SHATTER(b, i), SHATTER(b, i))\n    SET i AS SHATTER(i, 1)"
    )
    return [
        Case("memory", "extents-of-big-integers", extents, expect="memory"),
        Case("memory", "pairs", pairs, expect="LimitExceeded"),
        Case("memory", "strings", strings, expect="LimitExceeded"),
        Case("memory", "waiting-results", waiting, expect="memory"),
        Case("memory", "native-chain", native, expect="LimitExceeded"),
    ]


def compile_time(rng: random.Random) -> list[Case]:
    """3. Parsing and compiling: nested splices, long and dense programs."""
    width, depth = rng.randint(3000, 8000), rng.randint(300, 490)
    inner = "STRAND(" + ", ".join(["7"] * width) + ")"
    op = rng.choice(["CARVE({}, 1)", "GATHER({})", "CARVE({}, 1, 99999)"])
    nested = inner
    for _ in range(depth):
        nested = op.format(nested)
    line = rng.choice(
        ["SET x AS SHATTER(1, 2)\n", "EMIT(1, 2, 3)\n", "SET a, b AS PLUCK(STRAND(1, 2), 0), 3\n"]
    )
    tokens = len(re.findall(r"\w+|\S", line)) + 1  # with the newline
    dense = line * (Limits().max_tokens * 9 // 10 // tokens)  # just within the token cap
    return [
        Case("compile", "nested-splices", f"EMIT(GAUGE({nested}))", "main", expect="ok"),
        Case("compile", "dense-program", dense, "main"),
        Case(
            "compile",
            "over-the-token-cap",
            "SET x AS SHATTER(1, 2)\n" * 15_000,
            "main",
            expect="source size",
        ),
        Case("compile", "over-the-size-cap", "#" * (1 << 20) + "\nEMIT(1)", expect="source size"),
        Case(
            "compile",
            "many-arguments",
            "CRAFT f(" + ", ".join(f"p{i}" for i in range(3000)) + "):\n    DELIVER p0\n"
            "EMIT(f("
            + ", ".join(["1"] * 3000)
            + "), GAUGE(STRAND("
            + ", ".join(["2.5"] * 30000)
            + ")))",
            expect="ok",
        ),
    ]


def compare(rng: random.Random) -> list[Case]:
    """4. Comparisons: mixed floats and large integers, long strings, deep equal structures."""
    bits = rng.randint(60, 2047)
    mixed = (
        f"SET b AS COIL(2, {bits})\nSET xs AS STRAND()\nSWEEP i IN EXTENT(50000):\n"
        "    ANNEX(xs, SHATTER(b, i))\n    ANNEX(xs, SHATTER(FRACTURE(i, 7), 0.5))\n"
    )
    op = rng.choice(["APEX(xs)", "NADIR(xs)", "ORDER(xs)", "APEX(xs, xs)"])
    strings = (
        f'SET s AS PARE("x", {rng.randint(90000, 99000)})\nSET xs AS STRAND()\nSWEEP i IN '
        "EXTENT(200):\n"
        "    ANNEX(xs, SHATTER(s, FUSE(i)))\n"
    )
    sop = rng.choice(["ORDER(xs)", "APEX(xs)", "AKIN(xs, GATHER(xs))"])
    equal = (
        "SET xs AS STRAND()\nSET ys AS STRAND()\nSWEEP i IN EXTENT(20000):\n"
        "    ANNEX(xs, KNOT(i, 0.5, STRAND(i)))\n    ANNEX(ys, KNOT(i, 0.5, STRAND(i)))\n"
    )
    n = rng.randint(20000, 50000)
    text = f'SET s AS PARE("x", {n})\nWHILE AKIN(s, "' + "x" * n + '"):\n    IDLE'
    return [
        Case(
            "compare", f"mixed-{op}", mixed + f"WHILE YES:\n    SET m AS {op}", expect="step limit"
        ),
        Case("compare", "long-text-constant", text, expect="step limit"),
        Case(
            "compare",
            f"strings-{sop}",
            strings + f"WHILE YES:\n    SET m AS {sop}",
            expect="step limit",
        ),
        Case(
            "compare",
            "equal-structures",
            equal + "WHILE AKIN(xs, ys):\n    SET m AS UNDER(xs, ys)",
            expect="step limit",
        ),
    ]


def fold_budget(rng: random.Random) -> list[Case]:
    """5. Folding that spends its budget must not change a verdict."""
    n = rng.randint(60, 120)
    source = f'SET s AS SHATTER("{rng.choice("abc") * 2}", {rng.randint(30000, 40000)})\n' * n
    return [
        Case(
            "fold-budget",
            "spent-fold-budget",
            source + 'EMIT("' + "x" * rng.randint(65, 200) + '")',
            "main",
            expect="ok",
        )
    ]


def _world(rules: str) -> str:
    return 'format = 1\nname = "hostile"\nlanguage = "aliencode"\n' + rules


def worlds(rng: random.Random) -> list[Case]:
    """6. Hostile world files: refused, never a crash."""

    def rule(actual: str, target: str = "SHATTER") -> str:
        return (
            f'[[rules]]\nid = "H"\nname = "n"\ntarget = "{target}"\nactual = {json.dumps(actual)}\n'
        )

    depth = rng.randint(25, 3000)
    texts = {
        "huge-constant": rule("(+ a 1" + "0" * rng.randint(620, 5000) + ")"),
        "deep-nesting": rule("(neg " * depth + "x" + ")" * depth, "NEGATE"),
        "non-finite": rule(rng.choice(["(+ a 1e99999)", "(* a -1e400)", "(- 1e309 b)"])),
        "long-string": rule('(concat s "' + "x" * rng.randint(1001, 3000) + '")', "literal.str"),
        "huge-id": rule("(+ a b)").replace(
            'id = "H"', 'id = "' + "H" * rng.randint(65, 100_000) + '"'
        ),
        "toml-nesting": rule("(+ a b)") + "x = " + "[" * depth + "]" * depth + "\n",
    }
    return [
        Case(
            "world",
            f"world-{name}",
            "EMIT(SHATTER(1, 2))",
            world_text=_world(text),
            expect="world error",
        )
        for name, text in texts.items()
    ]


def output(rng: random.Random) -> list[Case]:
    """7. Error messages quoting very long names; control characters printed."""
    name = "v" * rng.randint(100_000, 1_000_000)
    control = "".join(rng.choice(["\x1b[31m", "\x07", "\x00", "\u202e", "é"]) for _ in range(20))
    return [
        Case("output", "long-name", f"EMIT({name})", expect="NameError"),
        Case("output", "control-characters", f"EMIT({_lit(control)})", expect="ok"),
    ]


WIDE_CHARS = [
    chr(0x1F600),
    chr(0xE0001),
    "\u4e00",
    "\u0100",
]  # each a host object of its own when taken out


def characters(rng: random.Random) -> list[Case]:
    """8. Operations taking a long string of wide characters apart, their
    results kept: pairs, positions, sorted and filtered characters."""
    op = rng.choice(
        [
            "PAIR(s, s)",
            "INDEX(s)",
            "ORDER(s)",
            "STRAIN(yes, s)",
            "GATHER(s)",
            "PAIR(s, EXTENT(100000))",
        ]
    )
    source = (
        f"CRAFT yes(c):\n    DELIVER YES\nSET s AS PARE({_lit(rng.choice(WIDE_CHARS))}, "
        f"{rng.randint(90000, 100000)})\n"
        f"SET keep AS STRAND()\nSWEEP i IN EXTENT({rng.randint(18, 40)}):\n    ANNEX(keep, "
        f"{op})\nEMIT(GAUGE(keep))"
    )
    return [Case("characters", f"kept-{op}", source, expect="LimitExceeded")]


def layout(rng: random.Random) -> list[Case]:
    """9. A megabyte of layout the lexer reads as line breaks (blank lines,
    comment lines, indented blanks, carriage returns), or of one string literal."""
    unit = "".join(
        rng.choice(["\n", "\r\n", "   \n", "\t\n", "#\n", "# c\n", "  #\n"])
        for _ in range(rng.randint(1, 5))
    )
    body = (unit * ((1 << 20) // len(unit)))[: (1 << 20) - 100]
    text = (
        "".join(rng.choice(["x", "\\n", '\\"', chr(0x1F600)]) for _ in range(rng.randint(1, 4)))
        * (1 << 19)
    )[: (1 << 20) - 100]
    text = text[:-1] if text.endswith("\\") else text
    quote = rng.choice(['"', "'"])
    return [
        Case("layout", "megabyte-of-layout", "EMIT(1)\n" + body + "\nEMIT(2)\n", expect="ok"),
        Case(
            "layout",
            "megabyte-string-literal",
            f"EMIT(GAUGE({quote}{text}{quote}))",
            expect="sequence length",
        ),
        Case(
            "layout",
            "megabyte-unterminated-literal",
            f"EMIT(GAUGE({quote}{text}))",
            expect="unterminated string",
        ),
    ]


def _rule_tree(rng: random.Random, nodes: int) -> str:
    """A random rule over a and b of at most `nodes` nodes, of the shapes
    splicing expands most (sums with constants, comparisons, conditionals)."""
    if nodes < 3:
        return rng.choice(["a", "b", str(rng.randint(-3, 3))])
    op = rng.choice(["+", "-", "+", "==", "<", "and", "if"])
    if op == "if":
        share = (nodes - 1) // 3
        return f"(if {_rule_tree(rng, share)} {_rule_tree(rng, share)} {_rule_tree(rng, share)})"
    left = rng.randint(1, nodes - 2)
    return f"({op} {_rule_tree(rng, left)} {_rule_tree(rng, nodes - 1 - left)})"


def splicing(rng: random.Random) -> list[Case]:
    """10. Thousands of call sites under a rule just within the splicing size."""
    rule = (
        '[[rules]]\nid = "S"\nname = "n"\ntarget = "SHATTER"\n'
        f"actual = {json.dumps(_rule_tree(rng, 31))}\n"
    )
    line = rng.choice(
        ["SET x AS SHATTER(x, 1)\n", "SET x AS SHATTER(1, x)\n", "SET x AS SHATTER(x, y)\n"]
    )
    source = "SET x AS 1\nSET y AS 2\n" + line * rng.randint(8000, 9500) + "EMIT(x)"
    return [Case("splicing", "sites-under-a-31-node-rule", source, world_text=_world(rule))]


def sorting(rng: random.Random) -> list[Case]:
    """11. Sorts the fast paths do not take: numbers with a NaN, mixed
    scalars that fail late, tuples."""
    n = rng.randint(95000, 98000)

    def numbers(size: int) -> str:  # `size` numbers out of order, one of them NaN
        return (
            f"SET xs AS STRAND()\nSWEEP i IN EXTENT({size}):\n    ANNEX(xs, RESIDUE(PARE(i, "
            f"7919), {size}))\n"
            f"IMPRINT(xs, {rng.randint(0, size - 1)}, WEAVE(1e309, 1e309))\n"
        )

    tuples = (
        f"SET xs AS STRAND()\nSWEEP i IN EXTENT({n // 2}):\n"
        f"    ANNEX(xs, KNOT(RESIDUE(PARE(i, 7919), {n}), 0.5))\n"
    )
    return [
        Case(
            "sorting",
            "numbers-with-a-nan",
            numbers(n) + "WHILE YES:\n    EMIT(GAUGE(ORDER(xs)))",
            expect="step limit",
        ),
        Case(
            "sorting",
            "a-string-last",
            numbers(n // 4) + 'ANNEX(xs, "z")\nEMIT(GAUGE(ORDER(xs)))',
            expect="TypeError",
        ),
        Case(
            "sorting",
            "tuples",
            tuples + "WHILE YES:\n    EMIT(GAUGE(ORDER(xs)))",
            expect="step limit",
        ),
    ]


def functions(rng: random.Random) -> list[Case]:
    """12. World rules handing on STRAIN's predicate (a host callable)."""
    inner = "pred"
    for _ in range(rng.randint(1, 4)):
        inner = rng.choice(
            [
                "(if (== (len seq) 0) {} seq)",
                "(list (tuple {}))",
                "(or {} seq)",
                "(append seq {})",
                "(filter (and seq {}) seq)",
            ]
        ).format(inner)
    rule = f'[[rules]]\nid = "P"\nname = "n"\ntarget = "STRAIN"\nactual = {json.dumps(inner)}\n'
    source = "CRAFT h(n):\n    DELIVER g()\nSET g AS STRAIN(h, STRAND())\nEMIT(g())"
    return [
        Case(
            "functions",
            "predicate-handed-on",
            source,
            world_text=_world(rule),
            expect="world error",
        )
    ]


def depth(rng: random.Random) -> list[Case]:
    """13. Recursion to the depth limit through nested short-circuit rules
    (main binds BOND to `or`; under main, literal n stands for n ^ 27)."""
    cases = []
    for calls, expect in ((rng.randint(190, 200), "ok"), (rng.randint(201, 205), "call depth")):
        nesting = rng.randint(1, 480)
        bonds = "BOND(NO, " * nesting + "f(WEAVE(n, 26))" + ")" * nesting
        source = (
            f"CRAFT f(n):\n    UPON OVER(n, 26):\n        DELIVER {bonds}\n    DELIVER 0\n"
            f"EMIT(f({(calls - 1) ^ 27}))"
        )
        cases.append(
            Case(
                "depth", f"{calls}-calls-{expect.replace(' ', '-')}", source, "main", expect=expect
            )
        )
    return cases


FAMILIES = {
    "fold": fold,
    "render": render,
    "memory": memory,
    "compile": compile_time,
    "compare": compare,
    "fold-budget": fold_budget,
    "world": worlds,
    "output": output,
    "characters": characters,
    "layout": layout,
    "splicing": splicing,
    "sorting": sorting,
    "functions": functions,
    "depth": depth,
}


def generate(seed: int, families: list[str] | None = None) -> list[Case]:
    """Every family's cases for `seed` (each family draws from its own stream)."""
    out: list[Case] = []
    for name, family in FAMILIES.items():
        if families is None or name in families:
            out.extend(family(random.Random(f"{seed}:{name}")))
    return out


def issue_cases() -> list[Case]:
    """The example of each class as the audit that found it gave it (the
    worst case measured before and after, by benchmarks/limits.py)."""
    tag = chr(0xE0001)
    rule = '[[rules]]\nid = "H"\nname = "n"\ntarget = "SHATTER"\nactual = {}\n'
    use = "EMIT(SHATTER(1, 2))"
    inner = "STRAND(" + ", ".join(["7"] * 5000) + ")"
    return [
        Case(
            "fold",
            "1 float and huge integer folded",
            "EMIT(SHATTER(1.5, 1" + "0" * 310 + "))",
            "main",
            expect="OverflowError",
        ),
        Case(
            "render",
            "2 EMIT of 3,000 escaped strings",
            f'SET t AS STRAND(PARE("{tag}", 9990))\nEMIT(' + ", ".join(["t"] * 3000) + ")",
            expect="output size",
        ),
        Case(
            "render",
            "2 FUSE of 2,000 large lists",
            "SET xs AS PARE(STRAND(123456789), 9000)\nEMIT(GAUGE(FUSE("
            + ", ".join(["xs"] * 2000)
            + ")))",
            expect="sequence length",
        ),
        Case(
            "memory",
            "2 78 EXTENTs of 2,048-bit integers",
            "SET b AS COIL(2, 2047)\nSET keep AS STRAND()\nSWEEP i IN EXTENT(78):\n"
            "    ANNEX(keep, EXTENT(b, SHATTER(b, 100000)))\nEMIT(GAUGE(keep))",
            expect="memory",
        ),
        Case(
            "render",
            "2 deep and wide value printed",
            "SET xs AS STRAND(0)\nSWEEP i IN EXTENT(70):\n    SET xs AS PARE(STRAND(xs), "
            "100000)\nEMIT(xs)",
            expect="output size",
        ),
        Case(
            "compile",
            "3 490 nested splices (main)",
            "EMIT(GAUGE(" + "CARVE(" * 490 + inner + ", 1)" * 490 + "))",
            "main",
            expect="ok",
        ),
        Case(
            "compile",
            "3 490 nested calls (standard)",
            "EMIT(GAUGE(" + "CARVE(" * 490 + inner + ", 1)" * 490 + "))",
            expect="ok",
        ),
        Case(
            "compile",
            "3 2.3 MB flat program",
            "SET x AS SHATTER(1, 2)\n" * 100_000,
            "main",
            expect="source size",
        ),
        Case(
            "compare",
            "4 APEX over floats and big integers",
            "SET b AS WEAVE(COIL(2, 2047), 1)\nSET xs AS STRAND()\nSWEEP i IN EXTENT(50000):\n"
            "    ANNEX(xs, SHATTER(b, i))\n    ANNEX(xs, FRACTURE(i, 7))\nWHILE YES:\n    SET m "
            "AS APEX(xs)",
            expect="step limit",
        ),
        Case(
            "fold-budget",
            "5 81 folded products, then a literal",
            'SET s AS SHATTER("ab", 49920)\n' * 81 + 'EMIT("' + "x" * 70 + '")',
            "main",
            expect="ok",
        ),
        *(
            Case(
                "world",
                f"6 rule {what}",
                use,
                world_text=_world(rule.format(json.dumps(text))),
                expect="world error",
            )
            for what, text in [
                ("constant of 5,000 digits", "(+ a 1" + "0" * 5000 + ")"),
                ("nested 900 deep", "(neg " * 900 + "a" + ")" * 900),
                ("nested 2,000 deep", "(neg " * 2000 + "a" + ")" * 2000),
                ("constant 1e99999", "(+ a 1e99999)"),
            ]
        ),
        Case(
            "output",
            "7 error quoting a 1,000,000-character name",
            "EMIT(" + "v" * 1_000_000 + ")",
            expect="NameError",
        ),
        *issue_25_cases(),
    ]


def issue_25_cases() -> list[Case]:
    """The examples of the second audit's limits (its items 5 to 10)."""
    astral = chr(0x1F600)
    bonds = "BOND(NO, " * 6 + "f(WEAVE(n, 26))" + ")" * 6
    pred = '[[rules]]\nid = "H"\nname = "n"\ntarget = "STRAIN"\nactual = "pred"\n'
    return [
        Case(
            "characters",
            "25.5 PAIR of 100,000 astral characters x21",
            f'SET s AS PARE("{astral}", 100000)\nSET keep AS STRAND()\nSWEEP i IN EXTENT(21):\n  '
            "  ANNEX(keep, PAIR(s, s))\n"
            "EMIT(GAUGE(keep))",
            expect="LimitExceeded",
        ),
        Case("layout", "25.6 1 MiB of newlines", "\n" * ((1 << 20) - 10) + "EMIT(1)", expect="ok"),
        Case("layout", "25.6 500,000 comment lines", "#\n" * 500_000 + "EMIT(1)", expect="ok"),
        Case(
            "splicing",
            "25.7 9,000 sites under a 31-node rule",
            "SET x AS 1\n" + "SET x AS SHATTER(x, 1)\n" * 9000 + "EMIT(x)",
            world_text=_world(
                '[[rules]]\nid = "S"\nname = "n"\ntarget = "SHATTER"\nactual = "'
                + "(+ (+ (+ (+ a b) (+ a b)) (+ (+ a b) (+ a b))) (+ (+ (+ a b) (+ a b)) (+ (+ a "
                "b) (+ a b))))" + '"\n'
            ),
        ),
        Case(
            "sorting",
            "25.8 14 ORDERs of 98,001 numbers with a NaN",
            "SET xs AS STRAND(WEAVE(1e309, 1e309))\nSWEEP i IN EXTENT(98000):\n    ANNEX(xs, "
            "RESIDUE(PARE(i, 7919), 98000))\n"
            "SWEEP k IN EXTENT(14):\n    EMIT(GAUGE(ORDER(xs)))",
            expect="step limit",
        ),
        Case(
            "functions",
            "25.9 a rule handing on STRAIN's predicate",
            "CRAFT h(n):\n    DELIVER g()\nSET g AS STRAIN(h, STRAND())\nEMIT(g())",
            world_text=_world(pred),
            expect="world error",
        ),
        Case(
            "depth",
            "25.10 150 calls through six BONDs (main)",
            f"CRAFT f(n):\n    UPON OVER(n, 26):\n        DELIVER {bonds}\n    DELIVER "
            "0\nEMIT(f(141))",
            "main",
            expect="ok",
        ),
    ]


# -- running -------------------------------------------------------------------

_BATCH = """
import json, sys, time
from aliencode import run_source
from aliencode.world_schema import SCHEMA, load
from alienworlds.ruleset import WorldError, parse_world

results = []
for case in json.loads(sys.stdin.read()):
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        world = parse_world(case["world_text"], "hostile.toml", SCHEMA) \
if case["world_text"] else load(case["world"])
        result = run_source(case["source"], world)
        verdict = "ok" if result.error is None else result.error.kind + ": " + result.error.message
    except WorldError as exc:
        verdict = "world error: " + str(exc)[:300]
    except BaseException as exc:
        verdict = "crash: " + type(exc).__name__ + ": " + str(exc)[:300]
    results.append({"case": case["name"], "verdict": verdict, "cpu": time.process_time() - cpu,
                    "wall": time.perf_counter() - wall})
print(json.dumps(results))
"""


# A child's peak memory as the kernel counts it (ru_maxrss) includes the
# memory of the process it was forked from, up to its exec: measured straight
# from a test process that has grown large, every case would look as large.
# So a small launcher forks the case and reports its usage: the case starts
# from the launcher's few megabytes.
_LAUNCHER = """
import json, os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as report:
    json.dump([os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime, \
usage.ru_maxrss], report)
"""


def _child(
    cmd: list[str], stdin: bytes | None, cwd: str
) -> tuple[int, bytes, bytes, float, float, float]:
    """Run a child; its exit code, output, error output, CPU seconds, wall
    seconds and peak resident memory in MB (from the kernel's accounting)."""
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.TemporaryFile() as inp,
        tempfile.TemporaryDirectory() as scratch,
    ):
        if stdin is not None:
            inp.write(stdin)
            inp.seek(0)
        report = Path(scratch, "usage.json")
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", _LAUNCHER, str(report), *cmd],
            stdin=inp,
            stdout=out,
            stderr=err,
            cwd=cwd,
            check=True,
        )
        wall = time.perf_counter() - start
        code, cpu, maxrss = json.loads(report.read_text())
        out.seek(0)
        err.seek(0)
        return code, out.read(), err.read(), cpu, wall, maxrss / 1024


def run_batch(cases: list[Case], python: str = sys.executable) -> tuple[list[Measured], float]:
    """Run `cases` one after another in one child: each case's verdict and
    time, and the child's peak memory in MB (the most any case needed)."""
    payload = json.dumps([asdict(c) for c in cases]).encode()
    code, out, err, _, _, peak = _child([python, "-c", _BATCH], payload, tempfile.gettempdir())
    if code != 0:
        raise RuntimeError(
            f"the batch child failed ({code}): {err.decode(errors='replace')[-2000:]}"
        )
    rows = json.loads(out.decode())
    return [Measured(r["case"], r["verdict"], None, r["cpu"], r["wall"], peak) for r in rows], peak


def run_alone(case: Case, python: str = sys.executable) -> Measured:
    """Run one case through `aliencode run --json` in its own process."""
    with tempfile.TemporaryDirectory() as folder:
        program = Path(folder, "program.alien")
        program.write_text(case.source, encoding="utf-8")
        world = case.world
        if case.world_text is not None:
            world = str(Path(folder, "world.toml"))
            Path(world).write_text(case.world_text, encoding="utf-8")
        cmd = [
            python,
            "-m",
            "alienworlds.cli.aliencode",
            "run",
            "--json",
            "--world",
            world,
            str(program),
        ]
        code, out, err, cpu, wall, peak = _child(cmd, None, folder)
    try:
        error = json.loads(out.decode())["error"]
        verdict = "ok" if error is None else f"{error['kind']}: {error['message']}"
    except ValueError:
        lines = err.decode(errors="replace").strip().splitlines()
        verdict = ("world error: " if code == 2 else "crash: ") + (
            lines[-1][:200] if lines else "(no output)"
        )
    outcome = hashlib.sha256(out + err.replace(folder.encode(), b"")).hexdigest()[:12]
    return Measured(case.name, verdict, code, cpu, wall, peak, outcome)
