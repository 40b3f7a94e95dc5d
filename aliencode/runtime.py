"""Run compiled AlienCode programs and report results the way the tool does.

Everything a program can raise ends here as an AlienError with a position:
language errors from checked operations (prefixed with the operation's
surface name), limit overruns, and the few host errors generated code itself
can raise (an unknown name, calling a non-function, unpacking). Positions are
read from the innermost generated frame of the traceback. Nothing of the host
(paths, tracebacks, addresses) reaches the output.
"""

from __future__ import annotations

import dis
import re
import sys
import threading
from dataclasses import dataclass, field
from functools import partial
from inspect import CO_OPTIMIZED
from types import TracebackType

from alienworlds.ruleset import LanguageError, Meter

from .compiler import FILENAME, PREFIX, Program
from .errors import NAME_CHARS, AlienError, short
from .native import SUM
from .operations import build
from .run_meter import RunMeter


@dataclass(eq=False)
class RunResult:
    output: str
    error: AlienError | None
    steps: int
    # The probe units of the program run, or the program, counted when first
    # asked: counting walks the whole tree, and a grader never asks.
    _units: int | Program = field(default=0, repr=False)

    @property
    def units(self) -> int:
        if not isinstance(self._units, int):
            self._units = self._units.units
        return self._units

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RunResult):
            return NotImplemented
        return (self.output, self.error, self.steps, self.units) == (
            other.output,
            other.error,
            other.steps,
            other.units,
        )

    def __repr__(self) -> str:
        return (
            f"RunResult(output={self.output!r}, error={self.error!r}, steps={self.steps}, "
            f"units={self.units})"
        )

    def as_dict(self) -> dict[str, object]:
        return {
            "output": self.output,
            "error": self.error.as_dict() if self.error else None,
            "steps": self.steps,
            "units": self.units,
        }

    def text(self) -> str:
        """What the tool prints: the output, then the error line if any."""
        if self.error is None:
            return self.output
        return f"{self.output}\n{self.error}" if self.output else str(self.error)


@dataclass
class Session:
    """One namespace across several programs (the REPL, a grader's calls).

    Each `execute` starts a fresh step budget and output; definitions and
    variables persist.
    """

    limits: object = None
    meter: Meter = field(init=False)
    output: list[str] = field(init=False, default_factory=list)
    namespace: dict[str, object] = field(init=False)
    base: object = field(init=False, repr=False)

    def __post_init__(self) -> None:
        from alienworlds.ruleset import Limits

        self.meter = RunMeter(self.limits or Limits())
        self.base = self.meter.limits  # a run's max_steps lowers these for that run only
        self.namespace = build(self.meter, self.output)
        self.meter.roots = partial(_roots, self.namespace)

    def close(self) -> None:
        """Drop the namespace; a closed session runs nothing more. A run's
        functions and its namespace refer to each other (and the meter, which
        the operators hold, to the namespace): cleared, they are freed at once
        rather than left to the host's cycle collector, whose full passes took
        a fifth of a world check that runs thousands of short sessions."""
        self.namespace.clear()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def execute(
        self, program: Program, deadline: float | None = None, max_steps: int | None = None
    ) -> RunResult:
        """Run `program`; the wall-clock backstop runs until `deadline` (a
        time.monotonic() value; default: the limits' wall clock from now).
        `max_steps` lowers this run's step limit (a grader's answer budget)."""
        limits = self.base
        self.meter.limits = (
            limits
            if max_steps is None
            else limits.replace(max_steps=min(max_steps, limits.max_steps))
        )
        self.meter.reset(deadline)
        self.output.clear()
        for name, rule in program.rules.items():
            self.namespace[name] = rule.bind(self.namespace)
        error = _run(program, self.namespace, self.meter)
        return RunResult("".join(self.output).rstrip(), error, self.meter.steps, program)


def execute(program: Program) -> RunResult:
    """Run a program once in a fresh namespace."""
    with Session(program.limits) as session:
        return session.execute(program)


def _roots(namespace: dict[str, object]) -> list[object]:
    """What a running program can reach (for the memory census): its
    variables, and the locals of its active calls (generated frames) but
    the native sums' temporary (native.py, `sum_form`)."""
    values = [value for name, value in namespace.items() if name.startswith(PREFIX)]
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if code.co_filename == FILENAME and code.co_flags & CO_OPTIMIZED:
            local = frame.f_locals
            values.extend(value for name, value in local.items() if name != SUM)
            if type(local) is dict:
                local.clear()  # the host's snapshot of the locals would keep old values alive
        frame = frame.f_back
    return values


