"""Certificates of unprovability: found by search, checked without it.

A certificate is JSON data stating that premises ⊢ goal has no proof in a
world. Two kinds:

* `semantic` — a finite matrix (`matrices.py`) under which every rule the
  world allows is sound, and an interpretation where the premises' meet is
  not below the goal. It holds without bounds: no proof of any length, depth
  or formula size exists.
* `bounded` — declared bounds (a formula universe, a term set, a box depth;
  lines unbounded) and the claim that saturation (`saturation.py`) within
  them does not reach the goal at the top level: no proof whose formulas lie
  in the universe and whose boxes nest at most that deep exists.

`find_certificate` searches: the matrices of `matrices.library()` smallest
first (their soundness for the world is computed once per world), then
bounded saturation over generous universes, then smaller ones.
`check_certificate` re-checks a certificate from its data alone — the matrix
tables, the model, the declared universe — against a world, and reports
every problem; it shares no state with the search that found it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from alienworlds.ruleset.world import World

from .errors import ProofSyntaxError
from .formulas import BOT, Eq, Exists, Formula, Name, Not, Quantified
from .matrices import Matrix, MatrixError, Model, countermodels, library, refutes, unsound_rules
from .oracle import Oracle
from .parser import parse_formula
from .proof import Theorem
from .saturation import Bounds, Unsupported, closure, default_bounds, default_terms, fresh_constants, ground_terms, saturate

FORMAT = 1
KINDS = ("semantic", "bounded")


@dataclass
class Found:
    """The result of a certificate search."""

    data: dict[str, object] | None
    seconds: float
    tried: list[str] = field(default_factory=list)

    @property
    def found(self) -> bool:
        return self.data is not None


def _header(kind: str, world: World, theorem: Theorem, task: str | None) -> dict[str, object]:
    head: dict[str, object] = {"format": FORMAT, "kind": kind}
    if task:
        head["task"] = task
    head.update(world=world.name, world_hash=world.hash, premises=[str(p) for p in theorem.premises], goal=str(theorem.goal))
    return head


_SOUND: dict[tuple[str, str, int], bool] = {}


def _sound(m: Matrix, world: World, n: int) -> bool:
    key = (world.hash, m.name, n)
    if key not in _SOUND:
        _SOUND[key] = not unsound_rules(m, world, n)
    return _SOUND[key]


def semantic_certificate(world: World, theorem: Theorem, task: str | None = None) -> dict[str, object] | None:
    for m in library():
        for n in (1, 2):
            if not _sound(m, world, n):
                continue
            for model in countermodels(m, theorem.premises, theorem.goal, domains=(n,)):
                data = _header("semantic", world, theorem, task)
                data["matrix"] = m.as_data()
                data["model"] = model.as_data(m)
                return data
    return None


def bound_plans(theorem: Theorem) -> list[tuple[str, Bounds]]:
    """Universes to try, most generous first."""
    formulas = (*theorem.premises, theorem.goal)
    first_order = bool(ground_terms(formulas)) or any(_quantified(f) for f in formulas)
    plans: list[tuple[str, Bounds]] = []
    fresh = 2 if first_order else 0
    terms = default_terms(theorem, fresh)
    base = default_bounds(theorem, depth=3, terms=terms)
    negations = tuple(Not(f) for f in base.universe if type(f) is not Not and f is not BOT)
    extras: tuple[Formula, ...] = negations
    if first_order:
        extras += tuple(Eq(s, t) for s in terms for t in terms)
        extras += tuple(Exists("y", Eq(Name("y"), t)) for t in terms if "y" not in t.free)
    plans.append(("subformulas, their negations" + (", equations between terms" if first_order else "") + "; depth 3",
                  default_bounds(theorem, depth=3, extra=extras, terms=terms)))
    plans.append(("subformulas and their negations; depth 3", default_bounds(theorem, depth=3, extra=negations, terms=terms)))
    plans.append(("subformulas; depth 4", default_bounds(theorem, depth=4, terms=terms)))
    plans.append(("subformulas; depth 3", base))
    return plans


def _quantified(f: Formula) -> bool:
    return isinstance(f, Quantified) or any(isinstance(c, Formula) and _quantified(c) for c in f.args if isinstance(c, Formula))


def bounded_certificate(world: World, theorem: Theorem, task: str | None = None, seconds: float = 20.0, tried: list[str] | None = None) -> dict[str, object] | None:
    oracle = Oracle(world)
    deadline = time.perf_counter() + seconds
    for label, bounds in bound_plans(theorem):
        try:
            result = saturate(oracle, theorem, bounds, deadline)
        except Unsupported as exc:
            if tried is not None:
                tried.append(f"bounded: {exc}")
            return None
        except TimeoutError:
            if tried is not None:
                tried.append(f"bounded ({label}): out of time")
            continue
        if result.goal_derivable:
            if tried is not None:
                tried.append(f"bounded ({label}): the goal is derivable within these bounds")
            continue
        data = _header("bounded", world, theorem, task)
        data["bounds"] = {"closure": label, **bounds.as_data()}
        data["saturation"] = {"contexts": len(result.derived), "top_level_formulas": len(result.top)}
        return data
    return None


def find_certificate(world: World, theorem: Theorem, task: str | None = None, seconds: float = 30.0) -> Found:
    """Search for a certificate that `theorem` has no proof in `world`."""
    start = time.perf_counter()
    tried: list[str] = []
    data = semantic_certificate(world, theorem, task)
    if data is None:
        tried.append("semantic: no countermodel in a sound matrix of the library")
        data = bounded_certificate(world, theorem, task, seconds, tried)
    return Found(data, time.perf_counter() - start, tried)


# -- re-checking -----------------------------------------------------------------


@dataclass
class CheckResult:
    problems: list[str]
    kind: str | None
    seconds: float

    @property
    def ok(self) -> bool:
        return not self.problems


def load_certificate(path: str | Path) -> dict[str, object]:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def dump_certificate(data: dict[str, object]) -> str:
    """JSON text, one key per line, short lists on one line."""
    return _dump(data, 0) + "\n"


def _dump(value: object, indent: int) -> str:
    pad, inner = " " * indent, " " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{json.dumps(k)}: {_dump(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        flat = json.dumps(value, ensure_ascii=False)
        if len(flat) <= 100:
            return flat
        return "[\n" + ",\n".join(inner + _dump(v, indent + 1) for v in value) + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False)


def certificate_theorem(data: dict[str, object]) -> Theorem:
    return Theorem(tuple(parse_formula(p) for p in data["premises"]), parse_formula(data["goal"]))  # type: ignore[union-attr,arg-type]


def check_certificate(data: dict[str, object], world: World, theorem: Theorem | None = None, same_world: bool = True) -> CheckResult:
    """Re-check a certificate against `world` (and, if given, the theorem it
    must be about). With `same_world`, a certificate made for another version
    of the world (a different hash) is a problem too."""
    start = time.perf_counter()
    problems: list[str] = []
    kind = data.get("kind") if isinstance(data, dict) else None
    try:
        if not isinstance(data, dict) or data.get("format") != FORMAT or kind not in KINDS:
            raise ValueError(f"not a certificate (format {FORMAT}, kind one of {', '.join(KINDS)})")
        stated = certificate_theorem(data)
        if theorem is not None and not all(stated.same_as(theorem)):
            problems.append(f"the certificate is about {_text(stated)}, not {_text(theorem)}")
        if same_world and data.get("world_hash") != world.hash:
            problems.append(f"the certificate was made for another version of the world ({data.get('world_hash')})")
        if kind == "semantic":
            problems += _check_semantic(data, world, stated)
        else:
            problems += _check_bounded(data, world, stated)
    except (ValueError, KeyError, TypeError, ProofSyntaxError, MatrixError) as exc:
        problems.append(f"malformed certificate: {exc}")
    return CheckResult(problems, kind if isinstance(kind, str) else None, time.perf_counter() - start)


def _text(t: Theorem) -> str:
    return f"{', '.join(map(str, t.premises)) or '(no premises)'} ⊢ {t.goal}"


def _check_semantic(data, world: World, theorem: Theorem) -> list[str]:
    m = Matrix.from_data(data["matrix"])
    model = Model.from_data(data["model"], m)
    problems = [f"rule {p}" for p in unsound_rules(m, world, model.domain)]
    if not refutes(m, model, theorem.premises, theorem.goal):
        problems.append("the model is no countermodel: the premises' meet is below the goal's value")
    return problems


def _check_bounded(data, world: World, theorem: Theorem) -> list[str]:
    raw = data["bounds"]
    universe = tuple(dict.fromkeys(parse_formula(f) for f in raw["universe"]))
    terms = tuple(dict.fromkeys(parse_formula(f"P({t})").terms[0] for t in raw["terms"]))
    depth = int(raw["depth"])
    problems = []
    if depth < 1:
        problems.append("the box depth bound must be at least 1")
    formulas = (*theorem.premises, theorem.goal)
    missing_terms = [t for t in ground_terms(formulas) if t not in terms]
    if missing_terms:
        problems.append(f"the term set lacks the theorem's terms {', '.join(map(str, missing_terms))}")
    needed = closure((*formulas, BOT), terms)
    missing = [f for f in needed if f not in set(universe)]
    if missing:
        problems.append(f"the universe lacks subformulas of the theorem: {', '.join(map(str, missing[:5]))}")
    if problems:
        return problems
    try:
        result = saturate(world, theorem, Bounds(universe, terms, depth))
    except Unsupported as exc:
        return [str(exc)]
    if result.goal_derivable:
        problems.append("saturation within the declared bounds derives the goal")
    return problems


__all__ = [
    "CheckResult", "Found", "bound_plans", "bounded_certificate", "check_certificate", "certificate_theorem",
    "dump_certificate", "find_certificate", "fresh_constants", "load_certificate", "semantic_certificate",
]
