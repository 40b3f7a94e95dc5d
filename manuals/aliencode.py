"""The AlienCode manual of a world.

It states the *standard* language — what every manual claims — in the
world's surface keywords, and nothing of the world's rules. Every example's
output is computed by running it under the standard semantics (with the
world's keywords), so the manual is true of the standard language by
construction.
"""

from __future__ import annotations

import re
from dataclasses import replace

from alienworlds.ruleset import Limits, World

from aliencode import run_source
from aliencode.metering import LOOP_FACTOR, PROBE_CAP
from aliencode.sites import KEYWORDS, OPERATIONS

from .document import Document

CATEGORIES = (
    ("arithmetic", "Arithmetic"),
    ("comparison", "Comparison"),
    ("logic", "Logic"),
    ("sequences", "Building lists and tuples"),
    ("positions", "Positions and list changes"),
    ("aggregation", "Whole-sequence operations"),
    ("iteration", "Ranges, pairs and filters"),
    ("output", "Output"),
)

# (signature, meaning, example) of each statement; keywords in standard spelling.
STATEMENTS = (
    (
        "SET name AS expr",
        "Bind a name to a value. Names are letters, digits and underscores.",
        "SET x AS 4\nEMIT(x)",
    ),
    (
        "SET a, b AS e1, e2",
        "Bind several names at once; all values are computed first. With one value on the right, "
        "it is unpacked.",
        "SET a, b AS 1, 2\nSET a, b AS b, a\nEMIT(a, b)",
    ),
    (
        "expr",
        "An expression on its own line is evaluated (typically an EMIT or a function call).",
        'EMIT("hi")',
    ),
    (
        "UPON cond: / LEST cond: / DEFAULT:",
        "Conditional: the first UPON or LEST whose condition is true runs its block; otherwise "
        "DEFAULT's block runs (LEST and DEFAULT are optional).",
        'SET n AS 0\nUPON OVER(n, 0):\n    EMIT("positive")\nLEST UNDER(n, 0):\n    '
        'EMIT("negative")\nDEFAULT:\n    EMIT("zero")',
    ),
    (
        "SWEEP v IN seq:",
        "Run the block once for each element of a list, tuple or string, in order.",
        'SWEEP c IN "abc":\n    EMIT(c)',
    ),
    (
        "SWEEP i, v IN seq:",
        "Each element must be a pair, unpacked into two names (use with INDEX or PAIR).",
        'SWEEP i, v IN INDEX(STRAND("x", "y")):\n    EMIT(i, v)',
    ),
    (
        "WHILE cond:",
        "Run the block as long as the condition is true.",
        "SET n AS 3\nWHILE OVER(n, 0):\n    EMIT(n)\n    SET n AS WEAVE(n, 1)",
    ),
    (
        "CEASE",
        "Leave the innermost loop (break).",
        "SWEEP n IN EXTENT(10):\n    UPON AKIN(n, 2):\n        CEASE\n    EMIT(n)",
    ),
    (
        "BYPASS",
        "Skip to the next iteration of the innermost loop (continue).",
        "SWEEP n IN EXTENT(4):\n    UPON AKIN(RESIDUE(n, 2), 1):\n        BYPASS\n    EMIT(n)",
    ),
    ("IDLE", "Do nothing (a placeholder block).", 'UPON NO:\n    IDLE\nEMIT("done")'),
    (
        "CRAFT name(p, q):",
        "Define a function. Calls pass values to the parameters; assignment inside the body "
        "makes a local name; the body may read names defined outside. Recursion is allowed, and "
        "functions are values (they can be passed to other functions).",
        "CRAFT twice(f, x):\n    DELIVER f(f(x))\nCRAFT inc(n):\n    DELIVER SHATTER(n, "
        "1)\nEMIT(twice(inc, 5))",
    ),
    (
        "DELIVER expr / DELIVER",
        "Return from the function with a value (none without one). A function that ends without "
        "DELIVER returns none.",
        "CRAFT nothing():\n    IDLE\nEMIT(nothing())",
    ),
)

INTRO_EXAMPLE = """# a comment
SET total AS 0
SWEEP n IN STRAND(1, 2, 3):
    SET total AS SHATTER(total, n)
EMIT("total", total)"""

_STRING = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|#[^\n]*")
_WORD = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")


def respell(text: str, world: World) -> str:
    """`text` (code or prose) with the world's surface keywords, strings and
    comments left alone."""
    if not world.keywords:
        return text
    out, last = [], 0
    for m in _STRING.finditer(text):
        out.append(
            _WORD.sub(
                lambda w: world.surface(w.group()) if w.group() in KEYWORDS else w.group(),
                text[last : m.start()],
            )
        )
        out.append(m.group())
        last = m.end()
    out.append(
        _WORD.sub(
            lambda w: world.surface(w.group()) if w.group() in KEYWORDS else w.group(), text[last:]
        )
    )
    return "".join(out)


def _output(example: str, surface: World) -> str:
    result = run_source(example, surface)
    return result.text()


