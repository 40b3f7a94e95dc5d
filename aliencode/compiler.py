"""Compile an AlienCode syntax tree, under a world, into a host code object.

The world is applied here, once per program (docs/architecture.md): every operation
call and literal is bound to the world's rule for that site and lexical scope,
or to the standard semantics. The output is a Python AST built node by node
from our own syntax tree — user names are prefixed `a_`, literals become
constants, operations become calls of checked helpers — and compiled with
`compile()`. No text a program supplies is ever parsed as host code.

Generated code carries the AlienCode line and column of every node, so an
error's position is read back from the host traceback at no run-time cost.
Steps are charged per loop iteration and per function call (the weight of the
block entered), on a countdown in the run's Meter.
"""

from __future__ import annotations

import ast
import gc
import sys
import threading
import time
import warnings
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from itertools import accumulate
from types import CodeType

from alienworlds.ruleset import (
    Limits,
    Meter,
    World,
    compile_rule,
    make_operators,
    operator_namespace,
)
from alienworlds.ruleset.compile import CompiledRule, op_identifier
from alienworlds.ruleset.expr import Call, Expr, walk
from alienworlds.ruleset.expr import parse as parse_rule
from alienworlds.ruleset.host_locations import fill_locations
from alienworlds.ruleset.world import Rule

from . import syntax as s
from .craft_cache import (
    CACHE,
    CompiledCraft,
    function_code,
    meter_state,
    placeholder,
    restore_meter,
)
from .craft_cache import substitute as substitute_crafts
from .errors import AlienSyntaxError, short
from .inline import in_place_form, operator_call, splice, spliceable
from .metering import units as probe_units
from .native import LEAF, NativeTrees, append_form, append_statements
from .operations import SAME_AS_OPERATOR, literal_ok
from .parser import CLOCK_EVERY, internal_error, time_limit
from .sites import IN_PLACE, LAZY_OPERAND, OPERATION_BY_NAME, SITES
from .statement_memo import MEMO
from .walk import LITERAL_SITES

FILENAME = "<aliencode>"
PREFIX = "a_"
DEPTH = "_d"  # hidden first parameter of every generated function: the calls left below
MAX_NESTING = 500  # blocks plus expressions, one inside another
MAX_LOOPS = 20  # nested loops in one function (the host's static block limit)


@dataclass(frozen=True)
class Context:
    """Where a node stands lexically: what scope-restricted rules see."""

    in_function: bool = False
    in_loop: bool = False  # inside a loop body of the current function
    loops: int = 0  # loops around this point in the current function
    # Host names that certainly hold an integer within native.LEAF here (a
    # SWEEP's name over a standard EXTENT, see `Compiler._counter`).
    ints: frozenset[str] = frozenset()
    # Parameters of the current function its body never rebinds, and lower
    # bounds some of them are known to meet here (see `Compiler._after`).
    stable: frozenset[str] = frozenset()
    floors: tuple[tuple[str, int | float], ...] = ()

    def matches(self, scope: str) -> bool:
        if scope == "anywhere":
            return True
        if scope == "function":
            return self.in_function
        if scope == "loop":
            return self.in_loop
        return not self.in_function and not self.in_loop  # "top"


class Bindings:
    """A world's rules grouped by site; the first rule whose scope matches wins."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.by_site: dict[str, list[Rule]] = {}
        # each rule's place in the world, by identity: the rules handed out
        # are the world's own objects (`tuple.index` compared them field by field)
        self.index = {id(rule): k for k, rule in enumerate(world.rules)}
        for rule in world.rules:
            self.by_site.setdefault(rule.target, []).append(rule)
        self.compiled: dict[str, CompiledRule] = {}
        self.exprs: dict[str, Expr] = {}
        self.sizes: dict[str, int] = {}  # operators of each rule, by id
        self.node_counts: dict[str, int] = {}

    def rule_for(self, site: str, ctx: Context) -> Rule | None:
        """The rule that changes `site` here, or None for the standard semantics."""
        for rule in self.by_site.get(site, ()):
            if ctx.matches(rule.scope):
                return None if rule.red_herring else rule
        return None

    def expression(self, rule: Rule) -> Expr:
        if rule.id not in self.exprs:
            self.exprs[rule.id] = rule_expression(rule.actual or "IDENTITY")
        return self.exprs[rule.id]

    def nodes(self, rule: Rule) -> int:
        """Nodes of a rule's expression (operators, names, constants)."""
        if rule.id not in self.node_counts:
            self.node_counts[rule.id] = sum(1 for _ in walk(self.expression(rule)))
        return self.node_counts[rule.id]

    def operators(self, rule: Rule) -> int:
        """Operator nodes in a rule's expression (at least one)."""
        if rule.id not in self.sizes:
            self.sizes[rule.id] = max(
                1, sum(1 for n in walk(self.expression(rule)) if isinstance(n, Call))
            )
        return self.sizes[rule.id]

    def function_name(self, rule: Rule) -> str:
        name = f"_w_{self.index[id(rule)]}"
        if name not in self.compiled:
            self.compiled[name] = rule_function(rule.actual or "IDENTITY", rule.target)
        return name


@lru_cache(maxsize=64)
def _fold_limits(limits: Limits) -> Limits:
    """The limits of compile-time evaluation: its own step budget, no clock."""
    return limits.replace(max_steps=limits.fold_steps, wall_seconds=float("inf"))


# A world's rules are parsed and compiled once per process, not once per
# program: a world check compiles thousands of candidate programs under the
# same rules. Both depend only on the rule's text and site.
@lru_cache(maxsize=4096)
def rule_expression(text: str) -> Expr:
    return parse_rule(text)


