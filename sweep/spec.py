"""The sweep file (docs/sweeps.md): read, check every key, resolve worlds,
banks, agents and endpoint limits into a `Sweep`.

Every problem is collected with the file, the key path (`agents[2].model`)
and what was expected, and raised together as one `SweepError`, so a user
fixes the file in one go and never sees a traceback. Relative paths in the
file are taken from the file's own folder.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from alienworlds.episode.languages import LANGUAGES
from alienworlds.episode.languages import language as language_entry
from alienworlds.episode.protocol import CALLS_PER_ROUND, CONDITIONS, PASSES
from alienworlds.generate.knobs import seed_problem

from . import limits
from .bounded_toml import BoundsError
from .bounded_toml import load as load_toml

TOP_KEYS = (
    "language",
    "worlds",
    "agents",
    "conditions",
    "trajectories",
    "passes",
    "seed",
    "fixed_calls",
    "endpoints",
)
WORLD_KEYS = ("name", "path", "bank", "label")
GENERATED_KEYS = ("seeds", "family", "knobs")
BUILT_IN_AGENTS = ("oracle", "naive", "fixed")
OPENAI_KEYS = {
    "model": str,
    "base_url": str,
    "api_key_env": str,
    "params": dict,
    "concurrency": int,
    "timeout": (int, float),
    "max_retries": int,
    "backoff": (int, float),
    "drop_fields": list,
}
ENDPOINT_KEYS = ("base_url", "max_in_flight")
NOT_IN_SWEEPS = {
    "hindsight": "the hindsight condition replays one given trace's probes; run it with `episode "
    "--probes-from`",
    "replay": "the replay agent replays one given trace; run it with `episode --agent replay "
    "--from TRACE`",
}
LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,79}")
MAX_PROBLEMS = 50  # listed; past them a file is better fixed from the top
MAX_MESSAGE = 1000  # characters of one problem: a huge value shown in it is cut short


class SweepError(Exception):
    """A sweep file that cannot be run; carries every problem found."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class WorldSpec:
    label: str  # its folder in the sweep and its family on the leaderboard
    spec: str  # a shipped name, or the world file's absolute path
    shipped: bool
    name: str  # the world's own name (from its file)
    world_hash: str
    bank: str | None  # the bank file's absolute path; None: the shipped bank of `name`
    family: str = ""  # its family on the leaderboard (default: the label)
    seed: str | None = (
        None  # a world to generate from this seed; spec, name and hash are known once it is
    )
    knobs: dict[str, int] = field(
        default_factory=dict
    )  # the generator's options, e.g. {"altered": 6}

    @property
    def board_family(self) -> str:
        return self.family or self.label

    @property
    def generated(self) -> bool:
        return self.seed is not None


@dataclass(frozen=True)
class AgentSpec:
    label: str  # its folder in the sweep
    name: str  # the registry name (or the custom agent's name)
    agent_class: str | None = None  # "package.module:Class" for an agent outside the registry
    options: dict = field(default_factory=dict)  # passed to the class's from_options

    @property
    def base_url(self) -> str | None:
        return self.options.get("base_url") if self.name == "openai" else None


@dataclass(frozen=True)
class Sweep:
    source: Path
    text: str
    language: str
    worlds: list[WorldSpec]
    agents: list[AgentSpec]
    conditions: list[str]
    trajectories: int
    passes: int
    seed: int
    fixed_calls: int
    endpoints: dict[str, int]  # base URL -> requests in flight at most, across the whole sweep

    @property
    def hash(self) -> str:
        return "sha256:" + hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    def key_variables(self) -> list[str]:
        """The environment variables that hold the agents' API keys."""
        return sorted(
            {
                str(a.options.get("api_key_env") or "OPENAI_API_KEY")
                for a in self.agents
                if a.name == "openai"
            }
        )


def _type_name(expected: object) -> str:
    names = {
        str: "a string",
        int: "an integer",
        dict: "a table",
        list: "an array",
        float: "a number",
    }
    if isinstance(expected, tuple):
        return "a number"
    return names.get(expected, str(expected))


