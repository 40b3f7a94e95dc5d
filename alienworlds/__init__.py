"""Alien Worlds: the namespace of everything above the two language libraries.

`aliencode` and `alienlogic` are the language libraries (they import only
`alienworlds.ruleset`). The layers above them live here: `ruleset` (world
files and rule expressions), `manuals`, `tasks` (banks, graders, audits),
`repl`, `episode` (the protocol driver) and `cli` (the command lines that wire
them together). In the repository each is a top-level folder; the package
build maps those folders into this namespace.

The Python API (docs/api.md) mirrors the command lines:

    import alienworlds
    world = alienworlds.load_world("aliencode", "demo")
    bank = alienworlds.load_bank("aliencode", world)
    alienworlds.grade(world, bank, "T4", reply_text)
    alienworlds.run_episode(world, bank, "oracle", "out/demo-oracle")
    alienworlds.generate_world("alienlogic", "my seed", patches=4)

Its names load on first use (`alienworlds.api`), so importing a subpackage,
or `alienworlds` itself, costs nothing more.
"""

API = (
    "GeneratedWorld",
    "LANGUAGES",
    "LanguageUnknown",
    "environment",
    "generate_world",
    "grade",
    "load_bank",
    "load_world",
    "run_episode",
)


def __getattr__(name: str) -> object:
    if name not in API:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module("alienworlds.api"), name)
    globals()[name] = value
    return value


__all__ = list(API)
