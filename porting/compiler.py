"""The porting compiler: a program in the manual's semantics, rewritten so
that it prints the same under a world.

The program is walked once, knowing at every node its place (top level, in
a CRAFT, in a loop) and the inferred types of every operand. Each literal
becomes one the world reads as the value meant; each operation call whose
meaning the world changes at that place becomes a compensation template
(compensation.py); SWEEP walks a compensated sequence; EMIT's arguments are
rearranged. Where a template would evaluate operands out of order or twice
and an operand has effects, the call goes through a helper CRAFT whose
parameters bind the operands once, in order. ANNEX and EXPEL that a world
changes beyond repair by their arguments go through helper CRAFTs that use
the world's own operation and then put every element where the manual
would have it. Helpers are written at the start of the program. A SWEEP
whose body may change the list it walks is refused where the world changes
SWEEP: the world walks what its rule made of the list before the loop.

The result agrees with the manual's program on every input on which the
manual's program runs without error and whose values have the types the
analysis saw (every value, for a function nobody in view calls; the types
the example calls give, when examples are supplied).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from alienworlds.ruleset import LanguageError, World

from aliencode import AlienSyntaxError, compile_source, parse
from aliencode import syntax as s
from aliencode.compiler import MAX_NESTING, check_nesting
from aliencode.unparse import unparse
from aliencode.walk import names_in, node_count

from .compensation import Compensator, Found, Memo
from .fresh import fresh_at_loops
from .samples import same, values
from .search import Bounds
from .semantics import FUNCTION, Ctx, WorldView, operands
from .templates import NOWHERE, Hole, Lit, Node, Op, build, hole_order, literal_node, show
from .types import Ty, Types, list_of

HELPER_PREFIX = "port_"
MAX_COPIED = 12  # nodes of an operand a template may write twice


class PortError(Exception):
    """No compensation within the bounds for one site; carries where."""

    def __init__(
        self, message: str, site: str, place: str, line: int | None, column: int | None
    ) -> None:
        where = f"line {line}, column {column}: " if line else ""
        super().__init__(f"{where}{message}")
        self.message = message
        self.site = site
        self.place = place
        self.line = line
        self.column = column

    def as_dict(self) -> dict[str, object]:
        return {
            "message": self.message,
            "site": self.site,
            "place": self.place,
            "line": self.line,
            "column": self.column,
        }


@dataclass(frozen=True)
class Change:
    """One rewritten site."""

    line: int
    column: int
    site: str
    place: str
    strategy: str
    written: str

    def as_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


@dataclass
class Ported:
    source: str
    changes: list[Change] = field(default_factory=list)
    helpers: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "changes": [c.as_dict() for c in self.changes],
            "helpers": self.helpers,
            "seconds": round(self.seconds, 3),
        }


EFFECTS = frozenset({"ANNEX", "IMPRINT", "EXPEL", "EMIT", "STRAIN"})


def pure(expr: s.Expr) -> bool:
    """Evaluating `expr` has no effect (no user code runs, nothing printed
    or changed in place): it may be evaluated again, or in another order."""
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, s.Call) or (isinstance(node, s.OpCall) and node.op in EFFECTS):
            return False
        stack.extend(s.children(node))
    return True


ANNEX_HELPER = """
CRAFT {name}({seq}, {val}):
    SET {old} AS CARVE({seq}, 0)
    ANNEX({seq}, {val})
    SWEEP {i} IN EXTENT(GAUGE({old})):
        IMPRINT({seq}, {i}, PLUCK({old}, {i}))
    IMPRINT({seq}, GAUGE({old}), {val})
"""

EXPEL_HELPER = """
CRAFT {name}({seq}):
    SET {val} AS PLUCK({seq}, -1)
    SET {old} AS CARVE({seq}, 0, -1)
    EXPEL({seq})
    SWEEP {i} IN EXTENT(GAUGE({old})):
        IMPRINT({seq}, {i}, PLUCK({old}, {i}))
    DELIVER {val}