class _Reader:
    """Collects problems as `FILE: KEY: message`, at most MAX_PROBLEMS of
    them, each at most MAX_MESSAGE characters."""

    def __init__(self, source: Path) -> None:
        self.source = source
        self.problems: list[str] = []
        self.unlisted = 0

    def problem(self, key: str, message: str) -> None:
        if len(self.problems) >= MAX_PROBLEMS:
            self.unlisted += 1
            return
        line = f"{self.source}: {key}: {message}" if key else f"{self.source}: {message}"
        self.problems.append(line if len(line) <= MAX_MESSAGE else line[: MAX_MESSAGE - 1] + "…")

    def all_problems(self) -> list[str]:
        more = [f"{self.source}: {self.unlisted} more problems not listed"] if self.unlisted else []
        return self.problems + more

    def known_keys(self, table: dict, allowed: tuple[str, ...], where: str = "") -> None:
        for key in table:
            if key not in allowed:
                self.problem(
                    f"{where}.{key}" if where else str(key),
                    f"unknown key; expected one of {', '.join(allowed)}",
                )

    def integer(self, data: dict, key: str, default: int, low: int, high: int | None = None) -> int:
        value = data.get(key, default)
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or value < low
            or (high is not None and value > high)
        ):
            bound = f"from {low} to {high}" if high is not None else f"at least {low}"
            self.problem(key, f"expected an integer {bound}, got {value!r}")
            return default
        return value

    def path(self, base: Path, raw: str) -> Path:
        path = Path(os.path.expanduser(raw))
        return path if path.is_absolute() else (base / path)


def load_sweep(path: str | Path, language: str) -> Sweep:
    """The sweep file at `path` for `language`'s command; raise SweepError."""
    source = Path(path)
    reader = _Reader(source)
    try:
        with source.open("rb") as handle:
            raw = handle.read(
                limits.FILE.max_bytes + 1
            )  # one byte more tells a file over the bound
    except OSError as exc:
        raise SweepError(
            [f"{source}: cannot read the file: {exc.strerror or exc.__class__.__name__}"]
        ) from None
    try:
        text, data = load_toml(raw, limits.FILE)
    except BoundsError as exc:
        raise SweepError([f"{source}: {exc}"]) from None
    reader.known_keys(data, TOP_KEYS)
    declared = data.get("language", language)
    if declared != language:
        reader.problem(
            "language",
            f"this sweep is for {declared!r}; run it with `{declared} sweep`"
            if isinstance(declared, str) and declared in LANGUAGES
            else f'expected "{language}", got {declared!r}',
        )
    base = source.resolve().parent
    worlds = _worlds(reader, data, base, language)
    agents = _agents(reader, data)
    conditions = _conditions(reader, data)
    trajectories = reader.integer(data, "trajectories", 1, *limits.TRAJECTORIES)
    passes = reader.integer(data, "passes", PASSES, *limits.PASSES)
    seed = reader.integer(data, "seed", 0, limits.SEED[0], limits.SEED[1] - trajectories + 1)
    fixed_calls = reader.integer(data, "fixed_calls", CALLS_PER_ROUND, 1, CALLS_PER_ROUND)
    endpoints = _endpoints(reader, data, agents)
    too_large = limits.plan_problem(len(worlds), len(agents), len(conditions), trajectories, passes)
    if too_large is not None:
        reader.problem("", too_large)
    if reader.problems:
        raise SweepError(reader.all_problems())
    return Sweep(
        source,
        text,
        language,
        worlds,
        agents,
        conditions,
        trajectories,
        passes,
        seed,
        fixed_calls,
        endpoints,
    )


def _entries(reader: _Reader, data: dict, key: str, most: int) -> list[tuple[str, object]]:
    raw = data.get(key)
    if raw is None:
        reader.problem(key, "missing; expected a non-empty array")
        return []
    if not isinstance(raw, list) or not raw:
        reader.problem(key, f"expected a non-empty array, got {raw!r}")
        return []
    if len(raw) > most:
        reader.problem(key, f"{len(raw):,} entries, more than the {most} a sweep may have")
        return []
    return [(f"{key}[{i}]", item) for i, item in enumerate(raw)]


def _label(
    reader: _Reader, where: str, label: object, seen: dict[str, str], what: str
) -> str | None:
    if not isinstance(label, str) or not LABEL.fullmatch(label):
        reader.problem(
            f"{where}.label",
            f"expected a folder name of letters, digits, '.', '_' or '-' (at most 80, "
            f"not starting with '.' or '-'), got {label!r}",
        )
        return None
    if label in seen:
        reader.problem(
            where,
            f"two {what}s would share the folder {label!r} (with {seen[label]}); give one a "
            "distinct `label`",
        )
        return None
    seen[label] = where
    return label


