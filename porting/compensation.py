"""Finding what to write at one site so the world does what the manual says.

For an operation call with arguments of known types at a known place, the
`Compensator` looks for a template (see templates.py) that, evaluated with
the world's semantics at that place, gives what the manual's operation gives
on every sample of those types where the manual's operation is defined. In
order:

1. the call unchanged (the world agrees with the manual there);
2. the same operation with its arguments transformed one by one, when the
   world's rule is the manual's with each operand passed through a function
   of one operand (an index shifted, operands swapped): each function is
   undone by a small search of its own;
3. for the variadic operations and EMIT, the same operation with its
   arguments rearranged (reversed, rotated, two swapped, one extra value);
4. identities of the manual (De Morgan, flipped comparisons, ...) and
   templates that worked for the same operation elsewhere;
5. the same operation with one argument replaced by a small searched
   template (the only way for ANNEX and IMPRINT, which must stay);
6. a general enumeration of templates up to the size bound.

Every template is checked on every sample case and then confirmed by the
behavioural equivalence checker (`ruleset.equivalence.compare`, with the
samples as operand pools, judged only where the manual's operation is
defined) before use.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from alienworlds.ruleset import compile_rule
from alienworlds.ruleset.equivalence import compare
from alienworlds.ruleset.errors import LanguageError
from alienworlds.ruleset.expr import Call, Const, Expr, Identity, Sym, parse, symbols, to_text

from aliencode.sites import IN_PLACE, LAZY_OPERAND, SITES

from .expectations import Expectation
from .identities import identities
from .literals import written_value
from .samples import key, same, values, wide
from .search import SEARCHED, Bounds, Enumerator, Goal, check
from .semantics import STANDARD, TOP_LEVEL, Ctx, WorldView, operands
from .templates import Hole, Lit, Node, Op, hole_exprs, size, substitute, to_rule
from .types import TOP, Ty, operation_type

INT_CONSTANTS = (0, 1, -1, 2)
MAX_REARRANGED = 8  # argument lists longer than this are only reversed or rotated
REPAIR_SIZE = 3  # an argument replaced to repair a call has at most this size


@dataclass(frozen=True)
class Found:
    """A compensation: the template, how it was found, and the rule
    expression it computes (for reports)."""

    template: Node
    strategy: str
    rule: str


@dataclass
class Memo:
    """What searching taught, kept across sites, places and worlds (a
    generator ports the same probes in many related worlds).

    Nothing here is trusted blindly: templates found before are only tried
    first, with their literals written anew for the world and place, and
    checked; a verdict is reused only for the same goal and the same
    semantics of every operation the template uses."""

    found: dict[str, list[Node]] = field(
        default_factory=dict
    )  # site -> templates that worked somewhere
    undone: dict[str, list[Node]] = field(
        default_factory=dict
    )  # rule part -> templates that undid it
    goals: dict[tuple, tuple[Goal, Expectation]] = field(default_factory=dict)
    verdicts: dict[tuple, bool] = field(default_factory=dict)
    # searches that found nothing, by their whole input: the goal (or the
    # rule part undone and its samples) and the semantics, at the place
    # searched, of the sites a search may use (search.SEARCHED, and the op)
    fruitless: set[tuple] = field(default_factory=set)


class Compensator:
    """Searches compensations in one world, with a cache shared by every
    site of every program ported with it."""

    def __init__(self, view: WorldView, bounds: Bounds, memo: Memo | None = None) -> None:
        self.view = view
        self.bounds = bounds
        self.memo = memo if memo is not None else Memo()
        self._cache: dict[tuple, Found | None] = {}
        self._constants: dict[tuple, list[Lit]] = {}
        self._porting: set[tuple] = set()  # identities being ported (against cycles)
        self.searches = 0

    # -- samples ---------------------------------------------------------------

    def _combos(self, types: tuple[Ty, ...]) -> list[tuple]:
        """Every combination of sample values (or, when there are more than
        `confirm`, each sample value at least once and a deterministic
        random choice of combinations), then `wide` random cases from a
        wider range than the samples."""
        pools = [values(t) for t in types]
        total = math.prod(len(p) for p in pools)
        if total <= self.bounds.confirm:
            out = list(itertools.product(*pools))
        else:
            rng = random.Random(total)
            longest = max(len(p) for p in pools)
            out = [tuple(p[(i + k) % len(p)] for k, p in enumerate(pools)) for i in range(longest)]
            out.extend(
                tuple(rng.choice(p) for p in pools) for _ in range(self.bounds.confirm - longest)
            )
        rng = random.Random(" ; ".join(t.describe() for t in types))
        out.extend(
            tuple(wide(t, rng) for t in types) for _ in range(self.bounds.wide if types else 0)
        )
        return out

    def _goal(
        self, kind: str, op: str, types: tuple[Ty, ...], ctx: Ctx
    ) -> tuple[Goal, Expectation]:
        """The goal of a site: what the manual's `op` does on samples of
        `types`. `kind` selects how a template's value is judged."""
        made = any(t.has("made") or _nested_made(t) for t in types)
        cache_key = (
            kind,
            op,
            types,
            self.view.actual_text("SWEEP", ctx) if kind == "sweep" else None,
            self.view.actual_text("KNOT", TOP_LEVEL) if made else None,
        )
        if cache_key in self.memo.goals:
            return self.memo.goals[cache_key]
        expect = Expectation(self.view.fn("KNOT", TOP_LEVEL))
        cases: list[tuple] = []
        std = self.view.standard_fn(op if op in SITES else "SWEEP")
        lazy = op in LAZY_OPERAND
        for sample in self._combos(types):
            asked: list[bool] = []
            try:
                pairs = [expect.convert(v) for v in sample]
            except LanguageError:
                continue
            raw = tuple(p[0] for p in pairs)
            combo = tuple(p[1] for p in pairs)
            self.view.reset()
            try:
                if lazy:

                    def thunk(combo=combo, asked=asked):
                        asked.append(True)
                        return combo[1]

                    result = std(combo[0], thunk)
                elif kind == "sweep":
                    result = _walk(combo[0])
                elif kind == "expel":
                    if type(combo[0]) is not list or not combo[0]:
                        continue
                    result = len(combo[0]) - 1
                elif kind in ("annex", "imprint"):
                    if type(combo[0]) is not list:
                        continue
                    result = std(*operands(op, list(combo)))
                    if kind == "imprint":
                        combo[0][combo[1]]  # an index the list has, or the manual raises
                else:
                    result = std(*operands(op, list(combo)))
            except (LanguageError, IndexError, TypeError):
                continue
            cases.append(raw)
            expect.expect(raw, result)
            expect.forced[id(raw)] = bool(asked)
        want = self._judge(kind, op, ctx, expect)
        goal = Goal(
            len(types),
            cases,
            want,
            lazy=1 if lazy else None,
            forced=(lambda case: expect.forced[id(case)]) if lazy else None,
        )
        goal.key = cache_key
        self.memo.goals[cache_key] = (goal, expect)
        return goal, expect

    def _judge(
        self, kind: str, op: str, ctx: Ctx, expect: Expectation
    ) -> Callable[[tuple, object], bool]:
        if kind == "sweep":
            rule = self.view.fn("SWEEP", ctx)

            def want(case, value):
                try:
                    walked = _walk(rule(value))
                except (LanguageError, TypeError):
                    return False
                return expect.same(case, walked)

            return want
        if kind == "expel":

            def want(case, value):
                n = len(case[0])
                return type(value) in (int, bool) and -n <= value < n and value % n == n - 1

            return want
        if kind in ("emit", "annex", "imprint"):
            return expect.same
        return lambda case, value: expect.same(case, value) and expect.alias_ok(case, value)

    def passes(
        self, node: Node, goal: Goal, at: Ctx, confirm: Callable[[], bool] | None = None
    ) -> bool:
        """`node` meets `goal` at `at` (checked, and confirmed by `confirm`),
        remembered by the semantics of the operations it uses."""
        semantics = tuple(sorted((op, self.view.actual_text(op, at)) for op in _ops(node)))
        verdict_key = (goal.key, node, semantics, confirm is not None)
        verdict = self.memo.verdicts.get(verdict_key)
        if verdict is None:
            verdict = check(node, goal, self.view, at) is None and (confirm is None or confirm())
            self.memo.verdicts[verdict_key] = verdict
        return verdict

    def refreshed(self, node: Node, at: Ctx) -> Node | None:
        """`node` with its literals written for this world at `at` (None
        when the world cannot write one of them there)."""
        if isinstance(node, Lit):
            if node.value is None:
                return node
            ok, written = written_value(self.view, at, node.value)
            return Lit(node.value, written) if ok else None
        if isinstance(node, Op):
            args = [self.refreshed(a, at) for a in node.args]
            return None if any(a is None for a in args) else Op(node.op, tuple(args))
        return node

    # -- constants -------------------------------------------------------------

    def constants(self, ctx: Ctx, kinds: frozenset[str]) -> list[Lit]:
        """Literal values a template may use at `ctx`: small integers, and
        the empty string, YES/NO or none when such values are involved."""
        cache_key = (ctx, kinds)
        if cache_key not in self._constants:
            wanted: list[object] = list(INT_CONSTANTS)
            if "str" in kinds:
                wanted.append("")
            if "bool" in kinds:
                wanted.extend([True, False])
            out = []
            for value in wanted:
                ok, written = written_value(self.view, ctx, value)
                if ok:
                    out.append(Lit(value, written))
            if "none" in kinds:
                out.append(Lit(None, None))
            self._constants[cache_key] = out
        return self._constants[cache_key]

    # -- the strategies --------------------------------------------------------

    def operation(
        self, op: str, types: tuple[Ty, ...], ctx: Ctx, at: Ctx | None = None
    ) -> Found | None:
        """A template for a call of `op` with arguments of `types`, written
        at place `ctx` (`at`: where the template's operations run, when it
        is moved into a helper function)."""
        at = at or ctx
        types = _known(types)
        cache_key = ("op", op, types, ctx, at)
        if cache_key not in self._cache:
            self._cache[cache_key] = self._operation(op, types, at)
        return self._cache[cache_key]

    def _operation(self, op: str, types: tuple[Ty, ...], at: Ctx) -> Found | None:
        n = len(types)
        if not self.view.altered(op, at):
            return Found(Op(op, tuple(Hole(k) for k in range(n))), "unchanged", "")
        kind = {"EMIT": "emit", "ANNEX": "annex", "IMPRINT": "imprint", "EXPEL": "expel"}.get(
            op, "value"
        )
        goal, expect = self._goal(kind, op, types, at)
        same_call = Op(op, tuple(Hole(k) for k in range(n)))
        if self.passes(same_call, goal, at):
            return Found(same_call, "unchanged", "")
        seeds: list[tuple[str, Node]] = []
        if kind == "value" or kind == "imprint":
            seeds.extend(
                ("operands transformed", t) for t in self._argument_transforms(op, types, at, goal)
            )
        if SITES[op].operands == ("args",):
            seeds.extend(("arguments rearranged", t) for t in self._rearrangements(op, n, at, goal))
        earlier = self.memo.found.setdefault(op, [])
        # The manual's identities are knowledge, not search: tried whatever
        # the bound. Templates found before obey it like any search.
        seeds.extend(("manual identity", t) for t in identities(op, n))
        seeds.extend(("enumerated", t) for t in earlier if size(t) <= self.bounds.max_size)
        for strategy, node in seeds:
            node = self.refreshed(node, at)
            if node is None:
                continue
            found = self._confirmed(node, strategy, op, types, at, goal, expect)
            if found is not None:
                if _plain(node) not in earlier:
                    earlier.append(_plain(node))
                return found
        # The manual's identities with their own operations compensated: the
        # small ones now, the large ones only if enumeration finds nothing.
        ported = [
            node
            for node in (self._ported(i, types, at) for i in identities(op, n))
            if node is not None
        ]
        large = [node for node in ported if size(node) > self.bounds.max_size]
        for node in (node for node in ported if size(node) <= self.bounds.max_size):
            found = self._confirmed(node, "manual identity, ported", op, types, at, goal, expect)
            if found is not None:
                earlier.append(_plain(node))
                return found
        if kind in ("emit", "expel"):
            return None
        kinds = frozenset().union(*(t.kinds() for t in types)) if types else frozenset()
        kinds |= frozenset(_kind(expect.value(c)) for c in goal.cases[:50])
        # the op's own rule too: repairing a call keeps the op
        search_key = (goal.key, self.view.signature(at, SEARCHED | {op}), self.bounds)
        if search_key in self.memo.fruitless:
            return next(
                (
                    f
                    for f in (
                        self._confirmed(
                            node, "manual identity, ported", op, types, at, goal, expect
                        )
                        for node in large
                    )
                    if f is not None
                ),
                None,
            )
        enumerator = Enumerator(
            self.view, at, self.constants(at, kinds), self.bounds, _has_sequences(kinds)
        )
        self.searches += 1
        node = None
        if op not in LAZY_OPERAND and SITES[op].operands != ("args",):
            node = self._repair(op, at, goal, enumerator)
        if node is None and kind == "value":
            node = enumerator.find(goal)
        found = (
            self._confirmed(node, "enumerated", op, types, at, goal, expect)
            if node is not None
            else None
        )
        if found is None:
            self.memo.fruitless.add(search_key)
            for node in large:
                found = self._confirmed(
                    node, "manual identity, ported", op, types, at, goal, expect
                )
                if found is not None:
                    break
        if found is not None:
            earlier.append(_plain(found.template))
        return found

    def _ported(self, identity: Node, types: tuple[Ty, ...], at: Ctx) -> Node | None:
        """A manual identity whose own operations are compensated at `at`
        (APEX as PLUCK(ORDER(...), -1) in a world where PLUCK counts from
        one: the -1 moves), or None."""
        key = (identity, types, at)
        if key in self._porting:
            return None  # an identity that needs itself
        self._porting.add(key)
        try:
            node = self._compose(identity, types, at)[0]
        except _NoCompensation:
            return None
        finally:
            self._porting.discard(key)
        return self.refreshed(self._folded(node, at), at)

    def _folded(self, node: Node, at: Ctx) -> Node:
        """`node` with operations on literals alone computed (as literals)."""
        if not isinstance(node, Op):
            return node
        args = tuple(self._folded(a, at) for a in node.args)
        if (
            node.op not in LAZY_OPERAND
            and node.op not in IN_PLACE
            and args
            and all(isinstance(a, Lit) for a in args)
        ):
            try:
                self.view.reset()
                value = self.view.fn(node.op, at)(*operands(node.op, [a.value for a in args]))
            except LanguageError:
                value = _NO_VALUE
            if value is None or type(value) in (int, float, str, bool):
                return Lit(value, None)
        return Op(node.op, args)

    def _compose(self, node: Node, types: tuple[Ty, ...], at: Ctx) -> tuple[Node, Ty]:
        if isinstance(node, Hole):
            return node, types[node.index]
        if isinstance(node, Lit):
            return node, Ty(frozenset({_kind(node.value)}))
        parts = [self._compose(a, types, at) for a in node.args]
        arg_types = tuple(ty for _, ty in parts)
        found = self.operation(node.op, arg_types, at, at)
        if found is None:
            raise _NoCompensation
        return _fill(found.template, [part for part, _ in parts]), operation_type(
            node.op, list(arg_types)
        )

    def _repair(self, op: str, at: Ctx, goal: Goal, enumerator: Enumerator) -> Node | None:
        """`op` itself with one argument replaced by a small searched
        template (for ANNEX and IMPRINT the call must stay: it is what
        changes the list)."""
        rule = self.view.fn(op, at)
        # The list an in-place operation changes must be the program's own.
        first = 1 if op in IN_PLACE else 0
        for position in range(first, goal.n):

            def want(case, value, position=position):
                args = list(case)
                args[position] = value
                try:
                    return goal.want(case, rule(*operands(op, args)))
                except LanguageError:
                    return False

            node = enumerator.find(Goal(goal.n, goal.cases, want), limit=REPAIR_SIZE)
            if node is not None:
                args = [Hole(k) for k in range(goal.n)]
                args[position] = node
                return Op(op, tuple(args))
        return None

    def _confirmed(
        self,
        node: Node,
        strategy: str,
        op: str,
        types: tuple[Ty, ...],
        at: Ctx,
        goal: Goal,
        expect: Expectation,
    ) -> Found | None:
        """Accept a template that meets the goal only if the equivalence
        checker agrees too (on operands as the program holds them; tuples a
        caller built with KNOT are judged by what they mean, which only the
        goal knows)."""

        def confirm() -> bool:
            left, right, kinds = self._as_rules(node, op, types, at, goal)
            return (
                kinds is None
                or bool(expect.to_manual)
                or compare(left, right, kinds, partial=True).equivalent
            )

        if not self.passes(node, goal, at, confirm):
            return None
        return Found(
            node, strategy, to_text(to_rule(node, self.view, at, hole_exprs(op, len(types))))
        )

    def _as_rules(self, node: Node, op: str, types: tuple[Ty, ...], at: Ctx, goal: Goal):
        n = len(types)
        names = SITES[op].operands
        rows = [operands(op, list(c)) for c in goal.cases]
        if names == ("args",):
            kinds = {"args": _distinct(r[0] for r in rows)}
        else:
            kinds = {name: _distinct(r[k] for r in rows) for k, name in enumerate(names)}
        left = to_rule(node, self.view, at, hole_exprs(op, n))
        right: Expr = parse(STANDARD[op])
        if op == "EXPEL":
            length = Call("len", (Sym("seq"),))
            left, right = Call("%", (left, length)), Call("-", (length, Const(1)))
        if not rows:
            return left, right, None
        return left, right, kinds

    def _argument_transforms(
        self, op: str, types: tuple[Ty, ...], at: Ctx, goal: Goal
    ) -> list[Node]:
        """`op` with each argument passed through a searched inverse, when the
        world's rule is the manual's operator applied to functions of one
        operand each."""
        standard = parse(STANDARD[op])
        actual = self.view.actual(op, at)
        if (
            isinstance(actual, Identity)
            or not isinstance(standard, Call)
            or not isinstance(actual, Call)
        ):
            return []
        if actual.op != standard.op or len(actual.args) != len(standard.args):
            return []
        if not all(isinstance(a, Sym) for a in standard.args):
            return []
        names = SITES[op].operands
        n = len(types)
        fixed = operands(op, [object()] * n)  # which operands a call of n arguments leaves fixed
        hole_of = {}
        k = 0
        for j, name in enumerate(names):
            if fixed[j] is None or (op == "EXTENT" and n == 1 and j == 0):
                continue
            hole_of[name] = k
            k += 1
        sources: dict[int, int] = {}
        for j, (std_arg, expr) in enumerate(zip(standard.args, actual.args)):
            used = symbols(expr)
            if std_arg.name not in hole_of:
                # An operand the call form fixes (CARVE's missing end): the
                # rule must leave it as the manual does.
                fixed_value = operands(op, [None] * n)[j]
                try:
                    if not same(
                        self.view.compiled(to_text(expr), op)(*operands(op, [None] * n)),
                        fixed_value,
                    ):
                        return []
                except (LanguageError, TypeError):
                    return []
                continue
            if len(used) != 1 or next(iter(used)) not in hole_of:
                return []
            sources[hole_of[std_arg.name]] = (j, hole_of[next(iter(used))], expr)
        if sorted(src for _, src, _ in sources.values()) != sorted(sources):
            return []
        args: list[Node | None] = [None] * n
        for k_std, (_j, position, expr) in sources.items():
            inverse = self._undo(expr, _distinct(c[k_std] for c in goal.cases), at)
            if inverse is None:
                return []
            args[position] = _rename(inverse, k_std)
        if op in IN_PLACE and args[0] != Hole(0):
            return []  # the list an in-place operation changes must be the program's own
        return [Op(op, tuple(args))]

    def _undo(self, expr: Expr, samples: tuple, at: Ctx) -> Node | None:
        """A one-hole template t with expr(t(x)) == x for every x in `samples`."""
        name = next(iter(symbols(expr)))
        fn = compile_rule(expr, (name,)).bind(self.view.namespace)
        cases = [(v,) for v in samples]

        def want(case, value):
            try:
                return _close(fn(value), case[0])
            except LanguageError:
                return False

        goal = Goal(1, cases, want)
        part = to_text(expr)
        earlier = self.memo.undone.setdefault(part, [])
        bounds = replace(self.bounds, max_size=min(4, self.bounds.max_size))
        for node in earlier:
            if size(node) > bounds.max_size:
                continue
            node = self.refreshed(node, at)
            if node is not None and check(node, goal, self.view, at) is None:
                return node
        # the whole input of the search: the part, its samples, what the sites it may use do here
        semantics = self.view.signature(at, SEARCHED)
        search_key = ("undo", part, key(samples), semantics, bounds)
        if search_key in self.memo.fruitless:
            return None
        kinds = frozenset(_kind(v) for v in samples) | {"int"}
        enumerator = Enumerator(self.view, at, self.constants(at, frozenset(kinds)), bounds)
        self.searches += 1
        node = enumerator.find(goal)
        if node is None:
            self.memo.fruitless.add(search_key)
        else:
            earlier.append(_plain(node))
        return node

    def _rearrangements(self, op: str, n: int, at: Ctx, goal: Goal) -> list[Node]:
        holes = [Hole(k) for k in range(n)]
        orders: list[list[Node]] = [holes[::-1]]
        orders.extend(holes[r:] + holes[:r] for r in range(1, n))
        if n <= MAX_REARRANGED:
            for i, j in itertools.combinations(range(n), 2):
                swapped = list(holes)
                swapped[i], swapped[j] = swapped[j], swapped[i]
                orders.append(swapped)
        extras = self.constants(at, frozenset({"str", "none"}))
        out = [Op(op, tuple(o)) for o in orders]
        for order in [holes, *orders]:
            for position in range(n + 1):
                for lit in extras:
                    out.append(Op(op, tuple(order[:position] + [lit] + order[position:])))
        return out

    # -- SWEEP -----------------------------------------------------------------

    def sweep(self, ty: Ty, ctx: Ctx, at: Ctx | None = None) -> Found | None:
        """A template t such that the world's SWEEP at `ctx`, walking t(seq)
        (computed at `at`), visits the elements of seq in order."""
        at = at or ctx
        ty = _known((ty,))[0]
        cache_key = ("sweep", ty, ctx, at)
        if cache_key in self._cache:
            return self._cache[cache_key]
        if not self.view.altered("SWEEP", ctx):
            self._cache[cache_key] = Found(Hole(0), "unchanged", "")
            return self._cache[cache_key]
        goal, expect = self._goal("sweep", "SWEEP", (ty,), ctx)
        if self.passes(Hole(0), goal, at):
            self._cache[cache_key] = Found(Hole(0), "unchanged", "")
            return self._cache[cache_key]
        rule = self.view.actual("SWEEP", ctx)

        def confirmed(node: Node) -> Found | None:
            inner = to_rule(node, self.view, at, [Sym("seq")])
            walked = Call("list", (inner if isinstance(rule, Identity) else _subst(rule, inner),))
            pool = {"seq": _distinct(c[0] for c in goal.cases)}

            def confirm() -> bool:
                return (
                    bool(expect.to_manual)
                    or compare(walked, "(list seq)", pool, partial=True).equivalent
                )

            return (
                Found(node, "enumerated", to_text(walked))
                if self.passes(node, goal, at, confirm)
                else None
            )

        earlier = self.memo.found.setdefault("SWEEP", [])
        found: Found | None = None
        for seed in (e for e in earlier if size(e) <= self.bounds.max_size):
            seed = self.refreshed(seed, at)
            found = confirmed(seed) if seed is not None else None
            if found is not None:
                break
        if found is None:
            kinds = ty.kinds() | {"list", "int"}
            enumerator = Enumerator(
                self.view, at, self.constants(at, frozenset(kinds)), self.bounds
            )
            self.searches += 1
            node = enumerator.find(goal)
            found = confirmed(node) if node is not None else None
            if found is not None:
                earlier.append(_plain(node))
        self._cache[cache_key] = found
        return found

    # -- literals --------------------------------------------------------------

    def literal(self, value: object, ctx: Ctx) -> Node | None:
        """A template giving `value` at `ctx`: a literal the world reads as
        `value`, else a small expression computing it."""
        cache_key = ("literal", key(value), type(value).__name__, ctx)
        if cache_key in self._cache:
            found = self._cache[cache_key]
            return found.template if found else None
        ok, written = written_value(self.view, ctx, value)
        node: Node | None = Lit(value, written) if ok else None
        if node is None:
            goal = Goal(0, [()], lambda case, v: same(v, value))
            enumerator = Enumerator(
                self.view, ctx, self.constants(ctx, frozenset({_kind(value), "int"})), self.bounds
            )
            self.searches += 1
            node = enumerator.find(goal)
        self._cache[cache_key] = Found(node, "literal", "") if node is not None else None
        return node


