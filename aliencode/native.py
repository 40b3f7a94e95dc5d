"""Guarded native code for trees of integer operations.

A call of a checked operator costs more than the arithmetic it guards. Where
an operation's operands are names, integer constants or other such
operations (`RESIDUE(SHATTER(total, PARE(i, 7)), 1000003)`), the compiler
emits both forms and a guard on the names the tree reads:

    (a_total + a_i * 7) % 1000003 if <guard> else _r_x25(_r_x2b(...), 1000003)

The guard asks, of each name in the order the checked code reads them, that
its value is an `int` (not a bool), within `LEAF` in magnitude where the
tree's arithmetic needs a bound, and not zero where it divides. Under the
guard the checked operators would take their plain integer path: no step
charged, no value held, no limit reached, no error (the bounds are checked
at compile time against the integer-size limit and against the checked
product's own fast range). So the native form computes the same value with
the same steps, census and verdict; when the guard fails, the checked code
runs as before. The guard only reads names, in the checked code's order: an
unset name raises the same NameError at the same position. Nothing is bound
to a temporary, so no frame holds a value it did not hold before (the memory
census walks the locals of generated frames).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable
from dataclasses import dataclass

LEAF = 1 << 62  # names larger than this in magnitude take the checked path
PRODUCT_OPERAND = 1 << 64  # the checked product's plain range (operators.py, `mul`)
INT_TYPE = "_int"  # the host's int, bound in every run's namespace
LENGTH = "_len"  # the host's len, likewise

_ARITHMETIC = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "%": ast.Mod, "//": ast.FloorDiv}
_COMPARE = {"==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, ">": ast.Gt, "<=": ast.LtE, ">=": ast.GtE}


@dataclass(frozen=True)
class Tree:
    """An integer operation tree: a leaf (a name or an integer constant) or
    an operator over trees; `checked` is its code without native forms."""

    checked: ast.expr
    op: str | None = None
    children: tuple[Tree, ...] = ()

    @property
    def leaf(self) -> bool:
        return self.op is None

    def magnitude(self) -> int:
        """A bound on the value's magnitude (exclusive), names within LEAF."""
        if self.leaf:
            return abs(self.checked.value) + 1 if _constant(self.checked) else LEAF
        left, right = self.children
        if self.op in ("+", "-"):
            return left.magnitude() + right.magnitude()
        if self.op == "*":
            return left.magnitude() * right.magnitude()
        if self.op == "%":
            return right.magnitude()
        return left.magnitude() + 1  # "//" by a non-zero integer


@dataclass
class _Need:
    """What the guard asks of one name."""

    node: ast.Name
    bounded: bool = False
    nonzero: bool = False