def _worlds(reader: _Reader, data: dict, base: Path, language: str) -> list[WorldSpec]:
    from alienworlds.episode.environment_loader import missing_bank_message
    from alienworlds.ruleset import WorldError
    from alienworlds.tasks.bank import BankError, bank_path, load_bank, own_bank_path

    load = language_entry(language).load_world
    out: list[WorldSpec] = []
    labels: dict[str, str] = {}
    hashes: dict[str, str] = {}
    worlds = _entries(reader, data, "worlds", limits.WORLDS)
    count = sum(
        len(item["seeds"]) if isinstance(item, dict) and isinstance(item.get("seeds"), list) else 1
        for _, item in worlds
    )
    if count > limits.WORLDS:  # checked before a world is loaded or a seed generated
        reader.problem(
            "worlds",
            f"{count:,} worlds with each seed of a generated family, more than the "
            f"{limits.WORLDS} a sweep may have",
        )
        return []
    for where, item in worlds:
        if isinstance(item, str):
            item = {"path": item} if ("/" in item or item.endswith(".toml")) else {"name": item}
        if not isinstance(item, dict):
            reader.problem(
                where,
                "expected a world's name, a path to a world file, or a table with `name`, "
                "`path` or "
                f"`seeds`; got {item!r}",
            )
            continue
        if "seeds" in item:
            out.extend(_generated(reader, where, item, labels, language))
            continue
        reader.known_keys(item, WORLD_KEYS, where)
        if ("name" in item) == ("path" in item):
            reader.problem(
                where, "expected exactly one of `name` (a shipped world) and `path` (a world file)"
            )
            continue
        shipped = "name" in item
        raw = item.get("name", item.get("path"))
        if not isinstance(raw, str) or not raw:
            reader.problem(
                f"{where}.{'name' if shipped else 'path'}",
                f"expected a non-empty string, got {raw!r}",
            )
            continue
        world_path = None if shipped else reader.path(base, raw)
        if world_path is not None and not world_path.is_file():
            reader.problem(f"{where}.path", f"no world file at {world_path}")
            continue
        if shipped and ("/" in raw or raw.endswith(".toml")):
            reader.problem(
                f"{where}.name",
                f"expected a shipped world's name, got the path {raw!r} (use `path`)",
            )
            continue
        spec = raw if shipped else str(world_path.resolve())
        try:
            world = load(spec)
        except WorldError as exc:
            reader.problem(where, f"the world cannot be used: {exc}")
            continue
        bank: Path | None = None
        if "bank" in item:
            if not isinstance(item["bank"], str) or not item["bank"]:
                reader.problem(
                    f"{where}.bank", f"expected a path to a bank file, got {item['bank']!r}"
                )
                continue
            bank = reader.path(base, item["bank"])
            if not bank.is_file():
                reader.problem(f"{where}.bank", f"no bank file at {bank}")
                continue
        else:
            own = own_bank_path(language, world)
            if own is None:
                reader.problem(
                    where,
                    missing_bank_message(language, world).replace("--bank PATH", "`bank = PATH`"),
                )
                continue
            bank = (
                None if own == bank_path(language, world.name) else own
            )  # None: the shipped bank, by name
        try:
            load_bank(language, world.name, bank)
        except BankError as exc:
            reader.problem(
                f"{where}.bank" if "bank" in item else where, f"the bank cannot be used: {exc}"
            )
            continue
        label = _label(reader, where, item.get("label", world.name), labels, "world")
        if label is None:
            continue
        if world.hash in hashes:
            reader.problem(
                where,
                f"the same world as {hashes[world.hash]} (equal rules and name); name it once",
            )
            continue
        hashes[world.hash] = where
        out.append(
            WorldSpec(
                label, spec, shipped, world.name, world.hash, str(bank.resolve()) if bank else None
            )
        )
    return out


