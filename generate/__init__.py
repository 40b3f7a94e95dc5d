"""Fresh AlienCode worlds on demand, from a seed (see docs/generated-worlds.md).

    from alienworlds.generate import Knobs, generate
    result = generate("my private seed", Knobs(altered=12))
    result.text     # the world.toml
"""

from .world import VERSION, Generated, GenerationError, Knobs, generate, world_name

__all__ = ["VERSION", "Generated", "GenerationError", "Knobs", "generate", "world_name"]