"""


class Porter:
    """Ports programs to one world; searches are cached across programs."""

    def __init__(
        self, world: World, bounds: Bounds | None = None, memo: Memo | None = None
    ) -> None:
        """`memo`: what earlier searches learned, shared between porters of
        related worlds (hints and verdicts only: see Memo)."""
        self.world = world
        self.view = WorldView(world)
        self.compensator = Compensator(self.view, bounds or Bounds(), memo)

    def port(
        self,
        source: str,
        examples: Sequence[str] | None = None,
        keywords: Mapping[str, str] | None = None,
        callers: str = "world",
    ) -> Ported:
        """Port `source` (written in `keywords`, by default the world's).

        `examples` are calls of the program's functions (AlienCode, in the
        same keywords): with them the program is closed (nothing else calls
        its functions) and parameter types come from the calls. `callers`
        says how the real calls run: "world" (as written, in the world, as
        a grader runs a task's calls: a tuple they build with KNOT is read
        in the order of KNOT's arguments) or "manual" (they are
        manual-semantics code ported as well). Raises AlienSyntaxError for a
        program that does not parse and PortError when a site has no
        compensation within the bounds.
        """
        if callers not in ("world", "manual"):
            raise ValueError("callers is 'world' or 'manual'")
        start = time.perf_counter()
        keywords = dict(self.world.keywords if keywords is None else keywords)
        tree = parse(source, keywords)
        example_trees = None if examples is None else [parse(e, keywords) for e in examples]
        for program in (tree, *(example_trees or ())):
            check_nesting(program)
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(
            max(old_limit, 20 * MAX_NESTING + 2000)
        )  # the walk recurses once per level
        try:
            job = _Job(self, tree, example_trees, world_callers=callers == "world")
            body = job.block(tree.body, Ctx())
            if not job.changes and not job.helpers and keywords == dict(self.world.keywords):
                return Ported(source, [], [], time.perf_counter() - start)
            program = s.Program(tuple(job.helper_defs) + body)
            try:
                check_nesting(program)
                text = unparse(program, self.world.keywords)
                compile_source(text, self.world)  # what we write must read back and compile
            except AlienSyntaxError as exc:
                raise PortError(
                    f"the ported program would not compile: {exc.message}",
                    "program",
                    "top",
                    exc.line,
                    exc.column,
                ) from None
        finally:
            sys.setrecursionlimit(old_limit)
        return Ported(text, job.changes, list(job.helpers), time.perf_counter() - start)


class _Job:
    """The state of porting one program."""

    def __init__(
        self,
        porter: Porter,
        tree: s.Program,
        examples: list[s.Program] | None,
        given: dict[str, tuple[Ty, ...]] | None = None,
        parent: _Job | None = None,
        world_callers: bool = True,
    ) -> None:
        self.porter = porter
        self.view = porter.view
        self.comp = porter.compensator
        self.kw = dict(porter.world.keywords)
        self.types = Types(
            [tree, *(examples or [])],
            closed=examples is not None,
            given=given,
            world_callers=world_callers,
        )
        self.raw: set[int] = set()
        self.programs = [tree, *(examples or [])]
        self._fresh: dict[int, frozenset[str]] | None = None  # fresh_at_loops, when asked
        root = parent or self
        self.root = root
        if parent is None:
            self.changes: list[Change] = []
            self.helpers: dict[tuple, str] = {}
            self.helper_defs: list[s.Stmt] = []
            self.used = names_in(st for p in self.programs for st in p.body)
            self.building: set[tuple] = set()

    # -- statements ------------------------------------------------------------

    def block(self, body: tuple[s.Stmt, ...], ctx: Ctx) -> tuple[s.Stmt, ...]:
        out: list[s.Stmt] = []
        for st in body:
            out.append(self.stmt(st, ctx))
        return tuple(out)

    def stmt(self, st: s.Stmt, ctx: Ctx) -> s.Stmt:
        if isinstance(st, s.Set):
            return s.Set(st.targets, tuple(self.expr(v, ctx) for v in st.values), st.pos)
        if isinstance(st, s.ExprStmt):
            return s.ExprStmt(self.expr(st.expr, ctx), st.pos)
        if isinstance(st, s.If):
            branches = tuple((self.expr(c, ctx), self.block(b, ctx)) for c, b in st.branches)
            default = self.block(st.default, ctx) if st.default is not None else None
            return s.If(branches, default, st.pos)
        if isinstance(st, s.Sweep):
            iterable = self.sweep(st, ctx)
            return s.Sweep(
                st.names, iterable, self.block(st.body, Ctx(ctx.in_function, True)), st.pos
            )
        if isinstance(st, s.While):
            return s.While(
                self.expr(st.cond, ctx), self.block(st.body, Ctx(ctx.in_function, True)), st.pos
            )
        if isinstance(st, s.Craft):
            return s.Craft(st.name, st.params, self.block(st.body, FUNCTION), st.pos)
        if isinstance(st, s.Deliver):
            return s.Deliver(self.expr(st.value, ctx) if st.value is not None else None, st.pos)
        return st

    def sweep(self, st: s.Sweep, ctx: Ctx) -> s.Expr:
        iterable = self.expr(st.iterable, ctx)
        ty = self.types.of(st.iterable)
        if self.view.altered("SWEEP", ctx) and self.types.may_change_walked(st, self.fresh_at(st)):
            # The manual's SWEEP walks the list itself and sees what the body
            # changes; the world's walks what its rule made of it, before the loop.
            raise PortError(
                f"the body of this SWEEP may change the list it walks, and the world changes "
                f"SWEEP {ctx.describe()}: no compensation walks a list as it changes",
                "SWEEP",
                ctx.scope,
                st.pos.line,
                st.pos.column,
            )
        found = self.comp.sweep(ty, ctx)
        if found is None:
            raise PortError(
                f"no compensation for the sequence SWEEP walks ({ty.describe()}) {ctx.describe()}",
                "SWEEP",
                ctx.scope,
                st.pos.line,
                st.pos.column,
            )
        if found.strategy == "unchanged":
            return iterable
        if hole_order(found.template) != [0] and not pure(iterable):
            helper = self.bound_helper(
                ("sweep", ty, ctx),
                lambda: self.comp.sweep(ty, ctx, FUNCTION),
                1,
                "SWEEP",
                ctx,
                st.pos,
            )
            return s.Call(s.Name(helper, st.pos), (iterable,), st.pos)
        self.note(st.pos, "SWEEP", ctx, found, ["seq"])
        return build(found.template, [iterable], self.kw, st.pos)

    def fresh_at(self, st: s.Sweep) -> frozenset[str]:
        """The names fresh at loop `st` (fresh.py), found for every loop the
        first time one is asked about."""
        if self._fresh is None:
            self._fresh = fresh_at_loops(self.programs)
        return self._fresh.get(id(st), frozenset())

    # -- expressions -----------------------------------------------------------

    def expr(self, e: s.Expr, ctx: Ctx) -> s.Expr:
        if isinstance(e, (s.IntLit, s.FloatLit, s.StrLit, s.BoolLit)):
            return self.literal(e, ctx)
        if isinstance(e, s.Call):
            return s.Call(self.expr(e.func, ctx), tuple(self.expr(a, ctx) for a in e.args), e.pos)
        if isinstance(e, s.OpCall):
            return self.operation(e, ctx)
        return e

    def literal(self, e: s.Expr, ctx: Ctx) -> s.Expr:
        if isinstance(e, s.IntLit) and e.value is None:
            return e  # beyond every limit: fails the same way anywhere
        value = e.value
        node = self.comp.literal(value, ctx)
        kind = {
            s.IntLit: "literal.int",
            s.FloatLit: "literal.float",
            s.StrLit: "literal.str",
            s.BoolLit: "literal.bool",
        }[type(e)]
        if node is None:
            raise PortError(
                f"no literal or expression gives {value!r} {ctx.describe()}",
                kind,
                ctx.scope,
                e.pos.line,
                e.pos.column,
            )
        if isinstance(node, Lit) and same(node.written, value):
            return e
        self.note(e.pos, kind, ctx, Found(node, "literal", ""), [])
        if isinstance(node, Lit):
            return literal_node(node.written)
        return build(node, [], self.kw, e.pos)

    def operation(self, e: s.OpCall, ctx: Ctx) -> s.Expr:
        args = [self.expr(a, ctx) for a in e.args]
        if id(e) in self.raw:
            return s.OpCall(e.op, self.kw.get(e.op, e.op), tuple(args), e.pos)
        types = tuple(self.types.of(a) for a in e.args)
        found = self.comp.operation(e.op, types, ctx)
        if found is None:
            return self.fallback(e, args, types, ctx)
        if found.strategy == "unchanged":
            return s.OpCall(e.op, self.kw.get(e.op, e.op), tuple(args), e.pos)
        order = hole_order(found.template)
        if order == list(range(len(args))) or self._may_rearrange(args, order):
            self.note(e.pos, e.op, ctx, found, _hole_names(e.op, len(args)))
            return build(self.fold(found.template, e.args, ctx), args, self.kw, e.pos)
        if e.op in ("BOND", "RIFT"):
            raise PortError(
                f"the compensation for {e.op} {ctx.describe()} evaluates its operands out of "
                "order, "
                "and an operand has effects",
                e.op,
                ctx.scope,
                e.pos.line,
                e.pos.column,
            )
        helper = self.bound_helper(
            ("op", e.op, types),
            lambda: self.comp.operation(e.op, types, ctx, FUNCTION),
            len(args),
            e.op,
            ctx,
            e.pos,
        )
        return s.Call(s.Name(helper, e.pos), tuple(args), e.pos)

    def fold(self, node: Node, originals: tuple[s.Expr, ...], ctx: Ctx) -> Node:
        """`node` with every part that only combines literals computed now
        and written as one literal (PLUCK(xs, WEAVE(0, -1)) becomes
        PLUCK(xs, 1)). Holes filled by literals count as literals."""
        if not isinstance(node, Op):
            return node
        args = tuple(self.fold(a, originals, ctx) for a in node.args)
        folded = Op(node.op, args)
        if node.op in EFFECTS or node.op in ("BOND", "RIFT"):
            return folded
        known = []
        for a in args:
            if isinstance(a, Lit):
                known.append(a.value)
            elif isinstance(a, Hole) and _literal_value(originals[a.index]) is not _UNKNOWN:
                known.append(_literal_value(originals[a.index]))
            else:
                return folded
        try:
            self.view.reset()
            value = self.view.fn(node.op, ctx)(*operands(node.op, known))
        except LanguageError:
            return folded
        if type(value) not in (int, float, str, bool) and value is not None:
            return folded
        literal = self.comp.literal(value, ctx)
        return literal if isinstance(literal, Lit) else folded

    @staticmethod
    def _may_rearrange(args: list[s.Expr], order: list[int]) -> bool:
        if not all(pure(a) for a in args):
            return False
        return all(order.count(k) <= 1 or node_count(a) <= MAX_COPIED for k, a in enumerate(args))

    def fallback(self, e: s.OpCall, args: list[s.Expr], types: tuple[Ty, ...], ctx: Ctx) -> s.Expr:
        """No template at the call's place: an in-place helper, or the
        operation's meaning taken from inside a helper CRAFT."""
        if e.op in ("ANNEX", "EXPEL"):
            helper = self.in_place_helper(e.op, types, e.pos)
            if helper is not None:
                return s.Call(s.Name(helper, e.pos), tuple(args), e.pos)
        elif e.op not in ("BOND", "RIFT") and ctx != FUNCTION:
            found = self.comp.operation(e.op, types, ctx, FUNCTION)
            if found is not None:
                helper = self.bound_helper(
                    ("op", e.op, types), lambda: found, len(args), e.op, ctx, e.pos
                )
                return s.Call(s.Name(helper, e.pos), tuple(args), e.pos)
        shown = ", ".join(t.describe() for t in types) or "no arguments"
        hint = (
            "; example calls would narrow what the arguments may be"
            if any(t.top for t in types)
            else ""
        )
        raise PortError(
            f"no compensation for {e.op} ({shown}) {ctx.describe()} within size "
            f"{self.comp.bounds.max_size}{hint}",
            e.op,
            ctx.scope,
            e.pos.line,
            e.pos.column,
        )

    # -- helpers ---------------------------------------------------------------

    def fresh(self, stem: str) -> str:
        root = self.root
        k = 1
        while f"{HELPER_PREFIX}{stem}{k}" in root.used:
            k += 1
        name = f"{HELPER_PREFIX}{stem}{k}"
        root.used.add(name)
        return name

    def bound_helper(self, key: tuple, find, n: int, site: str, ctx: Ctx, pos: s.Pos) -> str:
        """A helper CRAFT computing the site's compensation on its parameters
        (each operand evaluated once, in order, by the call)."""
        root = self.root
        if key in root.helpers:
            return root.helpers[key]
        found = find()
        if found is None:
            raise PortError(
                f"no compensation for {site} {ctx.describe()} that evaluates its operands once "
                "and in order, "
                "and none inside a helper CRAFT",
                site,
                ctx.scope,
                pos.line,
                pos.column,
            )
        name = self.fresh(site.lower())
        params = tuple(f"p{k}" for k in range(n))
        body = build(found.template, [s.Name(p, NOWHERE) for p in params], self.kw)
        statement: s.Stmt = (
            s.ExprStmt(body, NOWHERE)
            if site in ("EMIT", "ANNEX", "IMPRINT")
            else s.Deliver(body, NOWHERE)
        )
        root.helper_defs.append(s.Craft(name, params, (statement,), NOWHERE))
        root.helpers[key] = name
        self.note(pos, site, ctx, found, list(params), helper=name)
        return name

    def in_place_helper(self, op: str, types: tuple[Ty, ...], pos: s.Pos) -> str | None:
        """A helper doing ANNEX or EXPEL the manual's way with the world's
        operation: it lets the world change the list, then puts back every
        element where the manual would have it."""
        root = self.root
        key = ("in place", op)
        if key in root.helpers:
            return root.helpers[key]
        if key in root.building or not self._resizes(op, types):
            return None
        root.building.add(key)
        name = self.fresh(op.lower())
        names = {k: self.fresh(k) for k in ("seq", "val", "old", "i")}
        text = (ANNEX_HELPER if op == "ANNEX" else EXPEL_HELPER).format(name=name, **names)
        tree = parse(text)
        craft = tree.body[0]
        element = types[0].element() if types else Ty(top=True)
        given = {name: (list_of(element), types[1]) if op == "ANNEX" else (list_of(element),)}
        job = _Job(self.porter, tree, [], given, parent=root)
        stack: list[object] = [craft]
        while stack:
            node = stack.pop()
            if isinstance(node, s.OpCall) and node.op == op:
                job.raw.add(id(node))
            stack.extend(s.children(node))
        try:
            ported = job.stmt(craft, Ctx())
        except PortError:
            root.building.discard(key)
            return None
        root.helper_defs.append(ported)
        root.helpers[key] = name
        root.building.discard(key)
        self.note(pos, op, FUNCTION, Found(Op(op, ()), "in-place helper", ""), [], helper=name)
        return name

    def _resizes(self, op: str, types: tuple[Ty, ...]) -> bool:
        """The world's own ANNEX (EXPEL) in a CRAFT makes the list one
        longer (shorter) without failing, on every sample."""
        fn = self.view.fn(op, FUNCTION)
        lists = [v for v in values(types[0]) if type(v) is list] if types else []
        extra = values(types[1]) if op == "ANNEX" and len(types) > 1 else (None,)
        for seq in lists:
            if op == "EXPEL" and not seq:
                continue
            for val in extra[:6]:
                try:
                    self.view.reset()
                    if op == "ANNEX":
                        contents = fn(seq, val)
                        if (
                            type(contents) not in (list, tuple, str)
                            or len(contents) != len(seq) + 1
                        ):
                            return False
                    else:
                        where = fn(seq)
                        if type(where) not in (int, bool) or not -len(seq) <= where < len(seq):
                            return False
                except LanguageError:
                    return False
        return True

    def note(
        self,
        pos: s.Pos,
        site: str,
        ctx: Ctx,
        found: Found,
        names: list[str],
        helper: str | None = None,
    ) -> None:
        written = helper or show(found.template, names, self.kw)
        self.root.changes.append(
            Change(pos.line, pos.column, site, ctx.scope, found.strategy, written)
        )


_UNKNOWN = object()


def _literal_value(e: s.Expr) -> object:
    """The value a literal of the manual's program means, or _UNKNOWN."""
    if isinstance(e, (s.FloatLit, s.StrLit, s.BoolLit)) or (
        isinstance(e, s.IntLit) and e.value is not None
    ):
        return e.value
    if isinstance(e, s.NoneLit):
        return None
    return _UNKNOWN


def _hole_names(op: str, n: int) -> list[str]:
    from aliencode.sites import SITES

    names = SITES[op].operands
    if names == ("args",):
        return [f"x{k + 1}" for k in range(n)]
    if op == "EXTENT" and n == 1:
        return ["hi"]
    return list(names[:n])


def port_source(
    source: str,
    world: World,
    examples: Sequence[str] | None = None,
    keywords: Mapping[str, str] | None = None,
    bounds: Bounds | None = None,
    callers: str = "world",
) -> Ported:
    """Port one program; see Porter.port."""
    return Porter(world, bounds).port(source, examples, keywords, callers)


__all__ = ["AlienSyntaxError", "Change", "PortError", "Ported", "Porter", "port_source"]
