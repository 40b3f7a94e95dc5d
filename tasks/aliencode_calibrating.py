"""The `self-calibrating` knowledge-free strategy (docs/validity.md).

It never reads a world's rules, a reference or a private call: it rewrites the
bank's manual-trusting solutions (`naive` and the `variants`) so that every
operation goes through a run-time library written in AlienCode. Each library
CRAFT tries, when the answer runs, the operation itself and a few
compensations (operands swapped, result negated, offset by a constant it
measures, arguments shifted or reversed, or the operation rebuilt from
others), on values whose manual meaning it derives without literals (lengths
of lists of YES, truthiness), and keeps the first that checks out. The graded
run itself is the probe.

Why it is built the way it is:

* Rules are scoped by place (top level, CRAFT body, loop). Every raw operation
  of the library stands in a CRAFT body outside any loop, so one place is
  calibrated and used; the rewritten task code holds no operation, literal or
  SWEEP of its own, only calls of library CRAFTs (a whole program runs inside
  a CRAFT).
* Truthiness (UPON, WHILE) and function calls are no sites: they are the
  trusted core, with lengths (differences of GAUGE, so a GAUGE that counts too
  many still serves) giving the numbers everything is checked on, and the
  equality the kernel picks among AKIN/APART forms.
* BOND and RIFT are rebuilt from truthiness; their second operand becomes a
  CRAFT defined just before the statement (CRAFTs read the variables they see
  when called), so it is still evaluated only when the manual evaluates it.
* Constants are computed: integers from lengths and calibrated arithmetic,
  floats as a calibrated quotient of two integers, strings joined from
  one-character literals (no permutation of a literal's characters changes a
  one-character literal), booleans from truthiness.
* EMIT prints one joined line, so rules that reorder its values do nothing;
  a second answer prints an empty value before the line, which survives a
  world that leaves out EMIT's first value.
* A private call's tuples are built by the world's KNOT and meant in the order
  of its arguments: when the task shows KNOT, further answers read tuples
  through the layout the library measures on KNOT, and build them with it.

Known gaps: the kernel trusts EXPEL and the raw WEAVE of two lengths (a world
changing GAUGE and WEAVE together misleads it); SHATTER of two tuples is taken
for a sum; there is no search beyond the fixed candidates below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from aliencode import AlienSyntaxError, World, parse
from aliencode import syntax as s
from aliencode.parser import token_count
from aliencode.sites import COMPARISON

from .aliencode_statement_memo import program_text
from .bank import Task

PREFIX = "cal_"
MAIN = "cal_main"
NUMBERS = 11  # the kernel derives 0..10 from lengths
EMIT_MODES = ("line", "padded")  # see the module docstring
COMPARE = COMPARISON
VARIADIC = ("STRAND", "KNOT", "FUSE", "NADIR", "APEX", "EMIT", "CARVE", "EXTENT")
_KEY = re.compile(r"\bcal_([A-Z]+(?:_[A-Z]+)*(?:_\d+)?)")


# -- the library, as AlienCode source in the standard keywords -----------------------------


def n(k: int) -> str:
    """The kernel's name for the small number k (0 <= k < NUMBERS)."""
    return f"cal_n{k}"


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def _kernel(numbers: set[int]) -> str:
    """Booleans from truthiness, the numbers asked for from lengths, and
    equality: the AKIN/APART form that tells equal from different lengths and lists."""
    lines = [
        "CRAFT cal_truth():",
        "    UPON YES:",
        "        DELIVER YES",
        "    DELIVER NO",
        "SET cal_yes AS cal_truth()",
        "CRAFT cal_falsity():",
        "    UPON YES:",
        "        DELIVER NO",
        "    DELIVER YES",
        "SET cal_no AS cal_falsity()",
        "CRAFT cal_not(x):",
        "    UPON x:",
        "        DELIVER cal_no",
        "    DELIVER cal_yes",
    ]
    # A world whose GAUGE counts c too many still measures differences
    # right: the numbers are lengths less the length of the empty list.
    lines += ["CRAFT cal_empty():", "    DELIVER GAUGE(STRAND())", "SET cal_gauge0 AS cal_empty()"]
    for k in sorted(numbers):
        lines += [
            f"CRAFT cal_count{k}():",
            f"    SET m AS GAUGE(STRAND({', '.join(['cal_yes'] * k)}))",
            "    UPON cal_gauge0:",
            "        DELIVER WEAVE(m, cal_gauge0)",
            "    DELIVER m",
            f"SET {n(k)} AS cal_count{k}()",
        ]
    bodies = [
        "DELIVER AKIN(a, b)",
        "DELIVER cal_not(AKIN(a, b))",
        "DELIVER cal_not(APART(a, b))",
        "DELIVER APART(a, b)",
    ]
    tests = [
        f"f({n(1)}, {n(1)})",
        f"cal_not(f({n(1)}, {n(2)}))",
        f"cal_not(f({n(2)}, {n(1)}))",
        f"f(STRAND({n(2)}), STRAND({n(2)}))",
        f"cal_not(f(STRAND({n(1)}), STRAND({n(2)})))",
    ]
    return "\n".join(lines + _picker("eq", ("a", "b"), bodies, tests)) + "\n"


