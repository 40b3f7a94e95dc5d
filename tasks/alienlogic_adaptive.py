"""Adaptive knowledge-free AlienLogic strategies (docs/validity.md).

Each strategy answers from what any system knows without the world: the
standard calculus, the patch library's public schemes of side conditions,
and the theorem's syntax. None reads the world file or the references.

* `standard-prover`: the prover's own standard-calculus proof of every
  theorem (no answer when it finds none).
* `prove-else-refuse-<style>`: the prover's proof in a calculus of the style,
  else the refusal line. Styles: `standard` (the standard calculus),
  `intuitionistic` (DNE and LEM disabled), `guarded` (the standard calculus
  with the library's common guards switched on, so its proofs survive them),
  `intuitionistic-guarded` (both) and `library-guarded` (every side condition
  the library offers as the only choice for its rule and slot). A style
  ending in `-routed` runs the prover with guarded routing
  (`prove(route_guarded=True)`, `alienlogic prove --route-guarded`): a step a
  side condition refuses is rewritten into allowed steps, and the search may
  take excluded middle where DNE would do.
* `syntax-...`: prove (with the standard prover) or refuse from the
  theorem's syntax alone: its size or the number of its premises
  (`size-gt-k`: prove above k, `size-le-k`: prove at most k, the cuts at the
  bank's quartiles), or whether it is first-order (`syntax-first-order`,
  `syntax-propositional`: prove those, refuse the others).
* `prove-else-refuse-best-cut`: the best combination of a style and a cut:
  prove-else-refuse in the style on one side of a cut, refuse on the other,
  for every style, feature, side and every cut at a value the bank's
  theorems take (an adversary reading the prompts may cut anywhere).
* `prove-else-refuse-best-cuts`: the same inside a box of two features,
  refusing outside it: on each of at most two features a side of a cut or
  an interval (two cuts), so two cuts on two features, an interval of one,
  or up to four cuts (`size-gt-9-and-size-le-10-and-premises-gt-1`). Only
  the best of each is reported, to keep the battery readable;
  `combinations` names them all.

The prover is bounded by a count of search steps (`StepClock`), never by
seconds, so an answer is the same on any machine; `Answerer` caches its
result per (theorem, style) for one battery run.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache, reduce
from operator import and_

from alienworlds.ruleset.world import Rule, World

from alienlogic import Theorem, check, compile_world
from alienlogic.patch_library import library
from alienlogic.prover import StepClock, prove

from .alienlogic_audit import first_order
from .alienlogic_grading import LogicTask
from .answer_text import REFUSAL_TEXT

# The prover's allowance per theorem: readings of its counting clock (one per
# 256 backward-search steps, one per 32 refutation steps). Enough for every
# standard proof of the banks (they are short), small enough that a theorem
# a style cannot prove costs little.
PROVER_TICKS = 12
PROVER_BUDGET = 14  # the largest proof-tree height tried

# The classical rules a style of intuitionistic logic leaves out: with both
# disabled, natural deduction proves exactly the intuitionistic theorems.
CLASSICAL_ONLY = ("DNE", "LEM")

# The common guards of the patch library (alienlogic/patch_schemes.toml):
# its use-once guards (an elimination's cited line used once), premises
# neither reiterated nor asserted inside a box, and IMPL_I and NOT_I closing
# boxes at most two deep. Each only forbids a step that has a detour, none
# conflicts with another or with any citation order, so a system that knows
# only the library can obey them all at once and keep most proofs.
COMMON_GUARDS: tuple[tuple[str, str], ...] = (
    ("IMPL_E", "(== (times-cited (refline 1)) 0)"),
    ("IMPL_E", "(== (times-cited (refline 2)) 0)"),
    ("NOT_E", "(== (times-cited (refline 1)) 0)"),
    ("NOT_E", "(== (times-cited (refline 2)) 0)"),
    ("AND_E1", "(== (times-cited (refline 1)) 0)"),
    ("AND_E2", "(== (times-cited (refline 1)) 0)"),
    ("OR_E", "(== (times-cited (refline 1)) 0)"),
    ("DNE", "(== (times-cited (refline 1)) 0)"),
    ("FORALL_E", "(== (times-cited (refline 1)) 0)"),
    ("EXISTS_E", "(== (times-cited (refline 1)) 0)"),
    ("reit", "(not (premise? (refline 1)))"),
    ("premise", "(== depth 0)"),
    ("IMPL_I", "(<= depth 1)"),
    ("NOT_I", "(<= depth 1)"),
)

BASE_STYLES = ("standard", "intuitionistic", "guarded", "intuitionistic-guarded", "library-guarded")

# Guarded routing is public (the prover's `--route-guarded`), so a system that
# knows nothing of the world may use it in any calculus. It takes excluded
# middle in place of DNE and rewrites refused steps into detours through
# excluded middle, so it changes nothing where LEM is disabled: the
# intuitionistic styles have no routed twin (a test checks they would
# answer the same).
ROUTED = "-routed"
STYLES = BASE_STYLES + tuple(
    f"{style}{ROUTED}" for style in BASE_STYLES if not style.startswith("intuitionistic")
)


def routed(style: str) -> bool:
    return style.endswith(ROUTED)


def base_style(style: str) -> str:
    """The calculus a style proves in: the style without its routing."""
    return style.removesuffix(ROUTED)


@cache
def library_guards() -> tuple[tuple[str, str], ...]:
    """Every `require` condition of the patch library that is the library's
    only one for its rule and slot: where the library offers alternatives
    (citation orders, top level or inside a box) a knowing-nothing system
    cannot tell which one a world draws, elsewhere it can obey the one there
    is. The library is public (alienlogic/patch_schemes.toml)."""
    by_slot: dict[tuple[str, str], list[str]] = defaultdict(list)
    for patch in library():
        if patch.require:
            by_slot[patch.target, patch.slot].append(patch.require)
    return tuple((target, exprs[0]) for (target, _), exprs in by_slot.items() if len(exprs) == 1)


def style_world(style: str) -> World:
    """The calculus the prover runs in for a style: the standard rules with
    the style's rules disabled or guarded (routing changes the prover, not
    the calculus)."""
    style = base_style(style)
    if style == "library-guarded":
        return World(
            name=style,
            language="alienlogic",
            rules=tuple(
                Rule(id=f"G{i}", name=f"library guard on {target}", target=target, require=expr)
                for i, (target, expr) in enumerate(library_guards(), 1)
            ),
        )
    rules: list[Rule] = []
    if style.startswith("intuitionistic"):
        rules += [
            Rule(id=f"I{i}", name=f"{r} is not intuitionistic", target=r, disabled=True)
            for i, r in enumerate(CLASSICAL_ONLY, 1)
        ]
    if style.endswith("guarded"):
        # a world holds nothing beside a disabled rule
        rules += [
            Rule(id=f"G{i}", name=f"common guard on {target}", target=target, require=expr)
            for i, (target, expr) in enumerate(COMMON_GUARDS, 1)
            if target not in CLASSICAL_ONLY or not style.startswith("intuitionistic")
        ]
    return World(name=style, language="alienlogic", rules=tuple(rules))


@dataclass
class Answerer:
    """The prover's answers per (theorem, style), computed once per run."""

    worlds: dict[str, World] = field(default_factory=lambda: {s: style_world(s) for s in STYLES})
    cache: dict[tuple[Theorem, str], str | None] = field(default_factory=dict)

    def proof(self, theorem: Theorem, style: str) -> str | None:
        """The text of the prover's proof in the style's calculus, or None."""
        key = (theorem, style)
        if key not in self.cache:
            found = prove(
                self.worlds[style],
                theorem,
                max_budget=PROVER_BUDGET,
                seconds=PROVER_TICKS,
                clock=StepClock(),
                route_guarded=routed(style),
            )
            self.cache[key] = str(found.proof) if found.proof is not None else None
        return self.cache[key]

    def prove_else_refuse(self, theorem: Theorem, style: str) -> str:
        return self.proof(theorem, style) or REFUSAL_TEXT


