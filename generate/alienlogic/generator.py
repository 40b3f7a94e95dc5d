"""Generate a fresh AlienLogic world and its bank from a seed.

Deterministic: the same seed and generator version give the same files,
byte for byte, on any machine. Every random choice comes from a random
source seeded with the version and the seed (one per purpose, so the
theorems offered do not depend on the patches drawn), and every search that
labels a theorem is bounded by work, not time (classify.py).

1. Theorems: an endless stream of valid candidates (theorems.py).
2. Patches (patches.py): drawn from the schemes in turn; a patch is kept
   only if it refuses the standard proofs of at least `MIN_WITNESSES` of the
   first `PROBES` candidates, the world with it still proves the core
   theorems (`usable`), and one of those candidates, labelled in the world
   drawn so far, shows it (its naive proof runs into the patch).
3. Labels (classify.py): first the candidates that show each patch; a
   patch none of its first `WITNESS_TRIES` candidates shows is drawn again.
   Then candidates in stream order, until a bank of the requested shape
   with every patch covered and the worked examples can be chosen
   (select.py): meeting the soft targets within `SOFT_PER_TASK` labels per
   task, the hard ones within `DRAWS_PER_TASK` (and `EXTRA_DRAWS`); else
   all patches are drawn again. At most `ATTEMPTS` worlds are tried. Once
   the bank has enough unprovable theorems, certificates are no longer
   sought (such candidates are `skipped`, not labelled).
4. Files (files.py): tasks in a shuffled order with neutral ids L01, L02, ...
"""

from __future__ import annotations

import hashlib
import random
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from alienworlds.generate.audited_files import AuditFailed, write_audited
from alienworlds.generate.knobs import ALIENLOGIC_KNOBS
from alienworlds.ruleset.phases import Phases
from alienworlds.ruleset.world import World, parse_world
from alienworlds.tasks.alienlogic_adaptive import Answerer, Grade, above_refusal, checker, passes
from alienworlds.tasks.alienlogic_audit import Audit as BankAudit
from alienworlds.tasks.alienlogic_audit import audit as audit_bank
from alienworlds.tasks.alienlogic_audit import first_order as is_first_order
from alienworlds.tasks.alienlogic_grading import LogicTask
from alienworlds.tasks.bank import Bank, load_bank, parse_bank

from alienlogic import Proof, check, compile_world, load_world
from alienlogic.world_schema import SCHEMA
from alienlogic.worlds import audit as worlds_audit

from . import files
from .classify import LABELS, Classifier, Outcome, find_proof
from .patches import PatchSpec, draw, opaque_ids
from .select import FIRST_ORDER_UNPROVABLE_SHARE, Missing, Shape, examples, select
from .theorems import Candidate, core, stream

VERSION = "5"
PROBES = 400  # candidates whose standard proofs test whether a patch matters
MIN_WITNESSES = 2  # standard proofs a patch must refuse to be kept
USABLE_SHARE = 0.7  # of the core theorems a world must still prove
DRAWS_PER_TASK = (
    12  # candidates labelled in one world: at most this many per task, and EXTRA_DRAWS more
)
EXTRA_DRAWS = 200
SOFT_PER_TASK = (
    4  # beyond this many labels per task, the bank's soft targets are given up (select.py)
)
WITNESS_TRIES = 6  # witnesses of a patch labelled before it is drawn again
ATTEMPTS = 4  # worlds tried (patches shown by no labelled theorem are drawn again)
SELECT_EVERY = 10  # try to choose the bank after this many new labels
# unprovable labels beyond the knob (at most as many again) before certificates are no longer sought
SPARE_UNPROVABLE = 3


class GenerationError(Exception):
    """The knobs cannot be met; the message says what was missing, `stats`
    how far generation got."""

    def __init__(self, message: str, stats: Stats | None = None) -> None:
        super().__init__(message)
        self.stats = stats


