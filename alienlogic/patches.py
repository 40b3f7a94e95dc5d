"""A world's side conditions, compiled once and applied to many proofs.

`CompiledWorld` compiles every `require` and `conclusion` expression of a
world to host code once (from our own AST, never from text). Each check
binds them afresh to a new meter (`bind`), so step limits and deadlines are
per proof and checks running side by side share no mutable state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from alienworlds.ruleset.compile import CompiledRule, compile_rule, operator_namespace
from alienworlds.ruleset.errors import LanguageError
from alienworlds.ruleset.expr import Call, Sym, parse, walk
from alienworlds.ruleset.limits import Limits, Meter
from alienworlds.ruleset.operators import make_operators
from alienworlds.ruleset.world import Problem, Rule, World, WorldError

from .formulas import Formula
from .predicates import COMPILED_ARITY, PARAMS, StepView, namespace_entries, prepare
from .verdict import ALIEN_AXIOM_DISABLED, ALIEN_SIDE_CONDITION, Rejection

# What a side condition may ask about the layout of a proof rather than about
# the formulas and the box depth of a step: line numbers, citation counts and
# whether a line is a premise line. Searches over sequents (the certifier's
# saturation, the prover's backward search) cannot see layout, so they treat a
# layout condition as satisfiable and leave it to the checker of the emitted
# proof (docs/alienlogic.md, "Certifier and prover").
LAYOUT_OPERANDS = frozenset({"line"})
LAYOUT_FUNCTIONS = frozenset({"refline", "lastline", "times-cited", "premise?"})


def uses_layout(text: str) -> bool:
    """Whether the rule expression `text` reads the layout of the proof."""
    for node in walk(parse(text)):
        if isinstance(node, Sym) and node.name in LAYOUT_OPERANDS:
            return True
        if isinstance(node, Call) and node.op in LAYOUT_FUNCTIONS:
            return True
    return False


@dataclass(frozen=True)
class Patch:
    rule: Rule
    code: CompiledRule
    text: str = ""
    layout: bool = False  # reads line numbers, citation counts or premise lines

    @property
    def reads_conclusion(self) -> bool:
        return any(isinstance(n, Sym) and n.name == "conclusion" for n in walk(parse(self.text)))


# Provers build an Oracle, hence a CompiledWorld, per theorem: the validity
# battery compiles the same 44 library guards once per theorem and style
# without this cache (a fifth of its time). Patches are immutable.
@lru_cache(maxsize=4096)
def _compile(rule: Rule, text: str) -> Patch:
    return Patch(
        rule, compile_rule(prepare(parse(text)), PARAMS, COMPILED_ARITY), text, uses_layout(text)
    )


class CompiledWorld:
    """The side conditions of one world, by the standard rule they target."""

    def __init__(self, world: World, limits: Limits | None = None) -> None:
        self.world = world
        self.limits = limits or Limits()
        self.disabled: dict[str, Rule] = {}
        self.conclusions: dict[str, Patch] = {}
        self.requires: dict[str, list[Patch]] = {}
        problems: list[Problem] = []
        for rule in world.rules:
            if rule.disabled:
                self.disabled.setdefault(rule.target, rule)
            if rule.conclusion is not None:
                if rule.target in self.conclusions:
                    first = self.conclusions[rule.target].rule.id
                    problems.append(
                        Problem(
                            world.source or world.name,
                            f"rule {first} already patches the conclusion of {rule.target}",
                            rule.id,
                            "conclusion",
                        )
                    )
                else:
                    self.conclusions[rule.target] = _compile(rule, rule.conclusion)
            if rule.require is not None:
                self.requires.setdefault(rule.target, []).append(_compile(rule, rule.require))
        if problems:
            raise WorldError(problems)

    def bind(self) -> Binding:
        return Binding(self)


class Binding:
    """A compiled world bound to the meter of one check."""

    def __init__(self, compiled: CompiledWorld) -> None:
        self.compiled = compiled
        self._namespace: dict[str, object] | None = None
        self._functions: dict[int, Callable[..., object]] = {}

    def disabled(self, name: str) -> None:
        rule = self.compiled.disabled.get(name)
        if rule is not None:
            raise Rejection(
                rule.id, f"{name} is disabled in this world", ALIEN_AXIOM_DISABLED, rule.name
            )

    def has_patches(self, name: str) -> bool:
        return name in self.compiled.conclusions or name in self.compiled.requires

    def conclusion(self, name: str, view: StepView) -> Formula | None:
        """The patched conclusion of `name` at this step, or None when unpatched."""
        patch = self.compiled.conclusions.get(name)
        if patch is None:
            return None
        value = self._evaluate(patch, view)
        if not isinstance(value, Formula):
            raise _world_failure(
                patch,
                f"the patched conclusion ({patch.rule.conclusion}) gives no formula at this step",
            )
        if value is not view.conclusion:
            raise _world_failure(
                patch,
                f"in this world {name} derives {value} here ({patch.rule.conclusion}), not "
                f"{view.conclusion}",
            )
        return value

    def require(self, name: str, view: StepView) -> None:
        """Raise Rejection at the first side condition of `name` the step violates."""
        for patch in self.compiled.requires.get(name, ()):
            if not self._evaluate(patch, view):
                raise _world_failure(
                    patch, f"side condition {patch.rule.require} is false at this step"
                )

    def evaluate(self, patch: Patch, view: StepView) -> object:
        """The value of one patch's expression at a step; raise Rejection when it fails."""
        return self._evaluate(patch, view)

    def _evaluate(self, patch: Patch, view: StepView) -> object:
        fn = self._functions.get(id(patch))
        if fn is None:
            if self._namespace is None:
                ns = operator_namespace(make_operators(Meter(self.compiled.limits)))
                ns.update(namespace_entries())
                self._namespace = ns
            fn = self._functions[id(patch)] = patch.code.bind(self._namespace)
        try:
            return fn(*view.args())
        except LanguageError as exc:
            raise _world_failure(
                patch, f"the world's expression failed at this step: {exc}"
            ) from None


def _world_failure(patch: Patch, detail: str) -> Rejection:
    """A step refused by a world rule: only the rule's opaque id is public."""
    return Rejection(patch.rule.id, detail, ALIEN_SIDE_CONDITION, patch.rule.name)
