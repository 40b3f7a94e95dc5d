"""Worlds: the data a language interprets.

A world file (TOML, see docs/worlds.md) lists rules; each rule names a target
(an AlienCode site or an AlienLogic rule) and what really happens there. This
module loads and validates the language-neutral part of a world file; each
language supplies a `Schema` with the checks only it can make (which targets
exist, which operands a target has). Problems are collected, not raised one
at a time, so an author sees every mistake in one run.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

WORLDS_DIR = Path(__file__).parent / "worlds"
FORMAT = 1
SCOPES = ("anywhere", "function", "top", "loop")
COMMON_RULE_KEYS = ("id", "name", "target", "layer")
TOP_KEYS = ("format", "name", "language", "description", "rules", "keywords")
# Bounds on what a world file may hold: far beyond any real world, small
# enough that loading, checking and reporting stay cheap.
MAX_FILE_BYTES = 1 << 20
MAX_RULES = 1000
MAX_LABEL = 64  # characters of a rule id, a target, a layer, a keyword
MAX_NAME = 200  # characters of a world's or a rule's name
MAX_DESCRIPTION = 4000


def shown(text: object, limit: int = MAX_LABEL) -> str:
    """`text` as quoted in a problem, cut at `limit` characters."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a world file."""

    file: str
    message: str
    rule: str | None = None
    key: str | None = None

    def __str__(self) -> str:
        where = [self.file]
        if self.rule is not None:
            where.append(f"rule {shown(self.rule)}")
        if self.key is not None:
            where.append(f"key '{shown(self.key)}'")
        return ": ".join(where) + ": " + self.message

    def as_dict(self) -> dict[str, str | None]:
        return {"file": self.file, "rule": self.rule, "key": self.key, "message": self.message}


