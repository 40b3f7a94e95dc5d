"""A fresh AlienCode world and its task bank, from a seed.

A world is drawn (world_draw.py); its bank is drawn from the template library
(bank.py). When the library cannot make a bank for that world, the world
is changed and its bank drawn again, up to MAX_BANKS times: when a rule no
template's task enters is to blame, that rule alone is drawn again (the
rest of the world is kept, and usually covered again); otherwise (too few
tasks, too few keystone tasks) a whole new world is drawn, from its own
attempt number. Both files are written as text, read back and checked to
give what was drawn, and both are the same, byte for byte, for the same
seed, knobs and generator version. `write` puts them in a folder once they
pass the audit `aliencode world check` runs (audited_files.py).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from alienworlds.generate.audited_files import AuditFailed, write_audited
from alienworlds.porting import Porter
from alienworlds.porting.compensation import Memo
from alienworlds.ruleset import Rule, World
from alienworlds.ruleset.phases import Phases
from alienworlds.tasks.aliencode_audit import Audit, audit
from alienworlds.tasks.bank import Bank, BankError, load_bank, parse_bank

from aliencode.world_schema import load

from .bank import NoBank, draw_bank
from .bank_writer import bank_toml
from .coverage_prior import CoveragePrior
from .instances import Instantiation, reported
from .world_draw import BOUNDS, VERSION, Drawer, GenerationError, Knobs

# Banks tried for one seed, each in a new world or one with a rule drawn again. At
# version 6 a world of the default knobs had a bank about one time in ten, and at 20
# three of six fresh seeds found none; at version 8 forty fresh seeds tried 1 to 11
# (docs/generated-worlds.md). A seed that finds one sooner gives the same files
# whatever the bound.
MAX_BANKS = 60


@dataclass
class Generated:
    world: World
    text: str  # world.toml
    bank: Bank
    bank_text: str  # bank.toml
    by_scheme: Counter  # rules of the world by perturbation scheme
    draws: int  # rule draws of the world kept
    rejected: Counter = field(
        default_factory=Counter
    )  # rule draws of the world kept, rejected, by reason
    world_draws: int = 1  # worlds tried for a bank (the last one kept)
    worlds_rejected: Counter = field(default_factory=Counter)  # worlds without a bank, by reason
    templates_tried: int = 0  # templates made into tasks, or discarded, for the kept world
    templates_discarded: Counter = field(default_factory=Counter)  # by reason
    seconds: float = 0.0
    rules_redrawn: int = (
        0  # worlds tried again with one rule drawn again (the others are drawn anew)
    )
    # rules no bank task entered, in the order met: what benchmarks/rule_coverage.py counts
    uncovered: list[Rule] = field(default_factory=list)


def _settings(knobs: Knobs) -> str:
    return ", ".join(f"{k} = {v}" for k, v in vars(knobs).items())


def generate(
    seed: str,
    knobs: Knobs | None = None,
    phases: Phases | None = None,
    prior: CoveragePrior | None = None,
) -> Generated:
    """The world and bank of `seed` (see the module docstring); raises
    GenerationError when the knobs cannot be met. `phases` names each step
    as it runs (drawing a world, its worked examples, its tasks); `prior` is
    the shipped coverage prior unless given (coverage_prior.py)."""
    phases = phases or Phases(None)
    knobs = knobs or Knobs()
    knobs.check()
    start = time.perf_counter()
    seed = str(seed)
    memo = (
        Memo()
    )  # hints from earlier searches, shared by every world of this seed (each checked again)
    rejected: Counter = Counter()
    uncovered: list[Rule] = []
    fresh = redrawn = 0
    drawer = Drawer(seed, knobs, fresh, memo, prior)
    with phases.phase("drawing world 1"):
        drawer.run()
    for attempt in range(MAX_BANKS):
        drawn = drawer.result()
        world = drawn.world
        # seeded by the world drawn anew: with a rule drawn again, templates keep their inputs and
        # order
        make = Instantiation(
            world,
            Porter(world, BOUNDS, memo),
            f"alienworlds aliencode bank {VERSION}:{seed}:{fresh}",
        )
        try:
            bank = draw_bank(
                world,
                make,
                random.Random(f"alienworlds aliencode bank order {VERSION}:{seed}:{fresh}"),
                knobs.tasks,
                phases,
            )
        except NoBank as exc:
            rejected[exc.kind] += 1
            phases.say(f"no bank for this world ({exc}); drawing again")
            again = False
            if exc.rule is not None:
                uncovered.append(world.rule(exc.rule))
                with phases.phase(f"drawing rule {exc.rule} again"):
                    again = _redraw(drawer, exc.rule)
            if again:
                redrawn += 1
            else:
                fresh += 1
                drawer = Drawer(seed, knobs, fresh, memo, prior)
                with phases.phase(f"drawing world {fresh + 1}"):
                    drawer.run()
            continue
        with phases.phase("writing the bank and reading it back"):
            text = bank_toml(
                world.name,
                bank,
                VERSION,
                _settings(knobs),
                attempt + 1,
                rejected,
                len(world.rules),
                sum(r.red_herring for r in world.rules),
                reported(world),
            )
            try:
                loaded = parse_bank("aliencode", world.name, text, "bank.toml")
            except BankError as exc:
                raise GenerationError(f"the written bank does not read back: {exc}") from None
        if [t.id for t in loaded.tasks] != [c.task.id for c in bank.tasks] or any(
            _fields(a) != _fields(b.task) for a, b in zip(loaded.tasks, bank.tasks)
        ):
            raise GenerationError("the written bank does not read back as drawn")
        return Generated(
            world,
            drawn.text,
            loaded,
            text,
            drawn.by_scheme,
            drawn.draws,
            drawn.rejected,
            attempt + 1,
            rejected,
            bank.tried,
            bank.discarded,
            time.perf_counter() - start,
            redrawn,
            uncovered,
        )
    raise GenerationError(
        f"no world of this seed has a bank after {MAX_BANKS} worlds: "
        + ", ".join(f"{k} {v}" for k, v in sorted(rejected.items()))
        + "; another seed may have one (docs/generated-worlds.md, 'Fresh seeds')"
    )


def generated_files(seed: str, **knobs: int) -> tuple[World, Bank, dict[str, str]]:
    """The language registry's generator: the world, its bank and the text
    of each file `world generate` writes, from a seed and knob values."""
    chosen = Knobs(**knobs)
    chosen.check()
    result = generate(seed, chosen)
    return result.world, result.bank, {"world.toml": result.text, "bank.toml": result.bank_text}


def _redraw(drawer: Drawer, rule_id: str) -> bool:
    """Draw one rule of the drawer's world again; False when it cannot be
    (the rest would not stay portable, or the draws ran out)."""
    try:
        return drawer.redraw(rule_id)
    except GenerationError:
        return False


def _fields(task) -> tuple:
    return (
        task.kind,
        task.band,
        task.family,
        task.representation,
        task.depth,
        task.prompt,
        task.example,
        task.calls,
        task.reference,
        task.naive,
        task.inputs,
        task.example_inputs,
        task.variants,
    )


# -- writing and auditing ---------------------------------------------------------------

OUTPUTS = ("world.toml", "bank.toml")


def audit_folder(folder: Path) -> tuple[list[str], Audit]:
    """The problems `aliencode world check FOLDER/world.toml` reports (the
    world's inert rules, the bank's references, naive solutions, promises
    and battery), and the bank's audit, judged in this process (which has
    compiled most of the battery's answers while generating)."""
    world = load(str(folder / "world.toml"))
    report = audit(world, load_bank("aliencode", world.name, folder / "bank.toml"))
    return report.problems, report


def write(generated: Generated, out: Path, force: bool = False) -> Audit:
    """Write world.toml and bank.toml into `out` once they pass the audit
    (audited_files.py: files already there are replaced only with `force`);
    the bank's audit. Audit problems raise GenerationError and leave `out`
    as it was."""
    files = {"world.toml": generated.text, "bank.toml": generated.bank_text}
    try:
        return write_audited(files, out, OUTPUTS, audit_folder, force)
    except AuditFailed as exc:
        raise GenerationError(str(exc)) from None
