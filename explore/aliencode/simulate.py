"""Run a program under candidate rules, recording every rule call.

A candidate world has one rule per template slot, in the template's order and
with the slot's scope, so the interpreter picks the rule of each call site
exactly as the real world does. The program is compiled once with
`inline=False` (every rule, literal rules included, is called at run time), and
each run binds the chosen hypotheses' compiled functions, wrapped to record
the operands of each call (copied, so later in-place changes do not reach
them). A run given the output it must reproduce stops as soon as what it has
printed can no longer lead there.

A slot whose hypothesis is the manual's expression runs that expression as a
rule (never the interpreter's built-in path), so it is recorded like any
other; both give the same outputs (tests/explore/test_simulate.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from alienworlds.episode.protocol import TRUNCATION_NOTE, cap_feedback
from alienworlds.ruleset import compile_rule
from alienworlds.ruleset.compile import CompiledRule
from alienworlds.ruleset.world import Rule

from aliencode import AlienSyntaxError, Limits, parse
from aliencode import syntax as s
from aliencode.compiler import PREFIX, Context, compile_program
from aliencode.runtime import Session
from aliencode.sites import LAZY_OPERAND, SITES
from aliencode.walk import sites_in

from .evaluate import UNFORCED, freeze, snapshot
from .space import standard_text
from .view import Slot, View

NO_OUTPUT = "(no output)"
_LITERALS = {
    s.IntLit: "literal.int",
    s.FloatLit: "literal.float",
    s.StrLit: "literal.str",
    s.BoolLit: "literal.bool",
}


# What one simulated run may cost. A probe of 5 units can still loop long
# (units count printing only); the engine simulates it under many candidate
# worlds, so a run over these bounds marks its observation too costly to
# explain (set aside) instead of letting one hostile trace take hours. Steps,
# not seconds: the same trace is scored alike on any machine.
SIM_STEPS = 100_000  # interpreter steps per simulated run
CASES_PER_SLOT = 256  # distinct operand cases recorded per slot and run


class _Abort(Exception):
    """The run can no longer print the expected output, or costs too much."""


@dataclass(frozen=True)
class Expected:
    """What a run must show (`shown`), its visible text before any
    truncation note, and whether it was cut."""

    shown: str
    text: str
    cut: bool

    @classmethod
    def tool(cls, feedback: str) -> Expected:
        note = "\n" + TRUNCATION_NOTE
        if feedback.endswith(note):
            return cls(feedback, feedback[: -len(note)], True)
        return cls(feedback, feedback, False)

    @classmethod
    def exact(cls, output: str) -> Expected:
        return cls(output, output, False)


@dataclass
class Run:
    text: str  # what the tool would show (capped for tool observations)
    calls: dict[int, list[tuple]]  # slot -> distinct operand cases, in order of first call
    keys: dict[int, list[tuple]]  # their frozen keys
    order: list[int]  # slots in order of their first call
    aborted: bool = False
    steps: int = 0  # interpreter steps the run took
    costly: bool = False  # over SIM_STEPS or CASES_PER_SLOT: the run says nothing about the world


@dataclass
class Prepared:
    """A program parsed once, with the slots its text can reach."""

    source: str
    tree: s.Program | None
    error: str | None  # a syntax error: the output does not depend on any rule
    relevant: tuple[int, ...] = ()  # slots whose site occurs in the text
    programs: dict[tuple, object] = field(default_factory=dict)


def slot_at(slots: list[Slot], site: str, ctx: Context) -> int | None:
    """The slot whose rule applies to `site` at a place (first match wins)."""
    for index, slot in enumerate(slots):
        if slot.site == site and ctx.matches(slot.scope):
            return index
    return None


def places(tree: s.Program) -> list[tuple[object, Context]]:
    """Every site-bearing node with the place it stands in, as the compiler
    sees places (a CRAFT body starts outside any loop)."""
    out: list[tuple[object, Context]] = []
    stack: list[tuple[object, Context]] = [(n, Context()) for n in reversed(tree.body)]
    while stack:
        node, ctx = stack.pop()
        if isinstance(node, (s.OpCall, s.Sweep)) or type(node) in _LITERALS:
            out.append((node, ctx))
        if isinstance(node, s.Craft):
            inner = Context(True, False)
            stack.extend((c, inner) for c in reversed(node.body))
        elif isinstance(node, s.Sweep):
            body = Context(ctx.in_function, True, ctx.loops + 1)
            stack.extend((c, body) for c in reversed(node.body))
            stack.append((node.iterable, ctx))
        elif isinstance(node, s.While):
            body = Context(ctx.in_function, True, ctx.loops + 1)
            stack.extend((c, body) for c in reversed(node.body))
            stack.append((node.cond, ctx))
        else:
            stack.extend((c, ctx) for c in reversed(s.children(node)))
    return out


def site_of(node: object) -> str:
    if isinstance(node, s.OpCall):
        return node.op
    if isinstance(node, s.Sweep):
        return "SWEEP"
    return _LITERALS[type(node)]


class _Recorder:
    """One run's record of rule calls, and its watch on the output."""

    def __init__(self, session: Session, expected: Expected | None) -> None:
        self.session = session
        self.expected = expected
        self.calls: dict[int, list[tuple]] = {}
        self.keys: dict[int, list[tuple]] = {}
        self.seen: dict[int, set[tuple]] = {}
        self.order: list[int] = []
        self.checked_parts = 0
        self.printed = ""
        self.settled = False
        self.aborted = False
        self.costly = False

    def record(self, slot: int, case: tuple) -> None:
        key = tuple(freeze(v) for v in case)
        seen = self.seen.get(slot)
        if seen is None:
            seen = self.seen[slot] = set()
            self.calls[slot], self.keys[slot] = [], []
            self.order.append(slot)
        if key not in seen:
            if len(seen) >= CASES_PER_SLOT:
                self.costly = True
                self._abort()
            seen.add(key)
            self.calls[slot].append(case)
            self.keys[slot].append(key)

    def check(self) -> None:
        """Stop the run when what it printed can no longer become the
        expected text (trailing white space is removed only at the end, so
        the printed text counts without it)."""
        if self.expected is None or self.settled:
            return
        parts = self.session.output
        if len(parts) == self.checked_parts:
            return
        self.printed += "".join(parts[self.checked_parts :])
        self.checked_parts = len(parts)
        head, want = self.printed.rstrip(), self.expected.text
        if self.expected.cut and head.startswith(want):
            self.settled = True  # everything visible was printed; the rest was cut
        elif not want.startswith(head):
            self._abort()

    def _abort(self) -> None:
        self.aborted = True
        raise _Abort()