class WorldError(Exception):
    """A world that cannot be used; carries every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    target: str
    actual: str | None = None  # canonical rule expression (AlienCode), IDENTITY for a red herring
    layer: str | None = None
    scope: str = "anywhere"
    disabled: bool = False  # AlienLogic: the rule may not be used
    require: str | None = None  # AlienLogic: side condition predicate
    conclusion: str | None = None  # AlienLogic: patched conclusion

    @property
    def red_herring(self) -> bool:
        return self.actual == "IDENTITY"

    def canonical(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if v is not None and v is not False}


@dataclass(frozen=True)
class World:
    name: str
    language: str
    description: str = ""
    rules: tuple[Rule, ...] = ()
    keywords: Mapping[str, str] = field(default_factory=dict)
    source: str | None = None  # the file it came from, if any

    def canonical(self) -> dict[str, object]:
        return {
            "format": FORMAT,
            "name": self.name,
            "language": self.language,
            "description": self.description,
            "keywords": dict(sorted(self.keywords.items())),
            "rules": [r.canonical() for r in self.rules],
        }

    @property
    def hash(self) -> str:
        text = json.dumps(
            self.canonical(), sort_keys=True, separators=(",", ":"), ensure_ascii=True
        )
        return "sha256:" + hashlib.sha256(text.encode()).hexdigest()

    def rule(self, rule_id: str) -> Rule:
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise KeyError(rule_id)

    def without(self, *rule_ids: str) -> World:
        """The same world with the given rules switched back to the manual."""
        drop = set(rule_ids)
        return replace(self, rules=tuple(r for r in self.rules if r.id not in drop))

    def surface(self, keyword: str) -> str:
        """The surface spelling of a standard keyword in this world."""
        return self.keywords.get(keyword, keyword)


def standard_world(language: str) -> World:
    return World(
        name="standard", language=language, description="The manual's own semantics: no rules."
    )


@dataclass(frozen=True)
class Schema:
    """What a language checks in a world file beyond the common keys.

    `rule_keys` are the keys a rule may carry besides id, name, target, layer.
    `check_rule(raw, problem)` reports language-specific problems by calling
    `problem(message, key)` and returns normalised field values (such as the
    canonical text of an expression) or None; `keywords` lists the renamable keywords (empty
    when the language has none).
    """

    language: str
    rule_keys: tuple[str, ...]
    check_rule: Callable[
        [Mapping[str, object], Callable[[str, str | None], None]], Mapping[str, object] | None
    ]
    keywords: frozenset[str] = frozenset()
    keyword_pattern: str = r"[A-Za-z_][A-Za-z0-9_]*"


def find_world_file(spec: str, language: str) -> Path | None:
    """A shipped world by name, or a path; None when neither exists."""
    candidate = WORLDS_DIR / language / f"{spec}.toml"
    if "/" not in spec and "\\" not in spec and not spec.endswith(".toml") and candidate.is_file():
        return candidate
    path = Path(spec)
    if path.is_file():
        return path
    return None


def shipped_worlds(language: str) -> list[str]:
    folder = WORLDS_DIR / language
    return sorted(p.stem for p in folder.glob("*.toml")) if folder.is_dir() else []


def load_world(spec: str, schema: Schema) -> World:
    """Load a world by shipped name or path, validating it; raise WorldError."""
    if spec == "standard":
        return standard_world(schema.language)
    path = find_world_file(spec, schema.language)
    if path is None:
        names = ", ".join(["standard", *shipped_worlds(schema.language)])
        raise WorldError(
            [
                Problem(
                    spec,
                    f"no such world file, and no shipped {schema.language} world of that name "
                    f"(shipped: {names})",
                )
            ]
        )
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise WorldError(
                [Problem(str(path), f"the file is too large (at most {MAX_FILE_BYTES} bytes)")]
            )
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise WorldError(
            [Problem(str(path), f"cannot read the file: {exc.__class__.__name__}")]
        ) from None
    return parse_world(text, str(path), schema)


def parse_world(text: str, filename: str, schema: Schema) -> World:
    import tomllib  # here: running under the standard world reads no TOML

    if len(text) > MAX_FILE_BYTES:
        raise WorldError(
            [Problem(filename, f"the file is too large (at most {MAX_FILE_BYTES} characters)")]
        )
    try:
        data = tomllib.loads(text)
    except (
        tomllib.TOMLDecodeError,
        ValueError,
    ) as exc:  # ValueError: an integer of thousands of digits
        raise WorldError([Problem(filename, f"not valid TOML: {shown(exc, 200)}")]) from None
    except RecursionError:  # arrays or tables nested thousands deep
        raise WorldError([Problem(filename, "not valid TOML: nested too deeply")]) from None
    problems: list[Problem] = []

    def top(message: str, key: str | None = None) -> None:
        problems.append(Problem(filename, message, None, key))

    for key in data:
        if key not in TOP_KEYS:
            top(f"unknown key; expected one of {', '.join(TOP_KEYS)}", key)
    if data.get("format") != FORMAT:
        top(f"expected format = {FORMAT}", "format")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        top("expected a non-empty string", "name")
        name = "?"
    elif len(name) > MAX_NAME:
        top(f"at most {MAX_NAME} characters", "name")
    elif name == "standard":
        top("the name 'standard' is reserved for the manual's own semantics", "name")
    if data.get("language") != schema.language:
        top(f'expected language = "{schema.language}"', "language")
    description = data.get("description", "")
    if not isinstance(description, str):
        top("expected a string", "description")
        description = ""
    elif len(description) > MAX_DESCRIPTION:
        top(f"at most {MAX_DESCRIPTION} characters", "description")

    keywords: dict[str, str] = {}
    raw_keywords = data.get("keywords", {})
    if not isinstance(raw_keywords, dict):
        top("expected a table mapping standard keywords to new names", "keywords")
    else:
        keywords = _check_keywords(raw_keywords, schema, top)

    rules: list[Rule] = []
    raw_rules = data.get("rules", [])
    if not isinstance(raw_rules, list):
        top("expected an array of [[rules]] tables", "rules")
        raw_rules = []
    elif len(raw_rules) > MAX_RULES:
        top(f"at most {MAX_RULES} rules", "rules")
        raw_rules = []
    seen: set[str] = set()
    for index, raw in enumerate(raw_rules, start=1):
        rule = _check_rule(raw, index, filename, schema, problems, seen)
        if rule is not None:
            rules.append(rule)
    if problems:
        raise WorldError(problems)
    return World(
        name=name,
        language=schema.language,
        description=description.strip(),
        rules=tuple(rules),
        keywords=keywords,
        source=filename,
    )


def _check_keywords(
    raw: Mapping[str, object], schema: Schema, top: Callable[[str, str | None], None]
) -> dict[str, str]:
    import re

    out: dict[str, str] = {}
    pattern = re.compile(schema.keyword_pattern + r"\Z")
    for std, new in raw.items():
        if std not in schema.keywords:
            top(
                f"'{shown(std)}' is not a keyword of {schema.language} that can be renamed",
                f"keywords.{std}",
            )
        elif not isinstance(new, str) or not pattern.match(new) or len(new) > MAX_LABEL:
            top(
                f"expected a name made of letters, digits and underscores (at most {MAX_LABEL} "
                "characters)",
                f"keywords.{std}",
            )
        else:
            out[std] = new
    spellings = [*(w for w in schema.keywords if w not in out), *out.values()]
    for word in sorted(set(spellings)):
        if spellings.count(word) > 1:
            top(f"two keywords would both be spelled '{word}'", "keywords")
    return out


def _check_rule(
    raw: object, index: int, filename: str, schema: Schema, problems: list[Problem], seen: set[str]
) -> Rule | None:
    label = f"#{index}"
    if not isinstance(raw, dict):
        problems.append(Problem(filename, "expected a table", label))
        return None
    rule_id = raw.get("id")
    if isinstance(rule_id, str) and rule_id.strip() and len(rule_id) <= MAX_LABEL:
        label = rule_id
    before = len(problems)

    def problem(message: str, key: str | None = None) -> None:
        problems.append(Problem(filename, message, label, key))

    allowed = (*COMMON_RULE_KEYS, *schema.rule_keys)
    for key in raw:
        if key not in allowed:
            problem(f"unknown key; a {schema.language} rule takes {', '.join(allowed)}", key)
    if not (isinstance(rule_id, str) and rule_id.strip()):
        problem("expected a non-empty string", "id")
    elif len(rule_id) > MAX_LABEL:
        problem(f"at most {MAX_LABEL} characters", "id")
    elif rule_id in seen:
        problem("duplicate rule id", "id")
    else:
        seen.add(rule_id)
    for key, limit in (("name", MAX_NAME), ("target", MAX_LABEL)):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            problem("expected a non-empty string", key)
        elif len(raw[key]) > limit:
            problem(f"at most {limit} characters", key)
    if "layer" in raw and not isinstance(raw["layer"], str):
        problem("expected a string", "layer")
    elif "layer" in raw and len(raw["layer"]) > MAX_LABEL:
        problem(f"at most {MAX_LABEL} characters", "layer")
    updates: Mapping[str, object] | None = None
    if len(problems) == before:
        updates = schema.check_rule(raw, problem)
    if len(problems) != before:
        return None
    fields = {k: raw[k] for k in raw if k in Rule.__dataclass_fields__}
    fields.update(updates or {})
    return Rule(**fields)
