"""Build and audit an AlienLogic world's task bank (issue 6).

Computes, never trusts. For every task:

* provable theorems: the reference proof is accepted in the world for
  exactly the task's premises and goal; a `naive` proof (the standard-calculus
  proof of a theorem that needs the world's patches) is accepted in the
  standard world and refused in this one;
* unprovable theorems: the stored certificate holds against the world (the
  independent re-checker reads the certificate file and the world file), the
  naive proof shows the standard calculus proves the theorem, and a bounded
  proof search (helper-lemma detours included) finds no proof in the world —
  a derivation it finds is written out and checked, and fails the audit;
* the task's rules: the patches the naive proof runs into — the checker
  names the patch that refuses it, that patch is switched back to the
  standard rule (`World.without`), and so on until the proof is accepted;
  each patch so found is necessary (switching back all the others leaves the
  proof refused) — together with the patches whose removal changes whether
  the reference proof is accepted (a patched conclusion the reference relies
  on);
* with the prover (default): the prover finds its own proof of every
  provable theorem in the world (so the reference is not the only route),
  proves every unprovable theorem in the standard world, and finds no proof
  of it in this world.

Then the bank's promises: families agree with the computed rule counts
(sanity: none; single-rule: one; two-rule: two; multi-rule: three or more;
first-order: a provable theorem with quantifiers or terms; unprovable),
every patch belongs to some task, worked examples are accepted and expose
the rules they declare, ids follow the neutral pattern, and the counts of the
bank's [audit] table.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field

from alienworlds.ruleset.world import World, standard_world

from alienlogic import Proof, ProofSyntaxError, Theorem, check, parse_proof
from alienlogic.bounded import bounded_search
from alienlogic.certify import check_certificate
from alienlogic.formulas import Eq, Formula, Pred, Quantified
from alienlogic.prover import prove

from .alienlogic_grading import LogicTask, logic_tasks
from .bank import Bank

FAMILIES = ("sanity", "single-rule", "two-rule", "multi-rule", "first-order", "unprovable")
WORLD_CLASSES = ("ALIEN_AXIOM_DISABLED", "ALIEN_SIDE_CONDITION")


def first_order(theorem: Theorem) -> bool:
    """Whether the theorem uses quantifiers, equality or terms."""

    def fo(f: Formula) -> bool:
        if isinstance(f, (Quantified, Eq)) or (isinstance(f, Pred) and f.terms):
            return True
        return any(isinstance(c, Formula) and fo(c) for c in f.args)

    return any(fo(f) for f in (*theorem.premises, theorem.goal))


@dataclass
class TaskAudit:
    id: str
    family: str
    provable: bool
    first_order: bool
    rules: list[str]
    reference_ok: bool | None = None
    naive_standard_ok: bool | None = None
    naive_refused: bool | None = None
    certified: bool | None = None
    certificate_kind: str | None = None
    certificate_seconds: float = 0.0
    bounded_derivable: bool | None = None
    prover: dict[str, object] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "family": self.family,
            "provable": self.provable,
            "first_order": self.first_order,
            "rules": self.rules,
        }


@dataclass
class Audit:
    world: World
    tasks: list[TaskAudit] = field(default_factory=list)
    examples: list[dict[str, object]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def reference_pass(self) -> int:
        return sum(bool(t.reference_ok) for t in self.tasks if t.provable)

    @property
    def certified(self) -> int:
        return sum(bool(t.certified) for t in self.tasks if not t.provable)

    @property
    def naive_refused(self) -> int:
        return sum(bool(t.naive_refused) for t in self.tasks)

    @property
    def bounded_derivable(self) -> int:
        return sum(bool(t.bounded_derivable) for t in self.tasks if not t.provable)

    @property
    def standard_proves(self) -> int:
        return sum(bool(t.naive_standard_ok) for t in self.tasks if not t.provable)

    def summary(self) -> dict[str, object]:
        provable = [t for t in self.tasks if t.provable]
        out: dict[str, object] = {
            "reference_pass": self.reference_pass,
            "provable": len(provable),
            "certified": self.certified,
            "unprovable": len(self.tasks) - len(provable),
            "naive_refused": self.naive_refused,
            "standard_proves": self.standard_proves,
            "bounded_search_derives": self.bounded_derivable,
        }
        with_prover = [t for t in self.tasks if t.prover]
        if with_prover:
            out["prover"] = {
                "world_proves": sum(bool(t.prover.get("world")) for t in provable),
                "standard_proves_unprovable": sum(
                    bool(t.prover.get("standard")) for t in self.tasks if not t.provable
                ),
                "world_blocked": sum(
                    t.prover.get("world") is False for t in self.tasks if not t.provable
                ),
            }
        return out


def _parse(text: str) -> Proof | None:
    try:
        return parse_proof(text)
    except ProofSyntaxError:
        return None


def blocking_patches(world: World, proof: Proof, theorem: Theorem) -> tuple[list[str], str | None]:
    """The patches the proof runs into, in the order the checker reports them,
    and why it stays refused (a standard failure) if it does."""
    found: list[str] = []
    w = world
    for _ in range(len(world.rules) + 1):
        v = check(proof, w, task=theorem)
        if v.accepted:
            return found, None
        if v.reason_class not in WORLD_CLASSES:
            return found, f"{v.reason_class} {v.reason_id} at step {v.rejected_step}"
        found.append(v.reason_id)
        w = w.without(v.reason_id)
    return found, "the patches do not converge"


def reference_patches(world: World, proof: Proof, theorem: Theorem) -> list[str]:
    """Patches whose removal makes the accepted reference refused (only a
    patched conclusion can do that; removing a restriction never refuses)."""
    used = {s.rule for s in proof.steps}
    return [
        r.id
        for r in world.rules
        if r.conclusion
        and r.target in used
        and not check(proof, world.without(r.id), task=theorem).accepted
    ]


def audit(world: World, bank: Bank, prover: bool = True, prover_seconds: float = 10.0) -> Audit:
    start = time.perf_counter()
    report = Audit(world)
    standard = standard_world("alienlogic")
    tasks = logic_tasks(bank)
    seen: dict[tuple, str] = {}
    timing = Counter()
    for task in tasks:
        key = (frozenset(Counter(task.theorem.premises).items()), task.theorem.goal)
        if key in seen:
            report.problems.append(f"task {task.id}: the same theorem as task {seen[key]}")
        seen.setdefault(key, task.id)
        report.tasks.append(
            _audit_task(world, standard, task, report.problems, prover, prover_seconds, timing)
        )
    report.timings = dict(timing)
    _audit_examples(report, bank)
    _check_families(report)
    _check_coverage(report)
    _check_requirements(report, bank)
    report.seconds = time.perf_counter() - start
    return report


def _audit_task(
    world: World,
    standard: World,
    task: LogicTask,
    problems: list[str],
    use_prover: bool,
    seconds: float,
    timing: Counter,
) -> TaskAudit:
    th = task.theorem
    out = TaskAudit(task.id, task.family, task.provable, first_order(th), [])
    label = f"task {task.id}"
    rules: list[str] = []
    naive = _parse(task.naive) if task.naive else None
    if task.naive and naive is None:
        problems.append(f"{label}: the naive proof does not parse")
    if naive is not None:
        out.naive_standard_ok = check(naive, standard, task=th).accepted
        if not out.naive_standard_ok:
            problems.append(f"{label}: the naive proof is not accepted in the standard calculus")
        verdict = check(naive, world, task=th)
        out.naive_refused = not verdict.accepted
        if verdict.accepted:
            problems.append(
                f"{label}: the naive proof is accepted in the world (it needs no patch; drop it "
                "or make the task sanity)"
            )
        else:
            blocking, stuck = blocking_patches(world, naive, th)
            if stuck:
                problems.append(
                    f"{label}: the naive proof stays refused with the world's patches removed "
                    f"({stuck})"
                )
            for rule_id in blocking:
                others = [r for r in blocking if r != rule_id]
                if check(naive, world.without(*others), task=th).accepted:
                    problems.append(
                        f"{label}: patch {rule_id} is not needed to refuse the naive proof"
                    )
            rules += blocking
    if task.provable:
        t = time.perf_counter()
        reference = _parse(task.reference)
        out.reference_ok = reference is not None and check(reference, world, task=th).accepted
        if not out.reference_ok:
            problems.append(f"{label}: the reference proof is not accepted in the world")
        elif reference is not None:
            rules += [r for r in reference_patches(world, reference, th) if r not in rules]
        timing["references"] += time.perf_counter() - t
    else:
        t = time.perf_counter()
        if naive is None:
            problems.append(f"{label}: an unprovable task needs the standard proof as 'naive'")
        if task.certificate is None or not task.certificate.is_file():
            problems.append(f"{label}: no certificate file at {task.certificate}")
            out.certified = False
        else:
            try:
                text = task.certificate.read_text(encoding="utf-8")
            except (OSError, ValueError) as exc:
                problems.append(f"{label}: cannot read the certificate: {exc}")
                out.certified = False
            else:
                result = check_certificate(text, world, th)
                out.certified = result.ok
                out.certificate_kind = result.kind
                out.certificate_seconds = result.seconds
                for p in result.problems:
                    problems.append(f"{label}: certificate: {p}")
        timing["certificates"] += time.perf_counter() - t
        t = time.perf_counter()
        found = bounded_search(world, th)
        out.bounded_derivable = found.derivable
        if found.proved:
            problems.append(
                f"{label}: labelled unprovable, but bounded search proves it ({found.plan}); the "
                "proof: " + " ".join(str(found.proof).split())
            )
        elif found.derivable:
            v = found.verdict
            problems.append(
                f"{label}: labelled unprovable, but bounded search derives it when layout "
                "conditions are ignored "
                f"({found.plan}); its written proof is refused at step {v.rejected_step} "
                f"({v.reason_id})"
            )
        timing["bounded"] += time.perf_counter() - t
    if use_prover:
        t = time.perf_counter()
        if task.provable:
            found = prove(world, th, seconds=seconds)
            out.prover = {"world": found.found, "seconds": round(found.seconds, 4)}
            if not found.found:
                problems.append(f"{label}: the prover finds no proof in the world ({found.reason})")
            timing["prover_provable"] += time.perf_counter() - t
        else:
            std = prove(standard, th, seconds=seconds)
            t2 = time.perf_counter()
            blocked = prove(world, th, seconds=min(seconds, 3.0))
            out.prover = {
                "standard": std.found,
                "world": blocked.found,
                "seconds": round(std.seconds, 4),
            }
            if not std.found:
                problems.append(f"{label}: the prover finds no standard proof ({std.reason})")
            if blocked.found:
                problems.append(
                    f"{label}: the prover proves this theorem designated unprovable in the world"
                )
            timing["prover_standard"] += t2 - t
            timing["prover_blocked"] += time.perf_counter() - t2
    out.rules = sorted(dict.fromkeys(rules), key=[r.id for r in world.rules].index)
    return out


def _audit_examples(report: Audit, bank: Bank) -> None:
    world = report.world
    for example in bank.examples:
        proof = _parse(example.program)
        rules: list[str] = []
        if proof is None:
            report.problems.append(f"example {example.id}: the proof does not parse")
        else:
            th = proof.theorem
            if not check(proof, world, task=th).accepted:
                report.problems.append(
                    f"example {example.id}: the proof is not accepted in the world"
                )
            else:
                rules = reference_patches(world, proof, th)
        if sorted(example.rules) != sorted(rules):
            report.problems.append(
                f"example {example.id}: declares rules {sorted(example.rules)} but exposes "
                f"{sorted(rules)}"
            )
        report.examples.append({"id": example.id, "rules": rules})


def _check_families(report: Audit) -> None:
    for t in report.tasks:
        label = f"task {t.id} ({t.family})"
        n = len(t.rules)
        if t.family not in FAMILIES:
            report.problems.append(
                f"{label}: unknown family; expected one of {', '.join(FAMILIES)}"
            )
        elif t.family == "unprovable":
            if t.provable:
                report.problems.append(
                    f"{label}: the family says unprovable, the task says provable"
                )
        elif not t.provable:
            report.problems.append(f"{label}: an unprovable task belongs to the family unprovable")
        elif t.family == "first-order":
            if not t.first_order:
                report.problems.append(f"{label}: the theorem is propositional")
        elif t.first_order:
            report.problems.append(
                f"{label}: a provable first-order theorem belongs to the family first-order"
            )
        elif t.family == "sanity" and n:
            report.problems.append(
                f"{label}: a sanity task needs no patch, but its rules are {t.rules}"
            )
        elif (
            t.family == "single-rule"
            and n != 1
            or t.family == "two-rule"
            and n != 2
            or t.family == "multi-rule"
            and n < 3
        ):
            report.problems.append(f"{label}: {n} rule(s) {t.rules}")


def _check_coverage(report: Audit) -> None:
    listed = {r for t in report.tasks for r in t.rules}
    for rule in report.world.rules:
        if rule.id not in listed:
            report.problems.append(f"rule {rule.id}: this patch appears in no task's rule list")


def _check_requirements(report: Audit, bank: Bank) -> None:
    req = bank.requirements
    tasks = report.tasks

    def expect(label: str, want: object, got: object) -> None:
        if want != got:
            report.problems.append(f"{label}: expected {want}, found {got}")

    if "tasks" in req:
        expect("number of tasks", req["tasks"], len(tasks))
    if "provable" in req:
        expect("provable tasks", req["provable"], sum(t.provable for t in tasks))
    if "unprovable" in req:
        expect("unprovable tasks", req["unprovable"], sum(not t.provable for t in tasks))
    if "first_order_min" in req:
        n = sum(t.first_order for t in tasks)
        if n < req["first_order_min"]:
            report.problems.append(f"first-order tasks: {n}, fewer than {req['first_order_min']}")
    for name, want in req.get("families", {}).items():
        expect(f"tasks of family {name}", want, sum(t.family == name for t in tasks))
    if "examples" in req:
        expect("worked examples", req["examples"], len(bank.examples))
    if "rules" in req:
        expect("discovery targets", req["rules"], len(report.world.rules))
    if "certified" in req:
        expect("certified unprovable tasks", req["certified"], report.certified)
    if "id_pattern" in req:
        pattern = re.compile(req["id_pattern"])
        for t in tasks:
            if not pattern.fullmatch(t.id):
                report.problems.append(
                    f"task {t.id}: the id does not follow the neutral pattern {req['id_pattern']}"
                )
