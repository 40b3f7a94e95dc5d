"""Worst cases of AlienLogic's limits, generated from a seed, and a runner
that measures each in its own process.

Families (each near where a limit bit before):

* `wide`: proofs over one predicate applied to tens of thousands of
  constants (flat, through a function, a balanced conjunction of atoms, a
  chain nested to the parser's height limit), for `check` and for `grade`
  against a task with other premises (refused before any step is checked).
  The work must be linear in the text: CPU bound `SECONDS_BOUND`.
* `certify`: tautologies over many atoms (no certificate exists, so the
  search runs to its limit) with `certify --seconds`.
* `prove`: pigeonhole formulas (n+1 pigeons, n holes: hard for resolution
  and tableaux alike) with `prove --seconds`.

For `certify` and `prove` the bound is the limit given plus one second.
`run_alone(case)` runs the `alienlogic` command in a child process and
reads its CPU time and peak memory from os.wait4 (that child's own
accounting). benchmarks/logic_limits.py prints the measurements; the test
suite runs a small slice (test_logic_limits.py).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

SECONDS_BOUND = 10.0
MEMORY_BOUND_MB = 512


@dataclass(frozen=True)
class Case:
    family: str
    name: str
    args: tuple[str, ...]  # the alienlogic command line; "{dir}" is the case's folder
    files: dict[str, str] = field(default_factory=dict)  # written to the case's folder first
    seconds: float | None = None  # the --seconds given (None: bound by SECONDS_BOUND)

    @property
    def bound(self) -> float:
        return SECONDS_BOUND if self.seconds is None else self.seconds + 1.0

    @property
    def size(self) -> int:
        return sum(len(t) for t in self.files.values()) + sum(len(a) for a in self.args)


@dataclass
class Measured:
    case: str
    exit_code: int
    cpu: float
    wall: float
    peak_mb: float
    output: str  # the first line of stdout, or of stderr when stdout is empty


# -- formulas as text ---------------------------------------------------------


def _and_tree(parts: list[str]) -> str:
    """A balanced conjunction (height grows with the log of the count)."""
    while len(parts) > 1:
        parts = [
            f"AND({parts[i]}, {parts[i + 1]})" if i + 1 < len(parts) else parts[i]
            for i in range(0, len(parts), 2)
        ]
    return parts[0]


def proof_text(premises: list[str], goal: str, lines: list[str]) -> str:
    body = "\n".join(f"{i}. {line}" for i, line in enumerate(lines, start=1))
    return f"PROOF\npremises: {', '.join(premises)}\ngoal: {goal}\n{body}\nEND\n"


def wide_formula(rng: random.Random, constants: int) -> str:
    """One predicate over `constants` distinct constants, in a shape drawn from `rng`."""
    names = [f"c{i}" for i in range(constants)]
    shape = rng.choice(("flat", "function", "conjunction", "chain"))
    if shape == "flat":
        return f"P({', '.join(names)})"
    if shape == "function":
        return f"P({', '.join(f'f({n})' for n in names)})"
    if shape == "conjunction":
        return _and_tree([f"P({n})" for n in names])
    # a chain as deep as the parser allows, each level a wide atom
    depth = 190
    per = max(1, constants // depth)
    formula = f"P({', '.join(names[depth * per :] or ['c'])})"
    for level in range(depth - 1, -1, -1):
        formula = f"AND(P({', '.join(names[level * per : (level + 1) * per])}), {formula})"
    return formula


def wide_proof(rng: random.Random, constants: int) -> str:
    f = wide_formula(rng, constants)
    return proof_text([f], f, [f"{f} [premise]", f"{f} [reit 1]"])


def pigeonhole(holes: int) -> str:
    """NOT(every one of holes+1 pigeons sits in a hole, and no hole holds two)."""
    pigeons = range(holes + 1)
    sits = [_or_chain([f"s{p}h{h}" for h in range(holes)]) for p in pigeons]
    apart = [
        f"NOT(AND(s{p}h{h}, s{q}h{h}))" for h in range(holes) for p, q in combinations(pigeons, 2)
    ]
    return f"NOT({_and_tree(sits + apart)})"


def _or_chain(atoms: list[str]) -> str:
    out = atoms[-1]
    for a in reversed(atoms[:-1]):
        out = f"OR({a}, {out})"
    return out


def many_atom_tautology(rng: random.Random, atoms: int) -> str:
    """A classical tautology over `atoms` letters, in a shape drawn from `rng`."""
    names = [f"p{i}" for i in range(atoms)]
    rng.shuffle(names)
    shape = rng.choice(("member", "excluded", "identity"))
    if shape == "member":
        return f"IMPL({_and_tree(names)}, {rng.choice(names)})"
    body = _or_chain(names)
    if shape == "excluded":
        return f"OR({body}, NOT({body}))"
    return f"IMPL({body}, {body})"


# -- the families -------------------------------------------------------------


def wide(rng: random.Random, constants: int) -> list[Case]:
    proof = wide_proof(rng, constants)
    task = _provable_main_task()
    return [
        Case(
            "wide",
            f"check-wide-{constants}",
            ("check", "--world", "standard", "{dir}/proof.txt"),
            {"proof.txt": proof},
        ),
        Case(
            "wide",
            f"grade-wide-{constants}",
            ("grade", "--world", "main", "--task", task, "{dir}/proof.txt"),
            {"proof.txt": proof},
        ),
    ]


def certify(rng: random.Random, atoms: int, seconds: float = 1.0) -> list[Case]:
    goal = many_atom_tautology(rng, atoms)
    return [
        Case(
            "certify",
            f"certify-{atoms}-atoms",
            (
                "certify",
                "--world",
                "standard",
                "--premises",
                "",
                "--goal",
                goal,
                "--seconds",
                str(seconds),
            ),
            seconds=seconds,
        )
    ]


def prove(holes: int, seconds: float = 1.0) -> list[Case]:
    return [
        Case(
            "prove",
            f"prove-pigeonhole-{holes}",
            (
                "prove",
                "--world",
                "standard",
                "--goal",
                pigeonhole(holes),
                "--seconds",
                str(seconds),
            ),
            seconds=seconds,
        )
    ]


def issue_cases() -> list[Case]:
    """The shapes the review reported: 40,000 constants, 24 atoms, pigeonhole 4 and 5."""
    rng = random.Random(0)
    names = ", ".join(f"c{i}" for i in range(40_000))
    f = f"P({names})"
    proof = proof_text([f], f, [f"{f} [premise]", f"{f} [reit 1]"])
    task = _provable_main_task()
    return [
        Case(
            "wide",
            "check-flat-40000",
            ("check", "--world", "standard", "{dir}/proof.txt"),
            {"proof.txt": proof},
        ),
        Case(
            "wide",
            "grade-flat-40000",
            ("grade", "--world", "main", "--task", task, "{dir}/proof.txt"),
            {"proof.txt": proof},
        ),
        *certify(rng, 24),
        *prove(4),
        *prove(5),
    ]


def generate(seed: int) -> list[Case]:
    rng = random.Random(seed)
    return [
        *wide(rng, rng.choice((20_000, 40_000, 60_000))),
        *certify(rng, rng.randint(16, 30)),
        *prove(rng.choice((4, 5, 6))),
    ]


_TASK: list[str] = []


def _provable_main_task() -> str:
    """The id of a provable task of the main bank (its premises are not the wide proof's)."""
    if not _TASK:
        from alienworlds.tasks.alienlogic_grading import logic_tasks
        from alienworlds.tasks.bank import load_bank

        _TASK.append(next(t.id for t in logic_tasks(load_bank("alienlogic", "main")) if t.provable))
    return _TASK[0]


# -- running ------------------------------------------------------------------


def run_alone(
    case: Case,
    python: str = sys.executable,
    kill_after: float | None = None,
    checkout: str | None = None,
) -> Measured:
    """Run `alienlogic ARGS` for one case in a child process of its own
    (killed after `kill_after` seconds of wall time, exit code -9). With
    `checkout`, the child runs there and imports that checkout's alienlogic
    package first (to measure another version)."""
    with tempfile.TemporaryDirectory() as folder:
        for name, text in case.files.items():
            Path(folder, name).write_text(text, encoding="utf-8")
        args = [a.replace("{dir}", folder) for a in case.args]
        cmd = [python, "-c", "from alienworlds.cli.alienlogic import main; main()", *args]
        start = time.perf_counter()
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            child = subprocess.Popen(
                cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, cwd=checkout
            )
            timer = threading.Timer(kill_after, child.kill) if kill_after else None
            if timer:
                timer.start()
            _, status, usage = os.wait4(child.pid, 0)
            if timer:
                timer.cancel()
            child.returncode = os.waitstatus_to_exitcode(status)
            wall = time.perf_counter() - start
            out.seek(0)
            err.seek(0)
            text = (
                out.read().decode(errors="replace").strip()
                or err.read().decode(errors="replace").strip()
            )
    first = text.splitlines()[0] if text else "(no output)"
    return Measured(
        case.name,
        child.returncode,
        usage.ru_utime + usage.ru_stime,
        wall,
        usage.ru_maxrss / 1024,
        first[:200],
    )
