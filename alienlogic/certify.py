"""Certificates of unprovability: proposed by search, decided by the re-checker.

A certificate is JSON data stating that premises ⊢ goal has no proof in a
world, of any length: a classed algebra (`matrices.Algebra`) under which
every rule the world allows keeps lines holding, and a model where the
premises hold and the goal does not. What it claims exactly, and how it is
checked, is `recheck.py`: a small checker that reads the certificate and the
world file on its own and imports nothing from this project.

`find_certificate` proposes candidates, cheapest first — the plain matrices
of `matrices.library()` with either top-level context, then refinements of
B2 and G3 at the theorem's own subformulas (a connective's table replaced
for parts of a given shape, or for two copies of one atom) — finds a
countermodel for each and keeps the first the re-checker accepts. The
rule-soundness half of a re-check depends only on the algebra and the
model's domain, so its verdict is cached per world. `check_certificate`
adds what the re-checker does not know: the theorem the certificate must be
about, and the version (hash) of the world it was made for.

A bounded search (`bounded.py`) is an authoring aid, never a certificate.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path

from alienworlds.ruleset.world import World

from .errors import ProofSyntaxError
from .formulas import And, Bot, Eq, Exists, Forall, Formula, Impl, Not, Or, Pred, children
from .matrices import CONNECTIVES, Algebra, Matrix, countermodels, library
from .parser import parse_formula
from .proof import Theorem
from .recheck import recheck
from .rules import RULES
from .worlds import load_world

FORMAT = 2
KIND = "matrix"
MODES = ("any", "designated")
_SHAPE_CLASS = {
    Not: "not",
    And: "and",
    Or: "or",
    Impl: "impl",
    Forall: "forall",
    Exists: "exists",
    Eq: "eq",
    Bot: "bot",
}


@dataclass
class Found:
    """The result of a certificate search."""

    data: dict[str, object] | None
    seconds: float
    tried: list[str] = field(default_factory=list)
    # Why no certificate, when none: "exhausted" (every candidate algebra
    # tried), "out of time" or "stopped" (the candidate limit); "" if found.
    stopped: str = ""
    candidates: int = 0  # candidate algebras tried
    # how often each rule was the first the re-checker found unsound in a
    # candidate: the rules that keep this theorem from being certified
    unsound: Counter[str] = field(default_factory=Counter)

    @property
    def found(self) -> bool:
        return self.data is not None

    @property
    def summary(self) -> str:
        """One line: why no certificate was found (empty when one was)."""
        if self.found:
            return ""
        blame = ", ".join(f"{rule} ({n})" for rule, n in self.unsound.most_common(3))
        blame = f"; the rules most often unsound in them: {blame}" if blame else ""
        if self.stopped == "out of time":
            return f"out of time after {self.candidates} candidate algebras{blame}"
        if self.stopped == "stopped":
            return f"stopped at the limit of {self.candidates} candidate algebras{blame}"
        sizes = f"{min(m.size for m in library())} to {max(m.size for m in library())}"
        return (
            f"no countermodel in the searched algebras: none of the {self.candidates} "
            f"candidates ({sizes} truth values, domains of 1 or 2 elements) is sound for "
            f"the world's rules with a countermodel of the theorem{blame}"
        )


@dataclass
class CheckResult:
    """A re-check: `status` is holds, fails or malformed (see `recheck.recheck`)."""

    status: str
    problems: list[str]
    kind: str | None
    seconds: float

    @property
    def ok(self) -> bool:
        return self.status == "holds"


def world_text(world: World) -> str | None:
    """The TOML text of a world, for the re-checker: its own file when the
    world is that file's content, else written out (None: no rules)."""
    if not world.rules:
        return None
    if world.source and Path(world.source).is_file():
        try:
            if load_world(world.source).hash == world.hash:
                return Path(world.source).read_text(encoding="utf-8")
        except Exception:  # noqa: BLE001 — any unreadable file: write the world out instead
            pass
    lines = [
        "format = 1",
        f"name = {json.dumps(world.name)}",
        'language = "alienlogic"',
        f"description = {json.dumps(world.description)}",
    ]
    for r in world.rules:
        lines += ["", "[[rules]]"] + [
            f"{key} = {json.dumps(value)}" for key, value in r.canonical().items() if key != "scope"
        ]
    return "\n".join(lines) + "\n"


def _header(world: World, theorem: Theorem, task: str | None) -> dict[str, object]:
    head: dict[str, object] = {"format": FORMAT, "kind": KIND}
    if task:
        head["task"] = task
    head.update(
        world=world.name,
        world_hash=world.hash,
        premises=[str(p) for p in theorem.premises],
        goal=str(theorem.goal),
    )
    return head


