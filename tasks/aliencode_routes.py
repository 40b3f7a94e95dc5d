"""Route coverage: the rules a task's answer cannot avoid (docs/validity.md).

An avoidant answer computes what the task asks with operations the world
may have left alone: it counts with lengths instead of writing literals,
writes a sum as a difference, moves code into a CRAFT to escape a rule of
top-level code. A *capability* is one site the naive solution uses (an
operation of some arity, or a literal kind); its *routes* are the ways the
manual itself computes it: the site, and each of the manual's identities
for it (porting/identities.py for operations, LITERAL_ROUTES below for
literals), each route a set of sites. An answer may run a route at any of
the four places a rule's scope tells apart (top level, a loop, a CRAFT, a
loop in a CRAFT). A route is *open* at a place when the world alters none
of its sites there. A capability with no open route anywhere is
*unavoidable*: every answer that computes it the manual's ways meets an
altered rule, and its rules are the task's unavoidable rules.

The routes are the identities the project knows, not every program the
manual allows, and they are not typed: a capability reported unavoidable may
still have a route nobody wrote down (a SWEEP with a counter instead of
PLUCK), and an identity that holds for numbers only (SHATTER as WEAVE) counts
for text too. The battery decides; this report explains.
"""

from __future__ import annotations

from dataclasses import dataclass

from aliencode import AlienSyntaxError, World, parse
from aliencode import syntax as s
from aliencode.sites import OPERATION_BY_NAME
from aliencode.walk import LITERAL_SITES

# The manual's identities for literals, as the sites each one uses: an
# integer is the length of a list of YES, a boolean is what EVERY_OF or
# SOME_OF say of an empty list, a float is a quotient of integers.
LITERAL_ROUTES: dict[str, tuple[frozenset[str], ...]] = {
    "literal.int": (frozenset({"GAUGE", "STRAND", "literal.bool"}),),
    "literal.bool": (frozenset({"EVERY_OF", "STRAND"}), frozenset({"SOME_OF", "STRAND"})),
    "literal.float": (frozenset({"FRACTURE", "literal.int"}),),
    "literal.str": (),
}


@dataclass(frozen=True)
class Capability:
    site: str
    arity: int  # arguments of the call (0 for a literal or a loop)

    def label(self) -> str:
        return (
            self.site
            if self.site.startswith("literal.") or self.site == "SWEEP"
            else f"{self.site}/{self.arity}"
        )


def capabilities(source: str, world: World) -> set[Capability]:
    """The sites a solution uses, operations with the arities it calls them with."""
    try:
        tree = parse(source, world.keywords)
    except AlienSyntaxError:
        return set()
    found: set[Capability] = set()
    stack: list[object] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, s.OpCall):
            found.add(Capability(node.op, len(node.args)))
        elif isinstance(node, s.Sweep):
            found.add(Capability("SWEEP", 0))
        elif type(node) in LITERAL_SITES:
            found.add(Capability(LITERAL_SITES[type(node)], 0))
        stack.extend(s.children(node))
    return found


def routes(capability: Capability) -> tuple[frozenset[str], ...]:
    """The manual's ways to compute a capability, each as the sites it uses."""
    own = frozenset({capability.site})
    if capability.site in LITERAL_ROUTES:
        return (own, *LITERAL_ROUTES[capability.site])
    if capability.site not in OPERATION_BY_NAME:
        return (own,)
    from alienworlds.porting.identities import identities
    from alienworlds.porting.templates import Lit, Op

    def sites(node: object) -> set[str]:
        if isinstance(node, Op):
            return {node.op}.union(*(sites(a) for a in node.args))
        if isinstance(node, Lit):
            kind = type(node.value)
            return {
                "literal.bool"
                if kind is bool
                else "literal.int"
                if kind is int
                else "literal.float"
            }
        return set()

    return (own, *(frozenset(sites(t)) for t in identities(capability.site, capability.arity)))


def unavoidable(world: World, source: str) -> dict[Capability, tuple[str, ...]]:
    """The capabilities of `source` with no open route at any place, each
    with the world's rules that alter its own site (ids, in world order)."""
    from alienworlds.porting.semantics import CONTEXTS, WorldView

    view = WorldView(world)
    out: dict[Capability, tuple[str, ...]] = {}
    for capability in sorted(capabilities(source, world), key=lambda c: (c.site, c.arity)):
        closed = all(
            any(view.altered(site, ctx) for site in route)
            for route in routes(capability)
            for ctx in CONTEXTS
        )
        if closed:
            out[capability] = tuple(
                dict.fromkeys(
                    rule.id
                    for ctx in CONTEXTS
                    if (rule := view.rule(capability.site, ctx)) is not None
                )
            )
    return out


def unavoidable_rules(world: World, source: str) -> tuple[str, ...]:
    """The rules of every unavoidable capability of `source`, in world order."""
    found = {rule for ids in unavoidable(world, source).values() for rule in ids}
    return tuple(rule.id for rule in world.rules if rule.id in found)