# A strategy maps a task to its answer text ("" is no answer at all).
Strategy = Callable[[LogicTask, Answerer], str]


def size(theorem: Theorem) -> int:
    """The theorem's size: nodes of its premises and its goal."""
    return theorem.goal.size + sum(p.size for p in theorem.premises)


@dataclass(frozen=True)
class Feature:
    """A syntactic feature a prove/refuse heuristic thresholds. `sides` name
    the strategies proving above the cut and at most the cut (`{k}`: the
    cut); `cuts`, when given, are the cuts, else the bank's quartiles."""

    measure: Callable[[Theorem], int]
    sides: tuple[str, str]
    cuts: tuple[int, ...] | None = None


FEATURES = (
    Feature(size, ("size-gt-{k}", "size-le-{k}")),
    Feature(lambda t: len(t.premises), ("premises-gt-{k}", "premises-le-{k}")),
    Feature(lambda t: int(first_order(t)), ("first-order", "propositional"), cuts=(0,)),
)


def quartiles(values: list[int]) -> list[int]:
    """Cut points at the quartiles of the bank's values (distinct, sorted,
    each below the largest): a heuristic that reads the bank's prompts may
    place its cut anywhere, and the quartiles are where one would."""
    ordered = sorted(values)
    cuts = {ordered[(len(ordered) - 1) * q // 4] for q in (1, 2, 3)} if ordered else set()
    return sorted(c for c in cuts if c < ordered[-1])


@dataclass(frozen=True)
class Cut:
    """One side of a syntactic cut: the theorems whose feature lies above
    `k` (`above`) or at most `k`."""

    feature: Feature
    k: int
    above: bool

    def holds(self, theorem: Theorem) -> bool:
        return (self.feature.measure(theorem) > self.k) == self.above

    @property
    def name(self) -> str:
        return self.feature.sides[not self.above].format(k=self.k)


def syntactic(cut: Cut) -> Strategy:
    """Prove with the standard prover on the cut's side, else refuse."""

    def answer(task: LogicTask, answerer: Answerer) -> str:
        if cut.holds(task.theorem):
            return answerer.prove_else_refuse(task.theorem, "standard")
        return REFUSAL_TEXT

    return answer


def syntactic_strategies(tasks: list[LogicTask]) -> Iterator[tuple[str, Strategy]]:
    for feature in FEATURES:
        cuts = feature.cuts
        if cuts is None:
            cuts = tuple(quartiles([feature.measure(t.theorem) for t in tasks]))
        for k in cuts:
            for above in (True, False):
                side = Cut(feature, k, above)
                yield f"syntax-{side.name}", syntactic(side)


def strategies(tasks: list[LogicTask]) -> dict[str, Strategy]:
    """Every adaptive strategy for a bank's tasks, by name."""
    out: dict[str, Strategy] = {
        "standard-prover": lambda task, answerer: answerer.proof(task.theorem, "standard") or "",
    }
    for style in STYLES:
        out[f"prove-else-refuse-{style}"] = lambda task, answerer, style=style: (
            answerer.prove_else_refuse(task.theorem, style)
        )
    out.update(syntactic_strategies(tasks))
    return out


# How a battery judges one answer text to one task (True: it passes).
Grade = Callable[[LogicTask, str], bool]


BEST_CUT = "prove-else-refuse-best-cut"
BEST_CUTS = "prove-else-refuse-best-cuts"


def every_cut(tasks: list[LogicTask]) -> list[Cut]:
    """Both sides of a cut at every value a feature takes in the bank but
    the largest (a cut there leaves one side empty), or at its fixed cuts."""
    cuts: list[Cut] = []
    for feature in FEATURES:
        ks = feature.cuts
        if ks is None:
            ks = tuple(sorted({feature.measure(t.theorem) for t in tasks}))[:-1]
        cuts += [Cut(feature, k, above) for k in ks for above in (True, False)]
    return cuts


@dataclass(frozen=True)
class Region:
    """Where a combination proves: the theorems on the side of every one of
    its cuts."""

    cuts: tuple[Cut, ...]

    def holds(self, theorem: Theorem) -> bool:
        return all(cut.holds(theorem) for cut in self.cuts)

    @property
    def name(self) -> str:
        return "-and-".join(cut.name for cut in self.cuts)


def conditions(cuts: list[Cut]) -> list[tuple[Cut, ...]]:
    """What a combination may ask of one feature: one side of a cut, or an
    interval (above a and at most b, a < b). Other pairs of sides of one
    feature are one side or nothing."""
    sides = [(cut,) for cut in cuts]
    intervals = [
        (low, high)
        for low in cuts
        if low.above
        for high in cuts
        if not high.above and low.k < high.k
    ]
    return sides + intervals


def every_region(tasks: list[LogicTask], boxes: bool = True) -> list[Region]:
    """Every side of one cut; with `boxes`, also every interval of one
    feature and every conjunction of conditions on two features (each a
    side or an interval: at most four cuts, two per feature). The order is
    fixed: one cut first, so a tie keeps the simplest."""
    cuts = every_cut(tasks)
    regions = [Region((cut,)) for cut in cuts]
    if not boxes:
        return regions
    by_feature = [conditions([c for c in cuts if c.feature is f]) for f in FEATURES]
    regions += [Region(c) for options in by_feature for c in options if len(c) > 1]
    for i, first in enumerate(by_feature):
        for second in by_feature[i + 1 :]:
            regions += [Region(a + b) for a in first for b in second]
    return regions


def scored(
    tasks: list[LogicTask], passed: dict[str, set[str]], refused: set[str], boxes: bool = True
) -> Iterator[tuple[str, int]]:
    """Each combination of a style and a region (`every_region`) with the
    tasks it passes as a bit mask (bit i: `tasks[i]`): the style's
    prove-else-refuse passes (in `passed`) inside the region, the tasks a
    refusal passes (`refused`) outside. It selects among answers graded
    already, so a combination costs no proof and no grading, only two masks
    joined: thousands stay cheap."""
    bit = {t.id: 1 << i for i, t in enumerate(tasks)}

    def mask(ids: Iterable[str]) -> int:
        return sum(bit[i] for i in set(ids) if i in bit)

    refusing = mask(refused)
    inside = {cut: mask(t.id for t in tasks if cut.holds(t.theorem)) for cut in every_cut(tasks)}
    everything = mask(bit)
    regions = [
        (region.name, reduce(and_, (inside[c] for c in region.cuts), everything))
        for region in every_region(tasks, boxes)
    ]
    for style in STYLES:
        proving = mask(passed[f"prove-else-refuse-{style}"])
        for name, region in regions:
            yield f"{style}-if-{name}", proving & region | refusing & ~region


def task_ids(tasks: list[LogicTask], m: int) -> set[str]:
    """The ids of the tasks a mask of `scored` holds."""
    return {t.id for i, t in enumerate(tasks) if m >> i & 1}


def combinations(
    tasks: list[LogicTask], passed: dict[str, set[str]], refused: set[str], boxes: bool = True
) -> dict[str, set[str]]:
    """The tasks each combination of a style and a region passes, by name
    (`scored`)."""
    return {name: task_ids(tasks, m) for name, m in scored(tasks, passed, refused, boxes)}


def best_combination(
    tasks: list[LogicTask], passed: dict[str, set[str]], refused: set[str], boxes: bool = True
) -> tuple[str, set[str]]:
    """The combination passing most tasks, the first named on a tie, and
    the tasks it passes."""
    name, m = max(scored(tasks, passed, refused, boxes), key=lambda s: s[1].bit_count())
    return name, task_ids(tasks, m)


def best(passed: dict[str, set[str]]) -> tuple[str, set[str]]:
    """The strategy passing most tasks; the first named on a tie."""
    name = max(passed, key=lambda n: len(passed[n]))
    return name, passed[name]


def graded(
    tasks: list[LogicTask], grade: Grade, answerer: Answerer
) -> tuple[dict[str, set[str]], set[str]]:
    """The ids of the tasks each named strategy passes, and those a refusal
    passes. Strategies often give the same answer, so each distinct text is
    graded once per task."""
    named = strategies(tasks)
    passed: dict[str, set[str]] = {name: set() for name in named}
    refused: set[str] = set()
    for task in tasks:
        grades: dict[str, bool] = {}

        def passing(answer: str) -> bool:
            if answer not in grades:
                grades[answer] = bool(answer) and grade(task, answer)
            return grades[answer]

        for name, strategy in named.items():
            if passing(strategy(task, answerer)):
                passed[name].add(task.id)
        if passing(REFUSAL_TEXT):
            refused.add(task.id)
    return passed, refused


def passes(tasks: list[LogicTask], grade: Grade, answerer: Answerer) -> dict[str, set[str]]:
    """The ids of the tasks each strategy passes, the best combination of a
    style and a cut (`BEST_CUT`) and of a style and two cuts (`BEST_CUTS`)
    included."""
    passed, refused = graded(tasks, grade, answerer)
    passed[BEST_CUT] = best_combination(tasks, passed, refused, boxes=False)[1]
    passed[BEST_CUTS] = best_combination(tasks, passed, refused)[1]
    return passed


def above_refusal(tasks: list[LogicTask], passed: dict[str, set[str]]) -> dict[str, set[str]]:
    """The strategies that pass more tasks than refusing everything does
    (the unprovable ones), each with the provable tasks it passes."""
    unprovable = sum(not t.provable for t in tasks)
    provable = {t.id for t in tasks if t.provable}
    return {name: ids & provable for name, ids in passed.items() if len(ids) > unprovable}


def checker(world: World) -> Grade:
    """The grade of the strategies' answers (the refusal line, no answer, or
    one proof) by the world's checker, as the bank's grader gives it: for a
    bank not written yet (the generator's)."""
    compiled = compile_world(world)

    def grade(task: LogicTask, text: str) -> bool:
        if text == REFUSAL_TEXT:
            return not task.provable
        return task.provable and check(text, compiled, task=task.theorem).accepted

    return grade
