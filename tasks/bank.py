"""Task banks: worked examples and held-out tasks of one world (docs/tasks.md).

Only the loader and the data model live here; expected outputs are computed
by the graders and the audit, never stored.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

from alienworlds.ruleset import World
from alienworlds.ruleset.world import WORLDS_DIR

BANKS_DIR = Path(__file__).parent
FORMAT = 1

KINDS = ("synthesis", "prediction", "proof")
BANDS = ("apply", "interact", "scope", "engineer", "algorithm")
FAMILIES = ("base", "nested", "ceiling", "coverage")
REPRESENTATIONS = ("flat", "nested", "string")
DEPTHS = ("single-step", "single-algorithm", "multi-stage")
# The kinds whose band, family, representation and depth are checked against
# the lists above: program tasks. A proof task's family is its own
# (AlienLogic's theorem families), kept as written.
CLASSIFIED_KINDS = ("synthesis", "prediction")


class BankError(Exception):
    """A bank that cannot be used; carries every problem found."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Example:
    id: str
    band: str
    prompt: str
    program: str
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class Task:
    id: str
    kind: str
    prompt: str
    band: str = ""
    family: str = ""
    representation: str = ""
    depth: str = ""
    example: str = ""
    calls: tuple[str, ...] = ()
    reference: str = ""
    naive: str = ""
    program: str = ""  # prediction tasks: the program whose output is predicted
    inputs: tuple[
        dict[str, str], ...
    ] = ()  # whole-program tasks: private name bindings, one table per run
    example_inputs: dict[str, str] = field(
        default_factory=dict
    )  # a shown binding (never a private one)
    variants: tuple[
        str, ...
    ] = ()  # further manual-correct solutions, written differently from naive
    extra: dict[str, object] = field(default_factory=dict)  # language-specific fields (AlienLogic)

    @property
    def whole_program(self) -> bool:
        """A synthesis task without calls: the submission is a whole program."""
        return self.kind == "synthesis" and not self.calls

    def content(self) -> str:
        """Every field but the id and `extra`, as text: what the task asks
        and how it is graded, however it is numbered (a drawn task is numbered
        when its bank is written, and its template named in `extra`)."""
        return repr(replace(self, id="", extra={}))


@dataclass(frozen=True)
class Bank:
    language: str
    world: str
    examples: tuple[Example, ...]
    tasks: tuple[Task, ...]
    source: str
    requirements: dict[str, object] = field(
        default_factory=dict
    )  # the [audit] table: counts the audit enforces

    def task(self, task_id: str) -> Task:
        for t in self.tasks:
            if t.id == task_id:
                return t
        raise KeyError(task_id)


BESIDE = "bank.toml"  # a world file's own bank, in the same folder (generated worlds)


def bank_path(language: str, world: str) -> Path:
    return BANKS_DIR / language / f"{world}.toml"


def own_bank_paths(language: str, world: World) -> tuple[Path, ...]:
    """Where a world's own bank may be, in the order looked at: `bank.toml`
    in the folder of a world file that is not a shipped world (a generated
    world), then the shipped bank of the world's name."""
    shipped = bank_path(language, world.name)
    if not world.source:
        return (shipped,)
    folder = Path(world.source).parent
    if folder.resolve() == (WORLDS_DIR / language).resolve():
        return (shipped,)
    return (folder / BESIDE, shipped)


def own_bank_path(language: str, world: World) -> Path | None:
    """The world's own bank file (see own_bank_paths); None when there is none."""
    return next((path for path in own_bank_paths(language, world) if path.is_file()), None)


