"""What to try next when `alienlogic prove` or `alienlogic certify` finds nothing.

Each failure gets one line naming its reason and one concrete next step: a
flag to raise, or the other command on the same theorem (a theorem the
prover cannot prove may have a certificate of unprovability, and one the
certifier cannot certify may have a proof). The detail stays behind
`--verbose`.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from .certify import Found
from .prover import ProverResult

MAX_BUDGET = 64  # the largest --budget `prove` accepts


@dataclass(frozen=True)
class Invocation:
    """The world and theorem of a command, as its options gave them, so that
    a suggested command names the same ones."""

    world: str | None
    task: str | None
    premises: str | None
    goal: str | None

    def command(self, name: str) -> str:
        parts = ["alienlogic", name]
        for flag, value in (
            ("--world", self.world),
            ("--task", self.task),
            ("--premises", self.premises),
            ("--goal", self.goal),
        ):
            if value:
                parts += [flag, shlex.quote(value)]
        return " ".join(parts)


def _raised(value: float, longest: float) -> str:
    return f"{min(value * 4, longest):g}"


def prove_failure(
    result: ProverResult, call: Invocation, budget: int, seconds: float, longest: float
) -> tuple[str, str]:
    """(the reason line, the next step) for a `prove` that found no proof."""
    reason = f"no proof found: {result.reason} ({result.seconds:.2f} s CPU)"
    certify = f"check whether it is unprovable: {call.command('certify')}"
    kind = result.failure
    if kind == "out of time":
        if seconds < longest:
            step = f"raise --seconds (now {seconds:g}), e.g. --seconds {_raised(seconds, longest)}"
        else:
            step = f"the limit is at its largest; {certify}"
    elif kind == "budget" and budget < MAX_BUDGET:
        step = (
            f"raise --budget (now {budget}), e.g. --budget {min(budget * 2, MAX_BUDGET)}; "
            f"or {certify}"
        )
    elif kind == "refuted":
        step = "none: the countermodel shows that no proof exists in the standard calculus"
    elif kind == "refused":
        step = f"--verbose lists every proof the world's checker refused, and why; or {certify}"
    else:
        # "steps": the search's step allowance is fixed, so no flag helps;
        # "budget" at its largest; "undecided"
        step = certify
    return reason, step


def certify_failure(
    found: Found, call: Invocation, seconds: float, longest: float
) -> tuple[str, str]:
    """(the reason line, the next step) for a `certify` that found no certificate."""
    reason = f"not certified: {found.summary}"
    if found.stopped == "out of time" and seconds < longest:
        step = f"raise --seconds (now {seconds:g}), e.g. --seconds {_raised(seconds, longest)}"
    else:
        step = (
            f"the theorem may be provable: {call.command('prove')}; "
            "--verbose lists what each candidate algebra broke"
        )
    return reason, step
