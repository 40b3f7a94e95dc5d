"""Exploration metrics of any AlienLogic trace, from the trace alone.

The hypothesis space (`space.Space`) replays what the system saw — the
worked proofs of the system prompt, then every counted `check_proof` call
with the feedback it got — and measures (docs/explore-alienlogic.md defines each):

* per probe: the surviving hypotheses before and after it (counts of
  observational classes over the whole world, the classes being those of
  all the trace's observations, so that counts before and after compare),
  and the bits it gained, log2(before / after);
* the redundant-probe rate: probes whose outcome every surviving
  hypothesis predicted (no hypothesis eliminated, bits = 0);
* coverage after each round: the inference rules at least one probe put to
  the test (a step of that rule that the checker reached), of all 22;
* true-patch mass per milestone: the posterior probability the space gives
  the world's true patching of each rule, averaged over the rules — the
  only measure that reads the world (by name, checked against the trace's
  world hash; null when the world cannot be found);
* exploration and exploitation errors (seed 003's cases, mapped onto this
  protocol): an exploration error is a counted probe that gained nothing
  while hypotheses remained to eliminate; an exploitation error is a
  milestone answer that the trace's own evidence already condemns — a
  proof every hypothesis surviving at that milestone rejects, or a refusal
  of a theorem the system had seen the checker accept a proof of.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter

from alienworlds.ruleset.world import World
from alienworlds.tasks.alienlogic_reader import RECORDED_REFUSAL

from alienlogic import RULES, Proof, load_world
from alienlogic.patches import CompiledWorld
from alienlogic.verdict import Rejection

from .conversation import exchanges, theorem_of
from .grammar import _LIMITS, BOUNDS
from .observe import Observation, observe, parse_verdict, read_proof
from .pool import pool
from .space import P_CONCLUSION, P_DISABLED, P_REQUIRES, RuleSpace, Seen, Space, seen

ENGINE = {
    "name": "alienlogic-patch-space",
    "version": 1,
    "bounds": {
        **BOUNDS,
        "prior": {"disabled": P_DISABLED, "conclusion": P_CONCLUSION, "requires": list(P_REQUIRES)},
    },
}


def _observation(proof_text: str, feedback: str) -> Observation:
    verdict = parse_verdict(feedback)
    if verdict is None:  # a capped or garbled result: nothing can be read from it
        return Observation(read_proof(proof_text), {}, ())
    return observe(proof_text, verdict)


def _worked(events: list[dict]) -> list[Observation]:
    system = [e["message"] for e in events if e.get("type") == "message" and e.get("index") == 0]
    return [_observation(p, v) for p, v in exchanges(system)]


def _probes(events: list[dict]) -> list[dict]:
    """Counted tool calls, in order, with the observation each gave."""
    out = []
    for e in events:
        if e.get("type") != "tool" or not e.get("counted"):
            continue
        obs = Observation(None, {}, ())
        if e.get("status") == "ran":
            try:
                args = json.loads(e.get("arguments") or "{}")
            except (TypeError, ValueError):
                args = None
            if isinstance(args, dict) and isinstance(args.get("proof"), str):
                obs = _observation(args["proof"], e.get("feedback") or "")
        out.append({"round": int(e["round"]), "call": int(e["n"]), "observation": obs})
    return out


class _Replay:
    """Per-rule spaces whose classes are those of every observed step, so
    that counts at any point of the trace compare."""

    def __init__(self, observations: list[Observation]) -> None:
        self.steps: dict[str, list[Seen]] = {r: [] for r in RULES}
        self.by_obs: list[list[Seen]] = []
        for obs in observations:
            done = [seen(r) for r in obs.records]
            for s in done:
                self.steps[s.record.rule].append(s)
            self.by_obs.append(done)
        self.spaces = {r: RuleSpace(r, [], self.steps[r]) for r in RULES}
        self.log2 = {r: math.log2(max(self.spaces[r].count, 1)) for r in RULES}

    def count(self) -> int:
        return math.prod(max(self.spaces[r].count, 1) for r in RULES)

    def apply(self, index: int) -> None:
        for s in self.by_obs[index]:
            self.spaces[s.record.rule].add(s)
        for r in {s.record.rule for s in self.by_obs[index]}:
            self.log2[r] = math.log2(max(self.spaces[r].count, 1))

    def bits(self) -> float:
        return sum(self.log2.values())


def true_mass(space: Space, world: World) -> float:
    """The posterior mass of the world's true patching, averaged over rules."""
    return round(sum(truth_probability(space, world, rule) for rule in RULES) / len(RULES), 6)