# the re-checker's objection to an algebra's rules (its first problem), per
# (world hash, algebra, domain, named): an unsound algebra is not re-checked
_UNSOUND: dict[tuple, str] = {}


class _OutOfTime(Exception):
    """The certificate search's time is spent."""


def _try(
    world: World,
    text: str | None,
    theorem: Theorem,
    task: str | None,
    alg: Algebra,
    tried: list[str],
    stop: Callable[[], None] | None = None,
    unsound: Counter[str] | None = None,
) -> dict[str, object] | None:
    """The first model of each domain shape that refutes the theorem, kept if
    the re-checker accepts the certificate."""
    shapes_seen = set()
    for model in countermodels(alg, theorem.premises, theorem.goal, stop=stop):
        shape = (model.domain, model.named)
        if shape in shapes_seen:
            continue
        shapes_seen.add(shape)
        key = (world.hash, json.dumps(alg.as_data(), sort_keys=True), shape)
        known = _UNSOUND.get(key)
        if known is not None:
            _blame(unsound, known)
            continue
        data = {
            **_header(world, theorem, task),
            **alg.as_data(),
            "model": model.as_data(alg.matrix),
        }
        status, problems = recheck(json.dumps(data), text, first=True)
        objections = [p for p in problems if not p.startswith("model:")]
        if objections:
            _UNSOUND[key] = objections[0].split(":", 1)[0]
            _blame(unsound, _UNSOUND[key])
        if status == "holds":
            return data
        if len(tried) < 20:
            tried.append(f"{alg.name}: {problems[0]}")
    return None


def _blame(unsound: Counter[str] | None, objection: str) -> None:
    """Count an objection that names a rule (the re-checker's "RULE: not sound ...")."""
    if unsound is not None and objection in RULES:
        unsound[objection] += 1


def candidates(theorem: Theorem):
    """Algebras to try, cheapest first (see the module doc)."""
    for mode in MODES:
        for m in library():
            yield Algebra.plain(m, mode)
    bases = [m for m in library() if m.name in ("B2", "G3")]
    for mode in MODES:
        for m in bases:
            plain = Algebra.plain(m, mode)
            for op, args in sites(theorem):
                for table in tables(m, op, plain.rule(op, ("*",) * len(args)).table):
                    yield plain.refine(
                        op, args, table, f"{op}({', '.join(args)}) ↦ {_table_text(m, table)}"
                    )


def sites(theorem: Theorem) -> list[tuple[str, tuple[str, ...]]]:
    """Connectives of the theorem, with the classes of their parts: each
    part's shape, or for an atom that atom alone."""
    out: dict[tuple[str, tuple[str, ...]], None] = {}
    stack = [*theorem.premises, theorem.goal]
    seen: set[Formula] = set()
    while stack:
        f = stack.pop()
        if f in seen or not isinstance(f, Formula):
            continue
        seen.add(f)
        parts = [c for c in children(f) if isinstance(c, Formula)]
        stack.extend(parts)
        op = _SHAPE_CLASS.get(type(f), "").upper()
        if op not in CONNECTIVES:
            continue
        options = [
            [_part_class(p)] + ([f"={p.name}"] if type(p) is Pred and not p.terms else [])
            for p in parts
        ]
        for args in product(*options):
            out.setdefault((op, tuple(args)), None)
    return list(out)


def _part_class(f: Formula) -> str:
    if type(f) is Pred:
        return "pred" if f.terms else "atom"
    return _SHAPE_CLASS[type(f)]


def tables(m: Matrix, op: str, current: tuple) -> list[tuple]:
    """Replacement tables: every unary table (for NOT and the quantifiers),
    constant tables and projections for the binary connectives."""
    n = range(m.size)
    if CONNECTIVES[op] == 1:
        options = list(product(n, repeat=m.size))
    else:
        options = [tuple(tuple(v for _ in n) for _ in n) for v in n]
        options += [tuple(tuple(a for _ in n) for a in n), tuple(tuple(n) for _ in n)]
    return [t for t in options if t != tuple(current)]


def _table_text(m: Matrix, table: tuple) -> str:
    return (
        "["
        + " ".join(m.elements[v] if isinstance(v, int) else _table_text(m, v) for v in table)
        + "]"
    )


