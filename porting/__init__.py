"""The porting compiler: a program written in the manual's semantics,
rewritten to print the same under a given world.

    from alienworlds.porting import Porter
    ported = Porter(world).port(source, examples=["EMIT(f(STRAND(1, 2)))"])
    ported.source   # the program to run in `world`

See docs/porting.md.
"""

from .compiler import Change, Ported, Porter, PortError, port_source
from .search import Bounds

__all__ = ["Bounds", "Change", "PortError", "Ported", "Porter", "port_source"]