@lru_cache(maxsize=4096)
def rule_function(text: str, target: str) -> CompiledRule:
    lazy = frozenset({LAZY_OPERAND[target]}) if target in LAZY_OPERAND else frozenset()
    return compile_rule(rule_expression(text), SITES[target].operands, lazy=lazy)


@dataclass
class Program:
    """A compiled program: run it with `runtime.execute`."""

    tree: s.Program
    code: CodeType
    world: World
    limits: Limits
    rules: dict[str, CompiledRule] = field(default_factory=dict)
    op_sites: dict[tuple[int, int], str] = field(
        default_factory=dict
    )  # (line, column) -> surface name
    nesting: int = MAX_NESTING  # blocks and expressions one inside another, at most

    @cached_property
    def units(self) -> int:
        """The probe units the program costs (metering.py), counted when
        first asked: a grader, which compiles thousands of answers, never asks."""
        return probe_units(self.tree)


def _at(node: ast.AST, pos: s.Pos) -> ast.AST:
    # the start only: see host_locations.py
    node.lineno = pos.line
    node.col_offset = pos.column - 1
    return node


def _name(id_: str, store: bool = False) -> ast.Name:
    return ast.Name(id_, ast.Store() if store else ast.Load())


def _call(func: str, args: list[ast.expr]) -> ast.Call:
    return ast.Call(_name(func), args, [])


Extra = Callable[[s.Expr], int]  # steps a node costs beyond its own one


def _nodes(expr: s.Expr | None, extra: Extra) -> int:
    """Steps evaluating `expr` costs: one per expression node, plus `extra`."""
    if expr is None:
        return 0
    total, stack = 0, [expr]
    while stack:
        node = stack.pop()
        total += 1 + extra(node)
        stack.extend(s.children(node))
    return total


def _weight(body: tuple[s.Stmt, ...], extra: Extra) -> int:
    """Steps charged when a block is entered: one per statement and the
    steps of the expressions evaluated, not counting the bodies of nested
    loops and functions (charged when they run), plus one for entering."""
    total = 1
    for stmt in body:
        total += 1
        if isinstance(stmt, s.If):
            for cond, branch in stmt.branches:
                total += _nodes(cond, extra) + _weight(branch, extra) - 1
            if stmt.default:
                total += _weight(stmt.default, extra) - 1
        elif isinstance(stmt, s.Set):
            total += sum(_nodes(v, extra) for v in stmt.values)
        elif isinstance(stmt, s.ExprStmt):
            total += _nodes(stmt.expr, extra)
        elif isinstance(stmt, s.Deliver):
            total += _nodes(stmt.value, extra)
        elif isinstance(stmt, s.Sweep):
            total += _nodes(stmt.iterable, extra)
    return total


def _while(test: ast.expr, body: list[ast.stmt], pos: s.Pos, test_pos: s.Pos) -> ast.stmt:
    """A loop running `body` while `test` holds, as `while True:` with the
    test first in the body: the host's `while test:` jumps back with an
    instruction that does not count towards optimizing the code (Python
    3.11), so a loop at top level, or in a function called once, ran all its
    iterations unoptimized (about twice as slow)."""
    leave = _at(ast.If(_at(ast.UnaryOp(ast.Not(), test), test_pos), [ast.Break()], []), pos)
    return _at(ast.While(ast.Constant(True), [leave, *body], []), pos)


def _tick(weight: int, pos: s.Pos) -> list[ast.stmt]:
    # float constants: the budget is a float (run_meter.py)
    budget = ast.Attribute(_name("_m"), "budget", ast.Store())
    charge = ast.AugAssign(budget, ast.Sub(), ast.Constant(float(weight)))
    test = ast.Compare(
        ast.Attribute(_name("_m"), "budget", ast.Load()), [ast.Lt()], [ast.Constant(0.0)]
    )
    check = ast.If(
        test, [ast.Expr(ast.Call(ast.Attribute(_name("_m"), "checkpoint", ast.Load()), [], []))], []
    )
    return [_at(charge, pos), _at(check, pos)]


# Splicing a world's rule into a call site is only a speed-up (see inline.py):
# rules larger than this, and any splice beyond the program's budget, call
# the rule's one compiled function instead, so generated code stays linear
# in the program's size. The budget counts host nodes, at most
# HOST_PER_RULE_NODE per rule node spliced (about five on average): a budget
# in rule nodes let 9,000 sites under a 31-node rule build 1.6 million host
# nodes, 767 MB and seconds of compiling.
SPLICE_MAX_NODES = 32
SPLICE_BUDGET = 100_000
HOST_PER_RULE_NODE = 12  # `_checked_sum` makes 17 of `(+ a 1)`, three rule nodes


