"""Probe programs: does a world keep a site portable?

For each site, small manual-semantics programs use it at all four kinds of
place (top level, a loop at top level, a CRAFT body, a loop in a CRAFT) on
typical operands. A site is portable in a world when the porting compiler
ports every probe of the site and the ported probe, run in the world,
prints what the probe prints under the manual's semantics.
"""

from __future__ import annotations

from alienworlds.porting import Porter, PortError
from alienworlds.ruleset import World, standard_world

from aliencode import parse, run_source
from aliencode.sites import COMPARISON
from aliencode.walk import sites_in

# Operand sets (AlienCode expressions, manual semantics) each site is probed with.
PROBES: dict[str, list[tuple[str, ...]]] = {
    "SHATTER": [("7", "3"), ('"ab"', '"cd"')],
    "WEAVE": [("7", "3")],
    "PARE": [("7", "3")],
    "HALVE": [("7", "3")],
    "RESIDUE": [("7", "3")],
    "COIL": [("2", "5")],
    "FRACTURE": [("7", "2")],
    **{op: [("7", "3"), ('"ab"', '"b"')] for op in COMPARISON},
    "BOND": [("YES", "NO")],
    "RIFT": [("YES", "NO")],
    "NEGATE": [("YES",)],
    "STRAND": [("1", "2", "3"), ("1",)],
    "KNOT": [("1", "2", "3"), ("1",)],
    "NADIR": [("STRAND(3, 1, 2)",), ("3", "1", "2")],
    "APEX": [("STRAND(3, 1, 2)",), ("3", "1", "2")],
    "FUSE": [('"ab"', '"cd"'), ('"n"', "5")],
    "PLUCK": [("STRAND(4, 5, 6)", "1"), ('"abc"', "2")],
    "CARVE": [("STRAND(4, 5, 6, 7)", "1", "3"), ("STRAND(4, 5, 6)", "1"), ('"abcd"', "1", "3")],
    "ANNEX": [("STRAND(1, 2)", "3")],
    "IMPRINT": [("STRAND(1, 2, 3)", "1", "9")],
    "EXPEL": [("STRAND(1, 2, 3)",)],
    "GAUGE": [("STRAND(3, 1, 2)",), ('"bca"',)],
    "ORDER": [("STRAND(3, 1, 2)",), ('"bca"',)],
    "GATHER": [("STRAND(3, 1, 2)",), ('"bca"',)],
    "INDEX": [("STRAND(3, 1, 2)",), ('"bca"',)],
    "SOME_OF": [("STRAND(YES, NO)",), ("STRAND(NO, NO)",)],
    "EVERY_OF": [("STRAND(YES, NO)",), ("STRAND(YES, YES)",)],
    "EXTENT": [("4",), ("2", "5")],
    "PAIR": [("STRAND(1, 2)", 'STRAND("a", "b")')],
    "EMIT": [(), ("1",), ("1", '"a"'), ("1", "2", "3")],
    "SWEEP": [("STRAND(1, 2, 3)",), ('"abc"',)],
    "literal.int": [("0", "1", "-1", "2", "10", "27", "100", "-7", "12345")],
    "literal.str": [('""', '"a"', '"hello world"')],
    "literal.bool": [("YES", "NO")],
    "literal.float": [("0.5", "-1.5", "2.0", "0.1")],
}
IN_PLACE = ("ANNEX", "IMPRINT", "EXPEL")


def _uses(site: str, names: list[str], pad: str) -> list[str]:
    """Lines using `site` once on operands `names`, printing the result."""
    if site == "EMIT":
        return [f"{pad}EMIT({', '.join(names)})"]
    if site == "SWEEP":
        return [f"{pad}SWEEP e IN {names[0]}:", f"{pad}    EMIT(e)"]
    if site.startswith("literal."):
        return [f"{pad}EMIT({', '.join(names)})"]
    if site in IN_PLACE:
        lines = [f"{pad}SET w AS CARVE({names[0]}, 0)"]
        call = f"{site}(w{''.join(', ' + n for n in names[1:])})"
        lines.append(f"{pad}EMIT({call}, w)" if site == "EXPEL" else f"{pad}{call}")
        return lines + ([f"{pad}EMIT(w)"] if site != "EXPEL" else [])
    return [f"{pad}EMIT({site}({', '.join(names)}))"]


def probe_program(site: str, operands: tuple[str, ...]) -> str:
    """A program using `site` on `operands` at each kind of place."""
    if site.startswith("literal."):
        literals = list(operands)
        lines = [
            *_uses(site, literals, ""),
            "SWEEP k IN STRAND(0):",
            *_uses(site, literals, "    "),
            "CRAFT probe():",
            *_uses(site, literals, "    "),
            "    SWEEP k IN STRAND(0):",
            *_uses(site, literals, "        "),
            "probe()",
        ]
        return "\n".join(lines) + "\n"
    names = [f"v{k}" for k in range(len(operands))]
    params = [f"p{k}" for k in range(len(operands))]
    lines = [f"SET {n} AS {o}" for n, o in zip(names, operands)]
    lines += _uses(site, names, "")
    lines += ["SWEEP k IN STRAND(0):", *_uses(site, names, "    ")]
    lines += [
        f"CRAFT probe({', '.join(params)}):",
        *_uses(site, params, "    "),
        "    SWEEP k IN STRAND(0):",
        *_uses(site, params, "        "),
    ]
    lines.append(f"probe({', '.join(names)})")
    return "\n".join(lines) + "\n"


def check_site(porter: Porter, site: str) -> tuple[str | None, frozenset[str]]:
    """(None, sites the ported probes use) when `site` is portable in the
    porter's world; (why not, ...) otherwise. A ported probe keeps working
    in any world that changes none of the sites it uses."""
    world: World = porter.world
    used: set[str] = {site}
    for operands in PROBES.get(site, []):
        source = probe_program(site, operands)
        try:
            ported = porter.port(source, examples=[], keywords={})
        except PortError as exc:
            return f"{site}: {exc.message}", frozenset(used)
        want = run_source(source, standard_world("aliencode"))
        got = run_source(ported.source, world)
        if got.text() != want.text():
            return (
                f"{site}: the ported probe prints {got.text()!r}, the manual's {want.text()!r}",
                frozenset(used),
            )
        used |= sites_in(parse(ported.source, world.keywords))
    return None, frozenset(used)