def _constant(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def _located(node: ast.expr, like: ast.expr) -> ast.expr:
    for attr in ("lineno", "col_offset"):  # the start only: see host_locations.py
        if hasattr(like, attr):
            setattr(node, attr, getattr(like, attr))
    return node


class NativeTrees:
    """The trees of one compilation, found as the compiler builds operations
    bottom-up (`guarded` is given each operation's operand code)."""

    def __init__(self, bound: int) -> None:
        self.bound = bound  # integers lie strictly within ±bound
        self._trees: dict[int, tuple[ast.expr, Tree]] = {}
        # Names that certainly hold an integer within LEAF where the
        # operation being built stands (the compiler's Context.ints): a guard
        # asks nothing of them but, as a divisor, that they are not zero.
        self.known: frozenset[str] = frozenset()
        # Names known to hold a number at least this, or NaN (the compiler's
        # Context.floors): subtracting a positive constant needs no check.
        self.floors: dict[str, int | float] = {}
        # the native sums built, for a DELIVER of one (`sum_return`)
        self.sums: dict[int, tuple[ast.expr, str, ast.expr, ast.expr]] = {}

    def returned_sum(self, value: ast.expr) -> list[ast.stmt] | None:
        """DELIVER of `value` as statements, when it is a native sum."""
        found = self.sums.get(id(value))
        if found is None or found[0] is not value:
            return None
        _, op, left, right = found
        return sum_return(op, left, right, self.bound, value)

    def _tree(self, node: ast.expr) -> Tree | None:
        found = self._trees.get(id(node))
        if found is not None and found[0] is node:
            tree = found[1]
            # The compiler stamps the operation's position on the code it was
            # given; the checked code a larger tree takes in must keep it.
            if not hasattr(tree.checked, "lineno"):
                _located(tree.checked, node)
            return tree
        if _constant(node) or (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)):
            return Tree(node)
        return None

    def guarded(
        self, op: str, args: list[ast.expr], checked: Callable[[list[ast.expr]], ast.expr]
    ) -> ast.expr:
        """Host code of `op` over `args`: `checked(args)`, or a guarded native
        form when `op` and its operands make an integer tree."""
        if op == "-" and len(args) == 2:
            difference = self._above_floor(*args)
            if difference is not None:
                return difference
        default = checked(args)
        if op == "get" and len(args) == 2:
            return subscript_form(args[0], args[1], default, self.known)
        if op == "len" and len(args) == 1:
            return length_form(args[0], default)
        if len(args) != 2 or (op not in _ARITHMETIC and op not in _COMPARE):
            return default
        left, right = (self._tree(a) for a in args)
        if left is None or right is None or not self._fits(op, left, right):
            if NATIVE_SUMS and op in _ARITHMETIC_SUM and isinstance(default, ast.Call):
                node = sum_form(op, args[0], args[1], self.bound)
                self.sums[id(node)] = (node, op, args[0], args[1])
                return node
            return default
        if not isinstance(default, ast.Call):
            # Already native. A division by a constant is a tree a larger one
            # can take in as it is; a sum with a constant is not: it binds `_t`
            # (inline.py), which a census sees in a function's frame, and its
            # native form would not.
            if isinstance(default, ast.BinOp):
                self._trees[id(default)] = (default, Tree(default, op, (left, right)))
            return default
        tree = Tree(checked([left.checked, right.checked]), op, (left, right))
        needs: dict[str, _Need] = {}
        self._needs(tree, False, needs)
        if not needs:
            return default
        tests = _guard(needs.values(), self.known)
        native = _native(tree) if not tests else ast.IfExp(_all(tests), _native(tree), tree.checked)
        if op in _ARITHMETIC:
            self._trees[id(native)] = (native, tree)
        return native

    def _above_floor(self, left: ast.expr, right: ast.expr) -> ast.expr | None:
        """`_t := left - right` when `left` is a name holding a number at
        least its floor (or NaN) and `right` a positive constant leaving the
        difference above -ONE_DIGIT: the checked sum (inline.py) would take
        its plain path and bind the same `_t` (NaN goes through `_beyond`,
        which gives it back untouched)."""
        if not (isinstance(left, ast.Name) and left.id in self.floors):
            return None
        if not (isinstance(right, ast.Constant) and type(right.value) in (int, float)):
            return None
        if not (right.value > 0 and self.floors[left.id] - right.value >= -ONE_DIGIT):
            return None
        difference = ast.BinOp(_located(ast.Name(left.id, ast.Load()), left), ast.Sub(), right)
        return ast.NamedExpr(ast.Name("_t", ast.Store()), difference)

    def _fits(self, op: str, left: Tree, right: Tree) -> bool:
        """Whether the checked operator's plain integer path is certain for
        any operands within the trees' bounds."""
        if op in ("+", "-"):
            return left.magnitude() + right.magnitude() <= self.bound
        if op == "*":
            return left.magnitude() <= PRODUCT_OPERAND and right.magnitude() <= PRODUCT_OPERAND
        if op in ("%", "//"):
            divisor = right.checked
            return right.leaf and (not _constant(divisor) or divisor.value != 0)
        return True  # a comparison of two integers

    def _needs(self, tree: Tree, bounded: bool, needs: dict[str, _Need]) -> None:
        """Collect, in evaluation order, what the guard asks of each name;
        `bounded`: whether the tree's magnitude matters to its parent."""
        if tree.leaf:
            node = tree.checked
            if isinstance(node, ast.Name):
                need = needs.setdefault(node.id, _Need(node))
                need.bounded |= bounded
            return
        left, right = tree.children
        if tree.op in ("+", "-", "*"):
            self._needs(left, True, needs)
            self._needs(right, True, needs)
        elif tree.op in ("%", "//"):
            self._needs(left, bounded and tree.op == "//", needs)
            self._needs(right, bounded, needs)
            if isinstance(right.checked, ast.Name):
                needs[right.checked.id].nonzero = True
        else:
            self._needs(left, False, needs)
            self._needs(right, False, needs)