def render(world: World, fmt: str = "text") -> str:
    """The manual of `world` in `fmt` ("text" or "md")."""
    surface = replace(world, rules=())  # the manual's own semantics, the world's spelling
    k = world.surface
    doc = Document()
    doc.heading(1, "AlienCode language manual")
    doc.para(
        "AlienCode is a small calculation language. Programs are made of statements, one per line; "
        "blocks are introduced by a trailing colon and indentation, as in Python. Every "
        "operation is "
        f"called like a function, for example {k('SHATTER')}(2, 3), and output is produced with "
        f"{k('EMIT')}."
    )
    code = respell(INTRO_EXAMPLE, world)
    doc.example(code, _output(code, surface))

    doc.heading(2, "Values")
    doc.bullets(
        [
            "Integers of any size (within the limits below), such as 42 and -7. A minus sign "
            "belongs to the number literal: -7 is one literal.",
            "Floats, such as 2.5, -0.25 and 1e3.",
            "Strings in double or single quotes, with the escapes \\n, \\t, \\\\, \\\" and \\'. "
            "A string is a sequence of characters.",
            f"Booleans {k('YES')} and {k('NO')}, and {k('none')}, the value of nothing.",
            f"Lists, built with {k('STRAND')}, and tuples, built with {k('KNOT')}. Lists can be "
            "changed in place; tuples cannot.",
            f"Functions, defined with {k('CRAFT')}.",
            f"Truth: {k('NO')}, {k('none')}, 0, 0.0, the empty string, list and tuple are false; "
            "everything else is true.",
        ]
    )

    doc.heading(2, "Statements")
    for signature, meaning, example in STATEMENTS:
        code = respell(example, world)
        doc.entry(respell(signature, world), respell(meaning, world), code, _output(code, surface))

    doc.heading(2, "Operations")
    doc.para(
        "Positions count from 0; a negative position counts from the end (-1 is the last element). "
        "Operations that take a sequence accept lists, tuples and strings unless stated otherwise. "
        "An operation called with the wrong number of arguments is a TypeError."
    )
    for category, title in CATEGORIES:
        doc.heading(3, title)
        for op in OPERATIONS:
            if op.category != category:
                continue
            params = ", ".join("..." if p == "args" else p for p in op.operands)
            code = respell(op.example, world)
            doc.entry(
                f"{k(op.name)}({params})", respell(op.summary, world), code, _output(code, surface)
            )

    doc.heading(2, "Printing")
    doc.para(
        f"{k('EMIT')} prints its arguments separated by one space, then a newline. A value "
        "printed directly "
        "shows as itself (a string without quotes); values inside lists and tuples show as "
        "literals "
        f"(strings quoted). {k('YES')} and {k('NO')} print as True and False, {k('none')} as "
        "None, a one-element "
        "tuple as (8,), and floats in their shortest exact form (0.1 + 0.2 prints "
        "0.30000000000000004). "
        "Trailing white space at the end of a program's output is removed."
    )
    code = respell('EMIT("x", STRAND("x", 2.5, YES, none), KNOT(8))', world)
    doc.example(code, _output(code, surface))

    doc.heading(2, "Errors")
    doc.para(
        "An error stops the program. Output printed before it is kept, and the error is shown as "
        "[AlienError] <Kind>: <message> (line N). Kinds: SyntaxError (the program does not "
        "parse; the "
        "message says what was expected), NameError (an unknown name), TypeError (wrong kinds of "
        "values "
        "or a wrong number of arguments), IndexError (a position outside a sequence), "
        "ZeroDivisionError, "
        "ValueError, OverflowError, and LimitExceeded (a limit below was reached)."
    )
    code = respell("EMIT(1)\nEMIT(PLUCK(STRAND(), 0))", world)
    doc.example(code, _output(code, surface))

    limits = Limits()
    doc.heading(2, "Limits")
    doc.bullets(
        [
            f"Steps: {limits.max_steps:,} per run. Entering a block (the program, a loop "
            "iteration, a function call) costs one step for each statement and each value "
            "computed in it, plus one; operations on large values cost more.",
            f"Call depth: {limits.max_depth} nested function calls.",
            f"Integers: at most {limits.max_int_bits} bits; lists, tuples and strings: at most "
            f"{limits.max_length:,} elements.",
            f"Output: at most {limits.max_output:,} characters.",
            f"Memory: the values a program keeps at once, at most {limits.max_memory:,} units "
            "(about bytes).",
            f"Program text: at most {limits.max_source:,} characters and {limits.max_tokens:,} "
            "tokens.",
        ]
    )

    doc.heading(2, "Probe budget")
    doc.para(
        "When you explore with the tool, each program is a probe with a cost in units, counted "
        "on its text before "
        f"it runs: every {k('EMIT')} call costs its number of arguments (at least 1), times "
        f"{LOOP_FACTOR} when it "
        "can run more than once, whatever the number of times it actually runs. It can run more "
        "than once when it "
        f"stands in a {k('SWEEP')} or {k('WHILE')} body or a {k('WHILE')} condition, or in a "
        f"{k('CRAFT')} that can "
        "run more than once: one called from a loop, from two places, from itself (recursion, "
        "also through other "
        "functions) or from a function that can run more than once, and one used as a value "
        "(passed to another "
        f"function or to {k('STRAIN')}, stored, delivered, given another name), rebound or "
        "defined twice. Only a "
        f"{k('CRAFT')} defined once and called from exactly one place that itself runs at most "
        "once has its "
        f"{k('EMIT')} calls charged once. Strings and comments cost nothing. A probe costing "
        f"more than {PROBE_CAP} "
        f"units is rejected whole and runs nothing."
    )
    doc.code(
        respell(
            "EMIT(1, 2)            # 2 units\nSWEEP i IN EXTENT(9):\n    EMIT(i)            # 3 "
            "units\n"
            "CRAFT show(x):\n    EMIT(x)            # 1 unit: show runs once\nshow(4)\n"
            "CRAFT twice(x):\n    EMIT(x)            # 3 units: twice is called from two "
            "places\ntwice(1)\ntwice(2)",
            world,
        )
    )
    return doc.render(fmt)