_TASK_FIELDS = set(Task.__dataclass_fields__) - {"extra"}


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _check_code_fields(label: str, raw: dict) -> list[str]:
    """The shapes of calls, inputs, example_inputs and variants."""
    problems = []

    def strings(key: str) -> bool:
        value = raw.get(key, [])
        return isinstance(value, list) and all(isinstance(v, str) for v in value)

    def binding(table: object) -> bool:
        return (
            isinstance(table, dict)
            and bool(table)
            and all(
                isinstance(k, str) and _NAME.fullmatch(k) and isinstance(v, str)
                for k, v in table.items()
            )
        )

    for key in ("calls", "variants"):
        if not strings(key):
            problems.append(f"{label}: key '{key}': expected a list of strings")
    inputs = raw.get("inputs", [])
    if not isinstance(inputs, list) or not all(binding(t) for t in inputs):
        problems.append(
            f"{label}: key 'inputs': expected a list of tables, each binding names to AlienCode "
            "expressions (strings)"
        )
    if "example_inputs" in raw and not binding(raw["example_inputs"]):
        problems.append(
            f"{label}: key 'example_inputs': expected a table binding names to AlienCode "
            "expressions (strings)"
        )
    if raw.get("calls") and raw.get("inputs"):
        problems.append(f"{label}: a task has private calls or private inputs, not both")
    if raw.get("example_inputs") and not raw.get("inputs"):
        problems.append(f"{label}: key 'example_inputs' needs 'inputs'")
    names = [tuple(t) for t in inputs if isinstance(t, dict)]
    if any(n != names[0] for n in names):
        problems.append(
            f"{label}: key 'inputs': every table binds the same names in the same order"
        )
    return problems


def load_bank(language: str, world: str, path: Path | None = None) -> Bank:
    """The bank of `world` (or the file at `path`); raise BankError."""
    path = path or bank_path(language, world)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BankError([f"{path}: no task bank for world '{world}'"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BankError([f"{path}: cannot read the bank: {exc}"]) from None
    return parse_bank(language, world, text, str(path))


def parse_bank(language: str, world: str, text: str, where: str) -> Bank:
    """A bank from its TOML text (`where` names it in problems); raise BankError."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BankError([f"{where}: cannot read the bank: {exc}"]) from None
    problems: list[str] = []
    if data.get("format") != FORMAT:
        problems.append(f"{where}: key 'format': expected format = {FORMAT}")
    examples = []
    for raw in data.get("examples", []):
        try:
            examples.append(
                Example(
                    id=raw["id"],
                    band=raw.get("band", ""),
                    prompt=raw.get("prompt", ""),
                    program=raw["program"],
                    rules=tuple(raw.get("rules", ())),
                )
            )
        except (KeyError, TypeError) as exc:
            problems.append(
                f"{where}: example {raw.get('id', '?') if isinstance(raw, dict) else '?'}: "
                f"missing or bad key {exc}"
            )
    tasks = []
    seen: set[str] = set()
    for raw in data.get("tasks", []):
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
            problems.append(f"{where}: a task without a string id")
            continue
        label = f"{where}: task {raw['id']}"
        if raw["id"] in seen:
            problems.append(f"{label}: duplicate task id")
        seen.add(raw["id"])
        kind = raw.get("kind")
        if kind not in KINDS:
            problems.append(f"{label}: key 'kind': expected one of {', '.join(KINDS)}")
            continue
        for key, allowed in (
            ("band", BANDS),
            ("family", FAMILIES),
            ("representation", REPRESENTATIONS),
            ("depth", DEPTHS),
        ):
            if key in raw and raw[key] not in allowed and kind in CLASSIFIED_KINDS:
                problems.append(f"{label}: key '{key}': expected one of {', '.join(allowed)}")
        if kind == "synthesis" and not (raw.get("reference") and raw.get("naive")):
            problems.append(f"{label}: a synthesis task needs 'reference' and 'naive'")
        if kind == "prediction" and not raw.get("program"):
            problems.append(f"{label}: a prediction task needs 'program'")
        fields = {k: v for k, v in raw.items() if k in _TASK_FIELDS}
        fields["calls"] = tuple(raw.get("calls", ()))
        problems += _check_code_fields(label, raw)
        fields["inputs"] = tuple(
            dict(table) for table in raw.get("inputs", ()) if isinstance(table, dict)
        )
        fields["variants"] = tuple(raw.get("variants", ()))
        fields["example_inputs"] = (
            dict(raw.get("example_inputs", {}))
            if isinstance(raw.get("example_inputs", {}), dict)
            else {}
        )
        fields.setdefault("prompt", "")
        extra = {k: v for k, v in raw.items() if k not in _TASK_FIELDS}
        tasks.append(Task(**fields, extra=extra))
    if problems:
        raise BankError(problems)
    requirements = data.get("audit", {})
    if not isinstance(requirements, dict):
        raise BankError([f"{where}: key 'audit': expected a table"])
    return Bank(
        language=language,
        world=data.get("world", world),
        examples=tuple(examples),
        tasks=tuple(tasks),
        source=where,
        requirements=requirements,
    )