# `+` and `-` of two values neither of which is a tree (a call's result, an
# element read): the host computes the sum, and only a small integer result
# skips the checked operator's remaining work (`_sum_rest`, operations.py),
# which is all `add` and `sub` do after the host's own sum. A host TypeError
# or OverflowError is reported at the operation as theirs is (runtime.py).
# The result waits in `SUM`, a local the memory census leaves out
# (runtime.py): it stays bound only to a small integer, which no census
# could count and no held value is, because the other results are handed on
# as the temporary is cleared. So a census sees what it saw when the
# checked operator held the result in its own frame.
SUM, SUM_REST = "_s", "_sum_rest"
# A host TypeError in a native sum is told from others by the bytecode that
# follows it (runtime.py, `_in_native_sum`), a layout checked on Python 3.11
# only: elsewhere every sum goes through the checked operator, which gives
# the same output, error, steps and census by construction.
NATIVE_SUMS = sys.version_info[:2] == (3, 11)
_ARITHMETIC_SUM = ("+", "-")
ONE_DIGIT = (1 << 30) - 1  # the host compares integers this small in one instruction


def _held() -> ast.expr:
    return ast.Name(SUM, ast.Load())


def _held_within(bound: int) -> list[ast.expr]:
    """`_s <= K` and `_s >= -K`, K the smaller of one host digit and the
    integer-size limit."""
    small = min(ONE_DIGIT, bound - 1)
    return [
        ast.Compare(_held(), [ast.LtE()], [ast.Constant(small)]),
        ast.Compare(_held(), [ast.GtE()], [ast.Constant(-small)]),
    ]


def _rest_of_sum() -> ast.expr:
    """`_sum_rest(_s, _s := None)`: the checked operator's work after its sum."""
    cleared = ast.NamedExpr(ast.Name(SUM, ast.Store()), ast.Constant(None))
    return ast.Call(ast.Name(SUM_REST, ast.Load()), [_held(), cleared], [])


def sum_form(op: str, left: ast.expr, right: ast.expr, bound: int) -> ast.expr:
    """`_s if (_s := left op right).__class__ is _int and -K <= _s <= K
    else _sum_rest(_s, _s := None)`, K as in `_held_within`."""
    total = ast.NamedExpr(ast.Name(SUM, ast.Store()), ast.BinOp(left, _ARITHMETIC[op](), right))
    kind = ast.Attribute(total, "__class__", ast.Load())
    is_int = ast.Compare(kind, [ast.Is()], [ast.Name(INT_TYPE, ast.Load())])
    guard = ast.BoolOp(ast.And(), [is_int, *_held_within(bound)])
    return ast.IfExp(guard, _held(), _rest_of_sum())


TYPE_ERROR = "_TypeError"  # the host's TypeError, bound in every run's namespace


def sum_return(
    op: str, left: ast.expr, right: ast.expr, bound: int, at: ast.expr
) -> list[ast.stmt]:
    """DELIVER of a native sum, positioned as `at`: the same tests as
    `sum_form` but the class test, which the host's comparison makes itself
    by raising a TypeError for a sequence (a float may pass: `_sum_rest`
    gives it back untouched)::

        _s = left op right
        try:
            if _s <= K and _s >= -K:
                return _s
        except _TypeError:
            pass
        return _sum_rest(_s, _s := None)
    """
    total = ast.Assign([ast.Name(SUM, ast.Store())], ast.BinOp(left, _ARITHMETIC[op](), right))
    within = ast.BoolOp(ast.And(), _held_within(bound))
    handler = ast.ExceptHandler(ast.Name(TYPE_ERROR, ast.Load()), None, [ast.Pass()])
    attempt = ast.Try([ast.If(within, [ast.Return(_held())], [])], [handler], [], [])
    rest = ast.Return(_rest_of_sum())
    return [_located(node, at) for node in (total, attempt, rest)]


def _native(tree: Tree) -> ast.expr:
    if tree.leaf:
        node = tree.checked
        if isinstance(node, ast.Name):
            return _located(ast.Name(node.id, ast.Load()), node)
        return ast.Constant(node.value)
    left, right = (_native(child) for child in tree.children)
    if tree.op in _ARITHMETIC:
        return ast.BinOp(left, _ARITHMETIC[tree.op](), right)
    return ast.Compare(left, [_COMPARE[tree.op]()], [right])