class _NoCompensation(Exception):
    pass


_NO_VALUE = object()


def _fill(template: Node, parts: list[Node]) -> Node:
    """`template` with hole k replaced by `parts[k]`."""
    if isinstance(template, Hole):
        return parts[template.index]
    if isinstance(template, Op):
        return Op(template.op, tuple(_fill(a, parts) for a in template.args))
    return template


def _close(a: object, b: object) -> bool:
    """Equal, with numbers compared by value (an index True is index 1);
    the whole template is checked strictly afterwards."""
    numbers = (int, float, bool)
    if type(a) in numbers and type(b) in numbers:
        return a == b
    return same(a, b)


def _known(types: tuple[Ty, ...]) -> tuple[Ty, ...]:
    """Types with "no value" read as "any value": an operand the analysis
    never sees a value for (the element of a list that stays empty, say)
    may still be evaluated, and its place must still behave."""
    return tuple(TOP if t.empty else t for t in types)


def _ops(node: Node) -> set[str]:
    if isinstance(node, Op):
        return {node.op}.union(*(_ops(a) for a in node.args))
    return set()


def _plain(node: Node) -> Node:
    """`node` with literals kept by value only (how it is remembered: the
    literal to write depends on the world and the place)."""
    if isinstance(node, Lit):
        return Lit(node.value, None)
    if isinstance(node, Op):
        return Op(node.op, tuple(_plain(a) for a in node.args))
    return node


def _nested_made(t: Ty) -> bool:
    if t.top:
        return False
    return any(
        inner is not None and (inner.has("made") or _nested_made(inner))
        for inner in (t.lists, t.tuples, t.made)
    )


def _has_sequences(kinds: frozenset[str]) -> bool:
    return bool(kinds & {"str", "list", "tuple", "made"})


def _walk(seq: object) -> list:
    if type(seq) not in (list, tuple, str):
        raise TypeError("not a sequence")
    return list(seq)


def _subst(rule: Expr, inner: Expr) -> Expr:
    return substitute(rule, {"seq": inner})


def _distinct(items) -> tuple:
    seen: dict[object, object] = {}
    for item in items:
        seen.setdefault(key(item), item)
    return tuple(seen.values())


def _kind(value: object) -> str:
    if value is None:
        return "none"
    return {bool: "bool", int: "int", float: "float", str: "str", list: "list", tuple: "tuple"}.get(
        type(value), "func"
    )


def _rename(node: Node, index: int) -> Node:
    """The template with its only hole renamed to `index`."""
    if isinstance(node, Hole):
        return Hole(index)
    if isinstance(node, Op):
        return Op(node.op, tuple(_rename(a, index) for a in node.args))
    return node