# Host frames one call level of a program can hold: the generated function,
# the helpers between it and the next call (a rule's function, STRAIN's
# filter and its predicate, a census, an error being built) and, per level of
# nesting, a short-circuit rule's function with the thunk it forces.
FRAMES_PER_CALL = 32
FRAMES_PER_NESTING = 4
FRAMES_AROUND = 200  # the run's own frames (exec, the top level, a census from it)


def host_frames(program: Program) -> int:
    """Host frames a run of `program` may hold at most: the language's call
    depth limit is always met before the host's recursion limit (set this
    far above the caller's depth), so where a deep program stops, and its
    steps and output, do not depend on how deep the caller's stack is."""
    per_level = FRAMES_PER_CALL + FRAMES_PER_NESTING * program.nesting
    return (program.limits.max_depth + 2) * per_level + FRAMES_AROUND


def _stack_depth() -> int:
    depth, frame = 0, sys._getframe(1)
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return depth


class _RecursionLimit:
    """Raise the host's recursion limit (one for the whole process) for a
    run, and give the old one back when no run of any thread needs more."""

    lock = threading.Lock()
    active = 0
    restore = 0

    def __init__(self, needed: int) -> None:
        self.needed = needed

    def __enter__(self) -> None:
        cls = type(self)
        with cls.lock:
            if cls.active == 0:
                cls.restore = sys.getrecursionlimit()
            cls.active += 1
            if self.needed > sys.getrecursionlimit():
                sys.setrecursionlimit(self.needed)

    def __exit__(self, *_exc: object) -> None:
        cls = type(self)
        with cls.lock:
            cls.active -= 1
            if cls.active == 0:
                sys.setrecursionlimit(cls.restore)


def _run(program: Program, namespace: dict[str, object], meter: Meter) -> AlienError | None:
    with _RecursionLimit(_stack_depth() + host_frames(program)):
        try:
            exec(program.code, namespace)  # noqa: S102 - code compiled from our own AST (compiler.py)
        except BaseException as exc:  # every failure becomes an AlienError; see module docstring
            if isinstance(exc, KeyboardInterrupt):
                raise
            return to_alien_error(exc, program)
    return None


def _position(tb: TracebackType | None, skip: int = 0) -> tuple[int | None, int | None, bool]:
    """Line and column of the innermost generated frame (after skipping
    `skip` of them), and whether generated code itself raised."""
    frames = []
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == FILENAME:
            frames.append(tb)
        last = tb
        tb = tb.tb_next
    if len(frames) > skip:
        found = frames[-1 - skip]
        innermost = found is last
    else:
        found = None
    if found is None:
        return None, None, False
    positions = list(found.tb_frame.f_code.co_positions())
    index = found.tb_lasti // 2
    if 0 <= index < len(positions):
        line, _, col, _ = positions[index]
        if line is not None:
            return line, (col + 1 if col is not None else None), innermost
    return found.tb_lineno, None, innermost


def _in_native_sum(tb: TracebackType | None) -> bool:
    """Whether the innermost frame failed in a native sum's host operator
    (native.py, `sum_form`): its result is stored next into SUM."""
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return False
    following = [i for i in dis.get_instructions(tb.tb_frame.f_code) if i.offset > tb.tb_lasti]
    return any(i.opname.startswith("STORE_") and i.argval == SUM for i in following[:2])


_PY_TYPES = {
    "int": "int",
    "float": "float",
    "str": "str",
    "bool": "bool",
    "list": "list",
    "tuple": "tuple",
    "NoneType": "none",
    "function": "function",
}


def _plain(message: str) -> str:
    """A host message about generated code, in the language's own words."""
    # Names are cut short first: messages stay small, and no pattern below
    # backtracks through a name of a million characters.
    message = re.sub(rf"\w{{{NAME_CHARS + 1},}}", lambda m: short(m.group()), message)
    message = re.sub(r"\b" + PREFIX + r"(\w+)", r"\1", message)
    message = re.sub(
        r"'?\b(\w+)'? object", lambda m: f"{_PY_TYPES.get(m.group(1), 'value')} value", message
    )
    message = message.replace("positional argument", "argument")
    # Generated functions take the call depth as a hidden first argument.
    message = re.sub(
        r"\b([\w…]+)\(\) takes (\d+) arguments? but (\d+) (?:was|were) given",
        lambda m: _takes(m.group(1), int(m.group(2)) - 1, int(m.group(3)) - 1),
        message,
    )
    return message


def _takes(name: str, want: int, given: int) -> str:
    return (
        f"{short(name)}() takes {want} argument{'' if want == 1 else 's'} "
        f"but {given} {'was' if given == 1 else 'were'} given"
    )


