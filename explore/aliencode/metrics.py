"""The exploration section of an AlienCode trace, computed by the engine.

From the trace alone: the system prompt (manual and worked examples), the
rule-report prompt, every tool call with its status and the feedback the
system saw, the rule reports and the answers with their verdicts. The world
is used for one measure only: the surviving mass on the true rules.

Per probe (each counted tool call, in order): the joint hypothesis mass H
before and after (the prior mass of every surviving combination of rule
hypotheses; `bits` = log2(H before / H after)), the hypotheses eliminated,
whether the probe was redundant (it ran, and every surviving combination
predicted what it showed), its status, and the rule ids whose rules it
called (`targets`).

Errors, in the sense of exploration and exploitation errors measured from
actions alone (docs/explore-aliencode.md):

* exploration is required while some rule is not yet resolved (its
  survivors are more than one behaviour); a probe made then is an
  exploration error when it made no progress: it ran nothing (over the unit
  cap, a malformed call, a program that does not parse), or it was
  redundant and reached no rule that no earlier probe had reached;
* exploitation is required at a milestone for every rule the evidence has
  resolved, and for every answer to a task whose rules are all resolved: a
  rule reported as something else than its resolved behaviour, and a failed
  answer to such a task, are exploitation errors.
"""

from __future__ import annotations

import hashlib
import json

from alienworlds.ruleset import World
from alienworlds.ruleset.equivalence import compare
from alienworlds.ruleset.expr import parse

from aliencode.sites import operand_kinds

from ..section import assemble
from .engine import ENGINE_VERSION, Engine
from .space import sample_pool, standard_text
from .view import ViewError, read_view

TRUTH_POOL = 12  # cases that rule most hypotheses out before a full comparison
_BASE: dict[str, Engine] = {}  # the state after the worked examples, per (system prompt, template)


def _texts(events: list[dict]) -> tuple[str | None, str | None]:
    system = next(
        (
            e["message"].get("content")
            for e in events
            if e.get("type") == "message" and e.get("index") == 0
        ),
        None,
    )
    rules = None
    for e in events:
        if e.get("type") == "request" and e.get("purpose") == "rules":
            extra = e.get("extra") or []
            if extra:
                rules = extra[-1].get("content")
                break
    return system, rules


def base_engine(system: str, rules: str) -> Engine:
    """A fresh engine that has seen the worked examples (the examples'
    work is shared by every trace of one prompt in this process)."""
    key = hashlib.sha256((system + "\0" + rules).encode()).hexdigest()
    found = _BASE.get(key)
    if found is None:
        view = read_view(system, rules)
        found = Engine(view)
        for example in view.examples:
            found.observe(example.program, example.output, tool=False)
        _BASE[key] = found
    return found.fork()


_EQUAL: dict[tuple[str, str, str], bool] = {}  # (site, true rule, hypothesis) -> behaves the same


class _Truth:
    """Which surviving hypotheses behave as the world's rules."""

    def __init__(self, engine: Engine, world: World) -> None:
        self.engine = engine
        self.actual = {r.id: r.actual for r in world.rules}
        self._quick: dict[int, tuple | None] = {}

    def _quick_signature(self, slot: int) -> tuple | None:
        if slot not in self._quick:
            engine = self.engine
            site = engine.slots[slot].site
            actual = self.actual.get(engine.slots[slot].id)
            if actual is None:
                self._quick[slot] = None
            else:
                table = engine.spaces[slot].table
                root = table.intern(parse(standard_text(site) if actual == "IDENTITY" else actual))
                cases, keys = sample_pool(site, TRUTH_POOL)
                self._quick[slot] = table.outcomes([root], cases, keys)[root]
        return self._quick[slot]

    def holds(self, slot: int, h: int) -> bool:
        engine = self.engine
        site, space = engine.slots[slot].site, engine.spaces[slot]
        actual = self.actual.get(engine.slots[slot].id)
        key = (site, actual or "", space.hypotheses[h].text)
        found = _EQUAL.get(key)
        if found is None:
            quick = self._quick_signature(slot)
            if quick is None:
                found = False
            else:
                cases, keys = sample_pool(site, TRUTH_POOL)
                mine = space.table.outcomes([space.roots[h]], cases, keys)[space.roots[h]]
                found = (
                    mine == quick
                    and compare(
                        space.hypotheses[h].text,
                        actual,
                        operand_kinds(site),
                        standard=standard_text(site),
                    ).equivalent
                )
            _EQUAL[key] = found
        return found

    def mass(self) -> float:
        """The mean over rules of the surviving mass on the true rule."""
        engine = self.engine
        shares = []
        for k in range(len(engine.slots)):
            total = engine.slot_mass(k)
            true = sum(engine.spaces[k].weights[h] for h in engine.alive[k] if self.holds(k, h))
            shares.append(true / total if total else 0.0)
        return round(sum(shares) / len(shares), 6) if shares else 0.0


def _shipped_world(header: dict) -> World | None:
    """The trace's world when it is a shipped one with the recorded hash."""
    from aliencode.world_schema import load

    try:
        world = load(str(header.get("world")))
    except Exception:  # noqa: BLE001 - no such shipped world: the measure that needs it is left out
        return None
    return world if world.hash == header.get("world_hash") else None


def _resolved(engine: Engine, slot: int) -> bool:
    return (
        len(engine.alive[slot]) < len(engine.spaces[slot])
        and len(engine.alive[slot]) <= 64
        and engine.resolved(slot)
    )


def _reported_wrong(engine: Engine, slot: int, expression: str | None) -> bool:
    """Whether a reported expression differs from a resolved rule's behaviour."""
    if not expression or expression.strip().upper() == "UNKNOWN":
        return True
    site = engine.slots[slot].site
    h = next(iter(engine.alive[slot]))
    try:
        return not compare(
            expression.strip(),
            engine.spaces[slot].hypotheses[h].text,
            operand_kinds(site),
            standard=standard_text(site),
        ).equivalent
    except Exception:  # noqa: BLE001 - a report that cannot be read is wrong
        return True


