"""Compilation of rule expressions to host closures, without `eval` of text.

A rule expression becomes a Python AST built node by node from our own
dataclasses (operators become calls of functions from the operator table,
constants become `ast.Constant`), so nothing an author writes is ever parsed
as host code. `and`, `or` and `if` compile to short-circuit code. The same
builder lets an interpreter splice a rule into its own generated code.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

from .errors import RuleSyntaxError
from .expr import Call, Const, Expr, Identity, Sym, parse, to_text, walk
from .host_locations import fill_locations
from .limits import Limits, Meter
from .operators import ARITY, make_operators


@cache  # every run's namespace binds every operator: a few hundred names, asked millions of times
def op_identifier(op: str) -> str:
    """Host identifier under which operator `op` is bound in generated code."""
    return "_r_" + "".join(c if c.isalnum() else f"x{ord(c):02x}" for c in op)


# Where an operand that is a function may stand: only where it is called.
CALLS_ITS_OPERAND = {"filter": 0}


def function_used_as_value(expr: Expr, functions: frozenset[str] | set[str]) -> Sym | None:
    """The first use of a function operand (one of `functions`) anywhere but
    where an operator calls it, or None. A function operand is a host
    callable made for that call (it carries the caller's call depth): handed
    on as a value, a program could call it around the depth check."""
    stack: list[tuple[Expr, bool]] = [(expr, False)]
    while stack:
        node, called = stack.pop()
        if isinstance(node, Sym) and node.name in functions and not called:
            return node
        if isinstance(node, Call):
            where = CALLS_ITS_OPERAND.get(node.op)
            stack.extend((arg, i == where) for i, arg in reversed(list(enumerate(node.args))))
    return None


def check(
    expr: Expr,
    names: set[str],
    arity: Mapping[str, tuple[int, int | None]] = ARITY,
    text: str = "",
    functions: frozenset[str] = frozenset(),
) -> None:
    """Raise RuleSyntaxError for unknown names, unknown operators, wrong
    arity, or a function operand (one of `functions`) used as a value."""
    leak = function_used_as_value(expr, functions)
    if leak is not None:
        raise RuleSyntaxError(
            f"'{leak.name}' is a function: a rule may only call it, as the first operand of filter",
            text,
            leak.column,
        )
    for node in walk(expr):
        if isinstance(node, Sym) and node.name not in names:
            known = ", ".join(sorted(names)) or "none"
            raise RuleSyntaxError(
                f"unknown name '{node.name}' (available here: {known})", text, node.column
            )
        if isinstance(node, Call):
            if node.op not in arity:
                raise RuleSyntaxError(f"unknown operator '{node.op}'", text, node.column)
            lo, hi = arity[node.op]
            n = len(node.args)
            if n < lo or (hi is not None and n > hi):
                want = (
                    str(lo) if lo == hi else (f"at least {lo}" if hi is None else f"{lo} to {hi}")
                )
                raise RuleSyntaxError(
                    f"operator '{node.op}' takes {want} arguments, got {n}", text, node.column
                )
        if isinstance(node, Identity) and node is not expr:
            raise RuleSyntaxError("IDENTITY stands alone", text, node.column)


def operator_node(op: str, args: list[ast.expr]) -> ast.expr:
    """Host code calling operator `op` from the operator namespace."""
    return ast.Call(ast.Name(op_identifier(op), ast.Load()), args, [])


def to_python(
    expr: Expr,
    symbols: Mapping[str, ast.expr],
    call: Callable[[str, list[ast.expr]], ast.expr] = operator_node,
    used: set[str] | None = None,
) -> ast.expr:
    """The host AST of `expr`; `symbols` maps each rule symbol to host code,
    `call` builds the code applying an operator (and/or/if are always
    short-circuit code).

    A symbol's code is placed as it is at its first use and copied at later
    ones (a node may not appear twice in one tree), so splicing large operand
    code costs nothing when, as splicing requires, it is used once. `used`
    names the symbols already placed (share it between parts of one tree)."""
    return _build(expr, symbols, call, set() if used is None else used)


def _build(
    e: Expr,
    symbols: Mapping[str, ast.expr],
    call: Callable[[str, list[ast.expr]], ast.expr],
    used: set[str],
) -> ast.expr:
    # module level, not a closure: a recursive closure is a reference cycle
    # that only the host's cycle collector frees, once per compiled rule site
    if isinstance(e, Const):
        return ast.Constant(e.value)
    if isinstance(e, Sym):
        if e.name in used:
            return copy_node(symbols[e.name])
        used.add(e.name)
        return symbols[e.name]
    if isinstance(e, Identity):
        raise ValueError("IDENTITY has no code of its own; the caller uses the standard semantics")
    args = [_build(a, symbols, call, used) for a in e.args]
    if e.op == "and":
        return ast.BoolOp(ast.And(), args)
    if e.op == "or":
        return ast.BoolOp(ast.Or(), args)
    if e.op == "if":
        return ast.IfExp(test=args[0], body=args[1], orelse=args[2])
    return call(e.op, args)


def copy_node(node):
    """A deep copy of host AST (a node may not appear twice in one tree)."""
    if isinstance(node, ast.AST):
        fields = {k: copy_node(v) for k, v in ast.iter_fields(node)}
        return type(node)(**fields)
    if isinstance(node, list):
        return [copy_node(x) for x in node]
    return node


def operator_namespace(operators: Mapping[str, Callable[..., object]]) -> dict[str, object]:
    return {
        op_identifier(name): fn
        for name, fn in operators.items()
        if name in ARITY or name.isidentifier()
    }


@dataclass(frozen=True)
class CompiledRule:
    """A rule expression compiled to a host code object over named parameters."""

    text: str
    params: tuple[str, ...]
    code: object

    def bind(self, namespace: Mapping[str, object]) -> Callable[..., object]:
        env = {"__builtins__": {}}
        env.update(namespace)
        return eval(self.code, env)  # noqa: S307 - our own AST, see module docstring


def compile_rule(
    expr: Expr | str,
    params: tuple[str, ...],
    arity: Mapping[str, tuple[int, int | None]] = ARITY,
    lazy: frozenset[str] = frozenset(),
) -> CompiledRule:
    """Compile `expr` into a lambda over `params` (checked first).

    A parameter named in `lazy` is passed as a thunk and forced where the
    expression uses it (short-circuit operands).
    """
    if isinstance(expr, str):
        expr = parse(expr)
    check(expr, set(params), arity, to_text(expr))
    arg_names = [f"p_{i}" for i in range(len(params))]
    symbols: dict[str, ast.expr] = {}
    for p, a in zip(params, arg_names):
        ref = ast.Name(a, ast.Load())
        symbols[p] = ast.Call(ref, [], []) if p in lazy else ref
    body = to_python(expr, symbols)
    lam = ast.Lambda(
        args=ast.arguments(
            posonlyargs=[],
            args=[ast.arg(a) for a in arg_names],
            kwonlyargs=[],
            kw_defaults=[],
            defaults=[],
        ),
        body=body,
    )
    tree = ast.Expression(lam)
    fill_locations(tree)
    return CompiledRule(to_text(expr), tuple(params), compile(tree, "<rule>", "eval"))


def evaluate(expr: Expr | str, env: Mapping[str, object], meter: Meter | None = None) -> object:
    """Evaluate a rule expression with the given operand values."""
    meter = meter or Meter(Limits())
    params = tuple(env)
    fn = compile_rule(expr, params).bind(operator_namespace(make_operators(meter)))
    return fn(*(env[p] for p in params))