class Compiler:
    def __init__(
        self,
        world: World,
        limits: Limits,
        deadline: float | None = None,
        inline: bool = True,
        native: bool = True,
        shared_crafts: bool = True,
    ) -> None:
        self.world = world
        self.inline = inline
        self.limits = limits
        self.deadline = time.monotonic() + limits.wall_seconds if deadline is None else deadline
        self._nodes_seen = 0
        self._splice_left = SPLICE_BUDGET
        self._splice_short = 0  # rules left unspliced for want of budget
        self._evaluated = 0  # evaluations at compile time (folding), failed or not
        self.bindings = Bindings(world)
        self.op_sites: dict[tuple[int, int], str] = {}
        self.bound = 1 << limits.max_int_bits  # integers lie strictly within ±bound
        self.trees = NativeTrees(self.bound) if native else None
        self.native = native
        # Compile-time evaluation has its own budget, never the clock: whether
        # something is folded depends on the program alone (see `_evaluate`).
        self._fold_meter = Meter(_fold_limits(limits))
        self._literal_fns: dict[str, object] = {}
        # Names the top level binds: its variables, loop names and CRAFTs, and
        # the native sums' temporary (inline.py), wherever it is used.
        self.top_names: set[str] = {"_t"}
        # per SWEEP and CRAFT, its names bound again in its body (`module`)
        self.rebound: dict[int, frozenset[str]] = {}
        # ANNEX calls with a statement form (native.py, `append_statements`)
        self._appends: dict[int, tuple[ast.expr, list[ast.stmt]]] = {}
        # CRAFTs of the top level compiled on their own (craft_cache.py): the
        # code each placeholder of the top level stands for, by its marker
        self.shared_crafts = shared_crafts
        self.placed: dict[bytes, CodeType] = {}
        self._options = _options_id(world, limits, inline, native)
        self._texts: dict[int, str] = {}  # top-level CRAFTs' texts, by id (`module`)

    # -- steps -----------------------------------------------------------------

    def _extra(self, ctx: Context) -> Extra:
        """Steps a node costs beyond its own one where `ctx` applies: a call
        site bound to a world rule costs one more step per operator of the
        rule beyond the first, so a large rule is paid for where it runs."""

        def extra(node: s.Expr) -> int:
            site = LITERAL_SITES.get(type(node)) or (
                node.op if isinstance(node, s.OpCall) else None
            )
            rule = self.bindings.rule_for(site, ctx) if site else None
            return 0 if rule is None else self.bindings.operators(rule) - 1

        return extra

    # -- statements ------------------------------------------------------------

    def block(self, body: tuple[s.Stmt, ...], ctx: Context) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            compiled = self.stmt(stmt, ctx)
            out.extend(compiled)
            ctx = self._after(stmt, compiled, ctx)
        return out or [ast.Pass()]

    @staticmethod
    def _after(st: s.Stmt, compiled: list[ast.stmt], ctx: Context) -> Context:
        """The context of the statements after `st` in its block: past
        `UPON UNDER(n, c): ... DELIVER ...` (one branch, compiled to the
        host's `n < c`, ending in DELIVER), a parameter `n` the function
        never rebinds is a number at least `c` or NaN, since the host's
        comparison of anything else with a number raises."""
        if not (
            isinstance(st, s.If)
            and len(st.branches) == 1
            and not st.default
            and st.branches[0][1]
            and isinstance(st.branches[0][1][-1], s.Deliver)
        ):
            return ctx
        test = compiled[0].test
        if (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], (ast.Lt, ast.LtE))
            and isinstance(test.left, ast.Name)
            and test.left.id in ctx.stable
            and isinstance(test.comparators[0], ast.Constant)
            and type(test.comparators[0].value) in (int, float)
        ):
            return replace(ctx, floors=(*ctx.floors, (test.left.id, test.comparators[0].value)))
        return ctx

    def stmt(self, st: s.Stmt, ctx: Context) -> list[ast.stmt]:
        self._tick_clock()
        if isinstance(st, s.Set):
            return [self.set_stmt(st, ctx)]
        if isinstance(st, s.ExprStmt):
            value = self.expr(st.expr, ctx)
            appending = self._appends.pop(id(value), None)
            if appending is not None and appending[0] is value:
                return [_at(part, st.expr.pos) for part in appending[1]]
            return [_at(ast.Expr(value), st.pos)]
        if isinstance(st, s.If):
            return [self.if_stmt(st, ctx)]
        if isinstance(st, s.Sweep):
            return [self.sweep(st, ctx)]
        if isinstance(st, s.While):
            body_ctx = self._loop_body(ctx, st.pos)
            body = _tick(
                _weight(st.body, self._extra(body_ctx)) + _nodes(st.cond, self._extra(ctx)), st.pos
            ) + self.block(st.body, body_ctx)
            return [_while(self.expr(st.cond, ctx), body, st.pos, st.cond.pos)]
        if isinstance(st, (s.Cease, s.Bypass)):
            if not ctx.in_loop:
                word = "CEASE" if isinstance(st, s.Cease) else "BYPASS"
                raise AlienSyntaxError(
                    f"{self.world.surface(word)} outside a loop", st.pos.line, st.pos.column
                )
            return [_at(ast.Break() if isinstance(st, s.Cease) else ast.Continue(), st.pos)]
        if isinstance(st, s.Idle):
            return [_at(ast.Pass(), st.pos)]
        if isinstance(st, s.Craft):
            if ctx.in_function or not self.shared_crafts:
                return self.craft(st, ctx)
            return self.top_craft(st, ctx)
        if isinstance(st, s.Deliver):
            if not ctx.in_function:
                raise AlienSyntaxError(
                    f"{self.world.surface('DELIVER')} outside a function",
                    st.pos.line,
                    st.pos.column,
                )
            value = self.expr(st.value, ctx) if st.value is not None else ast.Constant(None)
            summed = self.trees.returned_sum(value) if self.trees is not None else None
            return summed or [_at(ast.Return(value), st.pos)]
        raise TypeError(f"unknown statement {st!r}")

    def _binds(self, names: tuple[str, ...], ctx: Context) -> None:
        if not ctx.in_function:
            self.top_names.update(PREFIX + name for name in names)

    def _loop_body(self, ctx: Context, pos: s.Pos, ints: frozenset[str] = frozenset()) -> Context:
        if ctx.loops >= MAX_LOOPS:
            raise AlienSyntaxError(
                f"too many nested loops (at most {MAX_LOOPS} in one function)", pos.line, pos.column
            )
        return replace(ctx, in_loop=True, loops=ctx.loops + 1, ints=ctx.ints | ints)

    def set_stmt(self, st: s.Set, ctx: Context) -> ast.stmt:
        names, values = st.targets, st.values
        self._binds(names, ctx)
        if len(names) == 1:
            if len(values) != 1:
                raise AlienSyntaxError(
                    f"{self.world.surface('SET')} gives {len(values)} values to 1 name",
                    st.pos.line,
                    st.pos.column,
                )
            return _at(
                ast.Assign([_name(PREFIX + names[0], True)], self.expr(values[0], ctx)), st.pos
            )
        targets = ast.Tuple([_name(PREFIX + n, True) for n in names], ast.Store())
        if len(values) == len(names):
            value: ast.expr = ast.Tuple([self.expr(v, ctx) for v in values], ast.Load())
        elif len(values) == 1:
            value = self.expr(
                values[0], ctx
            )  # unpacked; a length mismatch is a ValueError at run time
        else:
            raise AlienSyntaxError(
                f"{self.world.surface('SET')} gives {len(values)} values to {len(names)} names",
                st.pos.line,
                st.pos.column,
            )
        return _at(ast.Assign([targets], value), st.pos)

    def if_stmt(self, st: s.If, ctx: Context) -> ast.stmt:
        orelse = self.block(st.default, ctx) if st.default else []
        for cond, body in reversed(st.branches[1:]):
            node = ast.If(self.expr(cond, ctx), self.block(body, ctx), orelse)
            orelse = [_at(node, cond.pos)]
        cond, body = st.branches[0]
        return _at(ast.If(self.expr(cond, ctx), self.block(body, ctx), orelse), st.pos)

    def sweep(self, st: s.Sweep, ctx: Context) -> ast.stmt:
        if len(st.names) > 2:
            raise AlienSyntaxError(
                f"{self.world.surface('SWEEP')} takes one or two names", st.pos.line, st.pos.column
            )
        self._binds(st.names, ctx)
        if len(st.names) == 1:
            target: ast.expr = _name(PREFIX + st.names[0], True)
        else:
            target = ast.Tuple([_name(PREFIX + n, True) for n in st.names], ast.Store())
        seq = self.expr(st.iterable, ctx)
        rule = self.bindings.rule_for("SWEEP", ctx)
        if rule is not None:
            seq = _call(self.bindings.function_name(rule), [seq])
        walked = _at(_call("_s_SWEEP", [seq]), st.pos)
        body_ctx = self._loop_body(ctx, st.pos, self._counter(st, seq))
        body = _tick(_weight(st.body, self._extra(body_ctx)), st.pos) + self.block(
            st.body, body_ctx
        )
        return _at(ast.For(target, walked, body, []), st.pos)

    def _counter(self, st: s.Sweep, seq: ast.expr) -> frozenset[str]:
        """The SWEEP's name, when it certainly holds an integer within
        native.LEAF throughout the body: the loop walks the standard EXTENT
        from an integer constant (a fresh list of consecutive integers no
        name refers to, at most max_length of them) and the body never
        binds the name. Native trees then read it without a guard."""
        if not (
            len(st.names) == 1
            and isinstance(seq, ast.Call)
            and isinstance(seq.func, ast.Name)
            and seq.func.id == RANGE
            and len(seq.args) == 2
            and isinstance(seq.args[0], ast.Constant)
            and type(seq.args[0].value) is int
            and abs(seq.args[0].value) + self.limits.max_length <= LEAF
        ):
            return frozenset()
        name = st.names[0]
        return frozenset() if name in self.rebound[id(st)] else frozenset({PREFIX + name})

    def craft(self, st: s.Craft, ctx: Context) -> list[ast.stmt]:
        if len(set(st.params)) != len(st.params):
            raise AlienSyntaxError(
                f"duplicate parameter name in {short(st.name)}", st.pos.line, st.pos.column
            )
        self._binds((st.name,), ctx)
        rebound = self.rebound[id(st)]
        inner = Context(True, stable=frozenset(PREFIX + p for p in st.params if p not in rebound))
        # The calls still allowed below this one travel as a hidden first
        # argument: no shared counter to restore on the way out, and the
        # check compares with a constant.
        prologue = _tick(_weight(st.body, self._extra(inner)), st.pos)
        too_deep = ast.Compare(_name(DEPTH), [ast.Lt()], [ast.Constant(0)])
        prologue.append(_at(ast.If(too_deep, [ast.Expr(_call("_depth_exceeded", []))], []), st.pos))
        params = [ast.arg(DEPTH), *(ast.arg(PREFIX + p) for p in st.params)]
        args = ast.arguments(
            posonlyargs=[], args=params, kwonlyargs=[], kw_defaults=[], defaults=[]
        )
        fn = ast.FunctionDef(
            PREFIX + st.name, args, prologue + self.block(st.body, inner), [], None
        )
        return [_at(fn, st.pos), _craft_label(st)]

    def top_craft(self, st: s.Craft, ctx: Context) -> list[ast.stmt]:
        """A CRAFT outside any function: its code compiled on its own, or
        found compiled (craft_cache.py), and a placeholder definition in its
        place, which compile_program replaces by that code."""
        text = self._texts.get(id(st))
        # By its text, a CRAFT is found wherever it stands (its code moved to
        # its line); without it, by its tree, positions included.
        key = (self._options, st if text is None else text)
        found = CACHE.get(key, self._splice_left, meter_state(self._fold_meter))
        if found is None:
            found, label = self._craft_alone(st, ctx)
            CACHE.put(key, found)
            code = found.code
        else:
            self._binds((st.name,), ctx)
            self.op_sites.update(found.sites_at(st.pos.line))
            for name, rule in found.rules.items():
                self.bindings.compiled.setdefault(name, rule)
            self._splice_left -= found.splice_used
            if found.fold_from is not None:
                restore_meter(self._fold_meter, found.fold_to)
            label = _craft_label(st)
            code = found.code_at(st.pos.line)
        marker = b"%d" % len(self.placed)
        self.placed[marker] = code
        return [_at(placeholder(PREFIX + st.name, marker), st.pos), label]

    def _craft_alone(self, st: s.Craft, ctx: Context) -> tuple[CompiledCraft, ast.stmt]:
        """Compile `st` as `craft` does, recording the operation sites and
        the rules it uses (apart from the program's, then added to them)."""
        sites, rules = self.op_sites, self.bindings.compiled
        self.op_sites, self.bindings.compiled = {}, {}
        splice_from, short, evaluated = self._splice_left, self._splice_short, self._evaluated
        fold_from = meter_state(self._fold_meter)
        try:
            definition, label = self.craft(st, ctx)
        finally:
            own_sites, own_rules = self.op_sites, self.bindings.compiled
            self.op_sites, self.bindings.compiled = sites, rules
        sites.update(own_sites)
        for name, rule in own_rules.items():
            rules.setdefault(name, rule)
        fill_locations(definition)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # as in compile_program
            code = function_code(definition, TOP, FILENAME)
        found = CompiledCraft(
            st.pos.line,
            code,
            own_sites,
            own_rules,
            splice_from,
            splice_from - self._splice_left,
            self._splice_short > short,
            fold_from if self._evaluated > evaluated else None,
            meter_state(self._fold_meter),
        )
        return found, label

    # -- expressions -----------------------------------------------------------

    def _tick_clock(self) -> None:
        """The wall-clock backstop covers compiling too (looked at every
        CLOCK_EVERY nodes)."""
        self._nodes_seen += 1
        if self._nodes_seen % CLOCK_EVERY == 0 and time.monotonic() > self.deadline:
            raise time_limit(self.limits)

    def expr(self, e: s.Expr, ctx: Context) -> ast.expr:
        self._tick_clock()
        if isinstance(e, s.Name):
            return _at(_name(PREFIX + e.id), e.pos)
        if isinstance(e, s.IntLit):
            if e.value is None:
                return _at(
                    _call(
                        "_fail",
                        [
                            ast.Constant("LimitExceeded"),
                            ast.Constant(f"integer size of {self.limits.max_int_bits} bits"),
                        ],
                    ),
                    e.pos,
                )
            return self.literal("literal.int", e.value, e.pos, ctx)
        if isinstance(e, s.FloatLit):
            return self.literal("literal.float", e.value, e.pos, ctx)
        if isinstance(e, s.StrLit):
            if len(e.value) > self.limits.max_length:
                return self._too_long(e.pos)
            return self.literal("literal.str", e.value, e.pos, ctx)
        if isinstance(e, s.BoolLit):
            return self.literal("literal.bool", e.value, e.pos, ctx)
        if isinstance(e, s.NoneLit):
            return _at(ast.Constant(None), e.pos)
        if isinstance(e, s.Call):
            args = [self._depth(ctx), *(self.expr(a, ctx) for a in e.args)]
            return _at(ast.Call(self.expr(e.func, ctx), args, []), e.pos)
        if isinstance(e, s.OpCall):
            return self.operation(e, ctx)
        raise TypeError(f"unknown expression {e!r}")

    @cached_property
    def _const_ns(self) -> dict[str, object]:
        """The operators compile-time evaluation calls, charged to the fold
        meter: made on first use, since many programs fold nothing of their
        own (in generating eval-a, 44% of those compiled: their CRAFTs were
        found compiled)."""
        return operator_namespace(make_operators(self._fold_meter))

    def _evaluate(self, fn, values: list[object]) -> tuple[bool, object]:
        """Evaluate at compile time: (True, value), or (False, None) when the
        evaluation fails for any reason (a language error, a limit, the fold
        budget spent, a host exception). A failed evaluation is left to run
        time, where it is charged and reported like any other, so folding
        never changes what a program does, only when the work is done."""
        self._evaluated += 1
        try:
            self._fold_meter.charge(1)
            return True, fn(*values)
        except Exception:  # noqa: BLE001 - see the docstring: nothing is decided here
            return False, None

    def _fold(self, op: str, values: list[object]) -> ast.expr | None:
        fn = self._const_ns.get(op_identifier(op))
        if fn is None:
            return None
        ok, value = self._evaluate(fn, values)
        return ast.Constant(value) if ok and literal_ok(value) else None

    @staticmethod
    def _depth(ctx: Context) -> ast.expr:
        """The calls left below a call made here (the run's depth limit
        less its depth; negative past the limit)."""
        if not ctx.in_function:
            return _name("_TOPD")
        return ast.BinOp(_name(DEPTH), ast.Sub(), ast.Constant(1))

    def literal(self, site: str, value: object, pos: s.Pos, ctx: Context) -> ast.expr:
        rule = self.bindings.rule_for(site, ctx)
        if rule is None:
            return self._constant(value, pos)
        name = self.bindings.function_name(rule)
        if self.inline:
            fn = self._literal_fns.get(name)
            if fn is None:
                fn = self._literal_fns[name] = self.bindings.compiled[name].bind(self._const_ns)
            ok, result = self._evaluate(fn, [value])
            if ok and literal_ok(result):
                return self._constant(result, pos)
        # A mutable value is made afresh each time; a failure happens at run time.
        return _at(_call(name, [ast.Constant(value)]), pos)

    def _too_long(self, pos: s.Pos) -> ast.expr:
        message = f"sequence length of {self.limits.max_length}"
        return _at(_call("_fail", [ast.Constant("LimitExceeded"), ast.Constant(message)]), pos)

    def _constant(self, value: object, pos: s.Pos) -> ast.expr:
        if type(value) is int and not -(1 << self.limits.max_int_bits) < value < (
            1 << self.limits.max_int_bits
        ):
            return _at(
                _call(
                    "_fail",
                    [
                        ast.Constant("LimitExceeded"),
                        ast.Constant(f"integer size of {self.limits.max_int_bits} bits"),
                    ],
                ),
                pos,
            )
        return _at(ast.Constant(value), pos)

    def operation(self, e: s.OpCall, ctx: Context) -> ast.expr:
        op = OPERATION_BY_NAME[e.op]
        self.op_sites[(e.pos.line, e.pos.column)] = e.surface
        if len(e.args) > self.limits.max_length:
            return self._too_long(e.pos)
        args = [self.expr(a, ctx) for a in e.args]
        n = len(args)
        if n < op.min_args or (op.max_args is not None and n > op.max_args):
            if op.max_args is None:
                want = f"at least {op.min_args} argument{'s' if op.min_args != 1 else ''}"
            elif op.min_args == op.max_args:
                want = f"{op.min_args} argument{'s' if op.min_args != 1 else ''}"
            else:
                want = f"{op.min_args} or {op.max_args} arguments"
            message = f"takes {want} but {n} {'was' if n == 1 else 'were'} given"
            return _at(
                _call("_fail", [ast.Constant("TypeError"), ast.Constant(message), *args]), e.pos
            )
        if op.operands == ("args",):
            operands: list[ast.expr] = [ast.List(args, ast.Load())]
        elif e.op == "EXTENT" and n == 1:
            operands = [ast.Constant(0), args[0]]
        elif e.op == "CARVE" and n == 2:
            operands = [*args, ast.Constant(None)]
        else:
            operands = args
        if e.op == "STRAIN":
            operands = [_call("_at_depth", [operands[0], self._depth(ctx)]), operands[1]]
        if self.trees is not None:
            self.trees.known = ctx.ints
            self.trees.floors = dict(ctx.floors)
        rule = self.bindings.rule_for(e.op, ctx)
        if rule is None:
            if e.op == "STRAIN" and self.native:
                return _at(_call("_s_STRAIN", operands), e.pos)
            if e.op in SAME_AS_OPERATOR:
                return _at(
                    operator_call(SAME_AS_OPERATOR[e.op], operands, self.bound, trees=self.trees),
                    e.pos,
                )
            checked = self._standard(e.op, args, operands)
            if e.op == "FUSE" and n == 2 and self.native:
                checked = _call("_s_FUSE2", args)  # no list to build (operations.py)
            if e.op == "ANNEX" and self.native:
                node = _at(append_form(operands[0], operands[1], checked), e.pos)
                statements = append_statements(operands[0], operands[1], _at(checked, e.pos))
                if statements is not None:
                    # taken instead if the call stands as a statement
                    self._appends[id(node)] = (node, statements)
                return node
            return _at(checked, e.pos)
        expr = self.bindings.expression(rule)
        named = dict(zip(op.operands, operands))
        if (
            self.inline
            and e.op not in LAZY_OPERAND
            and e.op != "EMIT"
            and self._may_splice(rule)
            and spliceable(expr, named)
        ):
            if e.op not in IN_PLACE:
                return _at(splice(expr, named, self.bound, self._fold, trees=self.trees), e.pos)
            direct = in_place_form(e.op, expr)
            if direct is not None:
                helper, parts = direct
                used: set[str] = set()
                return _at(
                    _call(
                        helper,
                        [
                            splice(part, named, self.bound, self._fold, used, self.trees)
                            for part in parts
                        ],
                    ),
                    e.pos,
                )
        fn = self.bindings.function_name(rule)
        if e.op in LAZY_OPERAND:
            thunk = ast.Lambda(
                ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
                operands[1],
            )
            node: ast.expr = _call(fn, [operands[0], _call("_once", [thunk])])
        elif e.op == "EXPEL":
            node = _call("_expel_at", [_name(fn), *operands])
        elif e.op in IN_PLACE:
            node = _call("_inplace", [_name(fn), *operands])
        elif e.op == "EMIT":
            node = _call("_s_EMIT", [_call(fn, operands)])
        else:
            node = _call(fn, operands)
        return _at(node, e.pos)

    def _may_splice(self, rule: Rule) -> bool:
        nodes = self.bindings.nodes(rule)
        if nodes > SPLICE_MAX_NODES:
            return False
        if nodes * HOST_PER_RULE_NODE > self._splice_left:
            self._splice_short += 1
            return False
        self._splice_left -= nodes * HOST_PER_RULE_NODE
        return True

    @staticmethod
    def _standard(op: str, args: list[ast.expr], operands: list[ast.expr]) -> ast.expr:
        # The cheapest faithful host form of the manual's meaning.
        if op == "STRAND":
            return ast.List(args, ast.Load())
        if op == "KNOT":
            return ast.Tuple(args, ast.Load())
        if op == "BOND":
            return ast.BoolOp(ast.And(), args)
        if op == "RIFT":
            return ast.BoolOp(ast.Or(), args)
        if op == "NEGATE":
            return ast.UnaryOp(ast.Not(), args[0])
        return _call("_s_" + op, operands)

    def module(self, program: s.Program, text: str | None = None) -> ast.Module:
        """The host module of `program`; `text`, when given, is the text it
        was parsed from (as the parser reads it: line feeds, ending in one),
        by which CRAFTs of the top level are looked up in the cache."""
        self.rebound = rebound_names(program)
        if text is not None and self.shared_crafts:
            self._texts = statement_texts(program, text)
        top = Context()
        body = _tick(_weight(program.body, self._extra(top)), s.Pos(1, 1)) + self.block(
            program.body, top
        )
        return ast.Module(_as_function(body, self.top_names), [])