def truth_probability(space: Space, world: World, rule: str) -> float:
    """The posterior probability of the world's true patching of one rule:
    the hypothesis whose classes agree with the true patches on every pool
    and observed step, with the true ids where they were seen. Zero when the
    truth lies outside the grammar's bounds."""
    compiled = CompiledWorld(world, _LIMITS)
    return _rule_truth(
        space.rule(rule), [r for r in world.rules if r.target == rule], compiled, compiled.bind()
    )


def _signature(rs: RuleSpace, patch, binding, conclusion: bool) -> int:
    """A true patch's values on the pool and the observed steps, as the
    space's classes record them (bit j: step j)."""
    steps = list(pool(rs.rule).steps) + [s.record.facts for s in rs.viewed]
    bits = 0
    for j, facts in enumerate(steps):
        try:
            value = binding.evaluate(patch, facts.view)
        except Rejection:
            value = None
        ok = (value is facts.view.conclusion) if conclusion else bool(value)
        if ok:
            bits |= 1 << j
    return bits


def _rule_truth(rs: RuleSpace, rules: list, compiled: CompiledWorld, binding) -> float:
    total = rs.mass
    if total <= 0:
        return 0.0
    ids = {rid: i for i, rid in enumerate(rs.ids)}
    disabled = next((r for r in rules if r.disabled), None)
    if disabled is not None:
        if rs.dis_weight > 0 and rs.dis_id in (-1, ids.get(disabled.id, -2)):
            return rs.dis_weight / total
        return 0.0
    conc_class, conc_id = 0, -1
    patch = compiled.conclusions.get(rs.rule)
    if patch is not None:
        bits = _signature(rs, patch, binding, True)
        if bits not in rs.conc.bits[1:]:  # class 0 is the standard conclusion, no patch
            return 0.0
        conc_class = rs.conc.bits.index(bits, 1)
        conc_id = ids.get(patch.rule.id, -1)
    slots: list[tuple[int, int]] = []
    full = (1 << (len(pool(rs.rule).steps) + len(rs.viewed))) - 1
    for p in compiled.requires.get(rs.rule, []):
        bits = _signature(rs, p, binding, False)
        if bits == full:
            continue  # holds everywhere so far: no different from no patch
        if bits not in rs.req.bits:
            return 0.0
        k = rs.req.bits.index(bits)
        if all(
            k != a for a, _ in slots
        ):  # a second patch of the same class so far never fires first
            slots.append((k, ids.get(p.rule.id, -1)))
    if len(slots) > 2:
        return 0.0
    slots += [(-1, -1)] * (2 - len(slots))
    # the mixture holding the truth: the one whose conclusion id is the true
    # conclusion patch's, once that id was seen; otherwise the one with none
    want = conc_id if conc_class else -1
    mass = 0.0
    for m in rs.mixtures:
        if m.conc_id != want:
            continue
        cw = float(m.cw[m.c == conc_class].sum())
        rows = (
            (m.a1 == slots[0][0])
            & (m.a2 == slots[1][0])
            & (m.b1 == slots[0][1])
            & (m.b2 == slots[1][1])
        )
        mass += cw * float(m.rw[rows].sum())
    return mass / total


def _theorem_key(premises, goal) -> tuple:
    return (tuple(sorted(map(str, premises))), str(goal))


