"""What each site really does in a world, at each kind of place in a program.

A place is a `Ctx`: inside a CRAFT body or not, inside a loop body (of the
same function) or not — exactly what a rule's scope looks at. `WorldView`
gives, for a site and a place, the rule expression that applies there (the
manual's own when no rule changes it) and a host callable computing it, with
the site's operands in the order the interpreter passes them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from alienworlds.ruleset import (
    Limits,
    Meter,
    World,
    compile_rule,
    make_operators,
    operator_namespace,
)
from alienworlds.ruleset.expr import Expr, Identity, parse

from aliencode.compiler import Context
from aliencode.sites import LAZY_OPERAND, OPERATION_BY_NAME, SITES


@dataclass(frozen=True)
class Ctx(Context):
    """The compiler's lexical context (which rule scopes match), with the
    words a porting diagnostic uses for it."""

    def describe(self) -> str:
        if self.in_function:
            return "in a loop in a CRAFT" if self.in_loop else "in a CRAFT"
        return "in a loop at top level" if self.in_loop else "at top level"

    @property
    def scope(self) -> str:
        """The narrowest rule scope naming this place."""
        if self.in_loop:
            return "loop"
        return "function" if self.in_function else "top"


TOP_LEVEL = Ctx(False, False)
FUNCTION = Ctx(True, False)
CONTEXTS = (Ctx(False, False), Ctx(True, False), Ctx(True, True), Ctx(False, True))

# The manual's meaning of every site, as a rule expression.
STANDARD: dict[str, str] = {
    **{name: op.standard for name, op in OPERATION_BY_NAME.items()},
    "ANNEX": "(append seq val)",
    "literal.int": "n",
    "literal.float": "n",
    "literal.str": "s",
    "literal.bool": "x",
    "SWEEP": "seq",
}


def operands(op: str, args: list[object]) -> list[object]:
    """The site operands the interpreter passes for a call with `args`."""
    if SITES[op].operands == ("args",):
        return [list(args)]
    if op == "EXTENT" and len(args) == 1:
        return [0, args[0]]
    if op == "CARVE" and len(args) == 2:
        return [args[0], args[1], None]
    return list(args)


class WorldView:
    """A world's semantics by site and place, compiled once."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.meter = Meter(Limits(max_steps=10**15, wall_seconds=10.0**9))
        self.namespace = operator_namespace(make_operators(self.meter))
        self._fns: dict[tuple[str, str], Callable[..., object]] = {}
        self._by_site: dict[str, list] = {}
        self._signatures: dict[tuple[Ctx, frozenset[str] | None], tuple[str, ...]] = {}
        for rule in world.rules:
            self._by_site.setdefault(rule.target, []).append(rule)

    @cached_property
    def keywords(self) -> dict[str, str]:
        return dict(self.world.keywords)

    def rule(self, site: str, ctx: Ctx):
        """The rule changing `site` at `ctx`, or None (manual semantics)."""
        for rule in self._by_site.get(site, ()):
            if ctx.matches(rule.scope):
                return None if rule.red_herring else rule
        return None

    def actual_text(self, site: str, ctx: Ctx) -> str:
        rule = self.rule(site, ctx)
        return rule.actual if rule is not None else STANDARD[site]

    def actual(self, site: str, ctx: Ctx) -> Expr:
        return parse(self.actual_text(site, ctx))

    def signature(self, ctx: Ctx, sites: frozenset[str] | None = None) -> tuple[str, ...]:
        """What `sites` (default: every site) do at `ctx` (equal signatures:
        equal semantics of those sites)."""
        found = self._signatures.get((ctx, sites))
        if found is None:
            found = self._signatures[(ctx, sites)] = tuple(
                self.actual_text(site, ctx) for site in sorted(SITES if sites is None else sites)
            )
        return found

    def altered(self, site: str, ctx: Ctx) -> bool:
        return self.rule(site, ctx) is not None

    def fn(self, site: str, ctx: Ctx) -> Callable[..., object]:
        return self.compiled(self.actual_text(site, ctx), site)

    def standard_fn(self, site: str) -> Callable[..., object]:
        return self.compiled(STANDARD[site], site)

    def compiled(self, text: str, site: str) -> Callable[..., object]:
        """`text` as a host callable over the site's operands (BOND/RIFT's
        second operand as a thunk)."""
        cache_key = (text, site)
        fn = self._fns.get(cache_key)
        if fn is None:
            expr = parse(text)
            if isinstance(expr, Identity):
                expr = parse(STANDARD[site])
            lazy = frozenset({LAZY_OPERAND[site]}) if site in LAZY_OPERAND else frozenset()
            fn = compile_rule(expr, SITES[site].operands, lazy=lazy).bind(self.namespace)
            self._fns[cache_key] = fn
        return fn

    def call(self, fn: Callable[..., object], op: str, args: list[object]) -> object:
        """Apply a site callable to call arguments (not for lazy sites)."""
        return fn(*operands(op, args))

    def reset(self) -> None:
        self.meter.reset()