def statement_texts(program: s.Program, text: str) -> dict[int, str]:
    """The text of each CRAFT of the top level (by id): its lines up to the
    next statement's. A statement of the top level starts a line, and the
    lexer counts lines by line feeds, so the text determines the CRAFT's
    tree but for the line it starts on."""
    found: dict[int, str] = {}
    body = program.body
    if not any(isinstance(st, s.Craft) for st in body):
        return found
    starts = [0, *accumulate(len(line) + 1 for line in text.split("\n"))]
    for k, st in enumerate(body):
        if isinstance(st, s.Craft):
            end = starts[body[k + 1].pos.line - 1] if k + 1 < len(body) else len(text)
            found[id(st)] = text[starts[st.pos.line - 1] : end]
    return found


def _craft_label(st: s.Craft) -> ast.stmt:
    """Names the function for the runtime's messages."""
    return _at(ast.Expr(_call("_fn", [_name(PREFIX + st.name), ast.Constant(st.name)])), st.pos)


_OPTIONS: dict[tuple, int] = {}
_BY_WORLD: dict[tuple, tuple[World, int]] = {}  # (id(world), ...) -> (the world, its number)
_OPTIONS_LOCK = threading.Lock()
MAX_OPTIONS = 4096  # then numbered afresh, the CRAFT cache emptied with them


