"""Lists a loop's body changes that are certainly not the list it walks.

The alias analysis (types.py) is flow-insensitive: once a list is stored in
another list anywhere (`DELIVER STRAND(out, rev)` after the loop), it may be
any list held in a list, such as the row a loop walks. Yet a list made in
the loop's own scope before the loop, and passed nowhere since, cannot be a
list the loop walks: nothing but its own name refers to it.

A name is *fresh* at a SWEEP when, on every path to the loop and throughout
the loop, it holds a new list made in its scope (every SET of it gives a
new list: STRAND, GATHER, CARVE ... never an element or another name) and
it has not escaped: it appears only as the list an operation reads or
changes in place, never as a value stored, passed, returned, bound to
another name, walked, or given back (BOND, RIFT, NADIR/APEX of several).
Only names of the loop's own scope count, and only when no other CRAFT
mentions them (none could reach the list by name).
"""

from __future__ import annotations

from aliencode import syntax as s
from aliencode.walk import names_in

from .types import ELEMENT_GIVERS, STORES

# Operations that may give back one of their arguments itself.
_GIVE_BACK = frozenset({"BOND", "RIFT", "NADIR", "APEX"})
# Operations that may give a list the program holds: an argument, an element.
_OLD_VALUE = _GIVE_BACK | ELEMENT_GIVERS


def new_list(e: s.Expr) -> bool:
    """`e` gives a value no name of the program refers to yet."""
    if isinstance(e, (s.IntLit, s.FloatLit, s.StrLit, s.BoolLit, s.NoneLit)):
        return True
    return isinstance(e, s.OpCall) and e.op not in _OLD_VALUE


def _escaping(node: object, names: frozenset[str]) -> set[str]:
    """The `names` that `node` (a statement, with everything inside it but
    CRAFT bodies) lets escape, or binds to anything but a new list."""
    out: set[str] = set()
    stack: list[tuple[object, bool]] = [(node, False)]
    while stack:
        n, safe = stack.pop()
        if isinstance(n, s.Name):
            if not safe and n.id in names:
                out.add(n.id)
            continue
        if isinstance(n, s.Craft):
            continue
        if isinstance(n, s.Set):
            single = len(n.targets) == 1 and len(n.values) == 1 and new_list(n.values[0])
            if not single:
                out.update(t for t in n.targets if t in names)
        elif isinstance(n, s.Sweep):
            out.update(t for t in n.names if t in names)
        if isinstance(n, s.OpCall) and n.op not in _GIVE_BACK:
            stored = STORES.get(n.op, ())
            for k, a in enumerate(n.args):
                stack.append((a, stored is not None and k not in stored))
            continue
        stack.extend((c, False) for c in s.children(n))
    return out


def _crafts(body: tuple[s.Stmt, ...]) -> list[s.Craft]:
    """The CRAFTs a body defines at any depth, not those inside them."""
    out: list[s.Craft] = []
    stack: list[object] = list(body)
    while stack:
        n = stack.pop()
        if isinstance(n, s.Craft):
            out.append(n)
            continue
        stack.extend(s.children(n))
    return out


def fresh_at_loops(programs: list[s.Program]) -> dict[int, frozenset[str]]:
    """For every SWEEP of the programs (by id), the names fresh there. The
    programs share their top level (a program and a task's calls): a name
    another of them mentions is never fresh at the top level."""
    out: dict[int, frozenset[str]] = {}
    mentioned = [names_in(p.body) for p in programs]
    for k, program in enumerate(programs):
        others = set().union(*(m for j, m in enumerate(mentioned) if j != k))
        _scope(program.body, others, out)
    return out


def _scope(body: tuple[s.Stmt, ...], outside: set[str], out: dict[int, frozenset[str]]) -> None:
    inner = _crafts(body)
    reached = set(outside)
    for craft in inner:
        reached |= names_in([craft])
    own = frozenset(names_in(body) - reached)
    _block(body, frozenset(), own, out)
    for craft in inner:
        _scope(craft.body, set(), out)


def _block(
    body: tuple[s.Stmt, ...],
    fresh: frozenset[str],
    own: frozenset[str],
    out: dict[int, frozenset[str]],
) -> None:
    for st in body:
        fresh = fresh - _escaping(st, fresh)
        if isinstance(st, s.Sweep):
            out[id(st)] = fresh
            _block(st.body, fresh, own, out)
        elif isinstance(st, s.While):
            _block(st.body, fresh, own, out)
        elif isinstance(st, s.If):
            for _, branch in st.branches:
                _block(branch, fresh, own, out)
            _block(st.default or (), fresh, own, out)
        elif (
            isinstance(st, s.Set)
            and len(st.targets) == 1
            and len(st.values) == 1
            and st.targets[0] in own
            and new_list(st.values[0])
        ):
            fresh = fresh | {st.targets[0]}