# The guard's bound on a name: within LEAF, tested as one host digit (the
# host compares such integers with one specialized instruction, a constant
# beyond it the generic way, a tenth of an iteration of a counting loop).
# A larger integer takes the checked path, which is always faithful.
GUARD_BOUND = min(LEAF - 1, ONE_DIGIT)


def _guard(needs, known: frozenset[str]) -> list[ast.expr]:
    """The tests of a guard, in evaluation order (none: the native form
    needs no guard)."""
    tests: list[ast.expr] = []
    for need in needs:

        def name(need: _Need = need) -> ast.expr:
            return _located(ast.Name(need.node.id, ast.Load()), need.node)

        if need.node.id not in known:
            kind = ast.Attribute(name(), "__class__", ast.Load())
            tests.append(ast.Compare(kind, [ast.Is()], [ast.Name(INT_TYPE, ast.Load())]))
            if need.bounded:
                tests.append(ast.Compare(name(), [ast.LtE()], [ast.Constant(GUARD_BOUND)]))
                tests.append(ast.Compare(name(), [ast.GtE()], [ast.Constant(-GUARD_BOUND)]))
        if need.nonzero:
            tests.append(name())
    return tests


def _all(tests: list[ast.expr]) -> ast.expr:
    return tests[0] if len(tests) == 1 else ast.BoolOp(ast.And(), tests)


# PLUCK and GAUGE of a name holding a list, tuple or string (and, for PLUCK,
# an integer position) read it natively: `get` and `len` would charge nothing
# and hold nothing there. A position out of range raises the host's
# IndexError at the operation's position, which the runtime reports as `get`
# does (runtime.py).
SEQUENCE_TYPES = "_seqs"  # frozenset({list, tuple, str}), bound in every run's namespace


def _sequence_test(node: ast.expr) -> ast.expr | None:
    """The guard that `node` (a name or constant) holds a sequence; None when
    it is a sequence constant (no guard needed)."""
    if isinstance(node, ast.Constant):
        return None
    kind = ast.Attribute(_located(ast.Name(node.id, ast.Load()), node), "__class__", ast.Load())
    return ast.Compare(kind, [ast.In()], [ast.Name(SEQUENCE_TYPES, ast.Load())])


def _readable(node: ast.expr, kinds: tuple[type, ...]) -> bool:
    """A name (read twice: in the guard, then natively) or a constant of `kinds`."""
    if isinstance(node, ast.Constant):
        return type(node.value) in kinds
    return isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)


def subscript_form(
    seq: ast.expr, index: ast.expr, checked: ast.expr, known: frozenset[str] = frozenset()
) -> ast.expr:
    """`seq[index]` under a guard that `seq` holds a sequence and `index` an
    integer (unless `known` says so), else `checked` (itself when the
    operands are not names or constants of those types)."""
    if not _readable(seq, (str, tuple)) or not _readable(index, (int,)):
        return checked
    tests = [t for t in (_sequence_test(seq),) if t is not None]
    if isinstance(index, ast.Name) and index.id not in known:
        name = _located(ast.Name(index.id, ast.Load()), index)
        kind = ast.Attribute(name, "__class__", ast.Load())
        tests.append(ast.Compare(kind, [ast.Is()], [ast.Name(INT_TYPE, ast.Load())]))
    native = ast.Subscript(_copy(seq), _copy(index), ast.Load())
    if not tests:
        # a sequence constant read at a known integer needs no guard
        return native if isinstance(index, ast.Name) else checked
    return ast.IfExp(_all(tests), native, checked)


def length_form(seq: ast.expr, checked: ast.expr) -> ast.expr:
    """`len(seq)` under a guard that the name `seq` holds a sequence, else `checked`."""
    if not isinstance(seq, ast.Name) or not isinstance(seq.ctx, ast.Load):
        return checked
    native = ast.Call(ast.Name(LENGTH, ast.Load()), [_copy(seq)], [])
    return ast.IfExp(_sequence_test(seq), native, checked)


# ANNEX(name, value) appends natively when the name holds a list with room;
# `value` must not be able to change that list's length, so it may only
# read names and call the operators that build new values.
LIST_TYPE, MAX_LENGTH = "_list", "_MAXLEN"
APPEND_VALUE_NODES = 64  # the value is compiled twice: only a small one
_PURE_NODES = (
    ast.Name,
    ast.Constant,
    ast.BinOp,
    ast.Compare,
    ast.BoolOp,
    ast.UnaryOp,
    ast.IfExp,
    ast.List,
    ast.Tuple,
    ast.Subscript,
    ast.Load,
    ast.Store,
    ast.operator,
    ast.cmpop,
    ast.boolop,
    ast.unaryop,
)
# Helpers that call no program function and change no list in place.
_PURE_HELPERS = frozenset(
    {"_beyond", SUM_REST, "_s_FUSE", "_s_FUSE2", "_s_NADIR", "_s_APEX", "_fail", LENGTH}
)


