"""The standard semantics of AlienCode's operations, and the run-time helpers
generated code calls.

Most operations are a rule operator under another name (SAME_AS_OPERATOR),
so the manual's meaning and a world's rule run the same checked code. `build`
returns the namespace of one run: the rule operators (`_r_...`), a standard
site function `_s_<OPERATION>` for each other operation (taking the site's
operands), and the helpers generated code calls (`_inplace`, `_once`, ...).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from alienworlds.ruleset import LanguageError, LimitExceeded, Meter, render, type_name
from alienworlds.ruleset.compile import operator_namespace
from alienworlds.ruleset.errors import index_error, type_error
from alienworlds.ruleset.memory import size
from alienworlds.ruleset.operators import make_operators
from alienworlds.ruleset.text import CHARS_PER_STEP, TextTooLong

from .errors import short

# Operations that are exactly one rule operator (compiled as that operator).
SAME_AS_OPERATOR = {
    "SHATTER": "+",
    "WEAVE": "-",
    "PARE": "*",
    "FRACTURE": "/",
    "COIL": "**",
    "RESIDUE": "%",
    "HALVE": "//",
    "AKIN": "==",
    "APART": "!=",
    "OVER": ">",
    "UNDER": "<",
    "ATOP": ">=",
    "BENEATH": "<=",
    "PLUCK": "get",
    "CARVE": "slice",
    "GAUGE": "len",
    "SOME_OF": "any",
    "EVERY_OF": "all",
    "ORDER": "sort_asc",
    "GATHER": "list",
    "EXTENT": "range",
    "INDEX": "enumerate",
    "PAIR": "zip",
    "STRAIN": "filter",
}


def build(meter: Meter, output: list[str]) -> dict[str, object]:
    """The namespace of one run: operators, standard sites and helpers."""
    limits = meter.limits
    ops = make_operators(meter)
    max_len = limits.max_length
    max_nesting = limits.max_nesting
    charge = meter.charge
    pin = meter.pin
    checked = ops["checked"]

    def need_list(seq: object) -> None:
        if type(seq) is not list:
            raise type_error(f"needs a list, not {type_name(seq)}")

    def annex(seq, val):
        if seq.__class__ is not list:
            need_list(seq)
        if len(seq) >= max_len:
            raise LimitExceeded(f"sequence length of {max_len}")
        seq.append(val)

    def annex_over(seq):
        """A native append took `seq` beyond the length limit (native.py,
        `append_statements`): take the element back, report the limit."""
        seq.pop()
        raise LimitExceeded(f"sequence length of {max_len}")

    def prepend(seq, val):
        need_list(seq)
        if len(seq) >= max_len:
            raise LimitExceeded(f"sequence length of {max_len}")
        meter.charge(len(seq) >> 4)  # every element moves
        seq.insert(0, val)

    def expel(seq):
        need_list(seq)
        if not seq:
            raise index_error("pop from an empty list")
        value = seq.pop()
        if value.__class__ is list or value.__class__ is tuple:
            pin(value)
        return value

    def imprint(seq, i, val):
        need_list(seq)
        if type(i) is not int and type(i) is not bool:
            raise type_error(f"positions must be integers, not {type_name(i)}")
        try:
            old = seq[i]
            seq[i] = val
        except IndexError:
            raise index_error("assignment index out of range") from None
        if old.__class__ is list or old.__class__ is tuple:
            pin(old)

    least, most, join = ops["min"], ops["max"], ops["join"]

    def nadir(args):
        return least(*args)

    def apex(args):
        return most(*args)

    small = 1 << 64  # integers `join` renders as their repr, without `render`
    plain_text = min(64, max_len)  # text `checked` returns as it is

    def fuse(args):
        # Short strings and integers within 2**64 cost what `join` charges for
        # them (half a step per piece, the result's own charge when long), in
        # the same order, without its per-piece budget: no piece is charged
        # and the result's length is checked once. Anything else goes to `join`
        # before any charge.
        texts = []
        for x in args:
            cls = x.__class__
            if cls is str and len(x) < CHARS_PER_STEP:
                texts.append(x)
            elif cls is int and -small < x < small:
                texts.append(repr(x))
            else:
                return join("", args)
        charge(len(args) >> 1)
        text = "".join(texts)
        return text if len(text) <= plain_text else checked(text)

    def fuse2(a, b):
        """FUSE of two pieces (compiler.py): what `fuse` does, without the
        list, the loop and the call of `charge` (one step, inline)."""
        cls = a.__class__
        if cls is str and len(a) < CHARS_PER_STEP:
            first = a
        elif cls is int and -small < a < small:
            first = repr(a)
        else:
            return join("", [a, b])
        cls = b.__class__
        if cls is str and len(b) < CHARS_PER_STEP:
            second = b
        elif cls is int and -small < b < small:
            second = repr(b)
        else:
            return join("", [a, b])
        meter.budget -= 1
        meter.charged += 1
        if meter.budget < 0:
            meter.checkpoint()
        text = first + second
        return text if len(text) <= plain_text else checked(text)

    def sweep(seq):
        if type(seq) not in (list, tuple, str):
            raise type_error(f"cannot walk a {type_name(seq)}; SWEEP needs a list, tuple or string")
        if len(seq) > 16 and seq.__class__ is not str:
            pin(seq)  # a loop's iterator may be all that refers to it
        return seq

    def emit_values(values):
        if type(values) not in (list, tuple):
            raise type_error("the values to print must form a list")
        # One budget for the whole line (separators and newline included): no
        # text is built beyond what the output may still hold.
        remaining = limits.max_output - meter.output - len(values)
        texts = []
        try:
            for v in values:
                text = render(v, budget=max(0, remaining), max_nesting=max_nesting, charge=charge)
                remaining -= len(text)
                texts.append(text)
        except TextTooLong:
            remaining = -1
        if remaining < 0 or not values and meter.output >= limits.max_output:
            raise LimitExceeded(f"output size of {limits.max_output} characters")
        text = " ".join(texts) + "\n"
        meter.output += len(text)
        output.append(text)

    def inplace(rule: Callable[..., object], seq, *rest):
        """ANNEX/IMPRINT under a world rule: the rule gives the new contents."""
        need_list(seq)
        contents = rule(seq, *rest)
        if type(contents) not in (list, tuple, str):
            raise type_error(f"cannot store a {type_name(contents)} as the contents of a list")
        seq[:] = checked(list(contents))

    def expel_at(rule: Callable[..., object], seq):
        """EXPEL under a world rule: the rule gives the position removed."""
        need_list(seq)
        if not seq:
            raise index_error("pop from an empty list")
        where = rule(seq)
        if type(where) is not int and type(where) is not bool:
            raise type_error(f"positions must be integers, not {type_name(where)}")
        meter.charge(len(seq) >> 4)  # the elements after the position move
        try:
            value = seq.pop(where)
        except IndexError:
            raise index_error("pop index out of range") from None
        if value.__class__ is list or value.__class__ is tuple:
            pin(value)
        return value

    filter_ = ops["filter"]

    def strain(pred, seq):
        """STRAIN under the standard semantics, natively (compiler.py): a
        program's function, bound to its depth by `at_depth`, is called
        directly instead of through the partial (a host call of its own per
        element); anything else goes to `filter` as it is."""
        if pred.__class__ is partial and (seq.__class__ is list or seq.__class__ is tuple):
            fn, depth = pred.func, pred.args[0]
            return checked([x for x in seq if fn(depth, x)])
        return filter_(pred, seq)

    def once(thunk: Callable[[], object]) -> Callable[[], object]:
        """A short-circuit operand, evaluated at most once when a rule needs it."""
        box: list[object] = []

        def force():
            if not box:
                box.append(thunk())
            return box[0]

        return force

    def at_depth(fn, depth: int):
        """A user function called back by an operation (STRAIN's predicate),
        as a one-argument callable running at the caller's depth + 1."""
        code = getattr(fn, "__code__", None)
        if code is None or getattr(fn, "alien_name", None) is None:
            return fn  # not a function: the operation reports it
        if code.co_argcount != 2:
            raise type_error(f"{short(fn.alien_name)}() must take exactly 1 argument here")
        return partial(fn, depth)

    def name_function(fn, name: str) -> None:
        fn.alien_name = name
        meter.hold(fn, size(fn))
        if fn.__closure__:
            pin(fn)  # what it closes over lives as long as it does

    def fail(kind: str, message: str, *_evaluated: object):
        raise LanguageError(kind, message)

    big = 1 << limits.max_int_bits

    def beyond(value):
        """A native sum beyond 2**64 (see inline.py): a float is fine; an
        integer is refused beyond the limit, else accounted as memory made."""
        if value.__class__ is int:
            if not -big < value < big:
                raise LimitExceeded(f"integer size of {limits.max_int_bits} bits")
            meter.hold(value, size(value))
        return value

    def sum_rest(value, _cleared):
        """What `add` and `sub` do with a host sum that is not a small
        integer (native.py, `sum_form`; `_cleared` is the emptied temporary)."""
        cls = value.__class__
        if cls is int:
            if -big < value < big:
                return value
            raise LimitExceeded(f"integer size of {limits.max_int_bits} bits")
        if cls is float:
            return value
        return checked(value)

    def depth_exceeded():
        raise LimitExceeded(f"call depth of {limits.max_depth}")

    namespace: dict[str, object] = {"__builtins__": {}}
    namespace.update(operator_namespace(ops))
    namespace.update(
        _s_ANNEX=annex,
        _s_EXPEL=expel,
        _s_IMPRINT=imprint,
        _s_NADIR=nadir,
        _s_APEX=apex,
        _s_FUSE=fuse,
        _s_FUSE2=fuse2,
        _s_SWEEP=sweep,
        _s_STRAIN=strain,
        _s_EMIT=emit_values,
        _inplace=inplace,
        _prepend=prepend,
        _expel_at=expel_at,
        _at_depth=at_depth,
        _once=once,
        _fn=name_function,
        _fail=fail,
        _depth_exceeded=depth_exceeded,
        _m=meter,
        # Generated functions count the calls left below them (compiler.py).
        _TOPD=limits.max_depth - 1,
        _beyond=beyond,
        _sum_rest=sum_rest,
        # what the guards of native code read (native.py)
        _int=int,
        _list=list,
        _len=len,
        _seqs=frozenset({list, tuple, str}),
        _MAXLEN=max_len,
        _annex_over=annex_over,
        _AttributeError=AttributeError,
        _TypeError=TypeError,
    )
    return namespace


def literal_ok(value: object) -> bool:
    """Whether a computed literal can be shared as a constant (immutable)."""
    if value is None or type(value) in (bool, int, float, str):
        return True
    if type(value) is tuple:
        return all(literal_ok(v) for v in value)
    return False
