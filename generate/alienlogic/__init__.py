"""Fresh AlienLogic worlds on demand, from a seed.

    from alienworlds.generate.alienlogic import Knobs, generate, write
    generated = generate("a private seed", Knobs(patches=24, theorems=70))
    write(generated, Path("out/world"))   # world.toml, bank.toml, certificates/, audited first

See docs/generated-worlds.md, "AlienLogic".
"""

from .generator import (
    VERSION,
    Generated,
    GenerationError,
    Knobs,
    Stats,
    audit_folder,
    generate,
    world_name,
    write,
)

__all__ = [
    "VERSION",
    "GenerationError",
    "Generated",
    "Knobs",
    "Stats",
    "audit_folder",
    "generate",
    "world_name",
    "write",
]