def _generated(
    reader: _Reader, where: str, item: dict, labels: dict[str, str], language: str
) -> list[WorldSpec]:
    """`{ seeds = [...], family = F, knobs = {...} }`: one world per seed, to
    be generated before the episodes, labelled F-1, F-2, ... (never by the
    seed, which stays private). Knobs and seeds are checked as `world
    generate` checks them (generate/knobs.py), so a generation never fails
    on what the file says."""
    reader.known_keys(item, GENERATED_KEYS, where)
    seeds, family, knobs = item["seeds"], item.get("family", "generated"), item.get("knobs", {})
    if (
        not isinstance(seeds, list)
        or not seeds
        or not all(isinstance(x, (str, int)) and not isinstance(x, bool) for x in seeds)
    ):
        reader.problem(
            f"{where}.seeds",
            f"expected a non-empty array of seeds (strings or integers), got {seeds!r}",
        )
        return []
    if len({str(x) for x in seeds}) != len(seeds):
        reader.problem(f"{where}.seeds", "a seed is named twice; each gives the same world")
        return []
    bad_seeds = [
        (i, problem) for i, x in enumerate(seeds) for problem in [seed_problem(str(x))] if problem
    ]
    for i, problem in bad_seeds:
        reader.problem(f"{where}.seeds[{i}]", problem)
    if not isinstance(knobs, dict):
        reader.problem(
            f"{where}.knobs",
            "expected a table of the generator's options with integer values "
            f"(e.g. {{ altered = 6 }}), got {knobs!r}",
        )
        return []
    knob_errors = language_entry(language).knobs.load().problems(knobs)
    for problem in knob_errors:
        reader.problem(f"{where}.knobs", problem)
    if bad_seeds or knob_errors:
        return []
    out = []
    for index, seed in enumerate(seeds, start=1):
        label = _label(
            reader,
            where,
            f"{family}-{index}" if isinstance(family, str) else family,
            labels,
            "world",
        )
        if label is None:
            return out
        out.append(WorldSpec(label, "", False, "", "", None, family, str(seed), dict(knobs)))
    return out


def _default_agent_label(name: str, options: dict) -> str:
    if name == "openai" and isinstance(options.get("model"), str):
        return "openai-" + re.sub(r"[^A-Za-z0-9._-]+", "-", options["model"]).strip("-.")
    return name


def _agents(reader: _Reader, data: dict) -> list[AgentSpec]:
    from alienworlds.episode.agent_registry import AGENTS
    from alienworlds.ruleset.references import is_reference

    out: list[AgentSpec] = []
    labels: dict[str, str] = {}
    for where, item in _entries(reader, data, "agents", limits.AGENTS):
        if isinstance(item, str):
            item = {"name": item}
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"]:
            reader.problem(where, f"expected an agent's name or a table with `name`; got {item!r}")
            continue
        name = item["name"]
        agent_class = item.get("class")
        options = {k: v for k, v in item.items() if k not in ("name", "label", "class")}
        if name in NOT_IN_SWEEPS:
            reader.problem(f"{where}.name", f"{name!r} is not for sweeps: {NOT_IN_SWEEPS[name]}")
            continue
        if agent_class is not None:
            if not is_reference(agent_class):
                reader.problem(
                    f"{where}.class", f'expected "package.module:Class", got {agent_class!r}'
                )
                continue
            if name in AGENTS:
                reader.problem(
                    f"{where}.name",
                    f"{name!r} is a built-in agent; give the agent of `class` a name of its own",
                )
                continue
        elif name == "openai":
            if not _openai_options(reader, where, options):
                continue
            options = {**options, "base_url": _base_url(options.get("base_url"))}
        elif name in BUILT_IN_AGENTS:
            for key in options:
                reader.problem(
                    f"{where}.{key}", f"unknown key; the {name} agent takes only `name` and `label`"
                )
            if options:
                continue
        else:
            reader.problem(
                f"{where}.name",
                f"unknown agent {name!r}; built in: {', '.join((*BUILT_IN_AGENTS, 'openai'))} "
                '(another agent needs `class = "package.module:Class"`)',
            )
            continue
        label = _label(
            reader, where, item.get("label", _default_agent_label(name, options)), labels, "agent"
        )
        if label is not None:
            out.append(AgentSpec(label, name, agent_class, options))
    return out