class _Stand:
    """A slot's rule for one run: the hypothesis's bound function, recorded."""

    def __init__(self, fn: object, slot: int, lazy: bool, recorder: _Recorder) -> None:
        self.fn, self.slot, self.lazy, self.recorder = fn, slot, lazy, recorder

    def bind(self, namespace: dict) -> object:
        fn, recorder, slot = self.fn, self.recorder, self.slot
        if self.lazy:

            def lazy_call(a, thunk):
                recorder.check()
                cell = [UNFORCED]

                def forced():
                    value = thunk()
                    cell[0] = snapshot(value)
                    return value

                first = snapshot(a)
                try:
                    return fn(a, forced)
                finally:
                    recorder.record(slot, (first, cell[0]))

            return lazy_call

        def call(*args):
            recorder.check()
            recorder.record(slot, tuple(snapshot(v) for v in args))
            return fn(*args)

        return call


class Simulator:
    """Runs programs under assignments of hypotheses to the template's slots."""

    def __init__(self, view: View, limits: Limits | None = None) -> None:
        self.view = view
        self.slots = view.slots
        self.limits = limits or Limits(max_steps=SIM_STEPS)
        self._compiled: dict[tuple[str, str], CompiledRule] = {}
        self._session: Session | None = None
        self._bound: dict[tuple[str, str], object] = {}

    def prepare(self, source: str) -> Prepared:
        try:
            tree = parse(source, self.view.keywords, self.limits)
        except AlienSyntaxError as exc:
            return Prepared(source, None, str(exc))
        used = sites_in(tree)
        relevant = tuple(i for i, slot in enumerate(self.slots) if slot.site in used)
        return Prepared(source, tree, None, relevant)

    def rule(self, site: str, text: str) -> CompiledRule:
        key = (site, text)
        found = self._compiled.get(key)
        if found is None:
            lazy = frozenset({LAZY_OPERAND[site]}) if site in LAZY_OPERAND else frozenset()
            found = self._compiled[key] = compile_rule(text, SITES[site].operands, lazy=lazy)
        return found

    def _fresh_session(self) -> Session:
        """The simulator's one session, emptied of the last run's names (its
        operators and the bound rules are kept: building them is most of
        what a tiny run costs)."""
        if self._session is None:
            self._session = Session(self.limits)
        namespace = self._session.namespace
        for name in [n for n in namespace if n.startswith(PREFIX)]:
            del namespace[name]
        return self._session

    def _function(self, site: str, text: str, session: Session) -> object:
        key = (site, text)
        fn = self._bound.get(key)
        if fn is None:
            fn = self._bound[key] = self.rule(site, text).bind(session.namespace)
        return fn

    def _program(self, prepared: Prepared):
        key = ()
        program = prepared.programs.get(key)
        if program is None:
            rules = tuple(
                Rule(
                    id=slot.id,
                    name=slot.id,
                    target=slot.site,
                    actual=standard_text(slot.site),
                    scope=slot.scope,
                )
                for slot in self.slots
            )
            try:
                program = compile_program(
                    prepared.tree, self.view.world(rules), self.limits, inline=False
                )
            except AlienSyntaxError as exc:
                program = exc
            prepared.programs[key] = program
        return program

    def run(
        self,
        prepared: Prepared,
        texts: dict[int, str],
        expected: Expected | None = None,
        tool: bool = True,
    ) -> Run:
        """Run with slot -> hypothesis text (slots not given: the manual's)."""
        if prepared.tree is None:
            return Run(prepared.error or "", {}, {}, [])
        program = self._program(prepared)
        if isinstance(program, AlienSyntaxError):
            return Run(str(program), {}, {}, [])
        session = self._fresh_session()
        recorder = _Recorder(session, expected)
        rules = {}
        for name in program.rules:
            index = int(name.removeprefix("_w_"))
            slot = self.slots[index]
            text = texts.get(index, standard_text(slot.site))
            rules[name] = _Stand(
                self._function(slot.site, text, session), index, slot.site in LAZY_OPERAND, recorder
            )
        original = program.rules
        program.rules = rules
        try:
            result = session.execute(program)
        finally:
            program.rules = original
        text = result.text()
        if tool:
            text = cap_feedback(text if text else NO_OUTPUT)
        costly = recorder.costly or result.steps >= self.limits.max_steps
        return Run(
            text,
            recorder.calls,
            recorder.keys,
            recorder.order,
            recorder.aborted,
            result.steps,
            costly,
        )
