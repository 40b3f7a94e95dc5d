"""Static value types of an AlienCode program, for choosing compensations.

A compensation need only agree with the manual's operation on the values
that can reach its site: `SHATTER` on two strings is a concatenation, on two
numbers an addition, and a world may offer one but not the other. This
module infers, flow-insensitively, the set of value kinds each expression
can take under the manual's semantics.

Types are sets of kinds (int, float, bool, str, none, func) plus, for lists
and tuples, the type of their elements. Variables take the union of every
value assigned to them (to a fixpoint); a function's parameters take the
union of the arguments at its known call sites when the program is *closed*
(every caller is in view: the program itself and the given example calls),
and any value otherwise. Element types are followed a few levels deep.

Lists are shared and changed in place, so a list's element type is not the
union of what its own name was given: `SET ys AS xs` then `ANNEX(ys, "a")`
changes `xs` too. Names, parameters, function results and "the lists held
inside other lists" are holders; every way a list can pass from one to
another (assignment, a call's arguments and result, storing a list in a
list) merges their alias classes, and whatever ANNEX or IMPRINT stores
through any member widens the element type of every member. Lists held in
other lists (an element, a loop variable, a list from unseen code) form one
class, `HEAP`; what is stored there widens lists at every depth. The
analysis is flow-insensitive: a change anywhere counts everywhere.

The same alias classes say whether a SWEEP's body may change the list the
loop walks (`may_change_walked`), given the lists made before the loop that
nothing else can reach yet (fresh.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from aliencode import syntax as s
from aliencode.sites import COMPARISON, IN_PLACE

SCALARS = ("int", "float", "bool", "str", "none", "func")
NUMBERS = frozenset({"int", "float", "bool"})
MAX_DEPTH = 3
MAX_ROUNDS = 100  # fixpoint rounds; an analysis that has not settled by then says "any value"


@dataclass(frozen=True)
class Ty:
    """A set of possible values. `top` means any value at all."""

    scalars: frozenset[str] = frozenset()
    lists: Ty | None = None  # element type, when lists are possible
    tuples: Ty | None = None
    top: bool = False
    # Tuples a caller built with the world's KNOT (outside the program),
    # read in the order of KNOT's arguments: "a pair made with KNOT(k, v)".
    made: Ty | None = None

    def __or__(self, other: Ty) -> Ty:
        if self.top or other.top:
            return TOP
        return Ty(
            self.scalars | other.scalars,
            _join(self.lists, other.lists),
            _join(self.tuples, other.tuples),
            made=_join(self.made, other.made),
        )

    @property
    def empty(self) -> bool:
        return (
            not self.top
            and not self.scalars
            and self.lists is None
            and self.tuples is None
            and self.made is None
        )

    def has(self, kind: str) -> bool:
        if self.top:
            return True
        if kind == "list":
            return self.lists is not None
        if kind == "tuple":
            return self.tuples is not None
        if kind == "made":
            return self.made is not None
        return kind in self.scalars

    def kinds(self) -> frozenset[str]:
        if self.top:
            return frozenset({*SCALARS, "list", "tuple"})
        out = set(self.scalars)
        if self.lists is not None:
            out.add("list")
        if self.tuples is not None:
            out.add("tuple")
        if self.made is not None:
            out.add("made")
        return frozenset(out)

    def element(self) -> Ty:
        """What walking or indexing a value of this type can give."""
        if self.top:
            return TOP
        out = BOTTOM
        if "str" in self.scalars:
            out = out | STR
        for inner in (self.lists, self.tuples, self.made):
            if inner is not None:
                out = out | inner
        return out

    def depth(self) -> int:
        if self.top:
            return 0
        return 1 + max(
            (t.depth() for t in (self.lists, self.tuples, self.made) if t is not None), default=0
        )

    def describe(self) -> str:
        if self.top:
            return "any value"
        parts = sorted(self.scalars)
        if self.lists is not None:
            parts.append(f"list of {self.lists.describe() if not self.lists.empty else 'nothing'}")
        if self.tuples is not None:
            parts.append(
                f"tuple of {self.tuples.describe() if not self.tuples.empty else 'nothing'}"
            )
        if self.made is not None:
            parts.append(
                f"KNOT-made tuple of {self.made.describe() if not self.made.empty else 'nothing'}"
            )
        return " | ".join(parts) or "no value"


def _join(a: Ty | None, b: Ty | None) -> Ty | None:
    if a is None:
        return b
    if b is None:
        return a
    return a | b


def _cap(t: Ty) -> Ty:
    return TOP if t.depth() > MAX_DEPTH else t


def list_of(t: Ty) -> Ty:
    return Ty(lists=_cap(t))


def tuple_of(t: Ty) -> Ty:
    return Ty(tuples=_cap(t))


def made_of(t: Ty) -> Ty:
    return Ty(made=_cap(t))


def scalar(*kinds: str) -> Ty:
    return Ty(frozenset(kinds))


TOP = Ty(top=True)
BOTTOM = Ty()
INT, FLOAT, BOOL, STR, NONE, FUNC = (scalar(k) for k in SCALARS)


def union(types: Iterable[Ty]) -> Ty:
    out = BOTTOM
    for t in types:
        out = out | t
    return out


# -- what each operation gives, under the manual's semantics ----------------


def _numeric(a: Ty, b: Ty, ints: bool = True) -> Ty:
    na, nb = a.kinds() & NUMBERS, b.kinds() & NUMBERS
    if not na or not nb:
        return BOTTOM
    kinds = set()
    if ints and (na & {"int", "bool"}) and (nb & {"int", "bool"}):
        kinds.add("int")
    if "float" in na or "float" in nb or not ints:
        kinds.add("float")
    return Ty(frozenset(kinds))


def _same_sequences(a: Ty, b: Ty) -> Ty:
    """Concatenation: a sequence of the kind both operands share."""
    if a.top or b.top:
        return Ty(frozenset({"str"}), TOP, TOP)
    out = STR if (a.has("str") and b.has("str")) else BOTTOM
    if a.lists is not None and b.lists is not None:
        out = out | list_of(a.lists | b.lists)
    ta, tb = _join(a.tuples, a.made), _join(b.tuples, b.made)
    if ta is not None and tb is not None:
        out = out | tuple_of(ta | tb)
    return out


def _sequences(t: Ty) -> Ty:
    """The sequence part of `t` (what slicing keeps)."""
    if t.top:
        return Ty(frozenset({"str"}), TOP, TOP)
    return Ty(t.scalars & {"str"}, t.lists, _join(t.tuples, t.made))


def _repeat(a: Ty, b: Ty) -> Ty:
    out = BOTTOM
    if b.kinds() & {"int", "bool"}:
        out = out | _sequences(a)
    if a.kinds() & {"int", "bool"}:
        out = out | _sequences(b)
    return out


def operation_type(op: str, args: list[Ty], outside: bool = False) -> Ty:
    """The type of `op` applied to arguments of the given types (`outside`:
    in a caller's code, where KNOT makes tuples in the world's layout)."""
    n = len(args)
    a = args[0] if n > 0 else BOTTOM
    b = args[1] if n > 1 else BOTTOM
    if op == "SHATTER":
        return _numeric(a, b) | _same_sequences(a, b)
    if op == "PARE":
        return _numeric(a, b) | _repeat(a, b)
    if op in ("WEAVE", "HALVE", "RESIDUE"):
        return _numeric(a, b)
    if op == "FRACTURE":
        return _numeric(a, b, ints=False)
    if op == "COIL":
        num = _numeric(a, b)
        return num | FLOAT if not num.empty else num
    if op in COMPARISON or op in ("NEGATE", "SOME_OF", "EVERY_OF"):
        return BOOL
    if op in ("BOND", "RIFT"):
        return a | b
    if op == "STRAND":
        return list_of(union(args))
    if op == "KNOT":
        return made_of(union(args)) if outside else tuple_of(union(args))
    if op == "PLUCK":
        return a.element()
    if op == "CARVE":
        return _sequences(a)
    if op in ("ANNEX", "IMPRINT", "EMIT"):
        return NONE
    if op == "EXPEL":
        return a.lists if not a.top and a.lists is not None else (BOTTOM if not a.top else TOP)
    if op == "GAUGE":
        return INT
    if op in ("NADIR", "APEX"):
        return a.element() if n == 1 else union(args)
    if op in ("ORDER", "GATHER", "STRAIN"):
        return list_of((b if op == "STRAIN" else a).element())
    if op == "FUSE":
        return STR
    if op == "EXTENT":
        return list_of(INT)
    if op == "INDEX":
        return list_of(tuple_of(INT | a.element()))
    if op == "PAIR":
        return list_of(tuple_of(a.element() | b.element()))
    return TOP


# Operations whose result may be a list the program already holds (an
# element of a sequence); every other operation gives a new list or none.
ELEMENT_GIVERS = frozenset({"PLUCK", "EXPEL", "NADIR", "APEX"})
# Operations that store their arguments (by position) inside a sequence.
STORES = {"STRAND": None, "KNOT": None, "ANNEX": (1,), "IMPRINT": (2,)}

HEAP = ("heap",)  # the holder of every list reached other than by a name of the program


def widened(t: Ty, extra: Ty) -> Ty:
    """`t` with `extra` added to the elements of its lists (not nested)."""
    if t.top or t.lists is None or extra.empty:
        return t
    return Ty(t.scalars, _cap(t.lists | extra), t.tuples, t.top, t.made)


def heapified(t: Ty, extra: Ty, outer: bool = True) -> Ty:
    """`t` with `extra` added to every list it may hold at any depth (and to
    `t` itself when `outer`): what was stored into some list held inside
    another may be in any of them."""
    if t.top or extra.empty:
        return t
    inner = [None if c is None else _cap(heapified(c, extra)) for c in (t.lists, t.tuples, t.made)]
    lists = inner[0]
    if lists is not None and outer:
        lists = _cap(lists | extra)
    return Ty(t.scalars, lists, inner[1], t.top, inner[2])


# -- inference over a program -------------------------------------------------


@dataclass
class _Scope:
    """A function body (or the top level): which names are its own."""

    craft: s.Craft | None
    names: set[str] = field(default_factory=set)


def _assigned(body: tuple[s.Stmt, ...]) -> set[str]:
    """Names a body makes local: SET targets, loop names, nested CRAFTs."""
    out: set[str] = set()
    stack = list(body)
    while stack:
        st = stack.pop()
        if isinstance(st, s.Set):
            out.update(st.targets)
        elif isinstance(st, s.Sweep):
            out.update(st.names)
            stack.extend(st.body)
        elif isinstance(st, s.While):
            stack.extend(st.body)
        elif isinstance(st, s.If):
            for _, b in st.branches:
                stack.extend(b)
            stack.extend(st.default or ())
        elif isinstance(st, s.Craft):
            out.add(st.name)
    return out


class Types:
    """The inferred types of one program (plus example code around it).

    `of(expr)` gives the type of an expression node of the program or of
    the examples, as computed at the fixpoint.
    """

    def __init__(
        self,
        programs: list[s.Program],
        closed: bool,
        given: dict[str, tuple[Ty, ...]] | None = None,
        world_callers: bool = True,
    ) -> None:
        self.closed = closed
        self.world_callers = world_callers
        self.given = given or {}
        self.vars: dict[tuple[int, str], Ty] = {}
        self.returns: dict[int, Ty] = {}
        self.crafts: dict[str, list[s.Craft]] = {}
        self.escaping: set[str] = set()
        self.bound: set[str] = set()  # names bound other than by CRAFT: SET, SWEEP, parameters
        self.parent: dict[tuple, tuple] = {}  # alias classes of holders (union-find)
        self.stored: dict[tuple, Ty] = {}  # class root -> what was stored into its lists in place
        self.expr_types: dict[int, Ty] = {}
        # the scopes around each SWEEP and each in-place change, for may_change_walked
        self.scopes_at: dict[int, list[_Scope]] = {}
        self.scope_of_craft: dict[int, _Scope] = {}
        self.top = _Scope(None)
        bodies = [st for p in programs for st in p.body]
        self.outside_stmts = {id(st) for p in programs[1:] for st in p.body}
        self.outside = False
        self.top.names = _assigned(tuple(bodies))
        self._collect(tuple(bodies))
        self._keep: list[object] = list(programs)  # expression ids stay valid while we live
        self.converged = False
        for _ in range(MAX_ROUNDS):
            self.changed = False
            for st in bodies:
                self.outside = id(st) in self.outside_stmts
                self._stmt(st, [self.top])
            if not self.changed:
                self.converged = True
                break

    # structure ----------------------------------------------------------------

    def _collect(self, body: tuple[s.Stmt, ...]) -> None:
        stack: list[object] = list(body)
        while stack:
            node = stack.pop()
            if isinstance(node, s.Craft):
                self.crafts.setdefault(node.name, []).append(node)
                scope = _Scope(node, set(node.params) | _assigned(node.body))
                self.scope_of_craft[id(node)] = scope
                self.bound.update(node.params)
            elif isinstance(node, s.Set):
                self.bound.update(node.targets)
            elif isinstance(node, s.Sweep):
                self.bound.update(node.names)
            if isinstance(node, s.Call) and isinstance(node.func, s.Name):
                stack.extend(node.args)
                continue
            if isinstance(node, s.Name):
                self.escaping.add(node.id)
            stack.extend(s.children(node))

    def _key(self, name: str, scopes: list[_Scope]) -> tuple[int, str]:
        for scope in reversed(scopes):
            if name in scope.names:
                return (id(scope), name)
        return (id(self.top), name)

    def _update(self, key: tuple[int, str], t: Ty) -> None:
        old = self.vars.get(key, BOTTOM)
        new = old | t
        if new != old:
            self.vars[key] = new
            self.changed = True

    def _param_type(self, craft: s.Craft, index: int) -> Ty:
        if craft.name in self.given:
            return self.given[craft.name][index]
        if self._called_from_outside(craft):
            return TOP
        return self.vars.get((id(craft), f"#{index}"), BOTTOM)

    def _called_from_outside(self, craft: s.Craft) -> bool:
        return craft.name in self.given or not self.closed or craft.name in self.escaping

    # aliasing -----------------------------------------------------------------

    def _find(self, holder: tuple) -> tuple:
        root = holder
        while self.parent.get(root, root) != root:
            root = self.parent[root]
        while holder != root:
            following = self.parent[holder]
            self.parent[holder] = root
            holder = following
        return root

    def _alias(self, a: tuple, others: Iterable[tuple]) -> None:
        """The lists of `a` and of each of `others` may be the same lists."""
        for b in others:
            ra, rb = self._find(a), self._find(b)
            if ra == rb:
                continue
            self.parent[rb] = ra
            merged = self.stored.get(ra, BOTTOM) | self.stored.pop(rb, BOTTOM)
            self.stored[ra] = merged
            self.changed = True

    def _store(self, holders: Iterable[tuple], t: Ty) -> None:
        for h in holders:
            root = self._find(h)
            old = self.stored.get(root, BOTTOM)
            if (old | t) != old:
                self.stored[root] = old | t
                self.changed = True

    def _holders(self, e: s.Expr, scopes: list[_Scope]) -> set[tuple]:
        """The holders whose lists `e` may give (none: a new list, or no list)."""
        if isinstance(e, s.Name):
            key = self._key(e.id, scopes)
            if key[0] == id(self.top) and e.id not in self.top.names:
                return {HEAP}
            return {key}
        if isinstance(e, s.OpCall):
            if e.op in ("BOND", "RIFT"):
                return set().union(*(self._holders(a, scopes) for a in e.args))
            if e.op in ("NADIR", "APEX") and len(e.args) > 1:
                # of several values, the least (greatest) one itself: maybe a list
                return {HEAP}.union(*(self._holders(a, scopes) for a in e.args))
            return {HEAP} if e.op in ELEMENT_GIVERS else set()
        if isinstance(e, s.Call):
            crafts = self.crafts.get(e.func.id, []) if isinstance(e.func, s.Name) else []
            known = {("returns", id(c)) for c in crafts if len(c.params) == len(e.args)}
            return known if known and e.func.id not in self.bound else known | {HEAP}
        return set()

    def _heap_stored(self) -> Ty:
        return self.stored.get(self._find(HEAP), BOTTOM)

    # statements ---------------------------------------------------------------

    def _stmt(self, st: s.Stmt, scopes: list[_Scope]) -> None:
        if isinstance(st, s.Set):
            values = [self.expr(v, scopes) for v in st.values]
            if len(st.targets) == len(values):
                for name, t, v in zip(st.targets, values, st.values):
                    self._update(self._key(name, scopes), t)
                    self._alias(self._key(name, scopes), self._holders(v, scopes))
            else:
                for name in st.targets:
                    self._update(self._key(name, scopes), values[0].element())
                    self._alias(self._key(name, scopes), [HEAP])
        elif isinstance(st, s.ExprStmt):
            self.expr(st.expr, scopes)
        elif isinstance(st, s.If):
            for cond, body in st.branches:
                self.expr(cond, scopes)
                for inner in body:
                    self._stmt(inner, scopes)
            for inner in st.default or ():
                self._stmt(inner, scopes)
        elif isinstance(st, s.Sweep):
            self.scopes_at[id(st)] = scopes
            walked = self.expr(st.iterable, scopes)
            self._bind_loop(st, walked, scopes)
            for inner in st.body:
                self._stmt(inner, scopes)
        elif isinstance(st, s.While):
            self.expr(st.cond, scopes)
            for inner in st.body:
                self._stmt(inner, scopes)
        elif isinstance(st, s.Craft):
            self._update(self._key(st.name, scopes), FUNC)
            scope = self.scope_of_craft[id(st)]
            for k, p in enumerate(st.params):
                self._update((id(scope), p), self._param_type(st, k))
                if self._called_from_outside(st):
                    self._alias((id(scope), p), [HEAP])
            if self._called_from_outside(st):
                self._alias(("returns", id(st)), [HEAP])
            inner_scopes = [*scopes, scope]
            for inner in st.body:
                self._stmt(inner, inner_scopes)
            if not st.body or not isinstance(st.body[-1], s.Deliver):
                self._returns(st, NONE)
        elif isinstance(st, s.Deliver):
            craft = next((sc.craft for sc in reversed(scopes) if sc.craft is not None), None)
            if craft is not None:
                self._returns(craft, self.expr(st.value, scopes) if st.value is not None else NONE)
                if st.value is not None:
                    self._alias(("returns", id(craft)), self._holders(st.value, scopes))

    def _returns(self, craft: s.Craft, t: Ty) -> None:
        old = self.returns.get(id(craft), BOTTOM)
        if (old | t) != old:
            self.returns[id(craft)] = old | t
            self.changed = True

    def _bind_loop(self, st: s.Sweep, walked: Ty, scopes: list[_Scope]) -> None:
        element = walked.element()
        keys = [self._key(n, scopes) for n in st.names]
        for key in keys:
            self._alias(key, [HEAP])
        if len(keys) == 1:
            self._update(keys[0], element)
            return
        it = st.iterable
        if isinstance(it, s.OpCall) and it.op == "INDEX" and len(it.args) == 1 and len(keys) == 2:
            self._update(keys[0], INT)
            self._update(keys[1], self._peek(it.args[0]).element())
        elif isinstance(it, s.OpCall) and it.op == "PAIR" and len(it.args) == 2 and len(keys) == 2:
            self._update(keys[0], self._peek(it.args[0]).element())
            self._update(keys[1], self._peek(it.args[1]).element())
        else:
            for key in keys:
                self._update(key, element.element())

    def _peek(self, e: s.Expr) -> Ty:
        return self.expr_types.get(id(e), TOP)

    # expressions --------------------------------------------------------------

    def expr(self, e: s.Expr, scopes: list[_Scope]) -> Ty:
        t = self._expr(e, scopes)
        heap = self._heap_stored()
        holders = self._holders(e, scopes)
        for h in holders:
            t = widened(t, self.stored.get(self._find(h), BOTTOM))
        t = heapified(t, heap, outer=any(self._find(h) == self._find(HEAP) for h in holders))
        old = self.expr_types.get(id(e), BOTTOM)
        self.expr_types[id(e)] = old | t
        return old | t

    def _expr(self, e: s.Expr, scopes: list[_Scope]) -> Ty:
        if isinstance(e, s.IntLit):
            return INT
        if isinstance(e, s.FloatLit):
            return FLOAT
        if isinstance(e, s.StrLit):
            return STR
        if isinstance(e, s.BoolLit):
            return BOOL
        if isinstance(e, s.NoneLit):
            return NONE
        if isinstance(e, s.Name):
            key = self._key(e.id, scopes)
            if key[0] == id(self.top) and e.id not in self.top.names:
                return TOP  # defined by code we do not see
            return self.vars.get(key, BOTTOM)
        if isinstance(e, s.OpCall):
            args = [self.expr(a, scopes) for a in e.args]
            if e.op in STORES:
                positions = STORES[e.op] or range(len(e.args))
                for k in positions:
                    if k < len(e.args):
                        self._alias(HEAP, self._holders(e.args[k], scopes))
            if e.op in IN_PLACE:
                self.scopes_at[id(e)] = scopes
            if e.op in ("ANNEX", "IMPRINT") and len(e.args) in (2, 3):
                # The list changes in place: every list it may be sees the value.
                self._store(self._holders(e.args[0], scopes), args[-1])
            return operation_type(e.op, args, self.outside and self.world_callers)
        if isinstance(e, s.Call):
            args = [self.expr(a, scopes) for a in e.args]
            if isinstance(e.func, s.Name) and e.func.id in self.crafts:
                out = BOTTOM
                for craft in self.crafts[e.func.id]:
                    if len(craft.params) == len(args):
                        scope = self.scope_of_craft[id(craft)]
                        for k, (t, a) in enumerate(zip(args, e.args)):
                            self._update((id(craft), f"#{k}"), t)
                            self._alias((id(scope), craft.params[k]), self._holders(a, scopes))
                        out = out | self.returns.get(id(craft), BOTTOM)
                if e.func.id not in self.bound:
                    return out
                # also a parameter or a variable: it may hold any function at all
            self.expr(e.func, scopes)
            for a in e.args:
                # unknown code may keep, change or give back any list it is passed
                self._alias(HEAP, self._holders(a, scopes))
            return TOP
        return TOP

    def may_change_walked(self, st: s.Sweep, fresh: frozenset[str] = frozenset()) -> bool:
        """While `st` walks a list, its body may change that list in place:
        directly, through another name, an element or a parameter, or in a
        function it may call. A body that calls code not in view may change
        any list that ever reached code not in view (`HEAP`). A list the
        body changes by one of the names `fresh` at the loop (fresh.py) is
        never the walked list."""
        if not self.converged or id(st) not in self.scopes_at:
            return True
        walked = {self._find(h) for h in self._holders(st.iterable, self.scopes_at[id(st)])}
        if not walked:
            return False  # a new list (or no list): nothing else refers to it
        calls = False
        # (node, in the loop's own body rather than in a CRAFT it may call)
        stack: list[tuple[object, bool]] = [(b, True) for b in st.body]
        while stack:
            node, own = stack.pop()
            if isinstance(node, s.OpCall) and node.op in IN_PLACE and node.args:
                target = node.args[0]
                scopes = self.scopes_at.get(id(node))
                if scopes is None:
                    return True
                new = own and isinstance(target, s.Name) and target.id in fresh
                if not new and walked & {self._find(h) for h in self._holders(target, scopes)}:
                    return True
            if isinstance(node, s.Call) or (isinstance(node, s.OpCall) and node.op == "STRAIN"):
                if not calls:
                    calls = True
                    # Any function value may reach any call: every CRAFT in view may run.
                    stack.extend((c, False) for crafts in self.crafts.values() for c in crafts)
                callee = node.func if isinstance(node, s.Call) else (node.args or (None,))[0]
                if not self._in_view(callee) and self._find(HEAP) in walked:
                    return True
            inside = own and not isinstance(node, s.Craft)
            stack.extend((c, inside) for c in s.children(node))
        return False

    def _in_view(self, callee: s.Expr | None) -> bool:
        """`callee` is certainly one of the CRAFTs in view: the program is
        closed and it names a CRAFT, a name nothing else binds."""
        return (
            self.closed
            and isinstance(callee, s.Name)
            and callee.id in self.crafts
            and callee.id not in self.bound
        )

    def of(self, e: s.Expr) -> Ty:
        if not self.converged:
            return TOP
        return self.expr_types.get(id(e), TOP)


def infer(
    program: s.Program, examples: list[s.Program] | None, world_callers: bool = True
) -> Types:
    """Types of `program`; with `examples` (possibly empty), the program is
    closed: its functions are called only by itself and the examples.
    When the examples run in the world as written (`world_callers`), tuples
    they build with KNOT are read in KNOT's argument order."""
    return Types(
        [program, *(examples or [])], closed=examples is not None, world_callers=world_callers
    )