def _openai_options(reader: _Reader, where: str, options: dict) -> bool:
    ok = True
    for key, value in options.items():
        expected = OPENAI_KEYS.get(key)
        if expected is None:
            reader.problem(
                f"{where}.{key}",
                f"unknown key; the openai agent takes {', '.join(OPENAI_KEYS)} (and name, label)",
            )
            ok = False
        elif isinstance(value, bool) or not isinstance(value, expected):
            reader.problem(f"{where}.{key}", f"expected {_type_name(expected)}, got {value!r}")
            ok = False
    if not isinstance(options.get("model"), str) or not options.get("model"):
        reader.problem(f"{where}.model", "expected the model's name (the openai agent needs one)")
        ok = False
    for key, (low, high) in limits.COUNTS.items():
        if isinstance(options.get(key), int) and not low <= options[key] <= high:
            reader.problem(
                f"{where}.{key}", f"expected an integer from {low} to {high}, got {options[key]!r}"
            )
            ok = False
    for key, most in limits.SECONDS.items():
        seconds = options.get(key)
        if (
            isinstance(seconds, (int, float))
            and not isinstance(seconds, bool)
            and not (math.isfinite(seconds) and 0 < seconds <= most)
        ):
            reader.problem(
                f"{where}.{key}", f"expected seconds above 0 and at most {most:g}, got {seconds!r}"
            )
            ok = False
    if isinstance(options.get("drop_fields"), list) and not all(
        isinstance(f, str) for f in options["drop_fields"]
    ):
        reader.problem(f"{where}.drop_fields", "expected an array of strings")
        ok = False
    return ok


def _base_url(raw: object) -> str:
    """The endpoint an openai agent will reach, fixed on the driver (a
    worker's environment may differ)."""
    from alienworlds.episode.openai_agent import DEFAULT_BASE_URL

    return str(raw or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")


def _conditions(reader: _Reader, data: dict) -> list[str]:
    raw = data.get("conditions", ["autonomous"])
    if not isinstance(raw, list) or not raw:
        reader.problem("conditions", f"expected a non-empty array of conditions, got {raw!r}")
        return []
    out = []
    for i, name in enumerate(raw):
        if not isinstance(name, str):
            reader.problem(f"conditions[{i}]", f"expected a condition's name, got {name!r}")
        elif name in NOT_IN_SWEEPS:
            reader.problem(f"conditions[{i}]", f"{name!r} is not for sweeps: {NOT_IN_SWEEPS[name]}")
        elif name not in CONDITIONS:
            usable = [c for c in CONDITIONS if c not in NOT_IN_SWEEPS]
            reader.problem(
                f"conditions[{i}]", f"unknown condition {name!r}; one of {', '.join(usable)}"
            )
        elif name in out:
            reader.problem(f"conditions[{i}]", f"{name!r} is named twice")
        else:
            out.append(name)
    return out


def _endpoints(reader: _Reader, data: dict, agents: list[AgentSpec]) -> dict[str, int]:
    raw = data.get("endpoints", [])
    if not isinstance(raw, list):
        reader.problem(
            "endpoints",
            "expected an array of tables ([[endpoints]] with base_url and max_in_flight)",
        )
        return {}
    if len(raw) > limits.ENDPOINTS:
        reader.problem(
            "endpoints", f"{len(raw):,} entries, more than the {limits.ENDPOINTS} a sweep may have"
        )
        return {}
    used = {a.base_url for a in agents if a.base_url}
    out: dict[str, int] = {}
    for i, item in enumerate(raw):
        where = f"endpoints[{i}]"
        if not isinstance(item, dict):
            reader.problem(where, f"expected a table with base_url and max_in_flight, got {item!r}")
            continue
        reader.known_keys(item, ENDPOINT_KEYS, where)
        url, limit = item.get("base_url"), item.get("max_in_flight")
        if not isinstance(url, str) or not url:
            reader.problem(f"{where}.base_url", f"expected the endpoint's base URL, got {url!r}")
            continue
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            reader.problem(
                f"{where}.max_in_flight", f"expected an integer at least 1, got {limit!r}"
            )
            continue
        url = url.rstrip("/")
        if url in out:
            reader.problem(f"{where}.base_url", f"{url} is limited twice")
        elif url not in used:
            reader.problem(
                f"{where}.base_url",
                f"no agent of this sweep uses {url} (used: {', '.join(sorted(used)) or 'none'})",
            )
        else:
            out[url] = limit
    return out