def find_certificate(
    world: World,
    theorem: Theorem,
    task: str | None = None,
    seconds: float | None = 30.0,
    max_candidates: int | None = None,
) -> Found:
    """Search for a certificate that `theorem` has no proof in `world`.

    With `seconds=None` no clock is read: the search tries the candidates in
    their fixed order (a finite list), at most `max_candidates` of them, so
    whether it finds a certificate, and which, does not depend on the
    machine's speed (what a world generator needs to label theorems)."""
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds

    def stop() -> None:
        if deadline is not None and time.perf_counter() > deadline:
            raise _OutOfTime()

    text = world_text(world)
    tried: list[str] = []
    unsound: Counter[str] = Counter()
    count, stopped = 0, "exhausted"
    try:
        for n, alg in enumerate(candidates(theorem)):
            if max_candidates is not None and n >= max_candidates:
                tried.append(f"stopped after {max_candidates} candidates")
                stopped = "stopped"
                break
            stop()
            count = n + 1
            # the limit also covers the search inside one candidate (the
            # models of a theorem over many atoms are many)
            data = _try(
                world,
                text,
                theorem,
                task,
                alg,
                tried,
                stop if deadline is not None else None,
                unsound,
            )
            if data is not None:
                return Found(data, time.perf_counter() - start, tried, "", count)
        else:
            tried.append("no candidate algebra has a countermodel the re-checker accepts")
    except _OutOfTime:
        tried.append(f"out of time after {seconds:g} s")
        stopped = "out of time"
    return Found(None, time.perf_counter() - start, tried, stopped, count, unsound)


# -- re-checking -----------------------------------------------------------------


def load_certificate(path: str | Path) -> dict[str, object]:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def dump_certificate(data: dict[str, object]) -> str:
    """JSON text, one key per line, short lists on one line."""
    return _dump(data, 0) + "\n"


def _dump(value: object, indent: int) -> str:
    pad, inner = " " * indent, " " * (indent + 1)
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) <= 100 or not isinstance(value, (dict, list)):
        return flat
    if isinstance(value, dict):
        items = [
            f"{inner}{json.dumps(k, ensure_ascii=False)}: {_dump(v, indent + 1)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    return "[\n" + ",\n".join(inner + _dump(v, indent + 1) for v in value) + "\n" + pad + "]"


def certificate_theorem(data: dict[str, object]) -> Theorem:
    """The theorem a certificate states (raises ProofSyntaxError, TypeError)."""
    premises, goal = data.get("premises"), data.get("goal")
    if (
        not isinstance(premises, list)
        or not all(isinstance(p, str) for p in premises)
        or not isinstance(goal, str)
    ):
        raise TypeError("premises must be a list of formulas and goal a formula")
    return Theorem(tuple(parse_formula(p) for p in premises), parse_formula(goal))


def check_certificate(
    data: dict[str, object] | str,
    world: World,
    theorem: Theorem | None = None,
    same_world: bool = True,
) -> CheckResult:
    """Re-check a certificate (data or its JSON text) against `world` with the
    independent re-checker; also check it is about `theorem` (if given) and,
    with `same_world`, that it was made for this version of the world."""
    start = time.perf_counter()
    text = data if isinstance(data, str) else json.dumps(data)
    status, problems = recheck(text, world_text(world))
    parsed = data
    if isinstance(data, str):
        try:
            parsed = json.loads(data)
        except (ValueError, RecursionError):
            parsed = None
    if status != "malformed" and isinstance(parsed, dict):
        extra = []
        if theorem is not None:
            try:
                stated = certificate_theorem(parsed)
                if not all(stated.same_as(theorem)):
                    extra.append(f"the certificate is about {_text(stated)}, not {_text(theorem)}")
            except (ProofSyntaxError, TypeError) as exc:
                extra.append(f"the certificate's theorem: {exc}")
        if same_world and parsed.get("world_hash") != world.hash:
            extra.append(
                "the certificate was made for another version of the world "
                f"({str(parsed.get('world_hash'))[:80]})"
            )
        if extra:
            status, problems = "fails", problems + extra
    kind = (
        parsed.get("kind")
        if isinstance(parsed, dict) and isinstance(parsed.get("kind"), str)
        else None
    )
    return CheckResult(status, problems, kind, time.perf_counter() - start)


def _text(t: Theorem) -> str:
    return f"{', '.join(map(str, t.premises)) or '(no premises)'} ⊢ {t.goal}"


__all__ = [
    "CheckResult",
    "Found",
    "candidates",
    "check_certificate",
    "certificate_theorem",
    "dump_certificate",
    "find_certificate",
    "load_certificate",
    "world_text",
]
