"""The patch library: the public schemes of patches (alienlogic/patch_schemes.toml)
that generated worlds draw from (alienworlds.generate.alienlogic).

A patch is one side condition of one standard rule, as a world file writes
it. The library is public knowledge about AlienLogic worlds, so it lives
with the language: the generator draws from it, and the trivial-strategy
battery (tasks.alienlogic_adaptive) obeys the guards any world may carry.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from alienworlds.ruleset.world import Rule

FIRST_ORDER_TARGETS = frozenset({"FORALL_I", "FORALL_E", "EXISTS_I", "EXISTS_E", "EQ_I", "EQ_E"})


class LibraryError(Exception):
    """The patch or template library is malformed (a bug of the package)."""


@dataclass(frozen=True)
class PatchSpec:
    scheme: str
    slot: str
    target: str
    name: str
    group: str | None = None
    disabled: bool = False
    require: str | None = None
    conclusion: str | None = None

    def rule(self, rule_id: str) -> Rule:
        return Rule(
            id=rule_id,
            name=self.name,
            target=self.target,
            layer=self.scheme,
            disabled=self.disabled,
            require=self.require,
            conclusion=self.conclusion,
        )

    @property
    def first_order(self) -> bool:
        return self.target in FIRST_ORDER_TARGETS


def _fill(value: object, k: object) -> object:
    """A library value with its `{k}` template filled in."""
    return value.replace("{k}", str(k)) if isinstance(value, str) and k is not None else value


def read_library(text: str) -> tuple[PatchSpec, ...]:
    """The patches of a library text, each `{k}` template expanded."""
    try:
        raw = tomllib.loads(text).get("patch", [])
    except tomllib.TOMLDecodeError as exc:
        raise LibraryError(f"patch_schemes.toml: {exc}") from None
    out: list[PatchSpec] = []
    for entry in raw:
        values = entry.get("k", [None])
        for k in values:
            fields = {key: _fill(value, k) for key, value in entry.items() if key != "k"}
            out.append(PatchSpec(**fields))
    return tuple(out)


@cache
def library() -> tuple[PatchSpec, ...]:
    return read_library(
        resources.files(__package__).joinpath("patch_schemes.toml").read_text(encoding="utf-8")
    )