@dataclass(frozen=True)
class Knobs:
    patches: int = ALIENLOGIC_KNOBS.knob("patches").default
    theorems: int = ALIENLOGIC_KNOBS.knob("theorems").default
    unprovable: int = ALIENLOGIC_KNOBS.knob("unprovable").default
    first_order: int = ALIENLOGIC_KNOBS.knob("first_order").default  # provable first-order theorems
    examples: int = ALIENLOGIC_KNOBS.knob("examples").default

    def check(self) -> None:
        """Raise GenerationError unless every knob is in its range (see generate/knobs.py)."""
        problems = ALIENLOGIC_KNOBS.problems(vars(self))
        if problems:
            raise GenerationError("; ".join(problems))

    @property
    def shape(self) -> Shape:
        return Shape(self.theorems, self.unprovable, self.first_order)


@dataclass
class Tally:
    """Labels given, and why candidates were discarded as unresolved."""

    labels: Counter = field(default_factory=Counter)
    unresolved: Counter = field(default_factory=Counter)

    def add(self, outcome: Outcome) -> None:
        self.labels[outcome.label] += 1
        if outcome.label == "unresolved":
            self.unresolved[outcome.reason.split(":")[0]] += 1

    @property
    def drawn(self) -> int:
        return sum(self.labels.values())

    @property
    def unresolved_share(self) -> float:
        """Of the candidates fully labelled (skipped ones left out), the share discarded."""
        n = self.drawn - self.labels["skipped"]
        return self.labels["unresolved"] / n if n else 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "drawn": self.drawn,
            "labels": dict(sorted(self.labels.items())),
            "unresolved_share": round(self.unresolved_share, 3),
            "unresolved_reasons": dict(sorted(self.unresolved.items())),
        }


@dataclass
class Stats:
    """How generation went (never written to the files: it holds CPU times).
    `final`: the labels in the world written; `trials`: the labels given
    while drawing its patches, in the worlds drawn so far."""

    attempts: int = 0
    final: Tally = field(default_factory=Tally)
    trials: Tally = field(default_factory=Tally)
    seconds: Counter = field(default_factory=Counter)  # CPU seconds by stage
    rejected_patches: Counter = field(default_factory=Counter)  # patches drawn and put back, by why
    left_out: int = 0  # provable tasks left out because a knowledge-free strategy passed them

    def as_dict(self) -> dict[str, object]:
        return {
            "attempts": self.attempts,
            "final": self.final.as_dict(),
            "trials": self.trials.as_dict(),
            "rejected_patches": dict(sorted(self.rejected_patches.items())),
            "left_out": self.left_out,
            "cpu_seconds": {k: round(v, 2) for k, v in sorted(self.seconds.items())},
        }


@dataclass
class Generated:
    name: str
    world: World
    files: dict[str, str]  # path relative to the output folder -> text
    stats: Stats
    families: dict[str, int]


def generated_files(seed: str, **knobs: int) -> tuple[World, Bank, dict[str, str]]:
    """The language registry's generator: the world, its bank and the text
    of each file `world generate` writes (certificates included)."""
    chosen = Knobs(**knobs)
    chosen.check()
    result = generate(seed, chosen)
    bank = parse_bank("alienlogic", result.world.name, result.files["bank.toml"], "bank.toml")
    return result.world, bank, dict(result.files)


def usable(
    specs: list[PatchSpec], first_order: bool, known: dict[int, Proof] | None = None
) -> dict[int, Proof] | None:
    """Whether a world of these patches still proves every required core
    theorem and at least `USABLE_SHARE` of them all (templates.toml): the
    proofs found (by core index), or None. `known` holds proofs from a world
    with fewer patches; one the new world still accepts is kept unsearched."""
    world = World(
        "usability", "alienlogic", rules=tuple(s.rule(f"X{i}") for i, s in enumerate(specs))
    )
    proofs: dict[int, Proof] = {}
    tried = [(i, c) for i, c in enumerate(core()) if first_order or not is_first_order(c.theorem)]
    for i, c in tried:
        old = (known or {}).get(i)
        proof = (
            old
            if old is not None and check(old, world, task=c.theorem).accepted
            else find_proof(world, c.theorem)
        )
        if proof is not None:
            proofs[i] = proof
        elif c.required:
            return None
    return proofs if len(proofs) >= USABLE_SHARE * len(tried) else None


def world_name(seed: str) -> str:
    """A name that tells generated worlds apart without revealing the seed."""
    return "gen-" + hashlib.sha256(f"alienlogic {VERSION}:{seed}".encode()).hexdigest()[:12]


