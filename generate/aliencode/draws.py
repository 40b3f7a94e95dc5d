"""Input generators: the small language a template uses to draw its inputs.

A generator is written as an expression in Python's syntax (read with `ast`,
never evaluated), for example `list(int(-9, 20), 2, 7)`:

| generator | draws |
|---|---|
| `int(lo, hi)` | an integer in [lo, hi] |
| `real(lo, hi)` | a multiple of 0.25 in [lo, hi] (exact in binary) |
| `bool()` | YES or NO |
| `word()` | a short lower-case word |
| `text(alphabet, lo, hi)` | lo..hi characters of `alphabet` |
| `sentence(lo, hi)` | lo..hi words separated by single spaces |
| `choice(g, ...)` | one of its arguments (constants or generators), drawn |
| `list(g, lo, hi)` | lo..hi values of g |
| `tuple(g, ...)` | one value of each g |
| `sorted(g)` / `distinct(g)` | g's list sorted / without repeated elements |
| `matrix(g, rlo, rhi, clo, chi)` | a rectangular list of rlo..rhi rows of clo..chi values |
| `square(g, lo, hi)` | an n × n list of lists, n in [lo, hi] |
| `shaped(name, g)` | a list of lists shaped like the input `name`, of values of g |
| `element(name)` / `part(g, k)` | an element of the input `name` / element k of g's value |

Bounds are integers or integer expressions over `+ - * //`, `len(name)`,
`min(...)`, `max(...)` and the names of inputs drawn earlier (a template's
tables are drawn in the order written).
"""

from __future__ import annotations

import ast
import random
from collections.abc import Mapping
from dataclasses import dataclass

WORDS = (
    "sun",
    "moon",
    "star",
    "comet",
    "orbit",
    "rock",
    "dust",
    "ice",
    "glow",
    "void",
    "ring",
    "core",
    "wave",
    "beam",
    "nova",
    "tide",
    "mist",
    "ash",
    "gem",
    "sky",
    "pole",
    "arc",
    "fern",
    "kelp",
    "owl",
    "fox",
    "elm",
)
LOWER = "abcdefghijklmnopqrstuvwxyz"


class DrawError(ValueError):
    """A generator that cannot be read or drawn (a template's mistake)."""


@dataclass(frozen=True)
class Generator:
    text: str
    tree: ast.expr

    def draw(self, rng: random.Random, env: Mapping[str, object]) -> object:
        return _draw(self.tree, rng, env, self.text)


def parse_generator(text: str) -> Generator:
    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError as exc:
        raise DrawError(f"generator {text!r}: {exc.msg}") from None
    _check(tree, text)
    return Generator(text, tree)


_FUNCTIONS = {
    "int",
    "real",
    "bool",
    "word",
    "text",
    "sentence",
    "choice",
    "list",
    "tuple",
    "sorted",
    "distinct",
    "matrix",
    "square",
    "shaped",
    "element",
    "part",
    "len",
    "min",
    "max",
}
_ARITH = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b,
}


def _check(node: ast.AST, text: str) -> None:
    """Only calls of the known generators, constants, names and integer
    arithmetic: anything else is a template's mistake, refused when read."""
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in _FUNCTIONS or node.keywords:
            raise DrawError(f"generator {text!r}: unknown generator {ast.unparse(node.func)}")
        for arg in node.args:
            _check(arg, text)
    elif isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
        _check(node.left, text)
        _check(node.right, text)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        _check(node.operand, text)
    elif not isinstance(node, (ast.Constant, ast.Name)):
        raise DrawError(f"generator {text!r}: unexpected {type(node).__name__}")


def _draw(node: ast.expr, rng: random.Random, env: Mapping[str, object], text: str) -> object:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in env:
            raise DrawError(f"generator {text!r}: {node.id} is not an input drawn before")
        return env[node.id]
    if isinstance(node, ast.UnaryOp):
        return -_number(node.operand, rng, env, text)
    if isinstance(node, ast.BinOp):
        return _ARITH[type(node.op)](
            _number(node.left, rng, env, text), _number(node.right, rng, env, text)
        )
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    name, args = node.func.id, node.args

    def num(k: int) -> int:
        return _number(args[k], rng, env, text)

    def sub(k: int) -> object:
        return _draw(args[k], rng, env, text)

    def count(lo: int, hi: int) -> int:
        if lo > hi:
            raise DrawError(f"generator {text!r}: empty range [{lo}, {hi}]")
        return rng.randint(lo, hi)

    if name == "int":
        return count(num(0), num(1))
    if name == "real":
        return count(num(0) * 4, num(1) * 4) / 4
    if name == "bool":
        return rng.random() < 0.5
    if name == "word":
        return rng.choice(WORDS)
    if name == "text":
        alphabet = sub(0)
        return "".join(rng.choice(alphabet) for _ in range(count(num(1), num(2))))
    if name == "sentence":
        return " ".join(rng.choice(WORDS) for _ in range(count(num(0), num(1))))
    if name == "choice":
        return _draw(rng.choice(args), rng, env, text)
    if name == "list":
        return [sub(0) for _ in range(count(num(1), num(2)))]
    if name == "tuple":
        return tuple(sub(k) for k in range(len(args)))
    if name == "sorted":
        return sorted(_sequence(sub(0), text, empty=True))
    if name == "distinct":
        return list(dict.fromkeys(_sequence(sub(0), text, empty=True)))
    if name == "matrix":
        rows, cols = count(num(1), num(2)), count(num(3), num(4))
        return [[sub(0) for _ in range(cols)] for _ in range(rows)]
    if name == "square":
        n = count(num(1), num(2))
        return [[sub(0) for _ in range(n)] for _ in range(n)]
    if name == "shaped":
        model = sub(0)
        return [[sub(1) for _ in row] for row in _sequence(model, text)]
    if name == "element":
        return rng.choice(_sequence(sub(0), text))
    if name == "part":
        return _sequence(sub(0), text)[num(1)]
    if name == "len":
        return len(_sequence(sub(0), text))
    if name in ("min", "max"):
        values = [num(k) for k in range(len(args))]
        return min(values) if name == "min" else max(values)
    raise DrawError(f"generator {text!r}: unknown generator {name}")


def _number(node: ast.expr, rng: random.Random, env: Mapping[str, object], text: str) -> int:
    value = _draw(node, rng, env, text)
    if type(value) is not int:
        raise DrawError(f"generator {text!r}: {ast.unparse(node)} is not an integer")
    return value


def _sequence(value: object, text: str, empty: bool = False) -> list | tuple | str:
    if not isinstance(value, (list, tuple, str)) or not (value or empty):
        raise DrawError(f"generator {text!r}: expected a non-empty sequence, got {value!r}")
    return value


def shown(value: object) -> str:
    """How a prompt shows a parameter: text in backquotes, numbers as written."""
    if type(value) is str:
        return f"`{value}`"
    if type(value) is bool:
        return "YES" if value else "NO"
    return str(value)
