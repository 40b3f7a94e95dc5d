"""The declarative layer: rule expressions, limits, and worlds.

Language-neutral: it knows values, operators and world files, not AlienCode's
operations or AlienLogic's inference rules (each language brings a Schema).
"""

from .compile import (
    CompiledRule,
    compile_rule,
    evaluate,
    op_identifier,
    operator_namespace,
    to_python,
)
from .errors import LanguageError, LimitExceeded, RuleSyntaxError
from .expr import Call, Const, Expr, Identity, Sym, parse, to_text
from .limits import Limits, Meter
from .operators import ARITY, make_operators
from .text import render, type_name
from .world import Problem, Rule, Schema, World, WorldError, load_world, parse_world, standard_world

__all__ = [
    "ARITY",
    "Call",
    "CompiledRule",
    "Const",
    "Expr",
    "Identity",
    "LanguageError",
    "LimitExceeded",
    "Limits",
    "Meter",
    "Problem",
    "Rule",
    "RuleSyntaxError",
    "Schema",
    "Sym",
    "World",
    "WorldError",
    "compile_rule",
    "evaluate",
    "load_world",
    "make_operators",
    "op_identifier",
    "operator_namespace",
    "parse",
    "parse_world",
    "render",
    "standard_world",
    "to_python",
    "to_text",
    "type_name",
]
