"""Candidate theorems: templates instantiated at random, and random theorems.

`stream(rng)` yields an endless, duplicate-free sequence of classically
valid theorems, each a `Candidate`:

* a template of templates.toml (a known schema: modus ponens, De Morgan,
  quantifier shifts, equality, ...) with its metavariables filled: formulas
  for {A} {B} {C}, predicate, constant and function names for the rest;
* a random propositional theorem: random premises and goal over three
  atoms, kept when truth tables show it valid, its premises satisfiable and
  no formula joins a part with itself;
* such a theorem lifted to first order: its atoms become predicates of x,
  and every premise and the goal universal (or the goal an instance at a
  constant, or premise and goal existential when there is one premise).

The stream depends on its random source alone, never on the world, so the
same seed offers the same theorems to every world drawn from it.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import product

from alienlogic import (
    And,
    Exists,
    Fn,
    Forall,
    Formula,
    Impl,
    Name,
    Not,
    Or,
    Pred,
    Theorem,
    parse_formula,
)
from alienlogic.formulas import Binary, children
from alienlogic.patch_library import LibraryError

ATOMS = ("p", "q", "r", "s")
RANDOM_ATOMS = ("p", "q", "r")
LIFTED_ATOMS = ("p", "q")  # lifted theorems stay small: first-order searches grow fast
UNARY = ("P", "Q", "S", "T")
BINARY = ("R", "K")
CONSTANTS = ("a", "b", "c", "d")
FUNCTIONS = ("f", "g")
TEMPLATE_USES = 3  # instances of one template in the stream, at most
# the mix of the stream: templates, random propositional, lifted random
WEIGHTS = (("template", 0.55), ("random", 0.25), ("lifted", 0.20))


@dataclass(frozen=True)
class Candidate:
    theorem: Theorem
    origin: str  # "template", "random" or "lifted"
    template: int | None = None  # the template's index in templates.toml

    @property
    def key(self) -> str:
        """The theorem up to renaming: atoms, predicates, constants and
        function names numbered in order of first occurrence, so that
        `IMPL(p, q), p ⊢ q` and `IMPL(r, s), r ⊢ s` count as one theorem."""
        names: dict[tuple[str, str], str] = {}

        def rename(node, bound: frozenset[str]) -> str:
            t = type(node)
            if t is Pred or t is Fn:
                kind = "atom" if t is Pred and not node.terms else "pred" if t is Pred else "fn"
                head = names.setdefault((kind, node.name), f"{kind}{len(names)}")
                return head + (
                    "(" + ",".join(rename(c, bound) for c in node.terms) + ")" if node.terms else ""
                )
            if t is Name:
                return (
                    node.name
                    if node.name in bound
                    else names.setdefault(("name", node.name), f"c{len(names)}")
                )
            if t in (Forall, Exists):
                return f"{t.__name__}({node.var},{rename(node.body, bound | {node.var})})"
            return f"{t.__name__}(" + ",".join(rename(c, bound) for c in children(node)) + ")"

        return " ; ".join(
            rename(f, frozenset()) for f in (*self.theorem.premises, self.theorem.goal)
        )


@dataclass(frozen=True)
class Template:
    premises: tuple[str, ...]
    goal: str


@cache
def _data() -> dict[str, list]:
    text = resources.files(__package__).joinpath("templates.toml").read_text(encoding="utf-8")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LibraryError(f"templates.toml: {exc}") from None


@cache
def templates() -> tuple[Template, ...]:
    return tuple(
        Template(tuple(t.get("premises", [])), t["goal"]) for t in _data().get("template", [])
    )


@dataclass(frozen=True)
class Core:
    """A theorem every generated world must keep (or mostly keep) provable."""

    theorem: Theorem
    required: bool


@cache
def core() -> tuple[Core, ...]:
    return tuple(
        Core(
            Theorem(
                tuple(parse_formula(p) for p in c.get("premises", [])), parse_formula(c["goal"])
            ),
            c.get("required", False),
        )
        for c in _data().get("core", [])
    )


def small_formula(rng: random.Random, atoms: tuple[str, ...]) -> Formula:
    """An atom (mostly), a negated atom, or two different atoms joined."""
    roll = rng.random()
    if roll < 0.65:
        return Pred(rng.choice(atoms), ())
    if roll < 0.8:
        return Not(Pred(rng.choice(atoms), ()))
    a, b = rng.sample(atoms, 2)
    return rng.choice((And, Or, Impl))(Pred(a, ()), Pred(b, ()))


def instantiate(rng: random.Random, template: Template) -> Theorem:
    """The template with its metavariables filled (different ones differently)."""
    text = " ".join((*template.premises, template.goal))
    fill: dict[str, str] = {}
    formulas: list[Formula] = []
    for meta in ("A", "B", "C"):
        if "{" + meta + "}" in text:
            while True:
                f = small_formula(rng, ATOMS)
                if f not in formulas and not any(_complementary(f, g) for g in formulas):
                    break
            formulas.append(f)
            fill[meta] = str(f)
    unary = rng.sample(UNARY, 2)
    consts = rng.sample(CONSTANTS, 3)
    fill.update(
        P=unary[0],
        Q=unary[1],
        R=rng.choice(BINARY),
        a=consts[0],
        b=consts[1],
        c=consts[2],
        f=rng.choice(FUNCTIONS),
    )

    def put(s: str) -> str:
        for key, value in fill.items():
            s = s.replace("{" + key + "}", value)
        return s

    return Theorem(
        tuple(parse_formula(put(p)) for p in template.premises), parse_formula(put(template.goal))
    )


def _complementary(f: Formula, g: Formula) -> bool:
    """f and g are a formula and its negation (a template's A and B would collapse)."""
    return f is Not(g) or g is Not(f)


def random_formula(rng: random.Random, depth: int, atoms: tuple[str, ...]) -> Formula:
    if depth == 0 or rng.random() < 0.3:
        return Pred(rng.choice(atoms), ())
    kind = rng.choice(("NOT", "AND", "OR", "IMPL", "IMPL"))
    if kind == "NOT":
        return Not(random_formula(rng, depth - 1, atoms))
    cls = {"AND": And, "OR": Or, "IMPL": Impl}[kind]
    return cls(random_formula(rng, depth - 1, atoms), random_formula(rng, depth - 1, atoms))


def _degenerate(f: Formula) -> bool:
    """A part joined with itself somewhere (AND(r, r), IMPL(p, p), ...)."""
    if isinstance(f, Binary) and f.left is f.right:
        return True
    return any(isinstance(c, Formula) and _degenerate(c) for c in children(f))


def _atoms(formulas) -> list[str]:
    out: dict[str, None] = {}
    stack = list(formulas)
    while stack:
        f = stack.pop()
        if type(f) is Pred and not f.terms:
            out[f.name] = None
        stack.extend(c for c in children(f) if isinstance(c, Formula))
    return sorted(out)


def _value(f: Formula, v: dict[str, bool]) -> bool:
    t = type(f)
    if t is Pred:
        return v[f.name]
    if t is Not:
        return not _value(f.body, v)
    if t is And:
        return _value(f.left, v) and _value(f.right, v)
    if t is Or:
        return _value(f.left, v) or _value(f.right, v)
    if t is Impl:
        return not _value(f.left, v) or _value(f.right, v)
    return False  # BOT


def valid(theorem: Theorem) -> bool:
    """Propositional validity by truth tables (the premises satisfiable too)."""
    atoms = _atoms((*theorem.premises, theorem.goal))
    satisfiable = False
    for bits in product((False, True), repeat=len(atoms)):
        v = dict(zip(atoms, bits))
        if all(_value(p, v) for p in theorem.premises):
            satisfiable = True
            if not _value(theorem.goal, v):
                return False
    return satisfiable


def random_theorem(
    rng: random.Random, atoms: tuple[str, ...] = RANDOM_ATOMS, depth: int = 2
) -> Theorem | None:
    """Random premises and goal of at most `depth` connectives nested (one
    more for a goal without premises), or None when the draw is not a valid,
    natural theorem (see the module doc)."""
    premises = tuple(random_formula(rng, depth, atoms) for _ in range(rng.choice((0, 1, 1, 2, 2))))
    goal = random_formula(rng, depth if premises else depth + 1, atoms)
    th = Theorem(premises, goal)
    if (
        type(goal) is Pred
        and not premises
        or goal in premises
        or len(set(premises)) < len(premises)
    ):
        return None
    if any(_degenerate(f) for f in (*premises, goal)) or not valid(th):
        return None
    return th


def lift(rng: random.Random, theorem: Theorem) -> Theorem:
    """A valid propositional theorem made first-order (see the module doc)."""
    names = dict(zip(_atoms((*theorem.premises, theorem.goal)), rng.sample(UNARY, 4)))
    x = Name("x")

    def at(f: Formula, term) -> Formula:
        t = type(f)
        if t is Pred:
            return Pred(names[f.name], (term,))
        if t is Not:
            return Not(at(f.body, term))
        if t in (And, Or, Impl):
            return t(at(f.left, term), at(f.right, term))
        return f

    mode = rng.choice(
        ("forall", "instance", "exists") if len(theorem.premises) == 1 else ("forall", "instance")
    )
    if mode == "exists":
        return Theorem((Exists("x", at(theorem.premises[0], x)),), Exists("x", at(theorem.goal, x)))
    premises = tuple(Forall("x", at(p, x)) for p in theorem.premises)
    if mode == "instance":
        return Theorem(premises, at(theorem.goal, Name(rng.choice(CONSTANTS))))
    return Theorem(premises, Forall("x", at(theorem.goal, x)))


def stream(rng: random.Random) -> Iterator[Candidate]:
    """Valid theorems, never the same one twice up to renaming, each template
    used at most `TEMPLATE_USES` times (see the module doc)."""
    seen: set[str] = set()
    uses = [0] * len(templates())
    origins = [o for o, _ in WEIGHTS]
    weights = [w for _, w in WEIGHTS]
    while True:
        origin = rng.choices(origins, weights)[0]
        index = None
        if origin == "template":
            open_ = [i for i, n in enumerate(uses) if n < TEMPLATE_USES]
            if not open_:
                continue
            index = rng.choice(open_)
            th = instantiate(rng, templates()[index])
        else:
            th = (
                random_theorem(rng)
                if origin == "random"
                else random_theorem(rng, LIFTED_ATOMS, depth=1)
            )
            if th is None:
                continue
            if origin == "lifted":
                th = lift(rng, th)
        c = Candidate(th, origin, index)
        if c.key not in seen:
            seen.add(c.key)
            if index is not None:
                uses[index] += 1
            yield c
