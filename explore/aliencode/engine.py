"""The hypothesis engine: every rule's surviving hypotheses, observation by observation.

Each slot of the rule-report template (a rule id: a site and a scope) starts
with its site's hypothesis space (`space`). An observation is a program and the
text this world showed for it (a worked example's output, or a probe's capped
feedback). The engine explains it by running the program under candidate
assignments of hypotheses to the slots its text can reach, recording every
rule call (`simulate`):

* a run with one hypothesis per slot records the operands each slot was
  called with; every hypothesis whose outcomes on those operands equal the
  one run's (`evaluate`) would run the program identically, so one run
  decides a whole box of combinations (the product of those groups);
* the rest of the product is split into boxes and explained in turn, so the
  runs number the distinct executions, not the combinations. A run that has
  printed something the observation did not show stops there, deciding every
  combination of the slots it had not reached yet.

The boxes whose output matches are kept with the observation. A hypothesis
survives while some kept box of every observation holds it together with
surviving hypotheses of the other slots (the joint constraints are enforced
pairwise through the boxes until nothing changes). An observation whose
explanation needs more runs than the budget waits (`pending`) and is tried
again whenever its slots' survivors shrink; one that no surviving
combination explains (its truth lies outside the space) is set aside
(`unexplained`) and changes nothing; so is one whose explanation would cost
more than `Budget` allows (`costly`: steps, evaluations and runs, never
seconds).

Mass: each hypothesis has a prior weight (space.py); a slot's surviving mass
is the sum over its survivors; the joint mass H is the product over slots. A
probe's information is log2(H before / H after).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from alienworlds.ruleset.world import Rule, World

from .evaluate import UNKNOWN
from .simulate import (
    CASES_PER_SLOT,
    SIM_STEPS,
    Expected,
    Prepared,
    Run,
    Simulator,
    places,
    site_of,
    slot_at,
)
from .space import DEFAULT_BOUNDS, SPACE_VERSION, Bounds, Space, sample_pool, site_space
from .view import View

ENGINE_NAME = "aliencode-hypotheses"
ENGINE_VERSION = f"{SPACE_VERSION}.3"
CLASS_POOL = 160  # sample cases that tell hypotheses' behaviours apart (classes, resolution)


@dataclass(frozen=True)
class Budget:
    first: int = 300  # runs to explain an observation at a first try
    observe: int = 3000  # runs for an observation still waiting when nothing else can be learned
    predict: int = 400  # runs to predict the outcomes of one candidate probe
    # Work is interpreter steps plus hypothesis outcomes evaluated on recorded
    # operands. A 48-probe trace on the main world takes about 17,000 runs and
    # 1.5 million units of work in all, two thirds of it for the worked examples.
    # work for one attempt at one observation (over it: costly, set aside) or one prediction
    steps: int = 2_000_000
    # Each observation has its own account over all its attempts, so what one
    # observation costs (a worked example waiting for probes, a hostile loop)
    # never takes what another needs: a trace's cost is bounded by its number
    # of observations (the protocol bounds the calls), and each observation is
    # judged alike whatever came before it.
    runs_each: int = 12_000  # runs for one observation over all its attempts (over them: costly)
    work_each: int = 4_000_000  # work for one observation over all its attempts (over it: costly)

    def as_dict(self) -> dict[str, int]:
        return {
            "runs_first_try": self.first,
            "runs_per_observation": self.observe,
            "runs_per_prediction": self.predict,
            "work_per_attempt": self.steps,
            "runs_each_observation": self.runs_each,
            "work_each_observation": self.work_each,
            "steps_per_run": SIM_STEPS,
            "cases_per_slot": CASES_PER_SLOT,
        }


class TooCostly(Exception):
    """Explaining an observation would cost more than the engine spends on one."""


@dataclass
class Leaf:
    groups: dict[int, tuple[int, ...]]
    text: str
    consistent: bool


@dataclass
class Observation:
    source: str
    expected: Expected
    tool: bool
    prepared: Prepared
    status: str = "pending"  # explained | pending | unexplained | costly | silent
    boxes: list[dict[int, frozenset[int]]] = field(default_factory=list)
    sizes: tuple[int, ...] = ()  # survivors per relevant slot when last attempted
    full: bool = False  # the last attempt had the whole budget
    redundant: bool | None = None
    touched: tuple[int, ...] = ()
    runs: int = 0  # runs spent on it over all attempts
    work: int = 0  # work spent on it over all attempts


@dataclass(frozen=True)
class Step:
    """What one observation did to the joint hypothesis mass."""

    before: float
    after: float
    bits: float
    eliminated: int  # hypotheses eliminated (all slots)
    redundant: (
        bool | None
    )  # every surviving combination predicted the output (None: not yet explained)
    status: str
    targets: tuple[str, ...]  # rule ids whose rules the program called


class Engine:
    def __init__(
        self, view: View, bounds: Bounds = DEFAULT_BOUNDS, budget: Budget = Budget(), limits=None
    ) -> None:
        self.view = view
        self.slots = view.slots
        self.bounds = bounds
        self.budget = budget
        self.sim = Simulator(view, limits)
        self.spaces: list[Space] = [site_space(slot.site, bounds) for slot in self.slots]
        self.order = [
            tuple(sorted(range(len(sp)), key=lambda h, sp=sp: (-sp.weights[h], h)))
            for sp in self.spaces
        ]
        self.alive: list[frozenset[int]] = [frozenset(range(len(sp))) for sp in self.spaces]
        self.observations: list[Observation] = []
        self._signatures: dict[tuple[str, int], tuple] = {}
        self._runs_seen: dict[tuple, dict[int, tuple]] = {}
        self.runs = 0
        self.evaluations = 0  # hypothesis outcomes computed on recorded operands
        self.work = 0  # steps and evaluations, predictions included

    def fork(self) -> Engine:
        """An engine in the same state that learns on its own (the spaces,
        the simulator and the caches are shared)."""
        other = Engine.__new__(Engine)
        other.__dict__.update(self.__dict__)
        other.alive = list(self.alive)
        other.observations = [replace(o, boxes=list(o.boxes)) for o in self.observations]
        return other

    # -- description -------------------------------------------------------------

    def describe(self) -> dict[str, object]:
        return {
            "name": ENGINE_NAME,
            "version": ENGINE_VERSION,
            "bounds": {
                **self.bounds.as_dict(),
                **self.budget.as_dict(),
                "hypotheses": sum(len(sp) for sp in self.spaces),
            },
        }

    # -- masses --------------------------------------------------------------------

    def slot_mass(
        self, slot: int, members: frozenset[int] | tuple[int, ...] | None = None
    ) -> float:
        weights = self.spaces[slot].weights
        return sum(weights[h] for h in (self.alive[slot] if members is None else members))

    def joint_mass(self) -> float:
        return math.prod(self.slot_mass(k) for k in range(len(self.slots)))

    def survivors(self) -> int:
        return sum(len(a) for a in self.alive)

    # -- observing -----------------------------------------------------------------

    def observe(self, source: str, shown: str, tool: bool = True) -> Step:
        """Learn from a program and what this world showed for it (`tool`:
        the probe tool's capped feedback; else the exact output)."""
        before, count = self.joint_mass(), self.survivors()
        prepared = self.sim.prepare(source)
        expected = Expected.tool(shown) if tool else Expected.exact(shown)
        obs = Observation(source, expected, tool, prepared)
        self.observations.append(obs)
        if prepared.tree is None or not prepared.relevant:
            obs.status, obs.redundant = "silent", True
        else:
            obs.touched = tuple(self._map_run(prepared, tool).order)
            self._attempt(obs)
            self._settle()
        after = self.joint_mass()
        bits = math.log2(before / after) if after > 0 and before > 0 else 0.0
        return Step(
            before,
            after,
            max(0.0, bits),
            count - self.survivors(),
            obs.redundant,
            obs.status,
            tuple(self.slots[k].id for k in obs.touched),
        )

    def _map_run(self, prepared: Prepared, tool: bool) -> Run:
        texts = {
            k: self.spaces[k]
            .hypotheses[self.order[k][0] if not self.alive[k] else self._first(k)]
            .text
            for k in prepared.relevant
        }
        return self.sim.run(prepared, texts, None, tool)

    def _first(self, slot: int) -> int:
        alive = self.alive[slot]
        return next(h for h in self.order[slot] if h in alive)

    def _domains(self, prepared: Prepared) -> dict[int, tuple[int, ...]]:
        return {k: tuple(h for h in self.order[k] if h in self.alive[k]) for k in prepared.relevant}

    def _attempt(self, obs: Observation, full: bool = False) -> None:
        domains = self._domains(obs.prepared)
        obs.sizes, obs.full = tuple(len(d) for d in domains.values()), full
        budget = self.budget
        left = budget.runs_each - obs.runs
        allowed = min(left, budget.observe if full else budget.first)
        started, worked = self.runs, self.work
        try:
            if left <= 0 or obs.work >= budget.work_each:
                raise TooCostly()
            leaves = self.explain(
                obs.prepared,
                domains,
                obs.expected,
                obs.tool,
                allowed,
                min(budget.steps, budget.work_each - obs.work),
            )
        except TooCostly:
            obs.status = "costly"  # set aside for good: it changes nothing and is never retried
            return
        finally:
            obs.runs += self.runs - started
            obs.work += self.work - worked
        if leaves is None:
            # over the attempt's runs: it waits, unless its own account is spent
            obs.status = "costly" if obs.runs >= budget.runs_each else "pending"
            return
        boxes = [
            {k: frozenset(g) for k, g in leaf.groups.items()} for leaf in leaves if leaf.consistent
        ]
        if not boxes:
            obs.status = "unexplained"
            return
        obs.status, obs.boxes = "explained", boxes
        obs.redundant = all(leaf.consistent for leaf in leaves)

    def _settle(self) -> None:
        """Enforce every kept observation until nothing changes; retry the
        pending ones whose slots have fewer survivors than when tried (at
        first with the small budget; with the whole one when nothing else
        is left to learn)."""
        while True:
            changed = self._project()
            retried = False
            for obs in self.observations:
                if obs.status == "pending":
                    sizes = tuple(len(self.alive[k]) for k in obs.prepared.relevant)
                    if sizes != obs.sizes:
                        self._attempt(obs)
                        retried = retried or obs.status == "explained"
            if changed or retried:
                continue
            waiting = [o for o in self.observations if o.status == "pending" and not o.full]
            for obs in waiting:
                self._attempt(obs, full=True)
                if obs.status == "explained":
                    break
            if not any(o.status == "explained" for o in waiting):
                return

    def _project(self) -> bool:
        changed_any = False
        changed = True
        while changed:
            changed = False
            for obs in self.observations:
                if obs.status != "explained":
                    continue
                kept: dict[int, set[int]] = {k: set() for k in obs.boxes[0]}
                valid = False
                for box in obs.boxes:
                    cut = {k: members & self.alive[k] for k, members in box.items()}
                    if all(cut.values()):
                        valid = True
                        for k, members in cut.items():
                            kept[k] |= members
                if not valid:
                    obs.status = "unexplained"  # contradicts the others: set aside
                    continue
                for k, members in kept.items():
                    if len(members) != len(self.alive[k]):
                        self.alive[k] = frozenset(members)
                        changed = changed_any = True
        return changed_any

    # -- explaining -----------------------------------------------------------------

    def explain(
        self,
        prepared: Prepared,
        domains: dict[int, tuple[int, ...]],
        expected: Expected | None,
        tool: bool,
        budget: int,
        work: int,
    ) -> list[Leaf] | None:
        """Split the combinations of `domains` into boxes of identical runs;
        None when that takes more than `budget` runs; TooCostly when a run
        costs more than a simulated run may, or all of them together more
        than `work`."""
        leaves: list[Leaf] = []
        stack = [domains]
        runs = steps = 0
        while stack:
            if runs >= budget:
                self.runs += runs
                return None
            box = stack.pop()
            runs += 1
            texts = {k: self.spaces[k].hypotheses[members[0]].text for k, members in box.items()}
            run = self.sim.run(prepared, texts, expected, tool)
            evaluated = self.evaluations
            groups: dict[int, tuple[int, ...]] = {}
            for k, members in box.items():
                cases = run.calls.get(k)
                if not cases or len(members) == 1:
                    groups[k] = members
                    continue
                known = self._outcomes(k, members, cases, run.keys[k])
                mine = known[members[0]]
                if any(o == UNKNOWN for o in mine):
                    groups[k] = members[:1]
                else:
                    groups[k] = tuple(h for h in members if known[h] == mine)
            spent = (
                run.steps + self.evaluations - evaluated
            )  # interpreter steps and rule evaluations alike
            steps += spent
            self.work += spent
            if run.costly or steps > work:
                self.runs += runs
                raise TooCostly()
            consistent = expected is None or (not run.aborted and run.text == expected.shown)
            leaves.append(Leaf(groups, run.text, consistent))
            done: dict[int, tuple[int, ...]] = {}
            for k in [*run.order, *(k for k in box if k not in run.order)]:
                if k not in box:
                    continue
                grouped = set(groups[k])
                rest = tuple(h for h in box[k] if h not in grouped)
                if rest:
                    stack.append({**box, **done, k: rest})
                done[k] = groups[k]
        self.runs += runs
        return leaves

    def _outcomes(
        self, slot: int, members: tuple[int, ...], cases: list[tuple], keys: list[tuple]
    ) -> dict[int, tuple]:
        """Each member's outcomes on the recorded cases (remembered per case list)."""
        cache = self._runs_seen.setdefault((self.slots[slot].site, tuple(keys)), {})
        missing = [h for h in members if h not in cache]
        if missing:
            self.evaluations += len(missing) * len(cases)
            space = self.spaces[slot]
            found = space.table.outcomes([space.roots[h] for h in missing], cases, keys)
            for h in missing:
                cache[h] = found[space.roots[h]]
        return cache

    # -- predicting -------------------------------------------------------------------

    def predict(
        self, source: str, tool: bool = True, budget: int | None = None
    ) -> Prediction | None:
        """The distribution of what a program would show, under the surviving
        hypotheses (each slot's survivors weighted by their prior mass, slots
        independent); None when it needs more runs than the budget."""
        prepared = self.sim.prepare(source)
        if prepared.tree is None:
            return Prediction({prepared.error or "": 1.0}, frozenset(), 1, 0.0)
        domains = self._domains(prepared)
        try:
            leaves = self.explain(
                prepared, domains, None, tool, budget or self.budget.predict, self.budget.steps
            )
        except TooCostly:
            return None
        if leaves is None:
            return None
        totals = {k: self.slot_mass(k) for k in domains}
        outcomes: dict[str, float] = {}
        counts: dict[str, int] = {}
        uncertain: set[int] = set()
        for leaf in leaves:
            p = 1.0
            for k, members in leaf.groups.items():
                if len(members) != len(domains[k]):
                    uncertain.add(k)
                p *= self.slot_mass(k, members) / totals[k] if totals[k] else 0.0
            outcomes[leaf.text] = outcomes.get(leaf.text, 0.0) + p
            counts[leaf.text] = counts.get(leaf.text, 0) + 1
        total = sum(outcomes.values()) or 1.0
        carried = sum(
            p / total * counts[text] for text, p in outcomes.items() if "[AlienError]" not in text
        )
        return Prediction(outcomes, frozenset(uncertain), len(leaves), carried)

    def spread(self, source: str) -> int:
        """How many combinations of survivors a program could run under:
        the product of the survivors of every slot its sites call at the
        places they stand (a bound on the runs that explaining it takes,
        cheap to compute; 1 for a program that does not parse)."""
        prepared = self.sim.prepare(source)
        if prepared.tree is None:
            return 1
        reached = {slot_at(self.slots, site_of(node), ctx) for node, ctx in places(prepared.tree)}
        return math.prod(len(self.alive[k]) for k in reached if k is not None)

    # -- beliefs -----------------------------------------------------------------------

    def signature(self, slot: int, h: int) -> tuple:
        site = self.slots[slot].site
        key = (site, h)
        found = self._signatures.get(key)
        if found is None:
            space = self.spaces[slot]
            cases, keys = sample_pool(site, CLASS_POOL)
            found = self._signatures[key] = space.table.outcomes([space.roots[h]], cases, keys)[
                space.roots[h]
            ]
        return found

    def classes(self, slot: int) -> list[tuple[float, tuple[int, ...]]]:
        """The survivors of a slot grouped by behaviour on the class pool,
        heaviest first: (mass, members in prior order)."""
        groups: dict[tuple, list[int]] = {}
        for h in self.order[slot]:
            if h in self.alive[slot]:
                groups.setdefault(self.signature(slot, h), []).append(h)
        out = [(self.slot_mass(slot, tuple(m)), tuple(m)) for m in groups.values()]
        return sorted(out, key=lambda c: -c[0])

    def resolved(self, slot: int) -> bool:
        alive = self.alive[slot]
        if len(alive) == 1:
            return True
        first = self.signature(slot, next(iter(alive)))
        return all(self.signature(slot, h) == first for h in alive)

    def most_likely(self, slot: int) -> int | None:
        """The most likely survivor: the cheapest member of the heaviest
        behaviour class (None before any observation narrowed the slot, or
        when nothing survives)."""
        space = self.spaces[slot]
        if len(self.alive[slot]) == len(space) or not self.alive[slot]:
            return None
        _, members = self.classes(slot)[0]
        identity = next((h for h in members if space.hypotheses[h].identity), None)
        if identity is not None:
            return identity
        return min(
            members, key=lambda h: (space.hypotheses[h].cost, len(space.hypotheses[h].text), h)
        )

    def believed(self, slot: int) -> str:
        """The most likely survivor's expression (IDENTITY when its class
        holds the manual's own expression)."""
        if len(self.alive[slot]) == len(self.spaces[slot]):
            return "IDENTITY"  # nothing observed: the manual's meaning weighs most
        h = self.most_likely(slot)
        if h is None:
            return "UNKNOWN"
        hypothesis = self.spaces[slot].hypotheses[h]
        return "IDENTITY" if hypothesis.identity else hypothesis.text

    def rule_report(self) -> dict[str, str]:
        return {slot.id: self.believed(k) for k, slot in enumerate(self.slots)}

    def world(self, name: str = "believed") -> World:
        """The most likely world: every slot's believed rule."""
        rules = []
        for k, slot in enumerate(self.slots):
            text = self.believed(k)
            rules.append(
                Rule(
                    id=slot.id,
                    name=slot.id,
                    target=slot.site,
                    actual="IDENTITY" if text in ("IDENTITY", "UNKNOWN") else text,
                    scope=slot.scope,
                )
            )
        return self.view.world(tuple(rules), name)


@dataclass(frozen=True)
class Prediction:
    outcomes: dict[str, float]  # shown text -> probability
    uncertain: frozenset[int]  # slots whose survivors disagree on this program
    runs: int = (
        1  # distinct executions under the survivors (the runs explaining its outcome may take)
    )
    # Expected number of those executions that print what was shown and run
    # on (no error): what follows in a program is explained once per each.
    carried: float = 1.0

    @property
    def entropy(self) -> float:
        total = sum(self.outcomes.values()) or 1.0
        return -sum(p / total * math.log2(p / total) for p in self.outcomes.values() if p > 0)

    @property
    def error_probability(self) -> float:
        total = sum(self.outcomes.values()) or 1.0
        return sum(p for text, p in self.outcomes.items() if "[AlienError]" in text) / total
