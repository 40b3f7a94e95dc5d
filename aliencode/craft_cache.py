"""Compiled CRAFTs of the top level, shared by the programs of a process.

A world check compiles thousands of candidate programs, and most of their text
is a few libraries of helper CRAFTs written again and again at the head of a
program. A CRAFT the top level defines compiles to a host function that shares
nothing with the rest of the program: the top level declares every name it
binds global, so the function has no free variable, and its code depends only
on the CRAFT's text (or, without it, its syntax tree, positions included), the
world, the limits, the compiler's options and the two budgets a program's
compiling shares (splicing rules and folding constants) as they stand when the
CRAFT is reached. All but the budgets are the key; of the budgets, each
compiled form keeps what it read, and is found under any budgets that compile
it alike (`CompiledCraft.fits`). The function's code object is compiled
once, in a function of its own named as the top level is, and put into the
program's code in place of a placeholder definition; found by its text at
another line, the code is moved there. The code that results is the same,
object for object, as compiling the CRAFT in place
(tests/aliencode/test_craft_cache.py compares them).
"""

from __future__ import annotations

import ast
import threading
from dataclasses import dataclass
from types import CodeType

from alienworlds.ruleset import Meter
from alienworlds.ruleset.compile import CompiledRule

# A Meter's counters (the fold meter's: its deadline is never reached and it
# has no roots, so nothing else of it changes while compiling).
METER_FIELDS = (
    "used",
    "output",
    "granted",
    "budget",
    "charged",
    "allocated",
    "gap",
    "live",
    "peak",
)
CAPACITY = 2048  # CRAFTs kept; the least recently used goes first
VARIANTS = 8  # compiled forms of one CRAFT kept, under budgets that compile it otherwise
# and at most this much host code (bytecode and position tables, all nested
# functions included): a program may hold one CRAFT of the whole source limit
CAPACITY_BYTES = 8_000_000


@dataclass(frozen=True)
class CompiledCraft:
    """What compiling one CRAFT, at `line`, gave and did: its code, the
    operation sites it recorded, the world's rules it calls, and what it
    read of the two shared budgets (see `fits`)."""

    line: int
    code: CodeType
    sites: dict[tuple[int, int], str]
    rules: dict[str, CompiledRule]
    splice_from: int  # the splicing budget left when it was compiled
    splice_used: int
    # a rule was left unspliced for want of budget: only `splice_from` gives the same code
    splice_short: bool
    fold_from: tuple[int | float, ...] | None  # the fold meter's state, when it folded anything
    fold_to: tuple[int | float, ...]

    def fits(self, splice_left: int, fold_state: tuple[int | float, ...]) -> bool:
        """Whether compiling the CRAFT with these budgets left gives this.
        Every rule spliced is granted while the budget covers it, so a
        budget that covered all it spent grants the same again; the fold
        meter matters only to a CRAFT that folded something."""
        if self.splice_short:
            spliced_alike = splice_left == self.splice_from
        else:
            spliced_alike = splice_left >= self.splice_used
        return spliced_alike and (self.fold_from is None or self.fold_from == fold_state)

    def code_at(self, line: int) -> CodeType:
        """The code of the same CRAFT starting at `line`: every position of
        a code object is a line relative to its first line."""
        return moved(self.code, line - self.line) if line != self.line else self.code

    def sites_at(self, line: int) -> dict[tuple[int, int], str]:
        delta = line - self.line
        if not delta:
            return self.sites
        return {(at + delta, column): name for (at, column), name in self.sites.items()}


def code_size(code: CodeType) -> int:
    """Bytes of bytecode and position tables, nested functions included."""
    return (
        len(code.co_code)
        + len(code.co_linetable)
        + sum(code_size(c) for c in code.co_consts if isinstance(c, CodeType))
    )


def moved(code: CodeType, lines: int) -> CodeType:
    consts = tuple(moved(c, lines) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_firstlineno=code.co_firstlineno + lines, co_consts=consts)


