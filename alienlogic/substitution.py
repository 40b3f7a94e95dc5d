"""Substitution of terms for variables, and recognising instances.

`substitute` is capture-avoiding: a quantifier whose variable would capture a
name of the inserted term is renamed first. The checker decides "is χ an
instance of φ" by reading the candidate term off χ and comparing
`substitute(φ, x, t)` with χ by identity (formulas are interned); a χ that
relies on a capture is therefore never an instance.
"""

from __future__ import annotations

from .formulas import Fn, Formula, Name, Node, Pred, Quantified, Term, children

# Node classes whose children are (name, terms): rebuild keeps the name.
_NAMED = (Pred, Fn)


def substitute(node: Node, var: str, term: Term, memo: dict[int, bool] | None = None) -> Node:
    """`node` with every free occurrence of the variable `var` replaced by `term`."""
    memo = {} if memo is None else memo  # whether `var` is free in each node, asked once
    if not node.has_free(var, memo):
        return node
    cls = type(node)
    if cls is Name:
        return term
    if cls in _NAMED:
        return cls(node.name, tuple(substitute(t, var, term, memo) for t in node.terms))
    if issubclass(cls, Quantified):
        bound, body = node.var, node.body
        if bound in term.free:
            fresh = fresh_name(bound, body.free | term.free | {var})
            body = substitute(body, bound, Name(fresh))
            bound = fresh
            memo = {}  # a renamed body is a new formula
        return cls(bound, substitute(body, var, term, memo))
    return cls(*(substitute(c, var, term, memo) for c in children(node)))


def fresh_name(base: str, avoid: frozenset[str] | set[str]) -> str:
    """`base` followed by the smallest number that makes a name not in `avoid`."""
    stem = base.rstrip("0123456789") or base
    i = 1
    while f"{stem}{i}" in avoid:
        i += 1
    return f"{stem}{i}"


def instance_term(pattern: Node, var: str, target: Node) -> Term | None:
    """The term of `target` at the first free occurrence of `var` in `pattern`,
    walking both in parallel; None when the shapes part before that point."""
    memo: dict[int, bool] = {}
    while True:
        if type(pattern) is Name:
            return target if pattern.name == var and isinstance(target, Term) else None
        if type(pattern) is not type(target):
            return None
        if type(pattern) in _NAMED and (
            pattern.name != target.name or len(pattern.terms) != len(target.terms)
        ):
            return None
        for p, t in zip(children(pattern), children(target)):
            if p.has_free(var, memo):
                pattern, target = p, t
                break
        else:
            return None


def match_instance(pattern: Formula, var: str, target: Formula) -> tuple[bool, Term | None]:
    """Whether `target` is `pattern[t/var]` for some term t, and that t.

    When `var` does not occur free in `pattern`, every t fits and the term is
    None (`target` must then be `pattern` itself).
    """
    if not pattern.has_free(var, {}):
        return pattern is target, None
    term = instance_term(pattern, var, target)
    if term is None:
        return False, None
    return substitute(pattern, var, term) is target, term


def replaces(
    source: Node, old: Term, new: Term, target: Node, bound: frozenset[str] = frozenset()
) -> bool:
    """Whether `target` is `source` with some free occurrences of the term
    `old` replaced by `new`, no variable of either term being bound there."""
    if source is target:
        return True
    if source is old and target is new:
        return not (bound & old.free or bound & new.free)
    cls = type(source)
    if cls is not type(target) or cls is Name:
        return False
    if cls in _NAMED:
        if source.name != target.name or len(source.terms) != len(target.terms):
            return False
    elif issubclass(cls, Quantified):
        if source.var != target.var:
            return False
        return replaces(source.body, old, new, target.body, bound | {source.var})
    return all(replaces(s, old, new, t, bound) for s, t in zip(children(source), children(target)))
