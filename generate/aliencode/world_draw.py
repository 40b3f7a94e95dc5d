"""Draw the rules of a fresh AlienCode world from a seed.

Deterministic: the same seed, attempt and generator version give the same
world, byte for byte. Rules are drawn from the perturbation schemes
(schemes.py) by a random source seeded with the version, the seed and the
attempt (generator.py draws another world when a bank cannot be made for
one); a draw is rejected when its rule

* behaves like the manual at its site (it would be a hidden red herring),
* behaves like another rule of the world (same site, or another site with
  the same operands),
* is of a kind banks seldom cover, by chance: an altered rule is kept with
  the probability the coverage prior gives its site and place
  (coverage_prior.py; a red herring's rule and scope are drawn with
  weights the prior gives them instead),
* is shown by too few templates (exposure.py), or was a rule a bank of this
  seed could not cover (`redraw`: the generator draws such a rule again,
  keeping the rest of the world),
* or leaves some altered site unportable: the porting compiler must port
  the probe programs (probes.py) of every altered site, at every kind of
  place, and the ported probes must print what the manual says.

The keystone pair comes first: one rule for PLUCK and one for CARVE, with
no scope, so that indexing and slicing rules reach most tasks. Then
RESISTANT rules of the calibration-resistant scheme (changes a run-time
test cannot see: STRAND inside CRAFT bodies, SWEEP on strings, ...), so
that every world has some a knowledge-free calibrator stumbles on; the
first is STRAND built backwards in CRAFT bodies whenever the scoped knob
leaves room for it (the templates that deliver lists lean on it). Then the
other altered rules (`scoped` of them limited to top level, CRAFT bodies
or loops), then red herrings (IDENTITY rules in a narrower scope placed
before an altered rule of the same site, so that the site keeps the
manual's meaning there; at most one per site, since two would leave their
rule altered in one scope only, where few tasks reach it), then keyword
renamings.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cache

from alienworlds.generate.knobs import ALIENCODE_KNOBS
from alienworlds.porting import Bounds, Porter
from alienworlds.porting.compensation import Memo
from alienworlds.porting.semantics import STANDARD
from alienworlds.ruleset import Rule, World
from alienworlds.ruleset.equivalence import compare
from alienworlds.ruleset.world import parse_world

from aliencode.sites import (
    CONSTANT_KEYWORDS,
    OPERATIONS,
    SITES,
    STATEMENT_KEYWORDS,
    operand_kinds,
)
from aliencode.world_schema import SCHEMA

from . import schemes
from .coverage_prior import CoveragePrior, place, shipped
from .exposure import shows
from .library import support
from .probes import check_site
from .writer import world_toml

VERSION = "8"
# draws for one world before giving up (the prior turns many cheap draws away)
MAX_DRAWS = 1_000
SELDOM = "banks seldom cover its kind"
SCOPES = ("function", "loop", "top")
KEYSTONE = ("PLUCK", "CARVE")
HERRING_TRIES = 150  # red-herring draws on other sites before the keystone pair may be shadowed
# How often each scope is drawn for a scoped rule or a red herring: a bank
# needs a task that lists the rule and that no strategy passes, and the tasks
# the adaptive strategies cannot pass are mostly CRAFT bodies (STRAND built
# backwards there), fewest at top level.
SCOPE_WEIGHTS = (3, 2, 1)
PLACE_WORDS = {"function": "in functions", "loop": "in loops", "top": "at top level"}
BOUNDS = Bounds(max_size=5, budget=60_000)
RESISTANT = 2  # altered rules from the calibration-resistant scheme, right after the keystone pair
# templates that use a rule's site in its scope, at least: else no bank task could list the rule
MIN_SUPPORT = 3


class GenerationError(Exception):
    """The knobs cannot be met (or too many draws were rejected)."""


@dataclass(frozen=True)
class Knobs:
    # rules that differ from the manual (the keystone pair included)
    altered: int = ALIENCODE_KNOBS.knob("altered").default
    # IDENTITY rules shadowing an altered rule in a narrower scope
    red_herrings: int = ALIENCODE_KNOBS.knob("red_herrings").default
    scoped: int = ALIENCODE_KNOBS.knob("scoped").default  # altered rules limited to one scope
    renamed: int = ALIENCODE_KNOBS.knob("renamed").default  # keywords spelled with invented words
    tasks: int = ALIENCODE_KNOBS.knob("tasks").default  # tasks of the bank

    def check(self) -> None:
        """Raise GenerationError unless every knob is in its range (see generate/knobs.py)."""
        problems = ALIENCODE_KNOBS.problems(vars(self))
        if problems:
            raise GenerationError("; ".join(problems))


@dataclass
class _Entry:
    draft: schemes.Draft
    scope: str = "anywhere"
    red_herring: bool = False

    def name(self) -> str:
        if self.red_herring:
            return f"{self.draft.target} {PLACE_WORDS[self.scope]}"
        if self.scope != "anywhere":
            return f"{self.draft.name} {PLACE_WORDS[self.scope]}"
        return self.draft.name


@dataclass
class WorldDraw:
    world: World
    text: str
    by_scheme: Counter
    draws: int
    rejected: Counter = field(default_factory=Counter)
    memo: Memo = field(default_factory=Memo)


def world_name(seed: str) -> str:
    """A name that identifies the world without revealing its seed."""
    return "gen-" + hashlib.sha256(f"{VERSION}:{seed}".encode()).hexdigest()[:12]


@cache  # every world of a seed, and every redraw, compares the same drafts again
def _alike(target: str, actual: str, other: str) -> bool:
    """Whether rule expression `actual` behaves as `other` (IDENTITY: the
    manual) at site `target`, on the operand samples of that site."""
    return compare(actual, other, operand_kinds(target), standard=STANDARD[target]).equivalent


class Drawer:
    def __init__(
        self,
        seed: str,
        knobs: Knobs,
        attempt: int,
        memo: Memo,
        prior: CoveragePrior | None = None,
    ) -> None:
        self.prior = shipped() if prior is None else prior
        self.rng = random.Random(f"alienworlds aliencode generator {VERSION}:{seed}:{attempt}")
        self.seed = seed
        self.knobs = knobs
        self.entries: list[_Entry] = []
        self.keywords: dict[str, str] = {}
        self.draws = 0
        self.rejected: Counter = Counter()
        self.memo = (
            memo  # what searches in earlier candidate worlds taught (checked again each time)
        )
        self.verified: dict[
            str, frozenset[str]
        ] = {}  # portable site -> the sites its ported probes use
        self.banned: set[tuple[str, str, str]] = (
            set()
        )  # (site, scope, actual) of rules a bank could not cover

    def world(self, entries: list[_Entry] | None = None) -> World:
        rules = []
        for k, e in enumerate(entries if entries is not None else self.entries, start=1):
            actual = "IDENTITY" if e.red_herring else e.draft.actual
            rules.append(
                Rule(
                    id=f"G{k:02d}",
                    name=e.name(),
                    target=e.draft.target,
                    actual=actual,
                    layer=e.draft.layer,
                    scope=e.scope,
                )
            )
        return World(
            name=world_name(self.seed),
            language="aliencode",
            description="",
            rules=tuple(rules),
            keywords=dict(self.keywords),
        )

    # -- one draw --------------------------------------------------------------

    def offer(self, entry: _Entry) -> bool:
        """Add `entry` if the world stays valid; count a rejection if not."""
        self.draws += 1
        if self.draws > MAX_DRAWS:
            raise GenerationError(f"no valid world after {MAX_DRAWS} draws")
        reason = self._reject(entry)
        if reason is not None:
            self.rejected[reason] += 1
            return False
        self.entries = self._placed(entry)
        return True

    def _placed(self, entry: _Entry) -> list[_Entry]:
        """The entries with `entry` placed before every rule of its site it
        must take precedence over (a narrower scope goes first)."""
        same_site = [k for k, e in enumerate(self.entries) if e.draft.target == entry.draft.target]
        if not same_site:
            return [*self.entries, entry]
        if entry.scope == "anywhere":
            last = same_site[-1] + 1
            return [*self.entries[:last], entry, *self.entries[last:]]
        first = same_site[0]
        return [*self.entries[:first], entry, *self.entries[first:]]

    def _reject(self, entry: _Entry) -> str | None:
        target, actual = entry.draft.target, entry.draft.actual
        if (target, entry.scope, "IDENTITY" if entry.red_herring else actual) in self.banned:
            return "no bank task entered it before"
        if support().get((target, entry.scope), 0) < MIN_SUPPORT:
            return "too few templates use it"
        if not entry.red_herring and self.rng.random() >= self.prior.acceptance(
            target, entry.scope
        ):
            return SELDOM  # a red herring's place was drawn by the prior's weights
        site_rules = [e for e in self.entries if e.draft.target == target]
        if entry.red_herring:
            if not any(e.scope == "anywhere" and not e.red_herring for e in site_rules):
                return "nothing to shadow"
            if any(e.scope == entry.scope for e in site_rules):
                return "same site and scope"
        else:
            if any(not e.red_herring and e.scope == entry.scope for e in site_rules):
                return "same site and scope"
            if _alike(target, actual, "IDENTITY"):
                return "behaves like the manual"
            for other in self.entries:
                if other.red_herring:
                    continue
                if SITES[other.draft.target].operands != SITES[target].operands:
                    continue
                if _alike(target, actual, other.draft.actual):
                    return "behaves like another rule"
        candidate = self._placed(entry)
        world = self.world(candidate)
        site_rules = tuple(r for r in world.rules if r.target == target)
        if not all(
            shows(r.id, site_rules) for r in site_rules
        ):  # a red herring may hide its victim
            return "no template shows it"
        return "not portable" if not self._portable(candidate, target) else None

    def _portable(self, candidate: list[_Entry], target: str) -> bool:
        """Whether every altered site stays portable in the world of
        `candidate`, which differs from the last verified one at `target`."""
        porter = Porter(self.world(candidate), BOUNDS, self.memo)
        verified = {}
        for site in sorted({e.draft.target for e in candidate if not e.red_herring}):
            if site in self.verified and target not in self.verified[site]:
                continue  # its ported probes use nothing this rule changes
            problem, used = check_site(porter, site)
            if problem is not None:
                return False
            verified[site] = used
        self.verified.update(verified)
        return True

    # -- the whole world -------------------------------------------------------

    def run(self) -> None:
        self.complete()
        self._rename()

    def complete(self) -> None:
        """Draw rules until the world has what the knobs ask for."""
        knobs = self.knobs
        for proposer, site in ((schemes.pluck, "PLUCK"), (schemes.carve, "CARVE")):
            if not any(
                e.draft.target == site and e.scope == "anywhere" and not e.red_herring
                for e in self.entries
            ):
                while not self.offer(_Entry(proposer(self.rng))):
                    pass
        altered = lambda: [e for e in self.entries if not e.red_herring]  # noqa: E731
        scoped_left = knobs.scoped - sum(e.scope != "anywhere" for e in altered())
        resistant = min(RESISTANT, knobs.altered - 2)
        strand_tried = any(e.draft == schemes.STRAND_IN_CRAFTS for e in altered())
        while sum(e.draft.scheme == schemes.RESISTANT for e in altered()) < resistant:
            if not strand_tried and scoped_left > 0:
                draft, strand_tried = schemes.STRAND_IN_CRAFTS, True
            else:
                draft = schemes.resistant(self.rng, scoped=scoped_left > 0)
            if self.offer(_Entry(draft, draft.scope or "anywhere")):
                scoped_left -= draft.scope not in (None, "anywhere")
        while len(altered()) < knobs.altered:
            remaining = knobs.altered - len(altered())
            draft = schemes.propose(self.rng)
            scope = "anywhere"
            if scoped_left and self.rng.random() < scoped_left / remaining:
                scope = self.rng.choices(SCOPES, SCOPE_WEIGHTS)[0]
            if self.offer(_Entry(draft, scope)):
                scoped_left -= scope != "anywhere"
        failed = 0
        while sum(e.red_herring for e in self.entries) < knobs.red_herrings:
            # one red herring per rule: two would leave their rule altered in one scope only
            shadowed = {e.draft.target for e in self.entries if e.red_herring}
            candidates = [
                e
                for e in self.entries
                if e.scope == "anywhere" and not e.red_herring and e.draft.target not in shadowed
            ]
            # a red herring on PLUCK or CARVE would open a manual route to
            # positions in its scope, and route coverage rests on the keystone
            # pair being altered everywhere: shadow them only when the other
            # rules have failed HERRING_TRIES draws
            if failed < HERRING_TRIES:
                candidates = [e for e in candidates if e.draft.target not in KEYSTONE] or candidates
            # the knob asks for the red herrings whatever the prior says: it
            # weighs the places instead of turning draws away
            places = [
                (victim, scope, weight)
                for victim in candidates
                for scope, weight in zip(SCOPES, SCOPE_WEIGHTS, strict=True)
            ]
            weights = [
                w * self.prior.acceptance(v.draft.target, place(s, True)) for v, s, w in places
            ]
            victim, scope, _ = self.rng.choices(places, weights)[0]
            failed += not self.offer(_Entry(victim.draft, scope, red_herring=True))

    def drop(self, index: int) -> bool:
        """Take out the rule at `index` (with the red herrings that shadow
        it, if it is its site's rule for anywhere), to be drawn again by
        `complete`; False, changing nothing, when the rest would not stay
        portable."""
        entry = self.entries[index]
        site = entry.draft.target
        gone = [entry]
        if entry.scope == "anywhere" and not entry.red_herring:
            gone += [e for e in self.entries if e.red_herring and e.draft.target == site]
        kept = [e for e in self.entries if all(e is not g for g in gone)]
        saved = dict(self.verified)
        self.verified = {
            k: used for k, used in self.verified.items() if k != site and site not in used
        }
        if not self._portable(kept, site):
            self.verified = saved
            return False
        self.entries = kept
        self.rejected["no bank task entered it"] += 1  # a kept draw, rejected after all
        if len(gone) > 1:
            self.rejected["its rule was drawn again"] += len(gone) - 1
        return True

    def redraw(self, rule_id: str) -> bool:
        """Draw the rule `rule_id` of the last result again (see `drop`),
        never the same rule at the same place again."""
        index = next(k for k, rule in enumerate(self.world().rules) if rule.id == rule_id)
        entry = self.entries[index]
        if not self.drop(index):
            return False
        self.banned.add(
            (
                entry.draft.target,
                entry.scope,
                "IDENTITY" if entry.red_herring else entry.draft.actual,
            )
        )
        self.complete()
        return True

    def result(self) -> WorldDraw:
        """The world drawn so far, written and read back."""
        world = self.world()
        altered = sum(not r.red_herring for r in world.rules)
        herrings = len(world.rules) - altered
        description = (
            f"A generated AlienCode world (alienworlds generator version {VERSION}). Its manual "
            "is the standard "
            f"AlienCode manual in its own keywords; its real semantics differ in {altered} places, "
            f"{sum(r.scope != 'anywhere' and not r.red_herring for r in world.rules)} of them "
            "only in some places of a "
            f"program, and it keeps the manual's meaning in {herrings} "
            f"place{'' if herrings == 1 else 's'} a careful explorer will doubt. "
            "Keep its seed and this file private."
        )
        world = replace(world, description=description)
        text = world_toml(world, VERSION, self.knobs)
        parsed = parse_world(text, "world.toml", SCHEMA)  # what we write must load back unchanged
        if parsed.hash != world.hash:
            raise GenerationError("the written world does not read back as generated")
        counts = Counter(
            schemes.RED_HERRING if e.red_herring else e.draft.scheme for e in self.entries
        )
        counts[schemes.SCOPED] = sum(
            e.scope != "anywhere" and not e.red_herring for e in self.entries
        )
        counts[schemes.KEYWORDS] = len(self.keywords)
        return WorldDraw(parsed, text, counts, self.draws, Counter(self.rejected), self.memo)

    def _rename(self) -> None:
        words = [op.name for op in OPERATIONS]
        taken = set(SITES) | set(STATEMENT_KEYWORDS) | set(CONSTANT_KEYWORDS)
        for keyword in sorted(self.rng.sample(words, self.knobs.renamed)):
            word = schemes.invented_word(self.rng)
            while word in taken:
                word = schemes.invented_word(self.rng)
            taken.add(word)
            self.keywords[keyword] = word


def draw_world(
    seed: str,
    knobs: Knobs,
    attempt: int = 0,
    memo: Memo | None = None,
    prior: CoveragePrior | None = None,
) -> WorldDraw:
    """The world of `seed` at `attempt` (see the module docstring); `memo`
    carries what earlier searches taught (hints only, checked again);
    `prior` is the shipped coverage prior unless given."""
    drawer = Drawer(str(seed), knobs, attempt, memo or Memo(), prior)
    drawer.run()
    return drawer.result()