class _Pool:
    """The candidate stream, materialised as far as it has been read."""

    def __init__(self, rng: random.Random, first_order: bool) -> None:
        self._stream: Iterator[Candidate] = (
            c for c in stream(rng) if first_order or not is_first_order(c.theorem)
        )
        self.items: list[Candidate] = []

    def __getitem__(self, i: int) -> Candidate:
        while len(self.items) <= i:
            self.items.append(next(self._stream))
        return self.items[i]


def generate(seed: str, knobs: Knobs = Knobs(), phases: Phases | None = None) -> Generated:
    """A world, its bank and certificates as file texts (see the module doc);
    `phases` names each step as it runs."""
    phases = phases or Phases(None)
    knobs.check()
    base = f"alienlogic generator {VERSION}:{seed}"
    name = world_name(seed)
    stats = Stats()
    pool = _Pool(random.Random(base + ":theorems"), knobs.first_order > 0)
    standard: dict[str, object] = {}
    probe = Classifier(World(name, "alienlogic"), standard, stats.seconds)
    with phases.phase(f"proving {PROBES} probe theorems in standard logic"):
        probes = [
            (i, proof)
            for i in range(PROBES)
            if (proof := probe.standard_proof(pool[i])) is not None
        ]
    witnesses: dict[PatchSpec, list[int]] = {}
    core_proofs: dict[
        tuple[PatchSpec, ...], dict[int, Proof]
    ] = {}  # the core proofs of each accepted draw so far

    def accept(chosen: list[PatchSpec], spec: PatchSpec) -> bool:
        single = World(name, "alienlogic", rules=(spec.rule("X1"),))
        refused = (
            i for i, proof in probes if not check(proof, single, task=pool[i].theorem).accepted
        )
        witnesses[spec] = list(islice(refused, WITNESS_TRIES))
        if len(witnesses[spec]) < MIN_WITNESSES:
            stats.rejected_patches["matters too little"] += 1
            return False
        trial = [*chosen, spec]
        proofs = usable(trial, knobs.first_order > 0, core_proofs.get(tuple(chosen)))
        if proofs is None:
            stats.rejected_patches["leaves the world unusable"] += 1
            return False
        world = World(name, "alienlogic", rules=tuple(s.rule(f"X{i}") for i, s in enumerate(trial)))
        if not _Labels(Classifier(world, standard, stats.seconds), pool, stats.trials).cover(
            f"X{len(chosen)}", witnesses[spec]
        ):
            stats.rejected_patches["no labelled theorem shows it"] += 1
            return False
        core_proofs[tuple(trial)] = proofs
        return True

    rng = random.Random(base + ":patches")
    answerer = Answerer()  # the strategies' proofs do not depend on the world: one for all drawn
    specs: list[PatchSpec] = []
    shown_nowhere: set[PatchSpec] = set()
    missing: list[str] = []
    for attempt in range(ATTEMPTS):
        stats.attempts = attempt + 1
        start, nested = time.process_time(), sum(stats.seconds.values())
        with phases.phase(
            f"drawing {knobs.patches} patches (world {attempt + 1})",
            lambda: f"{len(witnesses)} patches tried",
        ):
            specs = draw(
                rng,
                knobs.patches,
                accept,
                first_order=knobs.first_order > 0,
                keep=specs,
                exclude=shown_nowhere,
            )
        # the rest of drawing: the labelling inside it is counted by stage already
        stats.seconds["patches"] += (
            time.process_time() - start - (sum(stats.seconds.values()) - nested)
        )
        if len(specs) < knobs.patches:  # the library ran out in this order of draws: draw all again
            missing.append(f"world {attempt + 1}: only {len(specs)} compatible patches that matter")
            phases.say(f"{missing[-1]}; drawing again")
            specs = []
            continue
        order = list(specs)
        rng.shuffle(order)
        by_id = dict(zip(opaque_ids(rng, len(order)), order))
        world_text = files.world_toml(
            name, VERSION, [spec.rule(rule_id) for rule_id, spec in by_id.items()]
        )
        world = parse_world(world_text, "world.toml", SCHEMA)
        compile_world(world)
        stats.final = Tally()
        labels = _Labels(Classifier(world, standard, stats.seconds), pool, stats.final)
        with phases.phase(f"labelling theorems that show each patch (world {attempt + 1})"):
            uncovered = [
                rule_id
                for rule_id, spec in by_id.items()
                if not labels.cover(rule_id, witnesses[spec])
            ]
        if uncovered:  # draw other patches in their place, keep the rest
            shown_nowhere |= {by_id[r] for r in uncovered}
            stats.rejected_patches["no labelled theorem shows it"] += len(uncovered)
            specs = [spec for spec in specs if spec not in shown_nowhere]
            missing.append(f"world {attempt + 1}: no labelled theorem shows {', '.join(uncovered)}")
            phases.say(f"{missing[-1]}; drawing other patches in their place")
            continue
        with phases.phase(f"labelling and choosing the bank's theorems (world {attempt + 1})"):
            found = labels.fill(world, knobs, _Balance(checker(world), answerer, stats))
        if isinstance(found, str):  # draw all patches again
            missing.append(f"world {attempt + 1}: {found}")
            phases.say(f"{missing[-1]}; drawing every patch again")
            specs = []
            continue
        chosen, shown = found
        return _files(name, world, world_text, chosen, shown, random.Random(base + ":bank"), stats)
    raise GenerationError(
        f"no bank after {ATTEMPTS} worlds ({'; '.join(missing)}); ask for fewer --patches or "
        "--unprovable",
        stats,
    )


