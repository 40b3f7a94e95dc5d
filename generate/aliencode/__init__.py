"""Fresh AlienCode worlds and their task banks on demand, from a seed (see
docs/generated-worlds.md).

    from alienworlds.generate.aliencode import Knobs, generate
    result = generate("my private seed", Knobs(altered=12))
    result.text         # world.toml
    result.bank_text    # bank.toml
"""

from .generator import Generated, generate
from .world_draw import VERSION, GenerationError, Knobs, world_name

__all__ = ["VERSION", "Generated", "GenerationError", "Knobs", "generate", "world_name"]