def _options_id(world: World, limits: Limits, inline: bool, native: bool) -> int:
    """A number for what, besides the CRAFT itself, its code depends on (a
    CRAFT cache key is hashed at every lookup; a world's rules are hashed
    once here). Two of them never share a number while the cache holds
    entries keyed by it: numbers are handed out under a lock, and when a
    long-running process (a sweep over many worlds) has used MAX_OPTIONS,
    they start again with an empty cache."""
    # A world object is found again by identity: graders compile thousands of
    # programs under one, and hashing and comparing its rules each time cost
    # more than the lookup (worlds are values: nothing changes one in place).
    fast = (id(world), limits, inline, native)
    with _OPTIONS_LOCK:
        seen = _BY_WORLD.get(fast)
        if seen is not None and seen[0] is world:
            return seen[1]
        key = (world.rules, tuple(sorted(world.keywords.items())), limits, inline, native)
        if key not in _OPTIONS and len(_OPTIONS) >= MAX_OPTIONS:
            _OPTIONS.clear()
            _BY_WORLD.clear()
            CACHE.clear()
        number = _OPTIONS.setdefault(key, len(_OPTIONS))
        if len(_BY_WORLD) >= MAX_OPTIONS:
            _BY_WORLD.clear()
        _BY_WORLD[fast] = (world, number)
        return number