def _picker(key: str, params: tuple[str, ...], bodies: list[str], tests: list[str]) -> list[str]:
    """Candidate CRAFTs, a check of one candidate, and the choice of the
    first that passes every test (the operation itself when none does)."""
    name = PREFIX + key
    if len(bodies) == 1:
        return [f"CRAFT {name}({', '.join(params)}):", *_indent(bodies[0].split("\n"))]
    lines: list[str] = []
    for k, body in enumerate(bodies):
        lines += [f"CRAFT {name}_c{k}({', '.join(params)}):", *_indent(body.split("\n"))]
    lines.append(f"CRAFT {name}_ok(f):")
    for test in tests:
        lines += [f"    UPON cal_not({test}):", "        DELIVER none"]
    lines += ["    DELIVER cal_yes", f"CRAFT {name}_pick():"]
    for k in range(len(bodies)):
        lines += [f"    UPON {name}_ok({name}_c{k}):", f"        DELIVER {name}_c{k}"]
    return lines + [f"    DELIVER {name}_c0", f"SET {name} AS {name}_pick()"]


def _ret(expr: str) -> str:
    return f"DELIVER {expr}"


def _eq(got: str, want: str) -> str:
    return f"cal_eq({got}, {want})"


def _list(*items: str) -> str:
    return f"cal_STRAND_{len(items)}({', '.join(items)})"


def _plus1(x: str) -> str:
    return f"cal_ADD({x}, {n(1)})"


def _minus1(x: str) -> str:
    return f"cal_WEAVE({x}, {n(1)})"


# a × b for an integer b, as b additions: for a world whose PARE adds or subtracts
_TIMES = f"""SET r AS {n(0)}
SET k AS {n(0)}
SET m AS b
UPON cal_LESS(b, {n(0)}):
    SET m AS cal_WEAVE({n(0)}, b)
WHILE cal_LESS(k, m):
    SET r AS cal_ADD(r, a)
    SET k AS {_plus1("k")}
UPON cal_LESS(b, {n(0)}):
    DELIVER cal_WEAVE({n(0)}, r)
DELIVER r"""


def _arithmetic(op: str) -> tuple[tuple[str, ...], list[str], list[str]]:
    """Binary arithmetic on numbers: itself, swapped, offset by what it gives
    on zeros, or rebuilt (a + b as a - (0 - b))."""
    cases = {
        "WEAVE": [(5, 2, 3), (2, 2, 0), (9, 1, 8)],
        "ADD": [(2, 3, 5), (4, 0, 4), (0, 1, 1)],
        "ADDRAW": [(2, 3, 5), (4, 0, 4), (0, 1, 1)],
        "PARE": [(2, 3, 6), (1, 4, 4), (3, 1, 3)],
        "HALVE": [(7, 2, 3), (2, 7, 0), (9, 3, 3)],
        "RESIDUE": [(7, 3, 1), (3, 7, 3), (8, 5, 3)],
        "COIL": [(2, 3, 8), (3, 2, 9)],
        "FRACTURE": [(6, 3, 2), (8, 4, 2)],
    }[op]
    raw = "SHATTER" if op in ("ADD", "ADDRAW") else op
    bodies = [_ret(f"{raw}(a, b)"), _ret(f"{raw}(b, a)")]
    zero = f"{raw}({n(0)}, {n(1) if op == 'HALVE' else n(0)})"
    if op == "WEAVE":
        bodies.append(_ret(f"WEAVE(WEAVE(a, b), WEAVE(WEAVE(a, a), {n(0)}))"))
        bodies.append(_ret("cal_ADDRAW(a, PARE(b, cal_MINUS))"))
    elif op in ("ADD", "PARE", "HALVE"):
        bodies.append(_ret(f"cal_WEAVE({raw}(a, b), {zero})"))
    if op == "ADD":
        bodies.append(_ret(f"cal_WEAVE(a, cal_WEAVE({n(0)}, b))"))
    if op == "PARE":
        bodies.append(_TIMES)
    tests = [_eq(f"f({n(x)}, {n(y)})", n(z)) for x, y, z in cases]
    return ("a", "b"), bodies, tests


def _less() -> tuple[tuple[str, ...], list[str], list[str]]:
    """The manual's a < b: UNDER, else any comparison with its operands
    either way, negated or not (the six cover every order a world swaps in)."""
    bodies = [_ret("UNDER(a, b)")]
    for other in COMPARE:
        for args in ("a, b", "b, a"):
            bodies += [_ret(f"{other}({args})"), _ret(f"cal_not({other}({args}))")]
    tests = [
        _eq(f"f({n(x)}, {n(y)})", "cal_yes" if x < y else "cal_no")
        for x, y in ((1, 2), (2, 1), (2, 2))
    ]
    return ("a", "b"), bodies, tests


