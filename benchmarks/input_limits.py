"""Worst inputs of the command lines: closed and failing standard streams,
generator knobs and seeds out of range, hostile sweep files. Each case runs
in its own process under a CPU cap and an address-space cap; the CPU time
and peak resident memory come from the kernel's accounting of that process
tree (os.wait4). The contract: every case ends with exit 0, 1, 2 or the
stream status 74, a short message and no traceback, under 512 MB and 10 s of
CPU; a row that breaks it is marked BROKEN.

    python benchmarks/input_limits.py                 # every case
    python benchmarks/input_limits.py --only sweep    # the cases whose name contains 'sweep'
    python benchmarks/input_limits.py --cap 30        # CPU seconds before a case is stopped
                                                      (default 30)

Not part of the test suite (tests/cli and tests/sweep hold the generated
worst inputs): the caps make a broken case cost up to --cap seconds.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

MEMORY_BOUND_MB = 512
SECONDS_BOUND = 10.0
ADDRESS_CAP = 3 << 30  # a case that grows past this is stopped (it is BROKEN either way)


@dataclass(frozen=True)
class Case:
    name: str
    args: list[str]  # after the interpreter: ["-m", "alienworlds.cli.aliencode", ...]
    stdin: str = "empty"  # empty | closed | text
    stdout: str = "pipe"  # pipe | closed | full | broken
    text: bytes = b""
    files: tuple[tuple[str, str], ...] = ()  # (name, content) written to the case's folder first


@dataclass(frozen=True)
class Measured:
    name: str
    code: int
    cpu: float
    peak_mb: float
    last_line: str

    @property
    def broken(self) -> bool:
        return (
            self.code not in (0, 1, 2, 74)
            or self.cpu > SECONDS_BOUND
            or self.peak_mb > MEMORY_BOUND_MB
            or "Traceback" in self.last_line
        )


SWEEP_HEAD = 'language = "aliencode"\nagents = ["oracle"]\nconditions = ["direct"]\n'
CODE = ["-m", "alienworlds.cli.aliencode"]
LOGIC = ["-m", "alienworlds.cli.alienlogic"]
PROOF = "PROOF\npremises: p\ngoal: p\n1. p  [premise]\nEND\n"


def cases() -> list[Case]:
    program = b'EMIT("x")\n'
    many = b'SWEEP k IN EXTENT(0, 20000):\n    EMIT("line of output")\n'
    out: list[Case] = []
    for tool, args, text in (
        ("aliencode run", [*CODE, "run", "--world", "standard"], program),
        ("alienlogic check", [*LOGIC, "check", "--world", "standard"], PROOF.encode()),
    ):
        out += [
            Case(f"{tool}: stdin closed", args, stdin="closed"),
            Case(f"{tool}: stdout closed", args, stdin="text", text=text, stdout="closed"),
            Case(f"{tool}: stdout /dev/full", args, stdin="text", text=text, stdout="full"),
            Case(
                f"{tool}: broken pipe",
                args,
                stdin="text",
                text=many if tool == "aliencode run" else text,
                stdout="broken",
            ),
        ]
    generate = [*CODE, "world", "generate", "--out", "gen"]
    out += [
        Case("world generate --renamed 60", [*generate, "--seed", "s", "--renamed", "60"]),
        Case("world generate: a non-UTF-8 seed", [*generate, "--seed", "\udcff\udcfe"]),
        Case("world generate --tasks 300", [*generate, "--seed", "s", "--tasks", "300"]),
        Case(
            "world generate --tasks 100000000", [*generate, "--seed", "s", "--tasks", "100000000"]
        ),
        Case(
            "alienlogic world generate --patches 100000000",
            [*LOGIC, "world", "generate", "--out", "gen", "--seed", "s", "--patches", "100000000"],
        ),
    ]
    sweeps = {
        "sweep: arrays nested 3,000 deep": SWEEP_HEAD
        + 'worlds = ["demo"]\nx = '
        + "[" * 3000
        + "]" * 3000
        + "\n",
        "sweep: a 5,000-digit seed": SWEEP_HEAD + 'worlds = ["demo"]\nseed = 1' + "0" * 4999 + "\n",
        "sweep: trajectories = 100000000": SWEEP_HEAD
        + 'worlds = ["demo"]\ntrajectories = 100000000\n',
        "sweep: passes = 2^63-1": SWEEP_HEAD + f'worlds = ["demo"]\npasses = {2**63 - 1}\n',
        "sweep: generator knob renamed = 60": SWEEP_HEAD
        + 'worlds = [{ seeds = ["s"], knobs = { renamed = 60 } }]\n',
        "sweep: a dotted key of 200,000 parts": SWEEP_HEAD
        + 'worlds = ["demo"]\n'
        + ".".join(["a"] * 200_000)
        + " = 1\n",
    }
    out += [
        Case(
            name,
            [*CODE, "sweep", "sweep.toml", "--out", "out", "--no-progress"],
            files=(("sweep.toml", text),),
        )
        for name, text in sweeps.items()
    ]
    return out


def _limits(cap: float):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(cap), int(cap) + 1))
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_CAP, ADDRESS_CAP))

    return apply


def measure(case: Case, python: str, cap: float) -> Measured:
    with tempfile.TemporaryDirectory() as folder:
        for name, content in case.files:
            Path(folder, name).write_text(content, encoding="utf-8")
        stdin = subprocess.DEVNULL if case.stdin == "closed" else subprocess.PIPE
        stdout, keep = subprocess.PIPE, None
        if case.stdout == "full":
            keep = stdout = open("/dev/full", "wb")  # noqa: SIM115 - closed below
        elif case.stdout == "broken":
            read, write = os.pipe()
            os.close(read)
            keep = stdout = os.fdopen(write, "wb")
        elif case.stdout == "closed":
            stdout = subprocess.DEVNULL
        # a closed stream is made by closing the descriptor in the child just before exec
        closed_fds = [fd for fd, how in ((0, case.stdin), (1, case.stdout)) if how == "closed"]
        limits = _limits(cap)

        def child_setup() -> None:
            limits()
            for fd in closed_fds:
                os.close(fd)

        argv = [
            python,
            *[a.encode("utf-8", "surrogateescape") if isinstance(a, str) else a for a in case.args],
        ]
        process = subprocess.Popen(
            argv,
            stdin=stdin,
            stdout=stdout,
            stderr=subprocess.PIPE,
            cwd=folder,
            preexec_fn=child_setup,
        )
        if process.stdin is not None:
            try:
                process.stdin.write(case.text)
                process.stdin.close()
            except BrokenPipeError:
                pass
        try:
            err = process.stderr.read()
        finally:
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = os.waitstatus_to_exitcode(status)
            if keep is not None:
                keep.close()
            if process.stdout is not None:
                process.stdout.close()
        lines = [line for line in err.decode("utf-8", "replace").splitlines() if line.strip()]
        text = (
            "Traceback: " + lines[-1]
            if any(line.startswith("Traceback") for line in lines)
            else (lines[-1] if lines else "")
        )
        return Measured(
            case.name,
            process.returncode,
            usage.ru_utime + usage.ru_stime,
            usage.ru_maxrss / 1024,
            text[:160],
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", default="", help="run the cases whose name contains this text")
    parser.add_argument(
        "--cap", type=float, default=30.0, help="CPU seconds before a case is stopped"
    )
    parser.add_argument(
        "--python", default=sys.executable, help="the interpreter whose alienworlds is measured"
    )
    args = parser.parse_args()
    broken = 0
    print(f"{'case':<48} {'exit':>5} {'CPU s':>7} {'peak MB':>8}  last line of standard error")
    for case in cases():
        if args.only not in case.name:
            continue
        found = measure(case, args.python, args.cap)
        broken += found.broken
        mark = "  BROKEN" if found.broken else ""
        print(
            f"{found.name:<48} {found.code:>5} {found.cpu:>7.2f} {found.peak_mb:>8.0f}  "
            f"{found.last_line}{mark}",
            flush=True,
        )
    print(
        f"{broken} broken (bounds: exit 0/1/2/74, no traceback, {MEMORY_BOUND_MB} MB, "
        f"{SECONDS_BOUND:.0f} s CPU)"
    )


if __name__ == "__main__":
    main()