class _Labels:
    """The candidates labelled in one world, by their place in the stream."""

    def __init__(self, classifier: Classifier, pool: _Pool, tally: Tally) -> None:
        self.classifier = classifier
        self.pool = pool
        self.tally = tally
        self.done: dict[int, Outcome] = {}

    def label(self, i: int, unprovable: bool = True) -> Outcome:
        if i not in self.done:
            outcome = self.done[i] = self.classifier.classify(self.pool[i], unprovable)
            self.tally.add(outcome)
        return self.done[i]

    def outcomes(self) -> list[Outcome]:
        return [self.done[i] for i in sorted(self.done)]

    def cover(self, rule_id: str, witnesses: list[int]) -> bool:
        """Whether a labelled theorem shows the patch: one labelled already,
        else one of its first `WITNESS_TRIES` witnesses."""
        if any(rule_id in o.rules for o in self.done.values() if o.label in LABELS):
            return True
        return any(rule_id in self.label(i).rules for i in witnesses[:WITNESS_TRIES])

    def fill(self, world: World, knobs: Knobs, balance: _Balance):
        """Label candidates in stream order until a bank can be chosen:
        (tasks, examples), or what is missing."""
        since = 0
        unprovable = Counter()
        for o in self.done.values():
            unprovable[o.first_order] += o.label == "unprovable"
        fo_target = round(FIRST_ORDER_UNPROVABLE_SHARE * knobs.unprovable)
        for i in range(DRAWS_PER_TASK * knobs.theorems + EXTRA_DRAWS):
            if i in self.done:
                continue
            fo = is_first_order(self.pool[i].theorem)
            wanted = sum(unprovable.values()) < knobs.unprovable + min(
                SPARE_UNPROVABLE, knobs.unprovable
            ) or (fo and unprovable[True] < fo_target)
            outcome = self.label(i, wanted)
            if outcome.label not in LABELS:
                continue
            unprovable[fo] += outcome.label == "unprovable"
            since += 1
            if since >= SELECT_EVERY:
                since = 0
                try:
                    return _choose(
                        self.outcomes(),
                        world,
                        knobs,
                        balance,
                        strict=len(self.done) < SOFT_PER_TASK * knobs.theorems,
                    )
                except Missing:
                    pass
        try:
            return _choose(self.outcomes(), world, knobs, balance, strict=False)
        except Missing as exc:
            return f"after {len(self.done)} candidates labelled, {exc}"


@dataclass
class _Balance:
    """What keeps a bank from rewarding knowing nothing (docs/validity.md):
    the adaptive strategies' answers (`tasks.alienlogic_adaptive`), graded in
    the world drawn."""

    grade: Grade
    answerer: Answerer
    stats: Stats

    def beaten(self, chosen: list[Outcome]) -> list[Outcome]:
        """The provable tasks of the selection that the first strategy scoring
        above refuse-all passes; none when every strategy stays at or below."""
        start = time.process_time()
        tasks = [
            LogicTask(str(i), o.family, o.theorem, o.label == "provable")
            for i, o in enumerate(chosen)
        ]
        above = above_refusal(tasks, passes(tasks, self.grade, self.answerer))
        self.stats.seconds["adaptive strategies"] += time.process_time() - start
        first = next(iter(above.values()), set())
        return [chosen[int(i)] for i in sorted(first, key=int)]


