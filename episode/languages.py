"""The language registry: every part of the package that differs by language,
named in one place.

A language is one `Language` entry: how to load its worlds, the episode
environment, the grader, the world generator and its knobs, the
trivial-strategy battery, the hypothesis engine that scores exploration,
and the classes behind the agent names every language shares (`explorer`,
`explorer-random`, `explorer-fixed`). Entries are references
("package.module:attribute", see `ruleset.references`), imported only when
used, so listing a language costs nothing. A new language is one more entry
here (or `register` from outside the package), its command line's
`LanguageCommands` (cli/scaffold.py) and its own packages
(docs/architecture.md, "Adding a language"); nothing else chooses by
language's name.

The registry sits in the episode layer because the parts it names reach up
to the episode environments and the explorers; the layers below take what
they need as arguments.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from alienworlds.ruleset.references import Reference

if TYPE_CHECKING:
    from alienworlds.ruleset.world import World

    from .agent import Agent

SHARED_AGENTS = ("explorer", "explorer-random", "explorer-fixed")


def _refs(**paths: str) -> dict[str, Reference]:
    return {name.replace("_", "-"): Reference(path) for name, path in paths.items()}


@dataclass(frozen=True)
class Language:
    name: str
    world_loader: Reference  # (name or path | None) -> World; None: the main world
    environment: Reference  # the Environment class: (world, bank=..., bank_path=...)
    grader: Reference  # the grader class: (world, bank), with .grade(task_id, text)
    generator: Reference  # (seed, **knobs) -> (World, Bank, {relative path: text})
    knobs: Reference  # the generator's KnobTable (generate/knobs.py)
    battery: Reference  # the trivial-strategy battery: (world, bank) -> Validity
    exploration: Reference  # the hypothesis engine: (events, world) -> section | None
    # the class behind each shared agent name (SHARED_AGENTS)
    agents: Mapping[str, Reference] = field(default_factory=dict)
    # answers are proofs: one answer kind, and a task may be answered "unprovable"
    proofs: bool = False

    def load_world(self, name_or_path: str | Path | None = None) -> World:
        """A shipped world by name or a world file by path; raises WorldError."""
        loader = self.world_loader.load()
        return loader(None if name_or_path is None else str(name_or_path))


LANGUAGES: dict[str, Language] = {
    "aliencode": Language(
        name="aliencode",
        world_loader=Reference("aliencode.world_schema:load"),
        environment=Reference("alienworlds.episode.aliencode_env:AlienCodeEnvironment"),
        grader=Reference("alienworlds.tasks.aliencode_grading:AlienCodeGrader"),
        generator=Reference("alienworlds.generate.aliencode.generator:generated_files"),
        knobs=Reference("alienworlds.generate.knobs:ALIENCODE_KNOBS"),
        battery=Reference("alienworlds.tasks.validity:aliencode_battery"),
        exploration=Reference("alienworlds.explore.aliencode.metrics:exploration"),
        agents=_refs(
            explorer="alienworlds.explore.aliencode.agent:ExplorerAgent",
            explorer_random="alienworlds.explore.aliencode.agent:RandomProbeAgent",
            explorer_fixed="alienworlds.explore.aliencode.agent:FixedProbeAgent",
        ),
    ),
    "alienlogic": Language(
        name="alienlogic",
        world_loader=Reference("alienlogic:load_world"),
        environment=Reference("alienworlds.episode.alienlogic_env:AlienLogicEnvironment"),
        grader=Reference("alienworlds.tasks.alienlogic_grading:AlienLogicGrader"),
        generator=Reference("alienworlds.generate.alienlogic.generator:generated_files"),
        knobs=Reference("alienworlds.generate.knobs:ALIENLOGIC_KNOBS"),
        battery=Reference("alienworlds.tasks.alienlogic_validity:battery"),
        exploration=Reference("alienworlds.explore.alienlogic.metrics:exploration"),
        agents=_refs(
            explorer="alienworlds.explore.alienlogic.agent:ExplorerAgent",
            explorer_random="alienworlds.explore.alienlogic.agent:RandomProbeAgent",
            explorer_fixed="alienworlds.explore.alienlogic.agent:FixedProbeAgent",
        ),
        proofs=True,
    ),
}


class LanguageUnknown(ValueError):
    """A language name the registry does not hold."""

    def __init__(self, language: object) -> None:
        super().__init__(f"unknown language {language!r}; one of {', '.join(LANGUAGES)}")
        self.language = language


def register(language: Language) -> None:
    """Add (or replace) a language."""
    LANGUAGES[language.name] = language


def language(name: str) -> Language:
    """The registry's entry for `name`; LanguageUnknown if there is none."""
    try:
        return LANGUAGES[name]
    except (KeyError, TypeError):
        raise LanguageUnknown(name) from None


def load_world(name: str, name_or_path: str | Path | None = None) -> World:
    """The one world loader: language `name`'s world by name or path."""
    return language(name).load_world(name_or_path)


@dataclass(frozen=True)
class SharedAgent:
    """An agent name every language implements with a class of its own; the
    environment's language picks the class when the agent is made."""

    name: str

    def from_options(self, env: object, seed: int, options: dict[str, object]) -> Agent:
        from alienworlds.ruleset.references import UnresolvedReference

        from .agent import AgentError

        name = getattr(env, "language", None)
        entry = LANGUAGES.get(name) if isinstance(name, str) else None
        reference = entry.agents.get(self.name) if entry else None
        if reference is None:
            runs_on = ", ".join(n for n, e in LANGUAGES.items() if self.name in e.agents)
            raise AgentError(f"the agent {self.name!r} has no {name} version; it runs on {runs_on}")
        try:
            cls = reference.load()
        except UnresolvedReference as exc:
            raise AgentError(
                f"the {name} version of the agent {self.name!r} is not installed "
                f"({reference.text}): {exc.reason}"
            ) from None
        return cls.from_options(env, seed, options)


EXPLORER = SharedAgent("explorer")
RANDOM_PROBE = SharedAgent("explorer-random")
FIXED_PROBE = SharedAgent("explorer-fixed")