TOP = "_top"  # the function the top level runs in
RANGE = op_identifier("range")  # the standard EXTENT, whatever rule it was written in


def rebound_names(tree: s.Program) -> dict[int, frozenset[str]]:
    """For every SWEEP and CRAFT of `tree` (by id), which of its own names
    (the SWEEP's, the CRAFT's parameters) a SET, SWEEP or CRAFT binds again
    anywhere in its body, nested functions included (a superset of what can
    rebind them). Only a node's own body counts, so each statement of the
    top level is walked on its own, once per statement object
    (statement_memo.py)."""
    found: dict[int, frozenset[str]] = {}
    for statement in tree.body:
        found.update(MEMO.fact(statement, "rebound", _rebound_in))
    return found


def _rebound_in(statement: s.Stmt) -> dict[int, frozenset[str]]:
    """rebound_names of one statement, in one walk: a binding marks the
    enclosing nodes watching its name and stops them watching, so the work
    stays linear in the tree however deeply loops and functions nest."""
    found: dict[int, set[str]] = {}
    watching: dict[str, set[int]] = {}
    stack: list[tuple[object, bool]] = [(statement, False)]
    while stack:
        node, leaving = stack.pop()
        own = (
            node.names
            if isinstance(node, s.Sweep)
            else node.params
            if isinstance(node, s.Craft)
            else ()
        )
        if leaving:
            for name in own:
                watching.setdefault(name, set()).discard(id(node))
            continue
        bound = (
            node.targets
            if isinstance(node, s.Set)
            else (node.name,)
            if isinstance(node, s.Craft)
            else node.names
            if isinstance(node, s.Sweep)
            else ()
        )
        for name in bound:
            for watcher in watching.pop(name, ()):
                found[watcher].add(name)
        if isinstance(node, (s.Sweep, s.Craft)):
            found[id(node)] = set()
            for name in own:
                watching.setdefault(name, set()).add(id(node))
            stack.append((node, True))
        stack.extend((child, False) for child in reversed(s.children(node)))
    # shared by every program with this statement object: never changed
    return {key: frozenset(names) for key, names in found.items()}