def fingerprint(events: list[dict]) -> str:
    """What the section depends on: the engine and every event but its
    wall-clock time (episode.exploration keeps the section while it holds)."""
    text = json.dumps(
        [ENGINE, *({k: v for k, v in e.items() if k != "at"} for e in events)],
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def exploration(events: list[dict], world: World | None = None) -> dict:
    """The report's `exploration` section for one AlienLogic trace."""
    header = events[0]
    worked = _worked(events)
    probes = _probes(events)
    replay = _Replay(worked + [p["observation"] for p in probes])
    for i in range(len(worked)):
        replay.apply(i)
    rows = []
    covered: set[str] = set()
    coverage = []
    rounds = int(header.get("protocol", {}).get("rounds", 4))
    for k, p in enumerate(probes):
        before_bits, before = replay.bits(), replay.count()
        replay.apply(len(worked) + k)
        after = replay.count()
        gained = before_bits - replay.bits()
        touched = sorted(p["observation"].rules)
        covered |= set(touched)
        rows.append(
            {
                "round": p["round"],
                "call": p["call"],
                "before": before,
                "after": after,
                "bits": round(max(gained, 0.0), 6),
                "redundant": after == before,
                "targets": touched,
            }
        )
        if k + 1 == len(probes) or probes[k + 1]["round"] != p["round"]:
            coverage.append({"round": p["round"], "covered": len(covered), "of": len(RULES)})
    done = {c["round"] for c in coverage}
    for r in range(1, rounds + 1):
        if r not in done:
            coverage.append(
                {
                    "round": r,
                    "covered": len(
                        {t for row in rows if row["round"] <= r for t in row["targets"]}
                    ),
                    "of": len(RULES),
                }
            )
    coverage.sort(key=lambda c: c["round"])
    world = world if world is not None else _world(header)
    masses, exploit = _milestones(events, worked, probes, world)
    explore_errors = sum(1 for row in rows if row["redundant"] and row["before"] > 1)
    return {
        "engine": ENGINE,
        "probes": rows,
        "redundant_rate": round(sum(r["redundant"] for r in rows) / len(rows), 6) if rows else None,
        "coverage": coverage,
        "true_mass": masses,
        "errors": {"exploration": explore_errors, "exploitation": exploit},
    }


def _world(header: dict) -> World | None:
    try:
        world = load_world(header["world"])
    except Exception:  # noqa: BLE001 — a world given by a path the trace does not keep: no true mass
        return None
    return world if world.hash == header.get("world_hash") else None


def _milestones(
    events: list[dict], worked: list[Observation], probes: list[dict], world: World | None
) -> tuple[dict | None, int]:
    """True-patch mass per milestone, and the exploitation errors of the answers."""
    questions: dict[tuple[str, str], str] = {}
    answers: dict[str, list[tuple[str, str | None]]] = {}
    labels = []
    for e in events:
        kind = e.get("type")
        if kind == "request" and e.get("purpose") == "answer":
            text = next(
                (
                    m.get("content")
                    for m in reversed(e.get("extra") or [])
                    if m.get("role") == "user"
                ),
                "",
            )
            questions[(str(e.get("milestone")), str(e.get("task")))] = text or ""
        elif kind == "answer":
            answers.setdefault(str(e["milestone"]), []).append((str(e["task"]), e.get("answer")))
        elif kind == "milestone":
            labels.append(str(e["milestone"]).removeprefix("M"))
    masses: dict[str, float] = {}
    errors = 0
    for label in labels:
        if not label.isdigit():
            continue
        t = int(label)
        space = Space()
        for obs in worked + [p["observation"] for p in probes if p["round"] <= t]:
            space.add(obs)
        if world is not None:
            masses[f"M{t}"] = true_mass(space, world)
        errors += _exploitation_errors(space, answers.get(label, []), questions, label)
    return (masses if world is not None else None), errors


def _exploitation_errors(
    space: Space, answers: list[tuple[str, str | None]], questions: dict, label: str
) -> int:
    accepted = Counter()
    for obs in space.observations:
        if obs.proof is not None and obs.verdict.get("accepted"):
            accepted[_theorem_key(obs.proof.premises, obs.proof.goal)] += 1
    verdicts: dict[str, bool] = {}
    errors = 0
    for task, answer in answers:
        if not isinstance(answer, str):
            continue
        theorem = theorem_of(questions.get((label, task), ""))
        if answer == RECORDED_REFUSAL:
            errors += (
                theorem is not None and accepted[_theorem_key(theorem.premises, theorem.goal)] > 0
            )
            continue
        if answer not in verdicts:
            verdicts[answer] = _condemned(space, read_proof(answer), theorem)
        errors += verdicts[answer]
    return errors


def _condemned(space: Space, proof: Proof | None, theorem) -> bool:
    """Whether every surviving hypothesis rejects the proof as an answer."""
    if proof is None:
        return False  # not a proof (an invalid answer): no decision to judge
    if theorem is not None and not all(proof.theorem.same_as(theorem)):
        return True
    dist = space.predict(proof)
    ok = dist.get(("ok",), 0.0)
    last = proof.steps[-1] if proof.steps else None
    reaches = last is not None and last.depth == 0 and last.formula is proof.goal
    return not reaches or ok <= 1e-12
