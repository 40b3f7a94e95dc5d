"""What a system sees of an AlienCode world, read from the texts it is shown.

The engine knows nothing of a world file. It reads:

* the manual (the system prompt's MANUAL part): the world's keyword spellings,
  found by comparing it word by word with the standard language's manual;
* the worked examples (the system prompt): each program and the output this
  world printed for it;
* the rule-report template (the milestone prompt): one line per rule id with
  its site, operands and where in a program it applies;
* held-out task prompts: the program of a prediction task, a function task's
  example call, a whole program's input names and example values.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from alienworlds.manuals.aliencode import render
from alienworlds.ruleset import World, standard_world

from aliencode.sites import KEYWORDS, SITES

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TEMPLATE = re.compile(
    r"^(?P<id>\S+): (?P<shown>\S+) \(operands: (?P<operands>[^;)]*)(?:;[^)]*)?\) — "
    r"(?P<scope>.+?) — manual: .*$"
)
_EXAMPLE = re.compile(
    r"Worked example (?P<id>\S+) \((?P<band>[^)]*)\): "
    r"(?P<prompt>.*?)\nProgram:\n```aliencode\n(?P<program>.*?)\n```\n"
    r"Output in this world:\n```output\n(?P<output>.*?)\n```(?=\n\nWorked example |\n*$|\n\n===)",
    re.DOTALL,
)
_SCOPES = (
    ("inside CRAFT bodies", "function"),
    ("at top level", "top"),
    ("inside SWEEP/WHILE bodies", "loop"),
    ("everywhere", "anywhere"),
)


class ViewError(ValueError):
    """A text the engine must read is not in the form it knows."""


@dataclass(frozen=True)
class Slot:
    """One rule id of the template: a site and the scope where it applies."""

    id: str
    site: str
    scope: str  # anywhere | function | top | loop


@dataclass(frozen=True)
class Example:
    id: str
    program: str
    output: str


@dataclass
class View:
    keywords: dict[str, str]  # standard keyword -> the world's spelling (renamed ones only)
    examples: list[Example] = field(default_factory=list)
    slots: list[Slot] = field(default_factory=list)

    def world(self, rules: tuple = (), name: str = "hypothesis") -> World:
        """A world with these keywords (and the given rules)."""
        return World(name=name, language="aliencode", rules=rules, keywords=dict(self.keywords))


@functools.lru_cache(maxsize=1)
def _standard_words() -> tuple[str, ...]:
    return tuple(_WORD.findall(render(standard_world("aliencode"), "text")))


def keywords_from_manual(manual: str) -> dict[str, str]:
    """The world's keyword spellings: every word where the manual differs
    from the standard manual (the manuals differ in keywords only)."""
    words = _WORD.findall(manual)
    standard = _standard_words()
    if len(words) != len(standard):
        raise ViewError(
            f"the manual has {len(words)} words, the standard manual {len(standard)}: not a "
            "manual of this language"
        )
    found: dict[str, str] = {}
    for std, shown in zip(standard, words):
        if std == shown:
            continue
        if std not in KEYWORDS or found.get(std, shown) != shown:
            raise ViewError(
                f"the manual differs from the standard manual at '{shown}' (standard '{std}')"
            )
        found[std] = shown
    return found


def manual_from_prompt(system_prompt: str) -> str:
    start = system_prompt.find("=== MANUAL ===")
    end = system_prompt.find("=== WORKED EXAMPLES ===")
    if start < 0 or end < start:
        raise ViewError("the system prompt holds no manual")
    return system_prompt[start + len("=== MANUAL ===") : end].strip() + "\n"


def examples_from_prompt(system_prompt: str) -> list[Example]:
    part = system_prompt[system_prompt.find("=== WORKED EXAMPLES ===") :]
    return [Example(m["id"], m["program"], m["output"]) for m in _EXAMPLE.finditer(part)]


def slots_from_template(text: str, keywords: dict[str, str]) -> list[Slot]:
    """The rule ids of a rule-report prompt, in order."""
    surface = {v: k for k, v in keywords.items()}
    slots = []
    for line in text.splitlines():
        m = _TEMPLATE.match(line.strip())
        if not m:
            continue
        site = surface.get(m["shown"], m["shown"])
        if (
            site not in SITES
            or tuple(o.strip() for o in m["operands"].split(",")) != SITES[site].operands
        ):
            continue
        scope = next((s for label, s in _SCOPES if m["scope"].startswith(label)), None)
        if scope is None:
            raise ViewError(f"rule {m['id']}: unknown place {m['scope']!r}")
        slots.append(Slot(m["id"], site, scope))
    return slots


def read_view(system_prompt: str, rule_prompt: str | None = None) -> View:
    """Everything the engine needs from the system prompt and, when known,
    the rule-report prompt."""
    keywords = keywords_from_manual(manual_from_prompt(system_prompt))
    slots = slots_from_template(rule_prompt, keywords) if rule_prompt else []
    return View(keywords, examples_from_prompt(system_prompt), slots)
