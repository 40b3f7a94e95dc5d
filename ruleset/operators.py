"""The operators of the rule-expression language, with Python's semantics.

`make_operators(meter)` builds the operator table for one run: every operator
checks its operands and the meter's limits *before* doing work that could be
large (a huge power, a long repetition), charges steps for work proportional
to a sequence's size, and raises LanguageError (never a host exception) on bad
operands. Interpreters reuse these functions as the standard semantics of
their own operations, so a world's rule and the manual's meaning run the same
code.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import cmp_to_key

from .errors import (
    LanguageError,
    LimitExceeded,
    index_error,
    type_error,
    value_error,
    zero_division,
)
from .limits import Meter
from .memory import size
from .text import CHARS_PER_STEP, TextTooLong, render, type_name

SEQUENCES = (list, tuple, str)

# name -> (min arguments, max arguments or None for any). `and`, `or` and
# `if` are compiled to short-circuit code and have no function here.
ARITY: dict[str, tuple[int, int | None]] = {
    "+": (2, 2),
    "-": (2, 2),
    "*": (2, 2),
    "/": (2, 2),
    "//": (2, 2),
    "%": (2, 2),
    "**": (2, 2),
    "^": (2, 2),
    "neg": (1, 1),
    "abs": (1, 1),
    "==": (2, 2),
    "!=": (2, 2),
    ">": (2, 2),
    "<": (2, 2),
    ">=": (2, 2),
    "<=": (2, 2),
    "and": (2, None),
    "or": (2, None),
    "not": (1, 1),
    "if": (3, 3),
    "get": (2, 2),
    "slice": (2, 3),
    "len": (1, 1),
    "reverse": (1, 1),
    "concat": (2, 2),
    "prepend": (2, 2),
    "append": (2, 2),
    "pop_left": (1, 1),
    "pop_right": (1, 1),
    "range": (1, 2),
    "zip": (2, 2),
    "enumerate": (1, 1),
    "filter": (2, 2),
    "sort_asc": (1, 1),
    "sort_desc": (1, 1),
    "max": (1, None),
    "min": (1, None),
    "sum": (1, 1),
    "any": (1, 1),
    "all": (1, 1),
    "str": (1, 1),
    "join": (2, 2),
    "list": (1, 1),
    "tuple": (1, 1),
    "set": (3, 3),
}

_ONE_ARGUMENT = object()  # `(range n)`: distinct from an explicit none
_NUMBERS = frozenset({int, float, bool})
_PAIR = size((0, 0))  # a new pair (tuple of two)
_CHAR = size("\u0100")  # a new one-character string
_STRINGS = frozenset({str})
_SMALL = 1 << 64


def _new_chars(seq: object, n: int | None = None) -> int:
    """Units of the one-character strings made by taking `n` (default: all)
    characters out of `seq` one by one: each is a new host object unless the
    host shares it (Latin-1), so only an ASCII string makes nothing new."""
    if type(seq) is not str or seq.isascii():
        return 0
    return (len(seq) if n is None else n) * _CHAR


def _is_num(v: object) -> bool:
    return type(v) in (int, float, bool)


def make_operators(meter: Meter) -> dict[str, Callable[..., object]]:
    limits = meter.limits
    big = 1 << limits.max_int_bits
    neg_big = -big
    small, neg_small = _SMALL, -_SMALL
    # Factors below `half` in magnitude have a product below `big`.
    half = 1 << (limits.max_int_bits // 2)
    neg_half = -half
    max_len = limits.max_length
    max_nesting = limits.max_nesting
    charge = meter.charge
    hold = meter.hold

    def int_limit() -> LimitExceeded:
        return LimitExceeded(f"integer size of {limits.max_int_bits} bits")

    def len_limit() -> LimitExceeded:
        return LimitExceeded(f"sequence length of {max_len}")

    def checked(r: object, fresh: int = 0) -> object:
        """`r` within the size limits, charged and, when large, held for the
        memory census (`fresh`: units of the new values `r` holds)."""
        cls = type(r)
        if cls is int:
            if r >= big or r <= neg_big:
                raise int_limit()
        elif cls is list or cls is tuple or cls is str:
            n = len(r)
            if n > max_len:
                raise len_limit()
            if n > 64:
                charge(n >> 2)
                hold(r, size(r) + fresh)
            elif fresh:
                hold(r, size(r) + fresh)
        return r

    # Messages never name the rule operator or show computed values: an
    # interpreter prefixes its own operation's name, and a world's rule must
    # not leak through an error message.
    def charge_bits(x) -> None:
        # Work on big integers grows with their size (about quadratically for
        # products and divisions); one step per 64 bits beyond the first 64.
        if x.__class__ is int and not neg_small < x < small:
            charge(x.bit_length() >> 6)

    def operands(op: str, *vals: object) -> LanguageError:
        names = " and ".join(type_name(v) for v in vals)
        return type_error(f"unsupported operand types: {names}")

    def too_large_for_float() -> LanguageError:
        # Mixing a float with an integer beyond the float range.
        return LanguageError("OverflowError", "integer too large to convert to a float")

    # -- arithmetic ---------------------------------------------------------

    def add(a, b):
        try:
            r = a + b
        except TypeError:
            raise operands("+", a, b) from None
        except OverflowError:
            raise too_large_for_float() from None
        cls = r.__class__
        if cls is int:
            if neg_big < r < big:
                return r
            raise int_limit()
        if cls is float:
            return r
        return checked(r)

    def sub(a, b):
        # Only numbers support `-` among the language's values.
        try:
            r = a - b
        except TypeError:
            raise operands("-", a, b) from None
        except OverflowError:
            raise too_large_for_float() from None
        if r.__class__ is int and not neg_big < r < big:
            raise int_limit()
        return r

    def mul(a, b):
        ca, cb = a.__class__, b.__class__
        if ca is int and cb is int:
            if neg_small < a < small and neg_small < b < small:
                return a * b
            if neg_half < a < half and neg_half < b < half:
                charge_bits(a)
                charge_bits(b)
                return a * b
            if a.bit_length() + b.bit_length() > limits.max_int_bits + 1:
                raise int_limit()
            r = a * b
            if neg_big < r < big:
                return r
            raise int_limit()
        if _is_num(a) and _is_num(b):
            try:
                return checked(a * b)  # a float or a bool is involved
            except OverflowError:
                raise too_large_for_float() from None
        if (ca in SEQUENCES and (cb is int or cb is bool)) or (
            cb in SEQUENCES and (ca is int or ca is bool)
        ):
            seq, n = (a, b) if ca in SEQUENCES else (b, a)
            if n > 0 and len(seq) * n > max_len:
                raise len_limit()
            try:
                return checked(seq * n)
            except OverflowError:  # Python's own refusal of a count beyond its index type
                raise LanguageError("OverflowError", "repetition count too large") from None
        raise operands("*", a, b)

    def truediv(a, b):
        if not (_is_num(a) and _is_num(b)):
            raise operands("/", a, b)
        if not b:
            raise zero_division("division by zero")
        try:
            return a / b
        except OverflowError:
            raise LanguageError(
                "OverflowError", "integer division result too large for a float"
            ) from None

    # Divisions of integers within the size limit cost at most a few
    # microseconds, which the step of their expression node covers.
    def floordiv(a, b):
        # Only numbers support `//` among the language's values.
        try:
            return a // b
        except TypeError:
            raise operands("//", a, b) from None
        except ZeroDivisionError:
            raise zero_division("integer division or modulo by zero") from None
        except OverflowError:
            raise too_large_for_float() from None

    def mod(a, b):
        if a.__class__ is str:  # Python's `%` would format the string
            raise operands("%", a, b)
        try:
            return a % b
        except TypeError:
            raise operands("%", a, b) from None
        except ZeroDivisionError:
            raise zero_division("integer division or modulo by zero") from None
        except OverflowError:
            raise too_large_for_float() from None

    def power(a, b):
        if not (_is_num(a) and _is_num(b)):
            raise operands("**", a, b)
        if a.__class__ is not float and b.__class__ is not float and b >= 0:
            # a**b has more than b*(bits(a)-1) bits: refuse before computing
            if abs(a) > 1 and b * (a.bit_length() - 1) > limits.max_int_bits:
                raise int_limit()
            return checked(a**b)
        try:
            r = a**b
        except ZeroDivisionError:
            raise zero_division("0 cannot be raised to a negative power") from None
        except OverflowError:
            raise LanguageError("OverflowError", "numeric result out of range") from None
        if r.__class__ is complex:
            raise value_error("negative number cannot be raised to a fractional power")
        return r

    def xor(a, b):
        if type(a) not in (int, bool) or type(b) not in (int, bool):
            raise operands("^", a, b)
        return a ^ b

    def neg(a):
        if not _is_num(a):
            raise type_error(f"bad operand type: {type_name(a)}")
        return -a

    def absolute(a):
        if not _is_num(a):
            raise type_error(f"bad operand type: {type_name(a)}")
        return abs(a)

    # -- comparison ---------------------------------------------------------

    # Container comparisons are iterative (no host recursion, whatever the
    # nesting), charge steps for every container and long string visited,
    # and refuse nesting deeper than max_nesting.
    def charge_text(x) -> None:
        if x.__class__ is str and len(x) > 256:
            charge(len(x) >> 8)

    def deep_equal(a, b) -> bool:
        stack = [(a, b, 0)]
        while stack:
            x, y, depth = stack.pop()
            if x is y:
                continue
            cx, cy = x.__class__, y.__class__
            if (cx is list and cy is list) or (cx is tuple and cy is tuple):
                if len(x) != len(y):
                    return False
                if depth >= max_nesting:
                    raise LimitExceeded("nesting depth")
                charge(4 + 2 * len(x))  # each element visited is a step of host work
                stack.extend((p, q, depth + 1) for p, q in zip(x, y))
            elif cx is list or cx is tuple or cy is list or cy is tuple:
                return False
            else:
                charge_text(x)
                if not x == y:
                    return False
        return True

    def eq(a, b):
        ca = a.__class__
        if ca is list or ca is tuple:
            return deep_equal(a, b)
        if ca is str and len(a) > 256:
            charge_text(a)
        return a == b

    def ne(a, b):
        return not eq(a, b)

    def compare_scalars(x, y) -> int:
        charge_text(x)
        try:
            return (x > y) - (x < y)
        except TypeError:
            raise type_error(f"cannot compare {type_name(x)} and {type_name(y)}") from None

    def compare(a, b, op: str, depth: int = 0) -> int:
        """-1, 0 or 1 with Python's ordering (lexicographic for sequences:
        the first differing element decides); TypeError where Python has none."""
        ca, cb = a.__class__, b.__class__
        if not ((ca is list and cb is list) or (ca is tuple and cb is tuple)):
            if ca in (list, tuple) or cb in (list, tuple):
                raise type_error(f"cannot compare {type_name(a)} and {type_name(b)}")
            charge(1)  # a sort of mixed scalars may compare n·log n times before it fails
            return compare_scalars(a, b)
        frames = [[a, b, 0]]
        charge(4)
        while frames:
            frame = frames[-1]
            xs, ys, i = frame
            if i >= len(xs) or i >= len(ys):
                result = (len(xs) > len(ys)) - (len(xs) < len(ys))
                frames.pop()
                if result or not frames:
                    return result
                frames[-1][2] += 1
                continue
            x, y = xs[i], ys[i]
            cx, cy = x.__class__, y.__class__
            charge(2)
            if x is y:
                frame[2] += 1
            elif (cx is list and cy is list) or (cx is tuple and cy is tuple):
                if len(frames) >= max_nesting:
                    raise LimitExceeded("nesting depth")
                charge(4)
                frames.append([x, y, 0])
            elif cx in (list, tuple) or cy in (list, tuple):
                raise type_error(f"cannot compare {type_name(x)} and {type_name(y)}")
            elif x == y:
                charge_text(x)
                frame[2] += 1
            else:
                return compare_scalars(x, y)
        return 0

    # Scalars compare natively (Python refuses mixed types with TypeError);
    # containers go through `compare`, which charges steps and bounds depth.
    def ordering(native: Callable[[object, object], bool], accept: Callable[[int], bool]):
        def order(a, b):
            ca = a.__class__
            if ca is list or ca is tuple:
                return accept(compare(a, b, "", 0))
            if ca is str and len(a) > 256:
                charge_text(a)
            try:
                return native(a, b)
            except TypeError:
                raise type_error(f"cannot compare {type_name(a)} and {type_name(b)}") from None

        return order

    gt = ordering(operator.gt, lambda c: c > 0)
    lt = ordering(operator.lt, lambda c: c < 0)
    ge = ordering(operator.ge, lambda c: c >= 0)
    le = ordering(operator.le, lambda c: c <= 0)

    def logical_not(a):
        return not a

    # -- sequences ----------------------------------------------------------

    def need_seq(op: str, seq: object) -> None:
        if type(seq) not in SEQUENCES:
            raise type_error(f"needs a list, tuple or string, not {type_name(seq)}")

    def need_index(op: str, i: object) -> None:
        if type(i) is not int and type(i) is not bool:
            raise type_error(f"positions must be integers, not {type_name(i)}")

    def get(seq, i):
        need_seq("get", seq)
        need_index("get", i)
        try:
            return seq[i]
        except IndexError:
            raise index_error("index out of range") from None

    def slice_(seq, lo, hi=None):
        need_seq("slice", seq)
        for bound in (lo, hi):
            if bound is not None:
                need_index("slice", bound)
        return checked(seq[lo:hi])

    def length(seq):
        need_seq("len", seq)
        return len(seq)

    def reverse(seq):
        need_seq("reverse", seq)
        return checked(seq[::-1])

    def concat(a, b):
        need_seq("concat", a)
        need_seq("concat", b)
        if type(a) is not type(b):
            raise operands("concat", a, b)
        return add(a, b)

    def prepend(seq, v):
        need_seq("prepend", seq)
        if type(seq) is str:
            if type(v) is not str:
                raise operands("prepend", seq, v)
            return add(v, seq)
        if len(seq) + 1 > max_len:
            raise len_limit()
        return checked(type(seq)((v, *seq)))

    def append(seq, v):
        need_seq("append", seq)
        if type(seq) is str:
            if type(v) is not str:
                raise operands("append", seq, v)
            return add(seq, v)
        if len(seq) + 1 > max_len:
            raise len_limit()
        return checked(type(seq)((*seq, v)))

    def pop_left(seq):
        need_seq("pop_left", seq)
        if not seq:
            raise index_error("pop from an empty sequence")
        return seq[0]

    def pop_right(seq):
        need_seq("pop_right", seq)
        if not seq:
            raise index_error("pop from an empty sequence")
        return seq[-1]

    def range_(lo, hi=_ONE_ARGUMENT):
        if hi is _ONE_ARGUMENT:
            lo, hi = 0, lo
        need_index("range", lo)
        need_index("range", hi)
        if hi - lo > max_len:
            raise len_limit()
        if hi - lo <= 0:
            return []
        # each element is a new integer: large ones cost more to make
        widest = max(abs(lo), abs(hi - 1))
        charge(((hi - lo) * (widest.bit_length() >> 6)) >> 6)
        return checked(list(range(lo, hi)), (hi - lo) * size(widest))

    # Building a pair per element costs more than copying a reference.
    def zip_(a, b):
        need_seq("zip", a)
        need_seq("zip", b)
        n = min(len(a), len(b))
        charge(n >> 1)
        return checked(list(zip(a, b)), n * _PAIR + _new_chars(a, n) + _new_chars(b, n))

    def enumerate_(seq):
        need_seq("enumerate", seq)
        n = len(seq)
        charge(n >> 1)
        return checked(list(enumerate(seq)), n * (_PAIR + size(n)) + _new_chars(seq))

    def filter_(pred, seq):
        if not callable(pred):
            raise type_error(f"needs a function, not {type_name(pred)}")
        need_seq("filter", seq)
        kept = [x for x in seq if pred(x)]
        return checked(kept, _new_chars(seq, len(kept)))

    def sort(seq, descending: bool, op: str):
        need_seq(op, seq)
        items = list(seq)
        n = len(items)
        charge(1 + (n * max(1, n.bit_length()) >> 4))
        kinds = set(map(type, items))
        if kinds <= _NUMBERS:
            # NaN included: a sort asks only `x < y`, which for numbers is
            # what `compare` decides (NaN is neither below nor above), so the
            # native order is the same, at native speed.
            items.sort(reverse=descending)
        elif kinds == _STRINGS:
            longest = max(map(len, items), default=0)
            charge(
                (n * max(1, n.bit_length()) * longest) >> 8
            )  # each comparison may read a whole string
            items.sort(reverse=descending)
        else:
            # every comparison is charged: containers per element, scalars one step
            items.sort(key=cmp_to_key(lambda x, y: compare(x, y, op, 0)), reverse=descending)
        return checked(items, _new_chars(seq))

    def sort_asc(seq):
        return sort(seq, False, "sort_asc")

    def sort_desc(seq):
        return sort(seq, True, "sort_desc")

    def extreme(op: str, args: tuple, sign: int):
        if len(args) == 1:
            if type(args[0]) not in SEQUENCES:
                raise type_error(
                    f"needs one sequence or several values, not one {type_name(args[0])}"
                )
            items = args[0]
        else:
            items = args
        if not items:
            raise value_error("empty sequence")
        n = len(items)
        kinds = set(map(type, items))
        # Scalars of one ordering compare natively (the same first extreme as
        # the loop below); containers and mixtures go through `compare`.
        if kinds <= _NUMBERS or kinds == _STRINGS:
            charge(1 + (n >> 2) + (sum(map(len, items)) >> 8 if kinds == _STRINGS else 0))
            return max(items) if sign > 0 else min(items)
        charge(1 + n)
        best = items[0]
        for x in items[1:]:
            if compare(x, best, op, 0) * sign > 0:
                best = x
        return best

    def max_(*args):
        return extreme("max", args, 1)

    def min_(*args):
        return extreme("min", args, -1)

    def sum_(seq):
        need_seq("sum", seq)
        charge(1 + len(seq))
        total = 0
        for x in seq:
            total = add(total, x) if _is_num(x) else _bad_sum(x)
        return total

    def _bad_sum(x):
        raise type_error(f"needs numbers, not {type_name(x)}")

    def any_(seq):
        need_seq("any", seq)
        charge(len(seq) >> 4)
        return any(seq)

    def all_(seq):
        need_seq("all", seq)
        charge(len(seq) >> 4)
        return all(seq)

    def to_str(v):
        try:
            return checked(render(v, budget=max_len, max_nesting=max_nesting, charge=charge))
        except TextTooLong:
            raise len_limit() from None

    def join(sep, seq):
        if type(sep) is not str:
            raise type_error(f"the separator must be a string, not {type_name(sep)}")
        need_seq("join", seq)
        charge(len(seq) >> 1)
        # One budget for the whole result: no text is built beyond it.
        remaining = max_len + len(sep)
        texts = []
        gap = len(sep)
        try:
            for x in seq:
                remaining -= gap
                cls = x.__class__
                # A string or a small integer renders as `render` would (the
                # same budget check, a charge of nothing below CHARS_PER_STEP
                # characters) without its calls.
                if cls is str or (cls is int and neg_small < x < small):
                    text = x if cls is str else repr(x)
                    chars = len(text)
                    if chars > (remaining if remaining > 0 else 0):
                        raise TextTooLong()
                    if chars >= CHARS_PER_STEP:
                        charge(chars // CHARS_PER_STEP)
                else:
                    text = render(
                        x, budget=max(0, remaining), max_nesting=max_nesting, charge=charge
                    )
                    chars = len(text)
                remaining -= chars
                texts.append(text)
        except TextTooLong:
            raise len_limit() from None
        if remaining < 0:
            raise len_limit()
        return checked(sep.join(texts))

    def set_(seq, i, v):
        need_seq("set", seq)
        need_index("set", i)
        if type(seq) is str:
            raise type_error("needs a list or tuple, not str")
        items = list(seq)
        try:
            items[i] = v
        except IndexError:
            raise index_error("index out of range") from None
        charge(len(items) >> 4)
        return checked(type(seq)(items))

    def to_list(seq):
        need_seq("list", seq)
        # the characters of a string become strings of their own
        return checked(list(seq), _new_chars(seq))

    def to_tuple(seq):
        need_seq("tuple", seq)
        return checked(tuple(seq), _new_chars(seq))

    return {
        "+": add,
        "-": sub,
        "*": mul,
        "/": truediv,
        "//": floordiv,
        "%": mod,
        "**": power,
        "^": xor,
        "neg": neg,
        "abs": absolute,
        "==": eq,
        "!=": ne,
        ">": gt,
        "<": lt,
        ">=": ge,
        "<=": le,
        "not": logical_not,
        "get": get,
        "slice": slice_,
        "len": length,
        "reverse": reverse,
        "concat": concat,
        "prepend": prepend,
        "append": append,
        "pop_left": pop_left,
        "pop_right": pop_right,
        "range": range_,
        "zip": zip_,
        "enumerate": enumerate_,
        "filter": filter_,
        "sort_asc": sort_asc,
        "sort_desc": sort_desc,
        "max": max_,
        "min": min_,
        "sum": sum_,
        "any": any_,
        "all": all_,
        "str": to_str,
        "join": join,
        "list": to_list,
        "tuple": to_tuple,
        "set": set_,
        # helpers interpreters reuse
        "checked": checked,
        "compare": compare,
    }