def exploration(events: list[dict], world: World | None = None) -> dict | None:
    """The exploration section of one AlienCode trace (None when the trace
    has no rule-report prompt to read the rules from)."""
    system, rules = _texts(events)
    if not system or not rules:
        return None
    try:
        engine = base_engine(system, rules)
    except ViewError:
        return None
    header = events[0]
    world = world if world is not None else _shipped_world(header)
    truth = _Truth(engine, world) if world is not None else None
    task_rules = {t["id"]: set(t.get("rules") or ()) for t in header.get("tasks") or ()}
    tools = sorted(
        (e for e in events if e.get("type") == "tool" and e.get("counted")),
        key=lambda e: (e["round"], e["n"]),
    )
    reports = {str(e["milestone"]): e for e in events if e.get("type") == "rule_report"}
    answers: dict[str, list[dict]] = {}
    for e in events:
        if e.get("type") == "answer":
            answers.setdefault(str(e["milestone"]), []).append(e)
    labels = [
        str(e["milestone"])
        for e in events
        if e.get("type") == "milestone" and str(e["milestone"]).isdigit()
    ]

    probes, coverage, true_mass = [], [], {}
    covered: set[str] = set()
    errors = {
        "exploration": 0,
        "exploitation": 0,
        "exploration_required": 0,
        "exploitation_required": 0,
    }

    def milestone(label: str) -> None:
        if truth is not None:
            true_mass[f"M{label}"] = truth.mass()
        resolved = {k for k in range(len(engine.slots)) if _resolved(engine, k)}
        report = (reports.get(label) or {}).get("report") or {}
        for k in resolved:
            errors["exploitation_required"] += 1
            errors["exploitation"] += _reported_wrong(engine, k, report.get(engine.slots[k].id))
        known = {engine.slots[k].id for k in resolved}
        for answer in answers.get(label, ()):
            needs = task_rules.get(answer.get("task"), set())
            if needs <= known:
                errors["exploitation_required"] += 1
                errors["exploitation"] += not answer.get("passed")

    def probe(e: dict) -> None:
        required = any(not _resolved(engine, k) for k in range(len(engine.slots)))
        row = {"round": int(e["round"]), "call": int(e["n"]), "status": e.get("status")}
        code, feedback = None, e.get("feedback") or ""
        if e.get("status") == "ran" and isinstance(
            feedback, str
        ):  # a malformed record is a probe that showed nothing
            try:
                code = json.loads(e.get("arguments") or "{}").get("code")
            except (TypeError, ValueError, AttributeError):
                code = None
        step = engine.observe(code, feedback) if isinstance(code, str) else None
        if step is None:
            mass = engine.joint_mass()
            row.update(
                before=mass,
                after=mass,
                bits=0.0,
                eliminated=0,
                redundant=False,
                explained="nothing ran",
                targets=[],
            )
            progress = False
        else:
            fresh = set(step.targets) - covered
            covered.update(step.targets)
            row.update(
                before=step.before,
                after=step.after,
                bits=round(step.bits, 6),
                eliminated=step.eliminated,
                redundant=bool(step.redundant),
                explained=step.status,
                targets=list(step.targets),
            )
            progress = (
                step.bits > 0 or step.eliminated > 0 or bool(fresh) or step.status == "pending"
            )
        if required:
            errors["exploration_required"] += 1
            errors["exploration"] += not progress
        probes.append(row)

    if "0" in labels:
        milestone("0")
    last = max([int(x) for x in labels] + [int(e["round"]) for e in tools], default=0)
    for r in range(1, last + 1):
        for e in tools:
            if int(e["round"]) == r:
                probe(e)
        coverage.append({"round": r, "covered": len(covered), "of": len(engine.slots)})
        if str(r) in labels:
            milestone(str(r))
    pending = sum(1 for o in engine.observations if o.status == "pending")
    unexplained = sum(1 for o in engine.observations if o.status == "unexplained")
    costly = sum(1 for o in engine.observations if o.status == "costly")
    return assemble(
        engine.describe(),
        probes,
        coverage,
        true_mass,
        errors,
        believed={f"M{labels[-1]}": engine.rule_report()} if labels else {},
        pending=pending,
        unexplained=unexplained,
        costly=costly,
    )


def fingerprint(events: list[dict]) -> str:
    """What the section depends on (identical runs give the same print)."""
    parts = []
    for e in events:
        kind = e.get("type")
        if kind == "header":
            parts.append(("header", ENGINE_VERSION, e.get("world_hash"), e.get("manual_hash")))
        elif kind == "message" and e.get("index") == 0:
            parts.append(("system", e["message"].get("content")))
        elif kind == "request" and e.get("purpose") == "rules":
            parts.append(("rules", json.dumps(e.get("extra"), sort_keys=True)))
        elif kind == "tool":
            parts.append(
                (
                    "tool",
                    e.get("round"),
                    e.get("n"),
                    e.get("status"),
                    e.get("counted"),
                    e.get("arguments"),
                    e.get("feedback"),
                )
            )
        elif kind == "rule_report":
            parts.append(
                ("report", e.get("milestone"), json.dumps(e.get("report"), sort_keys=True))
            )
        elif kind == "answer":
            parts.append(
                ("answer", e.get("milestone"), e.get("task"), e.get("pass"), e.get("passed"))
            )
        elif kind == "milestone":
            parts.append(("milestone", e.get("milestone")))
    return hashlib.sha256(json.dumps(parts, default=repr).encode()).hexdigest()
