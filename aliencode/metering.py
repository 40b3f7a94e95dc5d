"""Probe metering (docs/aliencode.md), computed on the syntax tree.

Each EMIT call costs its number of top-level arguments (at least 1), times 3
unless it provably runs at most once per run. Strings and comments cost
nothing; the cost does not depend on how often anything actually runs.

An EMIT runs at most once when it stands outside every loop body and WHILE
condition of its function, and either at top level or in a CRAFT that runs at
most once. A CRAFT runs at most once when it is defined once, its name is
never rebound (SET, SWEEP, a parameter) nor used as a value (passed, stored,
returned: a function value may be called any number of times, by STRAIN for
instance), and it is called from exactly one place, which itself runs at most
once (so a recursive CRAFT, or one called from a loop, from two places or
from a CRAFT that runs more than once, does not). Everything else is charged
×3: the analysis errs towards charging, never towards letting output through.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import syntax as s
from .statement_memo import MEMO

PROBE_CAP = 5
LOOP_FACTOR = 3


@dataclass(frozen=True)
class EmitCost:
    pos: s.Pos
    arguments: int  # at least 1
    factor: int  # 1: runs at most once; LOOP_FACTOR otherwise

    @property
    def units(self) -> int:
        return self.arguments * self.factor


@dataclass(frozen=True)
class _Place:
    """Where a node stands: its innermost CRAFT (by name) and whether a loop
    of that function (or of the top level) may repeat it."""

    craft: str | None
    in_loop: bool


class _Walk:
    """One pass over statements of the top level collecting definitions,
    rebindings, value uses, call sites and EMIT calls."""

    def __init__(self, statements: tuple[s.Stmt, ...] = ()) -> None:
        self.definitions: dict[str, int] = {}
        self.rebound: set[str] = set()
        self.values: set[str] = set()  # names read as values (not as the callee of a call)
        self.sites: dict[str, list[_Place]] = {}
        self.emits: list[tuple[s.OpCall, _Place]] = []
        stack: list[tuple[object, _Place]] = [(node, _Place(None, False)) for node in statements]
        while stack:
            node, place = stack.pop()
            stack.extend(self._visit(node, place))

    @classmethod
    def of(cls, program: s.Program) -> _Walk:
        """The walk of `program`, put together from each statement's own
        (a statement of the top level starts where every other does: in no
        CRAFT and no loop), each walked once per statement object
        (statement_memo.py)."""
        walk = cls()
        for statement in program.body:
            own = MEMO.fact(statement, "metering", _walk_of)
            for name, count in own.definitions.items():
                walk.definitions[name] = walk.definitions.get(name, 0) + count
            walk.rebound |= own.rebound
            walk.values |= own.values
            for name, places in own.sites.items():
                walk.sites.setdefault(name, []).extend(places)
            walk.emits += own.emits
        return walk

    def _visit(self, node: object, place: _Place) -> list[tuple[object, _Place]]:
        if isinstance(node, s.Craft):
            self.definitions[node.name] = self.definitions.get(node.name, 0) + 1
            self.rebound.update(node.params)
            inner = _Place(node.name, False)
            return [(child, inner) for child in node.body]
        if isinstance(node, s.Sweep):
            self.rebound.update(node.names)
            loop = _Place(place.craft, True)
            return [(node.iterable, place), *((child, loop) for child in node.body)]
        if isinstance(node, s.While):
            loop = _Place(place.craft, True)
            return [(node.cond, loop), *((child, loop) for child in node.body)]
        if isinstance(node, s.Set):
            self.rebound.update(node.targets)
        elif isinstance(node, s.Name):
            self.values.add(node.id)
        elif isinstance(node, s.Call) and isinstance(node.func, s.Name):
            self.sites.setdefault(node.func.id, []).append(place)
            return [(arg, place) for arg in node.args]  # the callee name is a call, not a value use
        elif isinstance(node, s.OpCall) and node.op == "EMIT":
            self.emits.append((node, place))
        return [(child, place) for child in s.children(node)]

    def runs_once(self) -> set[str]:
        """The CRAFTs that provably run at most once (a least fixpoint: a CRAFT
        joins only once the one place that calls it is known to run once)."""
        candidates = {
            name
            for name, count in self.definitions.items()
            if count == 1
            and name not in self.rebound
            and name not in self.values
            and len(self.sites.get(name, ())) == 1
        }
        once: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name in candidates - once:
                site = self.sites[name][0]
                if not site.in_loop and (site.craft is None or site.craft in once):
                    once.add(name)
                    changed = True
        return once


def _walk_of(statement: s.Stmt) -> _Walk:
    return _Walk((statement,))


def emit_costs(program: s.Program) -> list[EmitCost]:
    """The cost of every EMIT call of a program, in no particular order."""
    walk = _Walk.of(program)
    once = walk.runs_once()
    out = []
    for node, place in walk.emits:
        single = not place.in_loop and (place.craft is None or place.craft in once)
        out.append(EmitCost(node.pos, max(1, len(node.args)), 1 if single else LOOP_FACTOR))
    return out


def units(program: s.Program) -> int:
    return sum(cost.units for cost in emit_costs(program))
