"""Probes chosen by expected information gain.

A probe is made of **atoms**: a few lines that use one slot's site at a place
where that slot's rule applies (top level, a CRAFT body, a loop, a loop in a
CRAFT) on drawn operands, and print the result. The engine predicts each
candidate atom's shown output under the surviving hypotheses
(`Engine.predict`: the runs split the combinations exactly; each slot's
survivors weigh their prior mass), and its expected information gain is the
entropy of that prediction. The probe packs the best atom with further atoms
whose uncertain slots are disjoint from those already packed, within the
probe-unit cap; for such independent atoms, printed one line each and run in
order until one fails, the gain of the whole is

    EIG = H_1 + P(1 ran cleanly) H_2 + P(1 and 2 ran cleanly) H_3 + ...

(exact under the engine's independence of slots). Candidates: the slots whose
survivors are not yet one behaviour, the most uncertain first, each with
several draws of operands at every place where its rule applies, so a
scope-limited operation is tried at top level, in a CRAFT and in a loop.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from alienworlds.manuals.aliencode import respell
from alienworlds.porting.literals import written_value
from alienworlds.porting.semantics import Ctx, WorldView

from aliencode import AlienSyntaxError, parse
from aliencode.compiler import Context
from aliencode.metering import PROBE_CAP, units
from aliencode.sites import ARITHMETIC, COMPARISON
from aliencode.unparse import value_literal

from .engine import Engine, Prediction
from .evaluate import freeze
from .simulate import slot_at

PLACES = {
    "top": Context(),
    "function": Context(True, False),
    "loop": Context(False, True, 1),
    "function-loop": Context(True, True, 1),
}
_INTS = (-3, -2, -1, 0, 1, 2, 3, 4, 5, 7, 9, 10, 12, 25, 100)
_WORDS = ("ab", "abc", "hello", "q", "xyz", "alien", "")
_NEGATABLE = ("YES", "NO", "0", "3", '""')
PAD = '""'  # a value that an EMIT leaving out its first or last value drops
_PRINTED = (7, "ab", 2.5)  # values that tell where an EMIT rule puts what it prints


@dataclass(frozen=True)
class Atom:
    slot: int
    place: str
    lines: tuple[str, ...]  # in the standard spelling, indented for the place's body


@dataclass
class Choice:
    source: str  # the probe, in the world's spelling
    atoms: tuple[Atom, ...]
    gain: float  # expected information gain of the whole probe, in bits
    candidates: int  # atoms whose gain was computed


# -- operands ---------------------------------------------------------------------------
# Generators draw the *values* a probe should operate on; a writer spells each
# value as the literal that the most likely world reads as that value at the
# atom's place (porting's literal inversion), so that, say, an index of 1
# reaches PLUCK as 1 even where integer literals are encoded.

Writer = Callable[[object], str]


def _ints(rng: random.Random, n: int) -> list[int]:
    return [rng.choice(_INTS) for _ in range(n)]


def _seq(rng: random.Random) -> object:
    roll = rng.random()
    if roll < 0.55:
        return _ints(rng, rng.randint(1, 5))
    if roll < 0.8:
        return rng.choice(_WORDS[:-1])
    if roll < 0.9:
        return tuple(_ints(rng, rng.randint(2, 3)))
    return [rng.choice(_WORDS[:-1]) for _ in range(rng.randint(1, 3))]


def _value(rng: random.Random) -> object:
    roll = rng.random()
    if roll < 0.6:
        return rng.choice(_INTS)
    if roll < 0.72:
        return rng.choice(_WORDS)
    if roll < 0.82:
        return rng.choice((True, False))
    if roll < 0.9:
        return rng.choice((0.5, 2.5, -1.5))
    return _ints(rng, rng.randint(0, 3))


def _truths(rng: random.Random) -> list[object]:
    return [rng.choice((True, False, 0, 1, 2)) for _ in range(rng.randint(0, 3))]


def expression(
    site: str, rng: random.Random, w: Writer = value_literal, show: Show | None = None
) -> tuple[str, ...]:
    """Lines (at one place, unindented) that use `site` once and print
    (`show`: the lines that print values; EMIT and SWEEP, which are what
    their atoms probe, print with a plain EMIT)."""
    show = show or plain
    if site in ARITHMETIC or site in COMPARISON:
        if rng.random() < 0.75:
            a, b = _ints(rng, 2)
            if site == "COIL":
                a, b = rng.randint(-3, 5), rng.randint(0, 4)
            return show(f"{site}({w(a)}, {w(b)})")
        return show(f"{site}({w(_value(rng))}, {w(_value(rng))})")
    if site in ("BOND", "RIFT"):
        pick = (True, False, 0, 1, 2, "a", "")
        second = w(rng.choice(pick)) if rng.random() < 0.8 else f"PLUCK({w([])}, {w(0)})"
        return show(f"{site}({w(rng.choice(pick))}, {second})")
    if site == "NEGATE":
        return show(f"NEGATE({w(rng.choice((True, False, 0, 3, '')))})")
    if site in ("STRAND", "KNOT", "FUSE"):
        return show(f"{site}({', '.join(w(_value(rng)) for _ in range(rng.randint(1, 4)))})")
    if site in ("NADIR", "APEX"):
        values = _ints(rng, rng.randint(1, 4))
        inner = w(values) if rng.random() < 0.4 else ", ".join(w(v) for v in values)
        return show(f"{site}({inner})")
    if site == "PLUCK":
        return show(f"PLUCK({w(_seq(rng))}, {w(rng.randint(-3, 4))})")
    if site == "CARVE":
        if rng.random() < 0.3:
            return show(f"CARVE({w(_seq(rng))}, {w(rng.randint(-2, 3))})")
        return show(
            f"CARVE({w(_ints(rng, rng.randint(2, 6)))}, {w(rng.randint(-2, 3))}, "
            f"{w(rng.randint(-1, 5))})"
        )
    if site == "ANNEX":
        return (
            f"SET xs AS {w(_ints(rng, rng.randint(0, 3)))}",
            f"ANNEX(xs, {w(_value(rng))})",
            *show("xs"),
        )
    if site == "IMPRINT":
        return (
            f"SET xs AS {w(_ints(rng, rng.randint(1, 4)))}",
            f"IMPRINT(xs, {w(rng.randint(-2, 3))}, {w(_value(rng))})",
            *show("xs"),
        )
    if site == "EXPEL":
        return (f"SET xs AS {w(_ints(rng, rng.randint(1, 4)))}", *show("EXPEL(xs)", "xs"))
    if site in ("GAUGE", "ORDER", "GATHER", "INDEX"):
        return show(f"{site}({w(_seq(rng))})")
    if site in ("SOME_OF", "EVERY_OF"):
        return show(f"{site}({w(_truths(rng))})")
    if site == "EXTENT":
        if rng.random() < 0.4:
            return show(f"EXTENT({w(rng.randint(-1, 5))})")
        return show(f"EXTENT({w(rng.randint(-3, 3))}, {w(rng.randint(0, 6))})")
    if site == "PAIR":
        return show(f"PAIR({w(_seq(rng))}, {w(_seq(rng))})")
    if site == "STRAIN":
        seq = _truths(rng) if rng.random() < 0.5 else _seq(rng)
        return ("CRAFT keep(n):", "    DELIVER n", *show(f"STRAIN(keep, {w(seq)})"))
    if site == "EMIT":
        return (f"EMIT({', '.join(w(_value(rng)) for _ in range(rng.randint(0, 3)))})",)
    if site == "SWEEP":
        return (f"SWEEP x IN {w(_seq(rng))}:", "    EMIT(x)")
    # A literal site: the literal is written as it stands (it is what is probed).
    if site == "literal.int":
        return show(
            str(
                rng.choice(
                    (rng.randint(-70, 70), rng.randint(-9, 30), rng.choice((127, 1000, -129)))
                )
            )
        )
    if site == "literal.float":
        return show(rng.choice(("0.5", "2.5", "-1.5", "1.0", "3.25", "0.1")))
    if site == "literal.str":
        return show(value_literal(rng.choice(_WORDS)))
    return show(rng.choice(("YES", "NO")))  # literal.bool


def _indent(lines: tuple[str, ...], depth: int) -> tuple[str, ...]:
    return tuple("    " * depth + line for line in lines)


Show = Callable[..., tuple[str, ...]]  # the printed values' source texts -> lines that print them


def plain(*values: str) -> tuple[str, ...]:
    return (f"EMIT({', '.join(values)})",)


def atom(
    slot: int,
    site: str,
    place: str,
    rng: random.Random,
    writer: Callable[[Context], Writer] | None = None,
    printer: Callable[[Context], Show | None] | None = None,
) -> Atom:
    """An atom probing `site` at `place`; `writer(ctx)` spells values there
    and `printer(ctx)` prints them (`plain` where the most likely world's
    EMIT prints as the manual's)."""
    outer, inner = (
        (Context(True, False), PLACES[place])
        if place.startswith("function")
        else (Context(), PLACES[place])
    )
    w = writer(inner) if writer else value_literal
    looped = place in ("loop", "function-loop") and site != "SWEEP"
    show = printer(inner) if printer else plain
    deferred: list[str] = []
    if looped and site != "EMIT" and show is not plain:
        # Printing in a loop costs three times as much: what the loop
        # computes is printed once after it, as the outer place shows it.
        def show(*values: str) -> tuple[str, ...]:
            names = [f"shown{k}" for k in range(len(values))]
            deferred.extend(names)
            return tuple(f"SET {name} AS {value}" for name, value in zip(names, values))

    lines = expression(site, rng, w, show)
    if looped:
        zero = (writer(outer) if writer else value_literal)(0)
        lines = (f"SWEEP k IN STRAND({zero}):", *_indent(lines, 1))
        if deferred:
            lines = (*lines, *printer(outer)(*deferred))
    return Atom(slot, place, lines)


def compose(atoms: tuple[Atom, ...] | list[Atom]) -> str:
    """One program: top-level atoms, then one CRAFT holding the CRAFT-body
    atoms (called once), in the given order within each."""
    top = [line for a in atoms if a.place in ("top", "loop") for line in a.lines]
    inner = [line for a in atoms if a.place in ("function", "function-loop") for line in a.lines]
    lines = list(top)
    if inner:
        lines += ["CRAFT probe():", *_indent(tuple(inner), 1), "probe()"]
    return "\n".join(lines)


def cost(source: str, keywords: dict[str, str]) -> int:
    try:
        return units(parse(source, keywords))
    except AlienSyntaxError:
        return PROBE_CAP + 1


def places_of(engine: Engine, slot: int) -> list[str]:
    site = engine.slots[slot].site
    return [name for name, ctx in PLACES.items() if slot_at(engine.slots, site, ctx) == slot]


# -- choosing -----------------------------------------------------------------------------


def uncertainty(engine: Engine, slot: int) -> float:
    """Entropy (bits) of a slot's surviving prior mass over its hypotheses;
    0 once its survivors are one behaviour."""
    alive = engine.alive[slot]
    if len(alive) <= 64 and engine.resolved(slot):
        return 0.0
    weights = engine.spaces[slot].weights
    total = sum(weights[h] for h in alive) or 1.0
    return -sum(weights[h] / total * math.log2(weights[h] / total) for h in alive if weights[h] > 0)


@dataclass
class Scored:
    atom: Atom
    prediction: Prediction
    gain: float


class Designer:
    """Chooses each probe of the `explorer` agent."""

    def __init__(
        self,
        engine: Engine,
        seed: int,
        slots_per_choice: int = 8,
        draws: int = 3,
        decision_runs: int = 10_000,
        decision_work: int = 2_000_000,
    ) -> None:
        self.engine = engine
        self.decision_runs = (
            decision_runs  # runs one search for a probe may spend predicting candidates
        )
        self.decision_work = decision_work  # work one search may spend predicting candidates
        self.seed = seed
        self.slots_per_choice = slots_per_choice
        self.draws = draws
        self.keywords = engine.view.keywords
        self.world = engine.view.world()
        self._view: WorldView | None = None
        self._pads: dict[tuple[int, int, int], tuple[bool, bool] | None] = {}

    def spell(self, source: str) -> str:
        return respell(source, self.world)

    def writer(self) -> Callable[[Context], Writer]:
        """Spell values for the most likely world (literals inverted)."""
        believed = self.engine.world()
        if self._view is None or self._view.world.hash != believed.hash:
            self._view = WorldView(believed)
        view = self._view

        def at(ctx: Context) -> Writer:
            where = Ctx(ctx.in_function, ctx.in_loop)

            def write(value: object) -> str:
                if isinstance(value, list):
                    return "STRAND(" + ", ".join(write(v) for v in value) + ")"
                if isinstance(value, tuple):
                    return "KNOT(" + ", ".join(write(v) for v in value) + ")"
                ok, literal = written_value(view, where, value)
                return value_literal(literal if ok else value)

            return write

        return at

    def printer(self, ctx: Context) -> Show:
        """How to print values at a place so that the most likely world shows
        them as the manual's EMIT would: `plain`, or with an empty string
        before or after them that its EMIT leaves out (when none of these
        works for so many values, plainly: the probe shows what it shows)."""
        engine = self.engine
        slot = slot_at(engine.slots, "EMIT", ctx)
        believed = engine.most_likely(slot) if slot is not None else None
        if believed is None or self._faithful(slot, believed, 1) == (False, False):
            return plain

        def show(*values: str) -> tuple[str, ...]:
            before, after = self._faithful(slot, believed, len(values)) or (False, False)
            return plain(*((PAD,) if before else ()), *values, *((PAD,) if after else ()))

        return show

    def _faithful(self, slot: int, h: int, n: int) -> tuple[bool, bool] | None:
        """Where an empty string must stand (before, after) for EMIT's
        hypothesis `h` to print `n` values as the manual's EMIT does."""
        key = (slot, h, n)
        if key not in self._pads:
            space = self.engine.spaces[slot]
            values = list(_PRINTED[:n])
            self._pads[key] = next(
                (
                    pad
                    for pad in ((False, False), (True, False), (False, True))
                    if space.table.outcome(
                        space.roots[h], ([*([""] * pad[0]), *values, *([""] * pad[1])],)
                    )[1:2]
                    == (freeze(values),)
                ),
                None,
            )
        return self._pads[key]

    def candidates(self, rng: random.Random, slots: int, draws: int) -> list[Atom]:
        engine = self.engine
        ranked = sorted(
            ((uncertainty(engine, k), -k) for k in range(len(engine.slots))), reverse=True
        )
        writer = self.writer()
        out = []
        for u, neg in ranked[:slots]:
            if u <= 0:
                break
            slot = -neg
            for place in places_of(engine, slot):
                for _ in range(draws):
                    out.append(
                        atom(slot, engine.slots[slot].site, place, rng, writer, self.printer)
                    )
        return out

    def score(self, atoms: list[Atom], spent: Spent) -> list[Scored]:
        """The atoms whose outcome the engine could predict, with their
        gains, in the given order. Predicted in order of their spread (the
        combinations they could run under), so that when the decision's
        share of predicting runs out the cheap candidates have been tried."""
        engine = self.engine
        ready = []
        for number, a in enumerate(atoms):
            source = self.spell(compose([a]))
            if cost(source, self.keywords) <= PROBE_CAP:
                ready.append((engine.spread(source), number, a, source))
        scored: dict[int, Scored] = {}
        for _, number, a, source in sorted(ready, key=lambda r: r[:2]):
            if spent.over():
                break
            prediction = engine.predict(source)
            if prediction is not None:
                scored[number] = Scored(a, prediction, prediction.entropy)
        return [scored[number] for number in sorted(scored)]

    def choose(self, label: str) -> Choice | None:
        """The probe with the most expected information, or None when no
        candidate can teach anything."""
        rng = random.Random(f"explorer:{self.seed}:{label}")
        tried = 0
        # Widen the search when the first candidates teach nothing (each
        # search with its own share of predicting).
        for slots, draws in (
            (self.slots_per_choice, self.draws),
            (len(self.engine.slots), 3 * self.draws),
        ):
            spent = Spent(self.engine, self.decision_runs, self.decision_work)
            scored = self.score(self.candidates(rng, slots, draws), spent)
            tried += len(scored)
            useful = [s for s in scored if s.gain > 1e-9]
            if useful:
                return pack(useful, self.spell, self.keywords, tried, self.engine.budget.observe)
        return None


class Spent:
    """The runs and work one decision has spent predicting, counted (never
    timed, so the same state gives the same probe on any machine)."""

    def __init__(self, engine: Engine, runs: int, work: int) -> None:
        self.engine, self.runs, self.work = engine, runs, work
        self.start = (engine.runs, engine.work)

    def over(self) -> bool:
        return (
            self.engine.runs - self.start[0] > self.runs
            or self.engine.work - self.start[1] > self.work
        )


def pack(
    scored: list[Scored], spell, keywords: dict[str, str], candidates: int, runs: int
) -> Choice:
    """The best atom, then independent ones in order of gain, within the
    unit cap and while the engine can afford to explain the whole (at most
    `runs` expected runs, `explaining`)."""
    order = sorted(scored, key=lambda s: -s.gain)
    chosen: list[Scored] = []
    used: set[int] = set()
    for s in order:
        if s.atom.slot in used or (s.prediction.uncertain & used):
            continue
        trial = _arrange([*chosen, s])
        if chosen and explaining(trial) > runs:
            continue
        if cost(spell(compose([t.atom for t in trial])), keywords) <= PROBE_CAP:
            chosen = trial
            used |= set(s.prediction.uncertain) | {s.atom.slot}
    chosen = _arrange(chosen)
    gain, clean = 0.0, 1.0
    for s in chosen:
        gain += clean * s.gain
        clean *= 1.0 - s.prediction.error_probability
    atoms = tuple(s.atom for s in chosen)
    return Choice(spell(compose(atoms)), atoms, gain, candidates)


def explaining(arranged: list[Scored]) -> float:
    """The expected runs to explain what independent atoms show, in program
    order: each atom's distinct executions, and what follows once for each
    execution that printed what was shown and ran on (a run stops as soon as
    its output departs from what was shown), so an atom whose outcome shows
    little multiplies the cost of the rest:

        runs_1 + carried_1 (runs_2 + carried_2 (runs_3 + ...))
    """
    total = 0.0
    for s in reversed(arranged):
        total = s.prediction.runs + s.prediction.carried * total
    return total


def _arrange(items: list[Scored]) -> list[Scored]:
    """Program order: top-level atoms, then the CRAFT's; within each, the
    atoms least likely to fail first (a failure stops the rest)."""

    def key(s: Scored) -> tuple:
        return (s.atom.place in ("function", "function-loop"), s.prediction.error_probability)

    return sorted(items, key=key)
