"""The generators' knobs and seeds: names, defaults, ranges and the rules
between knobs, defined once. The generators' `Knobs.check`, the `world
generate` commands (their options and --help) and sweep files (`knobs =
{...}`, `seeds = [...]`) all read them, so a value one accepts the others
accept, and a value out of range is refused before any work starts.

The ranges hold every documented use with room to spare; their upper ends
keep one generation within minutes: past them the generators could only
fail, after drawing for a long time (docs/generated-worlds.md).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from aliencode.sites import OPERATIONS

MAX_SEED_CHARS = 200


@dataclass(frozen=True)
class Knob:
    name: str  # as a sweep file writes it: red_herrings
    default: int
    low: int
    high: int
    help: str

    @property
    def option(self) -> str:
        return "--" + self.name.replace("_", "-")


# A value of each knob, given its name (the default when unset).
Values = Callable[[str], int]


@dataclass(frozen=True)
class KnobTable:
    """One generator's knobs and the rules between them (`between` sees
    every knob already in its range and names what contradicts)."""

    generator: str  # names the generator in messages: "aliencode's generator"
    knobs: tuple[Knob, ...]
    between: Callable[[Values], list[str]]

    def knob(self, name: str) -> Knob:
        return next(k for k in self.knobs if k.name == name)

    def problems(self, values: Mapping[str, object]) -> list[str]:
        """Every problem of `values` (knob name -> value), each naming the
        option; [] when the generator may run."""
        known = {k.name: k for k in self.knobs}
        problems = []
        for name, value in values.items():
            found = known.get(name)
            if found is None:
                problems.append(
                    f"unknown knob {name!r}; {self.generator}'s generator takes {', '.join(known)}"
                )
            elif (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not found.low <= value <= found.high
            ):
                shown = (
                    repr(value)
                    if isinstance(value, int) and len(str(value)) <= 20
                    else f"a {type(value).__name__}"
                )
                problems.append(
                    f"{found.option} must be an integer from {found.low} to {found.high}, "
                    f"got {shown}"
                )
        if problems:
            return problems
        return self.between(lambda name: values.get(name, self.knob(name).default))


def _aliencode_between(get: Values) -> list[str]:
    if get("scoped") > get("altered") - 2:
        return ["--scoped cannot exceed the altered rules beyond the keystone pair"]
    if get("red_herrings") > get("altered") - get("scoped"):
        return ["--red-herrings needs as many altered rules without a scope to shadow"]
    return []


def _alienlogic_between(get: Values) -> list[str]:
    if get("unprovable") + get("first_order") > get("theorems"):
        return ["--unprovable and --first-order together exceed --theorems"]
    return []


# Each language's registry entry names its table (episode/languages.py); both
# stay here, in one light module, because `aliencode run` loads the CLI that
# builds `world generate`'s options from them.
ALIENCODE_KNOBS = KnobTable(
    "aliencode",
    (
        Knob(
            "altered",
            12,
            2,
            24,
            "Rules that differ from the manual (the PLUCK and CARVE keystone rules included).",
        ),
        Knob(
            "red_herrings",
            4,
            0,
            24,
            "Places where an altered operation keeps the manual's meaning (IDENTITY in a "
            "narrower scope); at most "
            "the altered rules without a scope.",
        ),
        Knob(
            "scoped",
            3,
            0,
            22,
            "Altered rules that hold only at top level, in CRAFT bodies or in loops; at most "
            "--altered minus 2.",
        ),
        Knob(
            "renamed",
            3,
            0,
            len(OPERATIONS),
            "Keywords spelled with invented words (the manual shows them).",
        ),
        Knob(
            "tasks",
            40,
            1,
            99,
            "Tasks of the bank, drawn from the template library (ids T01 ... T99).",
        ),
    ),
    _aliencode_between,
)
ALIENLOGIC_KNOBS = KnobTable(
    "alienlogic",
    (
        # a world holds 31-33 compatible patches that refuse some standard proof: 40 failed after 39
        # s of CPU
        Knob("patches", 24, 1, 30, "Patched rules (discovery targets)."),
        Knob("theorems", 70, 1, 99, "Held-out theorems in the bank (ids L01 ... L99)."),
        Knob(
            "unprovable", 25, 0, 99, "Of them, unprovable in the world (each with a certificate)."
        ),
        Knob(
            "first_order",
            12,
            0,
            99,
            "Of them, provable first-order theorems (0: a propositional world and bank); "
            "with --unprovable at most --theorems.",
        ),
        Knob("examples", 8, 0, 20, "Worked proofs shown with the manual."),
    ),
    _alienlogic_between,
)


def seed_problem(seed: str) -> str | None:
    """Why `seed` cannot name a world, or None. The message never shows the
    seed: it is private."""
    if not 1 <= len(seed) <= MAX_SEED_CHARS:
        return f"a seed has 1 to {MAX_SEED_CHARS} characters, this one {len(seed):,}"
    for index, char in enumerate(seed, 1):
        category = unicodedata.category(char)
        if category == "Cs":
            return f"character {index} of the seed is not text (not UTF-8: undecodable bytes)"
        if category == "Cc":
            return f"character {index} of the seed is a control character (U+{ord(char):04X})"
    return None
