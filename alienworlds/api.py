"""The Python API: what the command lines do, as functions (docs/api.md).

    import alienworlds
    world = alienworlds.load_world("aliencode", "demo")
    bank = alienworlds.load_bank("aliencode", world)
    alienworlds.grade(world, bank, "T4", "```aliencode\\nEMIT(1)\\n```").passed
    alienworlds.run_episode(world, bank, "oracle", "out/demo-oracle")["milestones"]
    generated = alienworlds.generate_world("alienlogic", "my seed", patches=4)

Each function imports only what its language needs, when called: importing
`alienworlds` stays cheap. `grade` is the graders' own path (the model's
raw text, read by the language's answer reader), the one the episode,
Inspect, sweeps and the `grade` commands take.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from alienworlds.episode.languages import LANGUAGES as _REGISTRY
from alienworlds.episode.languages import LanguageUnknown as LanguageUnknown
from alienworlds.episode.languages import language as _entry

if TYPE_CHECKING:
    from alienworlds.episode.environment import Environment
    from alienworlds.ruleset.world import World
    from alienworlds.tasks.bank import Bank
    from alienworlds.tasks.grade import Grade

LANGUAGES = tuple(_REGISTRY)


@dataclass(frozen=True)
class GeneratedWorld:
    """A world and its bank drawn from a seed, in memory. `files` holds the
    text of every file `world generate` writes (world.toml, bank.toml and,
    for AlienLogic, the certificates), by path relative to its folder."""

    world: World
    bank: Bank
    files: dict[str, str] = field(repr=False)

    def write(self, folder: str | Path) -> Path:
        """Write `files` into `folder` (created if missing); the world file's path."""
        root = Path(folder)
        for relative, text in self.files.items():
            path = root / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return root / "world.toml"


def load_world(language: str, name_or_path: str | Path | None = None) -> World:
    """A shipped world by name, or a world file by path (default: the
    language's main world); raises WorldError listing every problem."""
    return _entry(language).load_world(name_or_path)


def load_bank(language: str, world: World, path: str | Path | None = None) -> Bank:
    """The task bank at `path`, else the world's own (bank.toml beside a
    world file, else the shipped bank of its name); raises BankError."""
    from alienworlds.tasks.bank import BankError, load_bank, own_bank_path

    found = Path(path) if path is not None else own_bank_path(_entry(language).name, world)
    if found is None:
        raise BankError([f"no task bank for world '{world.name}'"])
    return load_bank(language, world.name, found)


def generate_world(language: str, seed: str, **knobs: int) -> GeneratedWorld:
    """A fresh world and its bank from `seed` and the generator's knobs (as
    `world generate` takes them: altered=12, tasks=40, ... for AlienCode;
    patches=24, theorems=70, ... for AlienLogic); the same seed and knobs
    give the same world on every machine. Raises GenerationError."""
    world, bank, files = _entry(language).generator.load()(seed, **knobs)
    return GeneratedWorld(world, bank, files)


def environment(world: World, bank: Bank) -> Environment:
    """The episode environment of a world and its bank (the bank is audited)."""
    return _entry(world.language).environment.load()(world, bank)


_GRADERS: dict[tuple[str, int], tuple[Bank, object]] = {}


def grade(world: World, bank: Bank, task_id: str, text: str) -> Grade:
    """The verdict on a reply (a model's raw text) to one task, exactly as
    the episode and `grade` give it; graders are kept per world and bank."""
    key = (world.hash, id(bank))
    kept = _GRADERS.get(key)
    if kept is None or kept[0] is not bank:
        grader = _entry(world.language).grader.load()
        kept = _GRADERS[key] = (bank, grader(world, bank))
    return kept[1].grade(task_id, text)


def run_episode(
    world: World,
    bank: Bank,
    agent: str,
    out: str | Path,
    *,
    condition: str = "autonomous",
    seed: int = 0,
    passes: int | None = None,
    **agent_options: object,
) -> dict:
    """Run one episode, as the `episode` command does, writing
    OUT/trace.jsonl and OUT/report.json; the report. `agent` names a built-in
    agent (oracle, naive, fixed, explorer, openai, ...), `agent_options` its
    settings (openai: model=..., base_url=...)."""
    from alienworlds.episode.agent_registry import make_agent
    from alienworlds.episode.driver import Episode, Settings

    env = environment(world, bank)
    chosen = {} if passes is None else {"passes": passes}
    settings = Settings(condition=condition, seed=seed, **chosen)
    return Episode(env, make_agent(agent, env, seed=seed, **agent_options), out, settings).run()