def meter_state(meter: Meter) -> tuple[int | float, ...]:
    return tuple(getattr(meter, name) for name in METER_FIELDS)


def restore_meter(meter: Meter, state: tuple[int | float, ...]) -> None:
    for name, value in zip(METER_FIELDS, state, strict=True):
        setattr(meter, name, value)


class CraftCache:
    """A bounded map from a key to the CompiledCrafts of one CRAFT under
    several budgets, least recently used first; one lookup or insertion at a
    time (sessions of a server compile from several threads)."""

    def __init__(self, capacity: int = CAPACITY, capacity_bytes: int = CAPACITY_BYTES) -> None:
        self.capacity = capacity
        self.capacity_bytes = capacity_bytes
        # each with its code's size
        self._entries: dict[tuple, list[tuple[CompiledCraft, int]]] = {}
        self._count = 0
        self._bytes = 0
        self._lock = threading.Lock()

    def get(
        self, key: tuple, splice_left: int, fold_state: tuple[int | float, ...]
    ) -> CompiledCraft | None:
        """The CRAFT compiled under `key` that these budgets compile alike."""
        with self._lock:
            variants = self._entries.pop(key, None)
            if variants is None:
                return None
            self._entries[key] = variants  # now the most recently used
            return next((c for c, _ in variants if c.fits(splice_left, fold_state)), None)

    def put(self, key: tuple, entry: CompiledCraft) -> None:
        size = code_size(entry.code)
        if size > self.capacity_bytes:
            return
        with self._lock:
            variants = self._entries.pop(key, [])
            if len(variants) == VARIANTS:
                self._drop(variants.pop(0))
            variants.append((entry, size))
            self._entries[key] = variants
            self._count += 1
            self._bytes += size
            while self._count > self.capacity or self._bytes > self.capacity_bytes:
                oldest = next(iter(self._entries))
                for variant in self._entries.pop(oldest):
                    self._drop(variant)

    def _drop(self, variant: tuple[CompiledCraft, int]) -> None:
        self._count -= 1
        self._bytes -= variant[1]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._count = 0
            self._bytes = 0


CACHE = CraftCache()


def function_code(definition: ast.FunctionDef, top: str, filename: str) -> CodeType:
    """The code of `definition` (positions filled) compiled as a function
    defined in a function named `top` that declares its name global: what
    compiling it in the program's top level gives."""
    args = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
    outer = ast.FunctionDef(top, args, [ast.Global([definition.name]), definition], [], None)
    for node in (outer, outer.body[0]):
        node.lineno = node.end_lineno = 1
        node.col_offset, node.end_col_offset = 0, 1
    module = compile(ast.Module([outer], []), filename, "exec", dont_inherit=True)
    return _only_code(_only_code(module, top), definition.name)


def placeholder(name: str, marker: bytes) -> ast.FunctionDef:
    """A definition the top level compiles as it would the CRAFT's (no
    defaults, no closure), whose code `substitute` recognizes by `marker`:
    a bytes constant, which no AlienCode value or generated code is."""
    args = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
    return ast.FunctionDef(name, args, [ast.Return(ast.Constant(marker))], [], None)


def substitute(module: CodeType, top: str, codes: dict[bytes, CodeType]) -> CodeType:
    """`module` with each placeholder in its function `top` replaced by the
    code its marker names."""
    function = _only_code(module, top)
    consts = tuple(
        codes[c.co_consts[-1]]
        if isinstance(c, CodeType) and c.co_consts and type(c.co_consts[-1]) is bytes
        else c
        for c in function.co_consts
    )
    replaced = function.replace(co_consts=consts)
    return module.replace(
        co_consts=tuple(replaced if c is function else c for c in module.co_consts)
    )


def _only_code(code: CodeType, name: str) -> CodeType:
    found = [c for c in code.co_consts if isinstance(c, CodeType) and c.co_name == name]
    if len(found) != 1:
        raise AssertionError(f"expected one function {name!r} in {code.co_name!r}")
    return found[0]
