"""How often a bank covers a rule of each kind: the prior the drawer draws by.

A bank needs a task for every rule of its world (bank.py, the coverage
pass). Whether some template makes one that no strategy of the battery
passes is learnt only by trying the templates using the rule's site (about
1.3 s), and a rule no task enters is then drawn again (0.4 s more). Seeds
drew 0 to 26 rules again, most of the time a seed took to generate. How
often a drawn rule ends up covered depends mostly on its **kind**: its site
and its place (an altered rule everywhere, in CRAFT bodies, in loops or at
top level, or a red herring in one of those scopes). A comparison the
calibrators see through, or a red herring in loops, is seldom covered; PLUCK
and STRAND in CRAFT bodies always were (seeds 1-16 of version 6).

`coverage.toml` beside this module holds the counts: for each kind, how many
rules of that kind the generator kept in a world with a bank (covered) and
how many it drew again because no task entered them (uncovered), over the
seeds it names. `benchmarks/rule_coverage.py` measures them again; new
counts change what a seed gives, so they need a new generator VERSION.

A kind's **rate** is its share of covered rules, smoothed toward a guess
built from its place's rate and its site's rate (each smoothed toward the
rate of every kind), so that a kind seen a few times is not judged on them
alone. The drawer keeps a drawn altered rule with probability
`(rate / best rate) ** SHARPNESS` (`acceptance`): a kind covered half as
often as the best is kept a quarter of the time. A red herring's rule and
scope are drawn with weights times that probability instead (the knob asks
for the red herrings whatever the prior says). Every kind keeps a chance;
a rare kind comes to a world about as seldom as it survived in the worlds
that had a bank before the prior. What is saved is the bank draws spent
learning again that a rule of a seldom covered kind is not covered. The
prior decides only what is tried: a world still has a bank only when every
rule is covered by a task the battery fails.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from alienworlds.generate.toml_string import basic_string
from alienworlds.ruleset import Rule

HERE = Path(__file__).parent
SHARPNESS = 2
PLACE_WEIGHT = 4  # kinds' worth of the overall rate in a place's or a site's rate
KIND_WEIGHT = 2  # kinds' worth of the guess in a kind's rate
GUESS_CAP = 0.95  # a guess never says "always covered"
PLACES = (
    "anywhere",
    "function",
    "loop",
    "top",
    "herring function",
    "herring loop",
    "herring top",
)


class PriorError(ValueError):
    """coverage.toml breaks its format."""


def place(scope: str, red_herring: bool) -> str:
    """The place of a rule drawn at `scope`: a red herring's is its scope
    with 'herring' before it."""
    return f"herring {scope}" if red_herring else scope


def kind(rule: Rule) -> tuple[str, str]:
    """A world rule's kind: its site and place."""
    return rule.target, place(rule.scope, rule.red_herring)


@dataclass(frozen=True)
class CoveragePrior:
    """Counts of covered and uncovered rules by kind (site, place); with no
    counts every kind is accepted always."""

    counts: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    # derived from the counts once (see the module docstring)
    _overall: float = field(init=False, repr=False, compare=False)
    _places: dict[str, float] = field(init=False, repr=False, compare=False)
    _sites: dict[str, float] = field(init=False, repr=False, compare=False)
    _best: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        covered = sum(c for c, _ in self.counts.values())
        total = sum(c + u for c, u in self.counts.values())
        overall = covered / total if total else 1.0
        by_place: dict[str, list[int]] = {}
        by_site: dict[str, list[int]] = {}
        for (site, where), (c, u) in self.counts.items():
            for table, key in ((by_place, where), (by_site, site)):
                seen = table.setdefault(key, [0, 0])
                seen[0] += c
                seen[1] += c + u

        def smoothed(table: dict[str, list[int]]) -> dict[str, float]:
            return {
                key: (c + PLACE_WEIGHT * overall) / (n + PLACE_WEIGHT)
                for key, (c, n) in table.items()
            }

        object.__setattr__(self, "_overall", overall)
        object.__setattr__(self, "_places", smoothed(by_place))
        object.__setattr__(self, "_sites", smoothed(by_site))
        best = max((self.rate(*k) for k in self.counts), default=1.0)
        object.__setattr__(self, "_best", best)

    def rate(self, site: str, where: str) -> float:
        """The estimated share of rules of this kind a bank covers."""
        overall = self._overall
        if not self.counts:
            return overall
        if overall == 0:
            return 0.0  # no kind was ever covered
        guess = self._places.get(where, overall) * self._sites.get(site, overall) / overall
        guess = min(GUESS_CAP, guess)
        c, u = self.counts.get((site, where), (0, 0))
        return (c + KIND_WEIGHT * guess) / (c + u + KIND_WEIGHT)

    def acceptance(self, site: str, where: str) -> float:
        """The probability the drawer keeps a drawn rule of this kind (1.0 for the best)."""
        if self._best == 0:
            return 1.0  # counts that tell no kind from another
        return min(1.0, self.rate(site, where) / self._best) ** SHARPNESS


def parse_prior(text: str, where: str = "coverage.toml") -> CoveragePrior:
    """The prior of a coverage.toml text; PriorError when it breaks the format:
    `[covered.SITE]` and `[uncovered.SITE]` tables mapping a place to a count."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PriorError(f"{where}: {exc}") from None
    unknown = set(raw) - {"seeds", "covered", "uncovered"}
    if unknown:
        raise PriorError(f"{where}: unknown key {sorted(unknown)[0]!r}")
    counts: dict[tuple[str, str], list[int]] = {}
    for slot, table in ((0, "covered"), (1, "uncovered")):
        sites = raw.get(table, {})
        if not isinstance(sites, dict):
            raise PriorError(f"{where}: '{table}' must be a table of sites")
        for site, places in sites.items():
            if not isinstance(places, dict):
                raise PriorError(f"{where}: {table}.{site} must be a table of places")
            for name, n in places.items():
                if name not in PLACES:
                    raise PriorError(f"{where}: {table}.{site}: unknown place {name!r}")
                if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                    raise PriorError(f"{where}: {table}.{site}.{name} must be a count")
                counts.setdefault((site, name), [0, 0])[slot] = n
    return CoveragePrior({k: (c, u) for k, (c, u) in counts.items()})


def prior_toml(counts: dict[tuple[str, str], tuple[int, int]], seeds: str) -> str:
    """coverage.toml's text for `counts` measured over `seeds` (read back by parse_prior)."""
    lines = [
        "# How often a bank covered a drawn rule of each kind (site, place): written by",
        "# benchmarks/rule_coverage.py; read by generate/aliencode/coverage_prior.py.",
        f"seeds = {basic_string(seeds)}",
    ]
    for slot, table in ((0, "covered"), (1, "uncovered")):
        for site in sorted({s for s, _ in counts}):
            row = [(p, counts.get((site, p), (0, 0))[slot]) for p in PLACES]
            row = [(p, n) for p, n in row if n]
            if row:
                lines += ["", f"[{table}.{basic_string(site)}]"]
                lines += [f"{basic_string(p)} = {n}" for p, n in row]
    return "\n".join(lines) + "\n"


@cache
def shipped() -> CoveragePrior:
    """The prior of coverage.toml beside this module."""
    return parse_prior((HERE / "coverage.toml").read_text(encoding="utf-8"))
