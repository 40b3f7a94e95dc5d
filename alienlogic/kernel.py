"""The proof checker: steps in order, boxes, citations, rules, world patches.

Each step goes through, in this order: its number; its rule's name; its
place in the box structure; a world rule disabling its inference rule; its
citations (count, kind, reachability); the standard rule, with a world's
`conclusion` patch in place of the standard conclusion; the world's
`require` side conditions in file order. The first failure is the verdict.
Work per step is constant apart from the size of the formulas it touches,
so checking is linear in the length of the proof.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from alienworlds.ruleset.world import World, standard_world

from .boxes import Boxes
from .errors import ProofSyntaxError
from .formulas import BOT, Formula
from .parser import parse_proof
from .patches import Binding, CompiledWorld
from .predicates import StepView
from .proof import Citation, Proof, Step, Theorem
from .rules import BOX, RULES, Ref, StandardRule
from .verdict import PARSE_ERROR, Rejection, Verdict

_WORLDS: dict[str, CompiledWorld] = {}  # by world hash: compile each world once


def compile_world(world: World | CompiledWorld | None) -> CompiledWorld:
    """The compiled form of `world` (None: the standard world); raises WorldError."""
    if isinstance(world, CompiledWorld):
        return world
    if world is None:
        world = standard_world("alienlogic")
    key = world.hash
    compiled = _WORLDS.get(key)
    if compiled is None:
        if len(_WORLDS) > 64:
            _WORLDS.clear()
        compiled = _WORLDS[key] = CompiledWorld(world)
    return compiled


class _ProofState:
    """What the checker knows after the steps so far; one per check."""

    def __init__(self, proof: Proof, binding: Binding, journal: bool = False) -> None:
        self.binding = binding
        self.listed = Counter(proof.premises)
        self.asserted: Counter[Formula] = Counter()
        self.premise_free = frozenset().union(*(f.free for f in proof.premises))
        self.assumption_free: dict[int, tuple[Formula, frozenset[str]]] = {}
        self.boxes = Boxes(journal)
        self.formulas: list[Formula | None] = [None]  # by line number
        self.cited: list[int] = [0]  # times each line was cited
        self.premise_lines: list[bool] = [False]

    # -- ProofContext (what rules may ask) ---------------------------------

    def premise_uses(self, formula: Formula) -> tuple[int, int]:
        listed = self.listed[formula]
        return listed, listed - self.asserted[formula]

    def occurs(self, name: str) -> str | None:
        if name in self.premise_free:
            return "a premise"
        for k in self.boxes.open_assumptions():
            if name in self._assumption_free(k):
                return f"the open assumption on line {k}"
        return None

    def _assumption_free(self, k: int) -> frozenset[str]:
        # kept per line: a node keeps only small sets, and a box may ask
        # about its assumption at every step inside it
        free = self.assumption_free.get(k)
        if free is None or free[0] is not self.formulas[k]:
            free = self.assumption_free[k] = (self.formulas[k], self.formulas[k].free)
        return free[1]

    # -- one step -------------------------------------------------------------

    def take(self, step: Step, n: int) -> None:
        rule = self.place(step, n)
        self.binding.disabled(rule.name)
        refs, derived = self.apply(step, rule, n)
        if self.binding.has_patches(rule.name):
            view = StepView(step.depth, n, step.formula, refs, self.cited, self.premise_lines)
            if self.binding.conclusion(rule.name, view) is None:
                self._conclude(derived, step)
            self.binding.require(rule.name, view)
        else:
            self._conclude(derived, step)
        self._record(step, refs)

    def place(self, step: Step, n: int) -> StandardRule:
        """The checks before a world's rules apply: the number, the rule's name, the boxes."""
        if step.number != n:
            raise Rejection("LINE_NUMBER", f"step {n} is numbered {step.number}")
        rule = RULES.get(step.rule)
        if rule is None:
            raise Rejection("UNKNOWN_RULE", f"there is no rule named {step.rule!r}")
        self.boxes.enter(n, step.depth, step.rule == "assume")
        return rule

    def apply(self, step: Step, rule: StandardRule, n: int) -> tuple[tuple[Ref, ...], object]:
        """The citations and whether the standard rule applies; what it derives."""
        refs = self._resolve(step, rule.citations, n)
        return refs, rule.check(refs, self)

    def _resolve(self, step: Step, kinds: tuple[str, ...], n: int) -> tuple[Ref, ...]:
        cites = step.citations
        if len(cites) != len(kinds):
            want = len(kinds)
            raise Rejection(
                "CITATION_COUNT",
                f"{step.rule} takes {want} citation{'s' if want != 1 else ''}, not {len(cites)}",
            )
        return tuple(self._ref(c, kind, step.rule, n) for c, kind in zip(cites, kinds))

    def _ref(self, c: Citation, kind: str, rule: str, n: int) -> Ref:
        if kind == BOX:
            if not c.is_range:
                raise Rejection(
                    "EXPECTED_RANGE", f"{rule} cites a box as a range a-b, not the line {c}"
                )
            self.boxes.check_range(c.first, c.last, n)
            return Ref(c.first, c.last, self.formulas[c.first], self.formulas[c.last], True)
        if c.is_range:
            raise Rejection("EXPECTED_LINE", f"{rule} cites a single line here, not the range {c}")
        self.boxes.check_line(c.first, n)
        f = self.formulas[c.first]
        return Ref(c.first, c.first, f, f)

    @staticmethod
    def _conclude(derived, step: Step) -> None:
        if isinstance(derived, Formula):
            if derived is not step.formula:
                raise Rejection(
                    "WRONG_CONCLUSION", f"{step.rule} derives {derived} here, not {step.formula}"
                )
        else:
            derived(step.formula)

    def _record(self, step: Step, refs: tuple[Ref, ...]) -> None:
        self.formulas.append(step.formula)
        self.cited.append(0)
        is_premise = step.rule == "premise"
        self.premise_lines.append(is_premise)
        if is_premise:
            self.asserted[step.formula] += 1
        for r in refs:
            self.cited[r.start] += 1
            if r.end != r.start:
                self.cited[r.end] += 1


# Where a step failed in `walk`: before a world's rules apply (so in every
# world), in the standard rule's applicability (in every world that does not
# disable the rule), or only in its standard conclusion (which a world's
# `conclusion` patch replaces).
PLACE, APPLY, CONCLUDE = "place", "apply", "conclude"


@dataclass(frozen=True)
class StepFacts:
    """One step as the checker sees it before any world rule: what a
    hypothesis about a world's patches needs to predict the step's fate."""

    number: int
    rule: str
    view: StepView | None  # None when the step failed at PLACE or APPLY
    failure: Rejection | None  # the standard failure, if any
    stage: str | None  # PLACE, APPLY or CONCLUDE when it failed there


def walk(proof: Proof) -> list[StepFacts]:
    """The steps of a proof checked by the standard rules alone, with the
    view a world's side conditions would get at each step (a snapshot).

    The walk goes on past a step whose only fault is its standard conclusion
    (a world's `conclusion` patch may accept it) and stops at a step that
    fails at PLACE or APPLY, which no world can accept. The checks are
    exactly `check`'s, in the same order.
    """
    state = _ProofState(proof, compile_world(None).bind())
    out: list[StepFacts] = []
    for n, step in enumerate(proof.steps, start=1):
        try:
            rule = state.place(step, n)
        except Rejection as r:
            out.append(StepFacts(n, step.rule, None, r, PLACE))
            break
        try:
            refs, derived = state.apply(step, rule, n)
        except Rejection as r:
            out.append(StepFacts(n, step.rule, None, r, APPLY))
            break
        view = StepView(
            step.depth, n, step.formula, refs, list(state.cited), list(state.premise_lines)
        )
        try:
            state._conclude(derived, step)
            out.append(StepFacts(n, step.rule, view, None, None))
        except Rejection as r:
            out.append(StepFacts(n, step.rule, view, r, CONCLUDE))
        state._record(step, refs)
    return out


def check(
    proof: Proof | str,
    world: World | CompiledWorld | None = None,
    task: Theorem | None = None,
    stop: Callable[[], None] | None = None,
) -> Verdict:
    """Check a proof (or its text) in a world (default: standard).

    With a `task`, the proof's premises (as a multiset) and goal must be the
    task's; when they are not, the steps are not checked. `stop`, called
    before each step, may raise to end the check (a caller's time limit).
    Never raises for any proof otherwise; a malformed world raises WorldError.
    """
    if isinstance(proof, str):
        try:
            proof = parse_proof(proof)
        except ProofSyntaxError as exc:
            where = f"line {exc.line}, column {exc.column}: {exc.message}"
            return Verdict(
                False,
                False,
                False,
                exc.step,
                PARSE_ERROR,
                exc.reason_id,
                0,
                exc.message,
                None,
                where,
            )
    compiled = compile_world(world)
    n_steps = len(proof.steps)
    if task is not None:
        # a proof of another theorem is refused before any step is checked:
        # its steps cannot change the verdict, and checking them is work an
        # answer could make large
        premises_ok, goal_ok = proof.theorem.same_as(task)
        if not (premises_ok and goal_ok):
            reason = "PREMISES_MISMATCH" if not premises_ok else "GOAL_MISMATCH"
            detail = (
                f"the task asks for {_theorem_text(task)}, "
                f"the proof claims {_theorem_text(proof.theorem)}"
            )
            return _rejected(None, Rejection(reason, detail), n_steps, False)
    state = _ProofState(proof, compiled.bind())
    failure: tuple[int, Rejection] | None = None
    for n, step in enumerate(proof.steps, start=1):
        if stop is not None:
            stop()
        try:
            state.take(step, n)
        except Rejection as r:
            failure = (n, r)
            break
    if failure is not None:
        n, r = failure
        rule_name = r.rule_name or proof.steps[n - 1].rule
        return _rejected(n, r, n_steps, False, rule_name)
    last = proof.steps[-1] if proof.steps else None
    if last is None or last.depth != 0 or last.formula is not proof.goal:
        where = (
            "the proof has no steps"
            if last is None
            else f"the last line is {'| ' * last.depth}{last.formula}"
        )
        return _rejected(
            None,
            Rejection(
                "GOAL_NOT_REACHED", f"{where}; it must be the goal {proof.goal} outside every box"
            ),
            n_steps,
            True,
        )
    return Verdict(True, True, True, None, None, None, n_steps)


def _rejected(
    step: int | None, r: Rejection, n_steps: int, passed: bool, rule_name: str | None = None
) -> Verdict:
    return Verdict(
        False, passed, False, step, r.reason_class, r.reason_id, n_steps, r.detail, rule_name
    )


def _theorem_text(t: Theorem) -> str:
    return f"{', '.join(map(str, t.premises)) or '(no premises)'} ⊢ {t.goal}"


class Checker:
    """Check a proof one step at a time, with backtracking.

    For programs that build proofs (the prover): `take` appends a step when
    the checker accepts it and returns None, or returns the Rejection and
    leaves the state unchanged. `snapshot`/`restore` undo accepted steps.
    Exactly the checks of `check` apply, in the same order.
    """

    def __init__(
        self, premises: tuple[Formula, ...], world: World | CompiledWorld | None = None
    ) -> None:
        self.premises = tuple(premises)
        self._state = _ProofState(
            Proof(self.premises, BOT, ()), compile_world(world).bind(), journal=True
        )
        self.steps: list[Step] = []
        self._cites: list[
            tuple[Citation, ...]
        ] = []  # each taken step's citations, to undo their counts

    @property
    def depth(self) -> int:
        return self.steps[-1].depth if self.steps else 0

    def formula(self, line: int) -> Formula:
        return self._state.formulas[line]

    def times_cited(self, line: int) -> int:
        return self._state.cited[line]

    def accessible(self, line: int) -> bool:
        """Whether line `line` may be cited by the next step."""
        boxes = self._state.boxes
        return 1 <= line < len(boxes.box_of) and boxes.boxes[boxes.box_of[line]].open

    def take(
        self,
        formula: Formula,
        rule: str,
        citations: tuple[Citation, ...] = (),
        depth: int | None = None,
    ) -> Rejection | None:
        depth = self.depth if depth is None else depth
        step = Step(len(self.steps) + 1, depth, formula, rule, tuple(citations))
        mark = len(self._state.boxes.journal)
        try:
            # a step is recorded only after every check passed, so a refused
            # step has changed nothing but the boxes
            self._state.take(step, step.number)
        except Rejection as r:
            self._state.boxes.rollback(mark)
            return r
        self.steps.append(step)
        self._cites.append(step.citations)
        return None

    def snapshot(self) -> tuple[int, int]:
        """A point to `restore`: constant work, whatever the proof's length."""
        return len(self.steps), len(self._state.boxes.journal)

    def restore(self, snap: tuple[int, int]) -> None:
        n, mark = snap
        s = self._state
        while len(self.steps) > n:
            step = self.steps.pop()
            for c in self._cites.pop():
                s.cited[c.first] -= 1
                if c.last != c.first:
                    s.cited[c.last] -= 1
            if step.rule == "premise":
                s.asserted[step.formula] -= 1
        del s.formulas[n + 1 :]
        del s.premise_lines[n + 1 :]
        del s.cited[n + 1 :]
        s.boxes.rollback(mark)

    def proof(self, goal: Formula) -> Proof:
        return Proof(self.premises, goal, tuple(self.steps))