# Every comparison from the calibrated less-than and equality: one calibration
# serves all six, which keeps the library small.
_FROM_LESS = {
    "UNDER": "cal_LESS(a, b)",
    "OVER": "cal_LESS(b, a)",
    "ATOP": "cal_not(cal_LESS(a, b))",
    "BENEATH": "cal_not(cal_LESS(b, a))",
    "AKIN": "cal_eq(a, b)",
    "APART": "cal_not(cal_eq(a, b))",
}


def _arrangements(params: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The arguments as given, then arranged to undo a world that reverses
    them, rotates them either way or swaps the first two."""
    out = [
        params,
        params[::-1],
        params[-1:] + params[:-1],
        params[1:] + params[:1],
        params[1::-1] + params[2:],
    ]
    return list(dict.fromkeys(out))


def _variadic(op: str, k: int) -> tuple[tuple[str, ...], list[str], list[str]]:
    """STRAND, KNOT, FUSE of k values, their arguments arranged (see
    _arrangements); checked on distinct values, every position read back."""
    params = tuple(f"a{i}" for i in range(k))
    bodies = [_ret(f"{op}({', '.join(args)})") for args in _arrangements(params)]
    if len(bodies) == 1:
        return params, bodies, []
    top = 9 if op == "FUSE" else NUMBERS - 1  # FUSE: one digit per value
    values = [n(min(i + 1, top)) for i in range(k)]
    probe = f"f({', '.join(values)})"
    if op == "STRAND":
        return params, bodies, [f"cal_{op}_{k}_t(f)"]
    shown = (lambda v: f"FUSE({v})") if op == "FUSE" else (lambda v: v)
    tests = [_eq(f"cal_PLUCK({probe}, {n(i)})", shown(values[i])) for i in range(min(k, top))]
    return params, bodies, tests


def _strand_test(k: int) -> str:
    """A list's elements read back from its end (EXPEL), so the check needs no PLUCK."""
    values = [n(min(i + 1, NUMBERS - 1)) for i in range(k)]
    lines = [f"CRAFT cal_STRAND_{k}_t(f):", f"    SET xs AS f({', '.join(values)})"]
    for v in reversed(values[1:]):
        lines += [f"    UPON cal_not({_eq('EXPEL(xs)', v)}):", "        DELIVER none"]
    return "\n".join(lines + [f"    DELIVER {_eq('EXPEL(xs)', values[0])}"])


def _extreme(op: str, k: int) -> tuple[tuple[str, ...], list[str], list[str]]:
    """NADIR and APEX: either, or the first or last of the sorted values."""
    other = "APEX" if op == "NADIR" else "NADIR"
    end = n(0) if op == "NADIR" else "cal_NEG_1"
    params = tuple(f"a{i}" for i in range(k))
    values = params[0] if k == 1 else _list(*params)
    bodies = [
        _ret(f"{op}({', '.join(params)})"),
        _ret(f"{other}({', '.join(params)})"),
        _ret(f"cal_PLUCK(cal_ORDER({values}), {end})"),
    ]
    want = n(1) if op == "NADIR" else n(3)
    if k == 1:
        probe = f"f({_list(n(2), n(1), n(3))})"
    else:
        first = [n(2), n(1)] if op == "NADIR" else [n(2), n(3)]
        probe = f"f({', '.join(first + [n(2)] * (k - 2))})"
    return params, bodies, [_eq(probe, want)]


def _shifts(x: str) -> list[str]:
    return [x, _plus1(x), _minus1(x)]


def _positions(key: str) -> tuple[tuple[str, ...], list[str], list[str]]:
    """PLUCK, CARVE, IMPRINT, EXTENT, INDEX, PAIR: positions shifted by one
    either way (or counted from the end), or rebuilt."""
    five = _list(*(n(k) for k in range(1, 6)))
    if key == "PLUCK":
        bodies = [_ret(f"PLUCK(s, {i})") for i in _shifts("i")]
        bodies.append(_ret("PLUCK(s, cal_WEAVE(cal_NEG_1, i))"))
        tests = [
            _eq(f"f({five}, {n(0)})", n(1)),
            _eq(f"f({five}, {n(1)})", n(2)),
            _eq(f"f({five}, cal_NEG_1)", n(5)),
        ]
        return ("s", "i"), bodies, tests
    if key == "CARVE_2":
        bodies = [_ret(f"CARVE(s, {lo})") for lo in _shifts("lo")]
        tests = [
            _eq(f"f({five}, {n(1)})", _list(n(2), n(3), n(4), n(5))),
            _eq(f"f({five}, {n(3)})", _list(n(4), n(5))),
        ]
        return ("s", "lo"), bodies, tests
    if key == "CARVE_3":
        bodies = [_ret(f"CARVE(s, {lo}, {hi})") for lo in _shifts("lo") for hi in _shifts("hi")]
        tests = [
            _eq(f"f({five}, {n(1)}, {n(3)})", _list(n(2), n(3))),
            _eq(f"f({five}, {n(0)}, {n(2)})", _list(n(1), n(2))),
            _eq(f"f({five}, {n(2)}, {n(5)})", _list(n(3), n(4), n(5))),
            _eq(f"f({five}, {n(1)}, cal_NEG_1)", _list(n(2), n(3), n(4))),
        ]
        return ("s", "lo", "hi"), bodies, tests
    if key == "EXTENT_1":
        bodies = [_ret(f"EXTENT({hi})") for hi in _shifts("hi")]
        bodies += [_ret(f"EXTENT({lo}, hi)") for lo in (n(0), "cal_NEG_1", n(1))]
        tests = [_eq(f"f({n(3)})", _list(n(0), n(1), n(2))), _eq(f"f({n(0)})", "STRAND()")]
        return ("hi",), bodies, tests
    if key == "EXTENT_2":
        bodies = [_ret(f"EXTENT({lo}, {hi})") for lo in _shifts("lo") for hi in _shifts("hi")]
        tests = [
            _eq(f"f({n(1)}, {n(4)})", _list(n(1), n(2), n(3))),
            _eq(f"f({n(2)}, {n(2)})", "STRAND()"),
        ]
        return ("lo", "hi"), bodies, tests
    if key == "INDEX":
        bodies = [_ret("INDEX(s)"), _ret("cal_PAIR(cal_EXTENT_1(cal_GAUGE(s)), s)")]
        want = _list(f"cal_KNOT_2({n(0)}, {n(5)})", f"cal_KNOT_2({n(1)}, {n(6)})")
        return ("s",), bodies, [_eq(f"f({_list(n(5), n(6))})", want)]
    if key == "PAIR":
        bodies = [_ret("PAIR(a, b)"), _ret("PAIR(b, a)")]
        want = _list(f"cal_KNOT_2({n(1)}, {n(3)})", f"cal_KNOT_2({n(2)}, {n(4)})")
        return ("a", "b"), bodies, [_eq(f"f({_list(n(1), n(2))}, {_list(n(3), n(4))})", want)]
    # IMPRINT: changes its list in place, so a helper checks the list afterwards
    bodies = [f"IMPRINT(s, {i}, v)" for i in _shifts("i")]
    return ("s", "i", "v"), bodies, ["cal_IMPRINT_t(f)"]


_IMPRINT_TEST = f"""CRAFT cal_IMPRINT_t(f):
    SET xs AS {_list(n(1), n(2), n(3))}
    f(xs, {n(1)}, {n(5)})
    UPON cal_not({_eq(f"cal_PLUCK(xs, {n(0)})", n(1))}):
        DELIVER none
    DELIVER {_eq("xs", _list(n(1), n(5), n(3)))}"""

_ANNEX_TEST = f"""CRAFT cal_ANNEX_t(f):
    SET xs AS {_list(n(1), n(2))}
    f(xs, {n(3)})
    DELIVER {_eq("xs", _list(n(1), n(2), n(3)))}"""

# ANNEX that puts the value elsewhere: let it grow the list, then move every
# element back to where the manual's append leaves it (in place, as ANNEX is).
_ANNEX_MOVED = f"""ANNEX(s, v)
SET last AS cal_WEAVE(cal_GAUGE(s), {n(1)})
SET k AS {n(0)}
WHILE cal_UNDER(k, last):
    cal_IMPRINT(s, k, cal_PLUCK(s, {_plus1("k")}))
    SET k AS {_plus1("k")}
cal_IMPRINT(s, last, v)"""

_REVERSED = f"""CRAFT cal_REV(s):
    SET out AS cal_STRAND_0()
    SET k AS cal_GAUGE(s)
    WHILE k:
        SET k AS cal_WEAVE(k, {n(1)})
        cal_ANNEX(out, cal_PLUCK(s, k))
    DELIVER out"""

_CONCAT = f"""CRAFT cal_CONCAT(a, b):
    SET out AS cal_GATHER(a)
    SET k AS {n(0)}
    WHILE cal_UNDER(k, cal_GAUGE(b)):
        cal_ANNEX(out, cal_PLUCK(b, k))
        SET k AS {_plus1("k")}
    DELIVER out"""

# SHATTER joins text and lists and adds numbers; a world may keep one and
# change the other, so the value's own text tells which is meant.
_SHATTER = f"""CRAFT cal_SHATTER(a, b):
    SET text AS FUSE(a)
    UPON {_eq("text", "a")}:
        DELIVER cal_FUSE_2(a, b)
    UPON {_eq(f"cal_PLUCK(text, {n(0)})", '"["')}:
        DELIVER cal_CONCAT(a, b)
    DELIVER cal_ADD(a, b)"""


def _scan(op: str, every: bool) -> str:
    """EVERY_OF / SOME_OF as a walk over the elements."""
    stop, last = ("cal_not(cal_PLUCK(s, k))", "cal_yes") if every else ("cal_PLUCK(s, k)", "cal_no")
    return f"""SET k AS cal_GAUGE(s)
WHILE k:
    SET k AS cal_WEAVE(k, {n(1)})
    UPON {stop}:
        DELIVER {"cal_no" if every else "cal_yes"}
DELIVER {last}"""


def _aggregate(key: str) -> tuple[tuple[str, ...], list[str], list[str]]:
    three = _list(n(1), n(2), n(3))
    if key in ("SOME_OF", "EVERY_OF"):
        every = key == "EVERY_OF"
        other = "SOME_OF" if every else "EVERY_OF"
        bodies = [_ret(f"{key}(s)"), _ret(f"{other}(s)"), _scan(key, every)]
        tests = [
            _eq(f"f({_list('cal_no', 'cal_yes')})", "cal_no" if every else "cal_yes"),
            _eq(f"f({_list('cal_yes', 'cal_yes')})", "cal_yes"),
            _eq(f"f({_list('cal_no', 'cal_no')})", "cal_no"),
        ]
        return ("s",), bodies, tests
    if key == "GAUGE":
        bodies = [_ret("GAUGE(s)"), _ret("WEAVE(GAUGE(s), cal_gauge0)")]
        return ("s",), bodies, [_eq("f(STRAND())", n(0)), _eq(f"f({three})", n(3))]
    if key == "ORDER":
        bodies = [_ret("ORDER(s)"), _ret("cal_REV(ORDER(s))")]
        return ("s",), bodies, [_eq(f"f({_list(n(2), n(3), n(1))})", three)]
    if key == "GATHER":
        bodies = [
            _ret("GATHER(s)"),
            _ret("GATHER(GATHER(s))"),
            _ret("cal_REV(GATHER(s))"),
            _ret(f"cal_CARVE_2(s, {n(0)})"),
        ]
        return ("s",), bodies, [_eq(f"f({three})", three)]
    if key == "ANNEX":
        return ("s", "v"), [_ret("ANNEX(s, v)"), _ANNEX_MOVED], ["cal_ANNEX_t(f)"]
    if key == "NEGATE":
        tests = [_eq(f"f({n(0)})", "cal_yes"), _eq("f(cal_yes)", "cal_no")]
        return ("x",), [_ret("NEGATE(x)"), _ret("cal_not(x)")], tests
    raise KeyError(key)


LITERAL_RANGE = 70  # reaches -1 under every literal.int rule the generator draws


def _minus_one() -> str:
    """-1 without subtraction: the literal the world reads as the number
    that adding one turns into zero, found among literals written as-is."""
    table = ", ".join(str(k) for k in range(-LITERAL_RANGE, LITERAL_RANGE + 1))
    return f"""CRAFT cal_MINUS_mk():
    SET table AS STRAND({table})
    WHILE table:
        SET v AS cal_EXPEL(table)
        UPON {_eq(f"cal_ADDRAW(v, {n(1)})", n(0))}:
            DELIVER v
    DELIVER none
SET cal_MINUS AS cal_MINUS_mk()"""


_PLAIN = {"EXPEL": ("s",), "STRAIN": ("p", "s")}  # operations no compensation is tried for


def _constant(key: str, source: str) -> str:
    """cal_<key>, computed once in a CRAFT body (where the library is calibrated)."""
    made = f"cal_{key}_mk"
    return f"CRAFT {made}():\n    DELIVER {source}\nSET cal_{key} AS {made}()"


def _short_circuit(key: str) -> str:
    """BOND and RIFT as the manual's short circuit, from truthiness alone."""
    first, second = ("th()", "a") if key == "BOND" else ("a", "th()")
    return f"CRAFT cal_{key}(a, th):\n    UPON a:\n        DELIVER {first}\n    DELIVER {second}"


def _block(key: str, literals: dict[str, str], emit: str) -> str:
    """The library source defining cal_<key>."""
    base, _, arity = key.rpartition("_") if key[-1].isdigit() else (key, "", "")
    if base in ("INT", "NEG"):
        return _constant(key, _int_literal((-1 if base == "NEG" else 1) * int(arity)))
    if key in literals:
        return _constant(key, literals[key])
    fixed = {
        "SP": lambda: _constant(key, '" "'),
        "LAYOUT": _layout,
        "MINUS": _minus_one,
        "BOND": lambda: _short_circuit(key),
        "RIFT": lambda: _short_circuit(key),
        "REV": lambda: _REVERSED,
        "CONCAT": lambda: _CONCAT,
        "SHATTER": lambda: _SHATTER,
        "TPLUCK": lambda: _TPLUCK,
        "EMIT": lambda: _emit(int(arity), emit),
    }
    if base in fixed:
        return fixed[base]()
    if base == "RAWKNOT":  # the world's own layout (see _TPLUCK)
        params = tuple(f"a{i}" for i in range(int(arity)))
        return "\n".join(_picker(key, params, [_ret(f"KNOT({', '.join(params)})")], []))
    if key in _PLAIN:
        params = _PLAIN[key]
        return "\n".join(_picker(key, params, [_ret(f"{key}({', '.join(params)})")], []))
    if key in COMPARE:
        return f"CRAFT cal_{key}(a, b):\n    DELIVER {_FROM_LESS[key]}"
    if key in ("WEAVE", "ADD", "ADDRAW", "PARE", "HALVE", "RESIDUE", "COIL", "FRACTURE"):
        spec = _arithmetic(key)
    elif key == "LESS":
        spec = _less()
    elif base in ("STRAND", "KNOT", "FUSE"):
        spec = _variadic(base, int(arity))
    elif base in ("NADIR", "APEX"):
        spec = _extreme(base, int(arity))
    elif key in ("PLUCK", "CARVE_2", "CARVE_3", "EXTENT_1", "EXTENT_2", "INDEX", "PAIR", "IMPRINT"):
        spec = _positions(key)
    else:
        spec = _aggregate(key)
    tests = {"IMPRINT": _IMPRINT_TEST, "ANNEX": _ANNEX_TEST}.get(key, "")
    if base == "STRAND" and len(spec[1]) > 1:
        tests = _strand_test(int(arity))
    return "\n".join(([tests] if tests else []) + _picker(key, *spec))


LAYOUT_ARITIES = range(2, 5)  # tuple sizes whose world layout the library measures


def _layout() -> str:
    """Where the world's KNOT (in a CRAFT body) stores its i-th argument, for
    small tuples: a private call's tuples are meant in KNOT's argument order."""
    lines = [
        "CRAFT cal_LAYOUT(m, i):",
        f"    UPON cal_UNDER(i, {n(0)}):",
        "        SET i AS cal_ADD(i, m)",
    ]
    for k in LAYOUT_ARITIES:
        lines += [
            f"    UPON {_eq('m', n(k))}:",
            f"        SET probe AS KNOT({', '.join(n(j) for j in range(k))})",
            f"        SET at AS {n(0)}",
            "        WHILE cal_UNDER(at, m):",
            f"            UPON {_eq('cal_PLUCK(probe, at)', 'i')}:",
            "                DELIVER at",
            f"            SET at AS {_plus1('at')}",
        ]
    return "\n".join(lines + ["    DELIVER i"])


# PLUCK that reads a tuple in the order of the arguments of the KNOT that made it
_TPLUCK = f"""CRAFT cal_TPLUCK(s, i):
    UPON {_eq(f"cal_PLUCK(FUSE(s), {n(0)})", '"("')}:
        DELIVER cal_PLUCK(s, cal_LAYOUT(cal_GAUGE(s), i))
    DELIVER cal_PLUCK(s, i)"""


def _emit(k: int, mode: str) -> str:
    """EMIT of k values as one line of text (its values' texts joined by spaces)."""
    params = [f"a{i}" for i in range(k)]
    parts = [p for i, p in enumerate(params) for p in ((["cal_SP"] if i else []) + [p])]
    line = f"cal_FUSE_{len(parts)}({', '.join(parts)})" if parts else "FUSE()"
    printed = line if mode == "line" else f"FUSE(), {line}"
    return f"CRAFT cal_EMIT_{k}({', '.join(params)}):\n    EMIT({printed})"


@lru_cache(maxsize=1024)
def _deps(key: str, text: str) -> tuple[str, ...]:
    """The blocks a block's text calls (cached: every answer's library asks
    again for the same blocks)."""
    return tuple(sorted({k for k in _KEY.findall(text) if k != key}))


@lru_cache(maxsize=1024)
def _numbers_in(block: str) -> frozenset[int]:
    """The numbers a block names as constants (cal_nK; cached likewise)."""
    return frozenset(int(k) for k in re.findall(r"\bcal_n(\d+)\b", block))


def library(keys: set[str], literals: dict[str, str], emit: str) -> str:
    """The kernel and every block the keys need, each after what it uses."""
    return "".join(library_pieces(keys, literals, emit))


def library_pieces(keys: set[str], literals: dict[str, str], emit: str) -> list[str]:
    """The library's text in pieces that parse on their own: the kernel,
    then each block after what it uses."""
    ordered: list[str] = []
    texts: dict[str, str] = {}
    visiting: set[str] = set()

    def visit(key: str) -> None:
        if key in texts:
            return
        if key in visiting:
            raise ValueError(f"the calibration library has a cycle through {key}")
        visiting.add(key)
        text = _block(key, literals, emit)
        for dep in _deps(key, text):
            visit(dep)
        texts[key] = text
        ordered.append(key)

    for key in sorted(keys):
        visit(key)
    blocks = [texts[key] + "\n" for key in ordered]
    # the task code walks sequences with 0 and 1; equality is checked on 1 and 2
    numbers = {0, 1, 2}.union(*map(_numbers_in, blocks))
    return [_kernel(numbers), *blocks]


@lru_cache(maxsize=2048)
def _parsed(piece: str) -> tuple[s.Stmt, ...]:
    """A library piece's statements: pieces recur across tasks and answers,
    and parsing them again each time cost most of the strategy's time."""
    return parse(piece, {}).body


# -- the rewrite of a solution onto the library -------------------------------------------


def _name(ident: str) -> s.Name:
    return s.Name(ident, s.Pos(0, 0))


def _call(func: str, *args: s.Expr) -> s.Call:
    return s.Call(_name(func), tuple(args), s.Pos(0, 0))


def _int_literal(value: int) -> str:
    """Library source computing `value` from the kernel's numbers."""
    if value < 0:
        return f"cal_WEAVE({n(0)}, {_int_literal(-value)})"
    if value < NUMBERS:
        return n(value)
    high, low = divmod(value, NUMBERS - 1)
    return f"cal_ADD(cal_PARE({_int_literal(high)}, {n(NUMBERS - 1)}), {n(low)})"


def _str_literal(text: str) -> str:
    """Library source joining one-character literals (balanced, to stay shallow)."""
    if not text:
        return "FUSE()"
    if len(text) == 1:
        return (
            '"'
            + {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0"}.get(
                text, text
            )
            + '"'
        )
    half = len(text) // 2
    return f"cal_FUSE_2({_str_literal(text[:half])}, {_str_literal(text[half:])})"


def _float_literal(lit: s.FloatLit) -> str:
    """The float as a quotient of two integers, which division rounds to it."""
    try:
        ratio = Fraction(lit.text)
    except (ValueError, ZeroDivisionError):
        ratio = Fraction(lit.value)
    return f"cal_FRACTURE({_int_literal(ratio.numerator)}, {_int_literal(ratio.denominator)})"


@dataclass
class Rewriter:
    """Rewrites one solution; records the library blocks and constants it uses."""

    world_tuples: bool = False  # read tuples in the layout the world's KNOT gives them
    keys: set[str] = field(default_factory=set)
    literals: dict[str, str] = field(default_factory=dict)
    fresh: int = 0

    def use(self, key: str) -> str:
        self.keys.add(key)
        return PREFIX + key

    def constant(self, key: str, source: str) -> s.Name:
        self.literals[key] = source
        return _name(self.use(key))

    def temp(self, what: str) -> str:
        self.fresh += 1
        return f"{PREFIX}{what}{self.fresh}"

    def expr(self, e: s.Expr) -> tuple[list[s.Stmt], s.Expr]:
        """Statements to run first (thunks of lazy operands) and the rewritten expression."""
        if isinstance(e, s.IntLit):
            if e.value is None:
                return [], e
            key = f"INT_{e.value}" if e.value >= 0 else f"NEG_{-e.value}"
            return [], _name(self.use(key))
        if isinstance(e, s.FloatLit):
            return [], self.constant(f"FLOAT_{len(self.literals)}", _float_literal(e))
        if isinstance(e, s.StrLit):
            found = [
                k
                for k, v in self.literals.items()
                if k.startswith("STR_") and v == _str_literal(e.value)
            ]
            key = found[0] if found else f"STR_{len(self.literals)}"
            return [], self.constant(key, _str_literal(e.value))
        if isinstance(e, s.BoolLit):
            return [], _name("cal_yes" if e.value else "cal_no")
        if isinstance(e, s.Call):
            pre, func = self.expr(e.func)
            more, args = self.exprs(e.args)
            return pre + more, s.Call(func, args, e.pos)
        if isinstance(e, s.OpCall):
            return self.operation(e)
        return [], e

    def exprs(self, items: tuple[s.Expr, ...]) -> tuple[list[s.Stmt], tuple[s.Expr, ...]]:
        pre: list[s.Stmt] = []
        out = []
        for item in items:
            more, new = self.expr(item)
            pre += more
            out.append(new)
        return pre, tuple(out)

    def operation(self, e: s.OpCall) -> tuple[list[s.Stmt], s.Expr]:
        if e.op in ("BOND", "RIFT"):
            pre, first = self.expr(e.args[0])
            body, second = self.expr(e.args[1])
            thunk = self.temp("lazy")
            craft = s.Craft(thunk, (), tuple(body) + (s.Deliver(second, e.pos),), e.pos)
            return pre + [craft], _call(self.use(e.op), first, _name(thunk))
        pre, args = self.exprs(e.args)
        op = e.op
        if self.world_tuples and op in ("PLUCK", "KNOT"):
            op = {"PLUCK": "TPLUCK", "KNOT": "RAWKNOT"}[op]
        key = f"{op}_{len(args)}" if op in VARIADIC + ("RAWKNOT",) else op
        return pre, _call(self.use(key), *args)

    def body(self, stmts: tuple[s.Stmt, ...]) -> tuple[s.Stmt, ...]:
        out: list[s.Stmt] = []
        for st in stmts:
            out += self.stmt(st)
        return tuple(out)

    def stmt(self, st: s.Stmt) -> list[s.Stmt]:
        if isinstance(st, s.Set):
            pre, values = self.exprs(st.values)
            return pre + [s.Set(st.targets, values, st.pos)]
        if isinstance(st, s.ExprStmt):
            pre, value = self.expr(st.expr)
            return pre + [s.ExprStmt(value, st.pos)]
        if isinstance(st, s.Deliver):
            if st.value is None:
                return [st]
            pre, value = self.expr(st.value)
            return pre + [s.Deliver(value, st.pos)]
        if isinstance(st, s.If):
            pre: list[s.Stmt] = []
            branches = []
            for cond, body in st.branches:
                more, new = self.expr(cond)
                pre += more
                branches.append((new, self.body(body)))
            default = self.body(st.default) if st.default is not None else None
            return pre + [s.If(tuple(branches), default, st.pos)]
        if isinstance(st, s.While):
            pre, cond = self.expr(st.cond)
            return pre + [s.While(cond, self.body(st.body), st.pos)]
        if isinstance(st, s.Craft):
            return [s.Craft(st.name, st.params, self.body(st.body), st.pos)]
        if isinstance(st, s.Sweep):
            return self.sweep(st)
        return [st]

    def sweep(self, st: s.Sweep) -> list[s.Stmt]:
        """SWEEP as a WHILE over positions: the sequence is read with the
        library's PLUCK, so no world rule on SWEEP applies."""
        pre, seq = self.expr(st.iterable)
        items, at = self.temp("seq"), self.temp("at")
        pos = st.pos
        zero, one = _name(n(0)), _name(n(1))
        item = _call(self.use("TPLUCK" if self.world_tuples else "PLUCK"), _name(items), _name(at))
        if len(st.names) == 1:
            binds: list[s.Stmt] = [s.Set(st.names, (item,), pos)]
        else:
            pair = self.temp("pair")
            binds = [s.Set((pair,), (item,), pos)] + [
                s.Set((name,), (_call(self.use("PLUCK"), _name(pair), _name(n(k))),), pos)
                for k, name in enumerate(st.names)
            ]
        step = s.Set((at,), (_call(self.use("ADD"), _name(at), one),), pos)
        more = _call(self.use("UNDER"), _name(at), _call(self.use("GAUGE"), _name(items)))
        loop = s.While(more, tuple(binds) + (step,) + self.body(st.body), pos)
        return pre + [s.Set((items,), (seq,), pos), s.Set((at,), (zero,), pos), loop]


def rewritten(
    source: str, task: Task, world: World, emit: str, world_tuples: bool = False
) -> str | None:
    """`source` (a manual-trusting solution) on the calibrating library, in
    the world's keywords; None when it does not parse."""
    try:
        tree = parse(source, world.keywords)
    except AlienSyntaxError:
        return None
    rewriter = Rewriter(world_tuples)
    if task.whole_program:
        params = tuple(task.inputs[0]) if task.inputs else ()
        args = tuple(_name(p) for p in params)
        body = (
            s.Craft(MAIN, params, rewriter.body(tree.body), s.Pos(0, 0)),
            s.ExprStmt(_call(MAIN, *args), s.Pos(0, 0)),
        )
    else:
        body = rewriter.body(tree.body)
    lib = tuple(
        st
        for piece in library_pieces(rewriter.keys, rewriter.literals, emit)
        for st in _parsed(piece)
    )
    return program_text(lib + body, world.keywords)


def _shows_tuples(task: Task, world: World) -> bool:
    """Whether what the task shows builds tuples with KNOT (its calls then pass them)."""
    knot = world.surface("KNOT")
    shown = (task.prompt, task.example)
    return any(re.search(rf"\b{re.escape(knot)}\b", text or "") for text in shown)


@lru_cache(maxsize=1)
def least_tokens() -> int:
    """Tokens every answer of this strategy holds at least: an answer is the
    kernel (with at least the numbers 0, 1 and 2, each further number adding
    lines), the blocks and the rewritten solution, and a token count only
    grows as statements are added. The battery skips the strategy on a task
    whose answer budget is below this: every answer would fail uncompiled."""
    return token_count(program_text(_parsed(_kernel({0, 1, 2})), {}))


def answers(task: Task, world: World) -> list[str]:
    """Candidate answers for one synthesis task (none for a prediction): the
    naive solution and each variant rewritten, in each way of printing, and
    reading tuples in the world's layout too when the task shows tuples."""
    if task.kind != "synthesis":
        return []
    layouts = (False, True) if _shows_tuples(task, world) else (False,)
    out: list[str] = []
    for source in [task.naive, *task.variants]:
        if not source:
            continue
        for world_tuples in layouts:
            for emit in EMIT_MODES:
                answer = rewritten(source, task, world, emit, world_tuples)
                if answer is not None and answer not in out:
                    out.append(answer)
    return out