def _as_function(body: list[ast.stmt], bound: set[str]) -> list[ast.stmt]:
    """The top level as the body of a function called once, every name it
    binds (`bound`) declared global: the host reads a module's names from a
    dictionary by name at each use, a function's globals through a cache. The
    program's variables stay in the run's namespace (where the census finds
    them and a session keeps them); the function's frame binds nothing of its
    own, so a census walking it finds what it found in the module's frame:
    nothing."""
    names = sorted(bound)
    inner = ([ast.Global(names)] if names else []) + body
    args = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
    top = ast.FunctionDef(TOP, args, inner, [], None)
    call = ast.Expr(_call(TOP, []))
    return [_at(top, s.Pos(1, 1)), _at(call, s.Pos(1, 1))]


def check_nesting(tree: s.Program) -> int:
    """Refuse programs nested deeper than MAX_NESTING (iteratively, so the
    check itself cannot overflow); the deepest nesting found. Statements
    are looked at from the last, as one walk of the whole tree would, so
    the error reported is the same; each once per statement object
    (statement_memo.py)."""
    deepest = 0
    for statement in reversed(tree.body):
        deepest = max(deepest, MEMO.fact(statement, "nesting", _nesting_of))
    return deepest


def _nesting_of(statement: s.Stmt) -> int:
    stack: list[tuple[object, int]] = [(statement, 1)]
    deepest = 0
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > MAX_NESTING:
            pos = getattr(node, "pos", None)
            raise AlienSyntaxError(
                f"the program is nested too deeply (at most {MAX_NESTING} levels)",
                pos.line if pos else None,
                pos.column if pos else None,
            )
        if isinstance(node, s.If):
            # each LEST is compiled as an `if` nested in the previous one's else
            for k, (cond, body) in enumerate(node.branches):
                stack.append((cond, depth + k + 1))
                stack.extend((child, depth + k + 1) for child in body)
            stack.extend((child, depth + len(node.branches)) for child in node.default or ())
        else:
            stack.extend((child, depth + 1) for child in s.children(node))
    return deepest


