"""Proofs as data: the header (premises and goal) and the numbered steps."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .formulas import Formula

# More digits than this (after leading zeros) cannot name a line of any proof.
MAX_DIGITS = 18


class LongNumber(int):
    """A step number or citation too long to name a line: it compares larger
    than every line number, so the checker refuses it as it refuses any
    line that does not exist. Its digits are never converted (CPython
    converts long digit strings in quadratic time, and refuses very long
    ones)."""

    def __new__(cls, digits: int) -> LongNumber:
        number = super().__new__(cls, 10**MAX_DIGITS)
        number.digits = digits
        return number

    def __str__(self) -> str:
        return f"<a number of {self.digits} digits>"

    __repr__ = __str__


def line_number(digits: str) -> int:
    """The number a run of decimal digits writes, or a LongNumber."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > MAX_DIGITS:
        return LongNumber(len(significant))
    return int(significant)


@dataclass(frozen=True)
class Citation:
    """A cited line `a` (first == last) or a range `a-b` (a whole subproof)."""

    first: int
    last: int
    is_range: bool = False

    def __str__(self) -> str:
        return f"{self.first}-{self.last}" if self.is_range else str(self.first)


@dataclass(frozen=True)
class Step:
    number: int  # as written; the checker requires 1, 2, 3, ...
    depth: int  # the number of `|` bars: assumption boxes the line is in
    formula: Formula
    rule: str
    citations: tuple[Citation, ...] = ()
    source_line: int = field(
        default=0, compare=False
    )  # line of the proof text (0 when built in code)

    @property
    def head(self) -> str:
        return f"{self.number}. {'| ' * self.depth}{self.formula}"

    @property
    def annotation(self) -> str:
        cites = ", ".join(map(str, self.citations))
        return f"[{self.rule}{' ' + cites if cites else ''}]"

    def __str__(self) -> str:
        return f"{self.head}  {self.annotation}"


@dataclass(frozen=True)
class Theorem:
    """What a proof claims: the goal follows from the premises (a multiset)."""

    premises: tuple[Formula, ...]
    goal: Formula

    def same_as(self, other: Theorem) -> tuple[bool, bool]:
        """(premises agree as multisets, goals agree)."""
        return Counter(self.premises) == Counter(other.premises), self.goal is other.goal


@dataclass(frozen=True)
class Proof:
    premises: tuple[Formula, ...]
    goal: Formula
    steps: tuple[Step, ...]

    @property
    def theorem(self) -> Theorem:
        return Theorem(self.premises, self.goal)

    def __str__(self) -> str:
        return format_proof(self)


def format_proof(proof: Proof) -> str:
    """The proof in its input syntax, annotations aligned."""
    width = min(max((len(s.head) for s in proof.steps), default=0), 60) + 2
    lines = [
        "PROOF",
        f"premises: {', '.join(map(str, proof.premises))}".rstrip(),
        f"goal: {proof.goal}",
    ]
    lines += [f"{s.head.ljust(width)}{s.annotation}" for s in proof.steps]
    lines.append("END")
    return "\n".join(lines) + "\n"