def _choose(outcomes: list[Outcome], world: World, knobs: Knobs, balance: _Balance, strict: bool):
    """(tasks, examples), or raise Missing. A selection some adaptive
    strategy scores higher on than refusing everything gives up the provable
    tasks that strategy passes, and the bank is chosen again without them."""
    left_out: set[int] = set()
    while True:
        chosen = select([o for o in outcomes if id(o) not in left_out], world, knobs.shape, strict)
        beaten = balance.beaten(chosen)
        if not beaten:
            break
        left_out |= {id(o) for o in beaten}
        balance.stats.left_out += len(beaten)
    shown = examples(outcomes, chosen, world, knobs.examples)
    if shown is None:
        raise Missing(f"fewer than {knobs.examples} proofs for worked examples")
    return chosen, shown


def _files(
    name: str,
    world: World,
    world_text: str,
    chosen: list[Outcome],
    shown,
    rng: random.Random,
    stats: Stats,
) -> Generated:
    order = list(chosen)
    rng.shuffle(order)
    width = 2
    tasks, out = [], {"world.toml": world_text}
    for n, o in enumerate(order, start=1):
        task_id = f"L{n:0{width}d}"
        entry: dict[str, object] = {
            "id": task_id,
            "family": o.family,
            "premises": [str(p) for p in o.theorem.premises],
            "goal": str(o.theorem.goal),
            "provable": o.label == "provable",
            "reference": o.reference,
            "naive": o.naive,
        }
        if o.certificate is not None:
            entry["certificate"] = f"certificates/{task_id}.json"
            out[entry["certificate"]] = files.certificate_json(o.certificate, task_id)
        tasks.append(entry)
    families = Counter(o.family for o in chosen)
    audit = {
        "tasks": len(chosen),
        "provable": sum(o.label == "provable" for o in chosen),
        "unprovable": sum(o.label == "unprovable" for o in chosen),
        "first_order_min": sum(o.first_order for o in chosen),
        "families": families,
        "examples": len(shown),
        "rules": len(world.rules),
        "certified": sum(o.label == "unprovable" for o in chosen),
        "id_pattern": "^L[0-9]{2}$",
    }
    ex = [(f"E{i}", e.prompt, e.proof) for i, e in enumerate(shown, start=1)]
    out["bank.toml"] = files.bank_toml(name, VERSION, audit, ex, tasks)
    return Generated(name, world, dict(sorted(out.items())), stats, dict(sorted(families.items())))


# -- writing and auditing ---------------------------------------------------------------

OUTPUTS = ("world.toml", "bank.toml", "certificates")


def audit_folder(folder: Path, prover: bool = True) -> tuple[list[str], BankAudit]:
    """The problems `alienlogic world check FOLDER/world.toml` reports (the
    world's own audit and its bank's: references, naive proofs, certificates
    re-checked, bounded search, prover, the bank's promises), and the bank's
    audit (each task's rules, ...)."""
    world = load_world(str(folder / "world.toml"))
    bank = load_bank("alienlogic", world.name, folder / "bank.toml")
    report = audit_bank(world, bank, prover=prover)
    return worlds_audit(world) + report.problems, report


def write(
    generated: Generated, out: Path, force: bool = False, seconds: Counter | None = None
) -> BankAudit:
    """Write the files into `out` once they pass the audit (audited_files.py:
    world.toml, bank.toml and certificates/ are replaced only with `force`);
    the bank's audit. Audit problems raise GenerationError and leave `out`
    as it was."""

    def audited(folder: Path) -> tuple[list[str], BankAudit]:
        start = time.process_time()
        try:
            return audit_folder(folder)
        finally:
            if seconds is not None:
                seconds["audit"] += time.process_time() - start

    try:
        return write_audited(generated.files, out, OUTPUTS, audited, force)
    except AuditFailed as exc:
        raise GenerationError(str(exc), generated.stats) from None