def _pure(value: ast.expr) -> bool:
    nodes = list(ast.walk(value))
    if len(nodes) > APPEND_VALUE_NODES:
        return False
    for node in nodes:
        if isinstance(node, ast.Call):
            func = node.func
            if not (
                isinstance(func, ast.Name)
                and (
                    func.id in _PURE_HELPERS
                    or (func.id.startswith("_r_") and func.id != "_r_filter")
                )
                and not node.keywords
            ):
                return False
        elif isinstance(node, ast.Attribute):
            if node.attr != "__class__":
                return False
        elif isinstance(node, ast.NamedExpr):
            if node.target.id not in ("_t", SUM):
                return False
        elif isinstance(node, ast.Name):
            if not isinstance(node.ctx, (ast.Load, ast.Store)):
                return False
        elif not isinstance(node, _PURE_NODES):
            return False
    return True


def append_form(seq: ast.expr, value: ast.expr, checked: ast.expr) -> ast.expr:
    """`seq.append(value)` under a guard that `_s_ANNEX` would append
    (a list below the length limit), else `checked`; `checked` itself when
    `value` could change a list's length or is large."""
    if not isinstance(seq, ast.Name) or not _pure(value):
        return checked

    def name() -> ast.expr:
        return _located(ast.Name(seq.id, ast.Load()), seq)

    kind = ast.Attribute(name(), "__class__", ast.Load())
    length = ast.Call(ast.Name(LENGTH, ast.Load()), [name()], [])
    guard = ast.BoolOp(
        ast.And(),
        [
            ast.Compare(kind, [ast.Is()], [ast.Name(LIST_TYPE, ast.Load())]),
            ast.Compare(length, [ast.Lt()], [ast.Name(MAX_LENGTH, ast.Load())]),
        ],
    )
    append = ast.Call(ast.Attribute(name(), "append", ast.Load()), [_copy(value)], [])
    return ast.IfExp(guard, append, checked)


# ANNEX as a statement needs no guard before appending: `seq.append` fails
# with the host's AttributeError for anything but a list, before `value` is
# evaluated, and the checked helper then reports it; a list the append took
# beyond the length limit loses the element again, and the limit is
# reported (`_annex_over`, operations.py), as the checked helper would have.
ATTRIBUTE_ERROR, OVER_LENGTH = "_AttributeError", "_annex_over"


def append_statements(seq: ast.expr, value: ast.expr, checked: ast.expr) -> list[ast.stmt] | None:
    """ANNEX(seq, value) standing as a statement, natively: None where
    `append_form` would keep `checked`."""
    if not isinstance(seq, ast.Name) or not _pure(value):
        return None

    def name() -> ast.expr:
        return _located(ast.Name(seq.id, ast.Load()), seq)

    append = ast.Call(ast.Attribute(name(), "append", ast.Load()), [_copy(value)], [])
    handler = ast.ExceptHandler(ast.Name(ATTRIBUTE_ERROR, ast.Load()), None, [ast.Expr(checked)])
    length = ast.Call(ast.Name(LENGTH, ast.Load()), [name()], [])
    too_long = ast.Compare(length, [ast.Gt()], [ast.Name(MAX_LENGTH, ast.Load())])
    undo = ast.Expr(ast.Call(ast.Name(OVER_LENGTH, ast.Load()), [name()], []))
    return [ast.Try([ast.Expr(append)], [handler], [], []), ast.If(too_long, [undo], [])]


def _copy(node: ast.expr) -> ast.expr:
    """A deep copy keeping positions (a node may not appear twice in a tree)."""
    copied = type(node)(**{k: _copy_field(v) for k, v in ast.iter_fields(node)})
    return _located(copied, node)


def _copy_field(value: object) -> object:
    if isinstance(value, ast.expr):
        return _copy(value)
    if isinstance(value, ast.AST):
        return type(value)(**{k: _copy_field(v) for k, v in ast.iter_fields(value)})
    if isinstance(value, list):
        return [_copy_field(v) for v in value]
    return value
