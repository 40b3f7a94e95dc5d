"""AlienLogic: a Fitch-style proof checker whose worlds patch the rules.

    from alienlogic import check, load_world
    verdict = check(proof_text, load_world("demo"))
    verdict.accepted, verdict.as_dict()

`parse_proof` / `parse_formula` read text (raising ProofSyntaxError);
`str()` of a formula or proof prints it back in the input syntax;
`compile_world` compiles a world's side conditions once for many checks.
`prove` searches for a proof under a world's rules; `find_certificate` and
`check_certificate` certify (and re-check) that a theorem has no proof.
"""

from __future__ import annotations

from alienworlds.ruleset.world import World, WorldError

from .errors import ProofSyntaxError
from .formulas import (
    BOT,
    And,
    Bot,
    Eq,
    Exists,
    Fn,
    Forall,
    Formula,
    Impl,
    Name,
    Node,
    Not,
    Or,
    Pred,
    Term,
)
from .kernel import Checker, check, compile_world
from .parser import parse_formula, parse_formulas, parse_proof
from .patches import CompiledWorld
from .proof import Citation, Proof, Step, Theorem, format_proof
from .rules import RULES
from .substitution import substitute
from .verdict import FAILURES, REASON_CLASSES, Verdict
from .worlds import default_world_spec, load_world

__version__ = "0.1.0"

# The prover and the certifier load on first use: a grader that only checks
# proofs then trusts (and imports) the checker alone.
_LAZY = {
    "prove": ".prover",
    "find_certificate": ".certify",
    "check_certificate": ".certify",
}


def __getattr__(name: str) -> object:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "BOT",
    "And",
    "Bot",
    "Checker",
    "Citation",
    "CompiledWorld",
    "Eq",
    "Exists",
    "FAILURES",
    "Fn",
    "Forall",
    "Formula",
    "Impl",
    "Name",
    "Node",
    "Not",
    "Or",
    "Pred",
    "Proof",
    "ProofSyntaxError",
    "REASON_CLASSES",
    "RULES",
    "Step",
    "Term",
    "Theorem",
    "Verdict",
    "World",
    "WorldError",
    "check",
    "check_certificate",
    "compile_world",
    "default_world_spec",
    "find_certificate",
    "format_proof",
    "load_world",
    "parse_formula",
    "parse_formulas",
    "parse_proof",
    "prove",
    "substitute",
]