@contextmanager
def cycle_collection_paused():
    """Building a large syntax tree makes hundreds of thousands of objects
    and no garbage cycle; the host's cycle collector, triggered by the
    allocations alone, took a third of the time compiling a large program
    (which then met the wall-clock backstop sooner on a busy machine)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def compile_program(
    tree: s.Program,
    world: World,
    limits: Limits | None = None,
    deadline: float | None = None,
    *,
    inline: bool = True,
    native: bool = True,
    shared_crafts: bool = True,
    text: str | None = None,
) -> Program:
    """Bind `tree` to `world` and compile it; raise AlienSyntaxError on a
    program the grammar accepts but the language does not (CEASE outside a
    loop, DELIVER outside a function, ...), with kind LimitExceeded past
    `deadline` (a time.monotonic() value; default: the limits' wall clock
    from now) and kind InternalError if compiling fails in a way of ours.

    With `inline=False` every operation and literal bound to a rule calls the
    rule's compiled function (`Program.rules`, bound when the program runs)
    instead of inlining it or folding it at compile time: the same
    behaviour, and a program whose rules can be swapped or observed without
    compiling it again (the explorer's hypothesis engine runs one probe
    under many candidate rules this way).

    With `native=False` no operation gets a guarded native form (native.py):
    the same behaviour, step for step; tests compare the two.

    With `shared_crafts=False` every CRAFT of the top level is compiled in
    place instead of found in or added to the process's cache
    (craft_cache.py): the same code; tests compare the two. `text` is the
    text `tree` was parsed from, as the parser read it (parser.py,
    `normalized`), by which such a CRAFT is found at whatever line it
    stands; without it, only at the same line."""
    limits = limits or Limits()
    old_limit = sys.getrecursionlimit()
    # Building, locating and compiling the host AST recurse once per level.
    sys.setrecursionlimit(max(old_limit, 20 * MAX_NESTING + 2000))
    try:
        with cycle_collection_paused():
            nesting = check_nesting(tree)
            compiler = Compiler(world, limits, deadline, inline, native, shared_crafts)
            module = compiler.module(tree, text)
            fill_locations(module)
            with warnings.catch_warnings():
                # The host's own lint (e.g. "'str' object is not callable") must not
                # reach a user; the run reports such mistakes as AlienErrors.
                warnings.simplefilter("ignore")
                code = compile(module, FILENAME, "exec", dont_inherit=True)
            if compiler.placed:
                code = substitute_crafts(code, TOP, compiler.placed)
            # freed before the cycle collector resumes, which would otherwise
            # walk the whole host tree once before it is dropped
            del module
    except AlienSyntaxError:
        raise
    except RecursionError:
        raise AlienSyntaxError(
            f"the program is nested too deeply (at most {MAX_NESTING} levels)", None, None
        ) from None
    except Exception as exc:  # noqa: BLE001 - a failure of ours, reported without host detail
        raise internal_error(exc) from None
    finally:
        sys.setrecursionlimit(old_limit)
    return Program(
        tree=tree,
        code=code,
        world=world,
        limits=limits,
        rules=dict(compiler.bindings.compiled),
        op_sites=compiler.op_sites,
        nesting=nesting,
    )