_KNOWN_HOST_MESSAGES = (
    re.compile(r"\w+ value is not callable"),
    re.compile(r"[\w…]+\(\) takes \d+ arguments? but \d+ (was|were) given"),
    re.compile(r"[\w…]+\(\) missing \d+ required arguments?: .*"),
    re.compile(r"cannot unpack non-iterable \w+ value"),
    re.compile(r"(too many|not enough) values to unpack \(expected \d+(, got \d+)?\)"),
)


def _native_operand_message(message: str) -> str:
    """A native operator's TypeError (see inline.py), in the language's words."""

    def kind(py: str) -> str:
        return _PY_TYPES.get(py, "value")

    m = re.search(r"not supported between instances of '(\w+)' and '(\w+)'", message)
    if m:
        return f"cannot compare {kind(m.group(1))} and {kind(m.group(2))}"
    m = re.search(r"unsupported operand type\(s\) for .+: '(\w+)' and '(\w+)'", message)
    if m:
        return f"unsupported operand types: {kind(m.group(1))} and {kind(m.group(2))}"
    m = re.search(r'can only concatenate (\w+) \(not "(\w+)"\) to \w+', message)
    if m:
        return f"unsupported operand types: {kind(m.group(1))} and {kind(m.group(2))}"
    return "invalid operands"


def to_alien_error(exc: BaseException, program: Program) -> AlienError:
    # A call-depth overrun is detected in the callee's prologue; report the call.
    deep = isinstance(exc, LanguageError) and exc.message.startswith("call depth")
    line, column, from_generated = _position(exc.__traceback__, 1 if deep else 0)
    if isinstance(exc, LanguageError):
        message = exc.message
        if exc.kind != "LimitExceeded" and (line, column) in program.op_sites:
            message = f"{program.op_sites[(line, column)]}: {message}"
        return AlienError(exc.kind, message, line, column)
    if isinstance(exc, OverflowError):
        # (from a native operator, see inline.py; checked operators raise LanguageError)
        message = (
            "integer too large to convert to a float"
            if "too large to convert" in str(exc)
            else "numeric result out of range"
        )
        if from_generated and (line, column) in program.op_sites:
            message = f"{program.op_sites[(line, column)]}: {message}"
        return AlienError("OverflowError", message, line, column)
    if from_generated and isinstance(exc, TypeError) and _in_native_sum(exc.__traceback__):
        # what `add` and `sub` raise, wherever the program defining the sum was compiled
        message = _native_operand_message(str(exc))
        if (line, column) in program.op_sites:
            message = f"{program.op_sites[(line, column)]}: {message}"
        return AlienError("TypeError", message, line, column)
    if from_generated and isinstance(exc, TypeError) and (line, column) in program.op_sites:
        return AlienError(
            "TypeError",
            f"{program.op_sites[(line, column)]}: {_native_operand_message(str(exc))}",
            line,
            column,
        )
    if from_generated and isinstance(exc, IndexError):
        # a native `get` (native.py) out of range: what the operator reports
        message = "index out of range"
        if (line, column) in program.op_sites:
            message = f"{program.op_sites[(line, column)]}: {message}"
        return AlienError("IndexError", message, line, column)
    if isinstance(exc, RecursionError):
        return AlienError(
            "LimitExceeded", f"call depth of {program.limits.max_depth}", line, column
        )
    if isinstance(exc, MemoryError):
        return AlienError("LimitExceeded", "memory", line, column)
    if from_generated and isinstance(exc, NameError):
        match = re.search(r"'(\w+)'", str(exc))
        name = getattr(exc, "name", None) or (match.group(1) if match else "?")
        name = short(name[len(PREFIX) :] if name.startswith(PREFIX) else name)
        if isinstance(exc, UnboundLocalError):
            return AlienError(
                "NameError", f"local name '{name}' is used before it is set", line, column
            )
        return AlienError("NameError", f"name '{name}' is not defined", line, column)
    if from_generated and isinstance(exc, (TypeError, ValueError)):
        message = _plain(str(exc))
        if any(p.fullmatch(message) for p in _KNOWN_HOST_MESSAGES):
            message = message.replace("is not callable", "is not a function")
            return AlienError(type(exc).__name__, message, line, column)
        return AlienError(type(exc).__name__, "invalid operation", line, column)
    # Anything else is a bug of ours; report it without host detail.
    return AlienError(
        "InternalError",
        f"the interpreter failed ({type(exc).__name__}); please report this program",
        line,
        column,
    )
