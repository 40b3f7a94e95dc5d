"""The template library a generated bank draws its tasks from.

Templates are data (`templates.toml`, `examples.toml` beside this module):
programs written in the manual's semantics, with parameter slots `{name}`
and input generators (draws.py). A task template is either

* a whole program reading inputs (`inputs`: name -> generator), or
* a CRAFT (`craft = "name(p, q)"`, `args`: parameter -> generator), called
  as `EMIT(name(...))`, or as `name(...)` when the CRAFT prints itself
  (`prints = true`).

Its `naive` solution and two `variants` are manual-correct programs that
differ in their operations or structure. A worked-example template is a
whole program without inputs. Everything is checked when the library is
read: a template that breaks the rules of the format is a bug here, never
something a world can cause.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from alienworlds.tasks.bank import BANDS, DEPTHS, FAMILIES, REPRESENTATIONS

from aliencode import AlienSyntaxError, parse
from aliencode import syntax as s
from aliencode.unparse import value_literal

from .draws import Generator, parse_generator

HERE = Path(__file__).parent
VARIANTS = 2
_SLOT = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_CRAFT = re.compile(
    r"([A-Za-z_][A-Za-z0-9_]*)\(([A-Za-z_][A-Za-z0-9_]*(?:, [A-Za-z_][A-Za-z0-9_]*)*)?\)"
)


class LibraryError(ValueError):
    """A template the library cannot use."""


@dataclass(frozen=True)
class Template:
    id: str
    band: str
    family: str
    representation: str
    depth: str
    prompt: str
    naive: str
    variants: tuple[str, ...]
    params: tuple[tuple[str, Generator], ...] = ()
    inputs: tuple[tuple[str, Generator], ...] = ()  # a whole program's inputs, in drawing order
    craft: str = ""  # a CRAFT task: its name
    parameters: tuple[str, ...] = ()  # the CRAFT's parameters, in call order
    args: tuple[
        tuple[str, Generator], ...
    ] = ()  # generators of the CRAFT's arguments, in drawing order
    prints: bool = False  # the CRAFT prints (calls are not wrapped in EMIT)

    @property
    def function(self) -> bool:
        return bool(self.craft)

    def generators(self) -> tuple[tuple[str, Generator], ...]:
        return self.args if self.function else self.inputs


@dataclass(frozen=True)
class ExampleTemplate:
    id: str
    band: str
    prompt: str
    program: str
    params: tuple[tuple[str, Generator], ...] = ()


def fill(text: str, values: dict[str, str]) -> str:
    """`text` with every slot `{name}` of a declared parameter replaced."""
    return _SLOT.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def _generators(raw: object, where: str) -> tuple[tuple[str, Generator], ...]:
    if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
        raise LibraryError(f"{where}: expected a table of generators (strings)")
    return tuple((name, parse_generator(text)) for name, text in raw.items())


def _code(text: object, where: str, params: tuple[tuple[str, Generator], ...]) -> str:
    """Template code, checked to parse (slots filled with a placeholder value)."""
    if not isinstance(text, str) or not text.strip():
        raise LibraryError(f"{where}: expected AlienCode text")
    try:
        parse(fill(text, {name: "0" for name, _ in params}), {})
    except AlienSyntaxError as exc:
        raise LibraryError(f"{where}: does not parse: {exc}") from None
    return text.strip("\n") + "\n"


def _template(raw: dict, where: str) -> Template:
    for key, allowed in (
        ("band", BANDS),
        ("family", FAMILIES),
        ("representation", REPRESENTATIONS),
        ("depth", DEPTHS),
    ):
        if raw.get(key) not in allowed:
            raise LibraryError(f"{where}: key '{key}': expected one of {', '.join(allowed)}")
    params = _generators(raw.get("params", {}), f"{where}: params")
    variants = raw.get("variants")
    if not isinstance(variants, list) or len(variants) != VARIANTS:
        raise LibraryError(f"{where}: expected {VARIANTS} variants")
    fields = dict(
        id=raw["id"],
        band=raw["band"],
        family=raw["family"],
        representation=raw["representation"],
        depth=raw["depth"],
        prompt=raw.get("prompt", ""),
        params=params,
        naive=_code(raw.get("naive"), f"{where}: naive", params),
        variants=tuple(
            _code(v, f"{where}: variant {k}", params) for k, v in enumerate(variants, 1)
        ),
    )
    if not fields["prompt"]:
        raise LibraryError(f"{where}: expected a prompt")
    if ("craft" in raw) == ("inputs" in raw):
        raise LibraryError(f"{where}: a template has either 'craft' and 'args' or 'inputs'")
    if "inputs" in raw:
        return Template(**fields, inputs=_generators(raw["inputs"], f"{where}: inputs"))
    match = _CRAFT.fullmatch(str(raw["craft"]))
    if not match:
        raise LibraryError(f"{where}: key 'craft': expected name(p, q)")
    parameters = tuple(p.strip() for p in (match.group(2) or "").split(",") if p.strip())
    args = _generators(raw.get("args", {}), f"{where}: args")
    if sorted(name for name, _ in args) != sorted(parameters):
        raise LibraryError(f"{where}: 'args' must draw every parameter of {raw['craft']}")
    return Template(
        **fields,
        craft=match.group(1),
        parameters=parameters,
        args=args,
        prints=bool(raw.get("prints", False)),
    )


def _read(name: str) -> dict:
    return tomllib.loads((HERE / name).read_text(encoding="utf-8"))


@cache
def templates() -> tuple[Template, ...]:
    """The task templates, in file order (ids unique)."""
    out = [
        _template(raw, f"templates.toml: template {raw.get('id', '?')}")
        for raw in _read("templates.toml")["templates"]
    ]
    ids = [t.id for t in out]
    if len(set(ids)) != len(ids):
        raise LibraryError("templates.toml: duplicate template ids")
    return tuple(out)


@cache
def example_templates() -> tuple[ExampleTemplate, ...]:
    """The worked-example templates, in file order."""
    out = []
    for raw in _read("examples.toml")["examples"]:
        where = f"examples.toml: example {raw.get('id', '?')}"
        if raw.get("band") not in BANDS:
            raise LibraryError(f"{where}: key 'band': expected one of {', '.join(BANDS)}")
        params = _generators(raw.get("params", {}), f"{where}: params")
        out.append(
            ExampleTemplate(
                raw["id"],
                raw["band"],
                raw["prompt"],
                _code(raw.get("program"), where, params),
                params,
            )
        )
    return tuple(out)


SCOPES = ("top", "function", "loop")
_LITERALS = {
    s.IntLit: "literal.int",
    s.FloatLit: "literal.float",
    s.StrLit: "literal.str",
    s.BoolLit: "literal.bool",
}


def placed_sites(source: str) -> set[tuple[str, str]]:
    """The (site, scope) pairs a standard-keyword program uses: a site
    used in a loop in a CRAFT counts for `function` and for `loop`, one at
    top level outside any loop for `top`, as rule scopes match."""
    found: set[tuple[str, str]] = set()

    def scopes(in_function: bool, in_loop: bool) -> tuple[str, ...]:
        if not in_function and not in_loop:
            return ("top",)
        return (("function",) if in_function else ()) + (("loop",) if in_loop else ())

    stack: list[tuple[object, bool, bool]] = [(st, False, False) for st in parse(source, {}).body]
    while stack:
        node, in_function, in_loop = stack.pop()
        site = (
            node.op
            if isinstance(node, s.OpCall)
            else "SWEEP"
            if isinstance(node, s.Sweep)
            else _LITERALS.get(type(node))
        )
        if site is not None:
            found.update((site, scope) for scope in scopes(in_function, in_loop))
        if isinstance(node, s.Craft):
            stack.extend((st, True, False) for st in node.body)
        elif isinstance(node, (s.Sweep, s.While)):
            stack.append(
                (node.iterable if isinstance(node, s.Sweep) else node.cond, in_function, in_loop)
            )
            stack.extend((st, in_function, True) for st in node.body)
        else:
            stack.extend((child, in_function, in_loop) for child in s.children(node))
    return found


@cache
def template_sites(template: Template) -> frozenset[tuple[str, str]]:
    """The (site, scope) pairs the template's naive solution and a call of
    its CRAFT use, with each parameter and argument filled by a value of its
    kind (a text parameter is a string literal)."""
    import random

    rng = random.Random(template.id)
    values = {name: value_literal(gen.draw(rng, {})) for name, gen in template.params}
    found = placed_sites(fill(template.naive, values))
    if template.function:  # the calls: at top level, with arguments like the generators draw
        drawn: dict[str, object] = {}
        for name, gen in template.args:
            drawn[name] = gen.draw(rng, drawn)
        call = (
            f"{template.craft}({', '.join(value_literal(drawn[p]) for p in template.parameters)})"
        )
        found |= placed_sites(call if template.prints else f"EMIT({call})")
    return frozenset(found)


@cache
def support() -> dict[tuple[str, str], int]:
    """How many templates use each (site, scope); `anywhere` counts every
    template using the site."""
    counts: dict[tuple[str, str], int] = {}
    for template in templates():
        pairs = template_sites(template)
        for key in pairs | {(site, "anywhere") for site, _ in pairs}:
            counts[key] = counts.get(key, 0) + 1
    return counts
