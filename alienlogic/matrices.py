"""Finite matrices and classed algebras: the search half of the certifier.

A matrix (`Matrix`) is a finite lattice of truth values with a table per
connective and a value for BOT. An algebra (`Algebra`) refines a matrix by
classes of formulas: a connective's truth table may depend on its parts'
classes (a negation of a negation, an implication between two copies of an
atom, a universal over a predicate), and the top-level context may be the
premises' meet ("any") or top ("designated": models where every premise is
top). `recheck.py` states exactly what such a certificate claims and checks
it; this module builds candidates (`Algebra.plain`, `Algebra.refine`),
evaluates formulas in them (`value`) and finds countermodels.

`unsound_rules(matrix, world, n)` is a fast, conservative pre-filter for
plain matrices: it checks every rule the world allows, ignoring side
conditions and box depth (so it may refuse a matrix the re-checker would
accept, never the other way round), by enumerating every value of the rule's
metavariables and of the context; a `conclusion` patch is read as a path
(`(left (ref 1))`, `(ref 1)`, ...) into the rule's schema.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property, reduce
from itertools import islice, product

from alienworlds.ruleset.expr import Call, Sym, parse
from alienworlds.ruleset.world import World

from .formulas import (
    SHAPES,
    And,
    Bot,
    Eq,
    Exists,
    Forall,
    Formula,
    Impl,
    Name,
    Not,
    Or,
    Pred,
    Term,
    children,
)
from .parser import parse_formula
from .patches import CompiledWorld
from .rules import RULES
from .semantics import signature


class MatrixError(ValueError):
    """Data that is not a finite matrix (a problem with a certificate)."""


@dataclass(frozen=True)
class Matrix:
    """A finite lattice of truth values with connective tables.

    Elements are indices 0..n-1 (names for display). Tables: `neg[a]`,
    `conj[a][b]`, `disj[a][b]`, `impl[a][b]`; `bot` is the value of BOT.
    """

    name: str
    elements: tuple[str, ...]
    leq: tuple[tuple[bool, ...], ...]
    bot: int
    neg: tuple[int, ...]
    conj: tuple[tuple[int, ...], ...]
    disj: tuple[tuple[int, ...], ...]
    impl: tuple[tuple[int, ...], ...]
    meet: tuple[tuple[int, ...], ...] = field(default=(), compare=False)
    join: tuple[tuple[int, ...], ...] = field(default=(), compare=False)
    top: int = field(default=-1, compare=False)
    bottom: int = field(default=-1, compare=False)

    def __post_init__(self) -> None:
        n = len(self.elements)
        if n < 1 or len(set(self.elements)) != n:
            raise MatrixError("a matrix needs at least one element and distinct element names")
        le = self.leq
        if len(le) != n or any(len(r) != n for r in le):
            raise MatrixError("the order must be an n×n table")
        for a in range(n):
            if not le[a][a]:
                raise MatrixError("the order is not reflexive")
            for b in range(n):
                if a != b and le[a][b] and le[b][a]:
                    raise MatrixError("the order is not antisymmetric")
                for c in range(n):
                    if le[a][b] and le[b][c] and not le[a][c]:
                        raise MatrixError("the order is not transitive")
        for table, arity in ((self.neg, 1), (self.conj, 2), (self.disj, 2), (self.impl, 2)):
            rows = [table] if arity == 1 else list(table)
            if len(rows) != (1 if arity == 1 else n) or any(
                len(r) != n or any(not 0 <= v < n for v in r) for r in rows
            ):
                raise MatrixError("a connective table has the wrong shape or values")
        if not 0 <= self.bot < n:
            raise MatrixError("BOT's value is not an element")

        def bound(a: int, b: int, lower: bool) -> int:
            """The greatest lower (or least upper) bound of a and b."""
            if lower:
                cands = [c for c in range(n) if le[c][a] and le[c][b]]
                best = [c for c in cands if all(le[d][c] for d in cands)]
            else:
                cands = [c for c in range(n) if le[a][c] and le[b][c]]
                best = [c for c in cands if all(le[c][d] for d in cands)]
            if len(best) != 1:
                raise MatrixError("the order is not a lattice (a pair has no meet or no join)")
            return best[0]

        object.__setattr__(
            self, "meet", tuple(tuple(bound(a, b, True) for b in range(n)) for a in range(n))
        )
        object.__setattr__(
            self, "join", tuple(tuple(bound(a, b, False) for b in range(n)) for a in range(n))
        )
        object.__setattr__(self, "top", reduce(lambda x, y: self.join[x][y], range(n)))
        object.__setattr__(self, "bottom", reduce(lambda x, y: self.meet[x][y], range(n)))

    @property
    def size(self) -> int:
        return len(self.elements)


def heyting(
    name: str,
    elements: tuple[str, ...],
    covers: Iterable[tuple[int, int]],
    conj: str = "meet",
    disj: str = "join",
) -> Matrix:
    """A finite Heyting algebra given by its covering pairs (a below b), with
    BOT the least element, negation a → ⊥, and optionally a connective
    replaced by a projection on its left operand (`conj="left"`)."""
    n = len(elements)
    leq = [[a == b for b in range(n)] for a in range(n)]
    for a, b in covers:
        leq[a][b] = True
    for k in range(n):
        for a in range(n):
            for b in range(n):
                if leq[a][k] and leq[k][b]:
                    leq[a][b] = True
    probe = Matrix(
        name,
        elements,
        tuple(map(tuple, leq)),
        0,
        tuple(range(n)),
        *(tuple(tuple(range(n)) for _ in range(n)),) * 3,
    )
    meet, join = probe.meet, probe.join
    impl = tuple(
        tuple(
            max(
                (c for c in range(n) if leq[meet[c][a]][b]),
                key=lambda c: sum(leq[d][c] for d in range(n)),
            )
            for b in range(n)
        )
        for a in range(n)
    )
    bottom = probe.bottom
    neg = tuple(impl[a][bottom] for a in range(n))
    left = tuple(tuple(a for _ in range(n)) for a in range(n))
    return Matrix(
        name,
        elements,
        tuple(map(tuple, leq)),
        bottom,
        neg,
        left if conj == "left" else meet,
        left if disj == "left" else join,
        impl,
    )


def library() -> tuple[Matrix, ...]:
    """The matrices the certifier tries, smallest first: the two-element
    Boolean algebra, the three-element Gödel chain and the five-element
    Heyting algebra 0 < a, b < a∨b < 1, each also with AND or OR read as a
    projection on its left operand."""
    bases = (
        ("B2", ("0", "1"), [(0, 1)]),
        ("G3", ("0", "h", "1"), [(0, 1), (1, 2)]),
        ("H5", ("0", "a", "b", "c", "1"), [(0, 1), (0, 2), (1, 3), (2, 3), (3, 4)]),
    )
    out = []
    for name, elements, covers in bases:
        out.append(heyting(name, elements, covers))
        out.append(heyting(f"{name}/AND-left", elements, covers, conj="left"))
        out.append(heyting(f"{name}/OR-left", elements, covers, disj="left"))
    return tuple(out)


# -- classed algebras: what a certificate states ----------------------------------------------

QUANTIFIERS = ("FORALL", "EXISTS")
CONNECTIVES = {"NOT": 1, "AND": 2, "OR": 2, "IMPL": 2, "FORALL": 1, "EXISTS": 1}
_OF_TYPE = {Not: "NOT", And: "AND", Or: "OR", Impl: "IMPL", Forall: "FORALL", Exists: "EXISTS"}


@dataclass(frozen=True)
class Rule:
    """A connective's rule: when its parts' classes match `args` ("*" matches
    any), the formula has class `cls` and truth `table` (indexed by the parts'
    truths; a quantifier's table by the meet or join of its body's truths)."""

    args: tuple[str, ...]
    cls: str
    table: tuple


@dataclass(frozen=True)
class Algebra:
    """A matrix refined by classes (see `recheck.py` for the meaning).

    `plain(m, mode)` has one class and `m`'s tables; `refine` adds rules for
    particular classes of parts, introducing shape classes (`not`, `and`,
    `pred`, ...) and singleton classes for atoms as the rules name them."""

    matrix: Matrix
    mode: str  # "any": the premises' meet is the top-level context; "designated": premises are top
    classes: tuple[tuple[str, str], ...]  # (name, shape or "*")
    singletons: tuple[tuple[str, Formula], ...]
    rules: tuple[tuple[str, tuple[Rule, ...]], ...]
    atoms: tuple[tuple[str, str], ...]  # atom name -> class ("*": the rest)
    predicates: tuple[tuple[str, str], ...]
    bot_class: str = "any"
    eq_class: str = "any"
    name: str = ""

    @staticmethod
    def plain(m: Matrix, mode: str = "any") -> Algebra:
        ident = tuple(range(m.size))
        tables = {
            "NOT": m.neg,
            "AND": m.conj,
            "OR": m.disj,
            "IMPL": m.impl,
            "FORALL": ident,
            "EXISTS": ident,
        }
        rules = tuple((op, (Rule(("*",) * n, "any", tables[op]),)) for op, n in CONNECTIVES.items())
        return Algebra(
            m,
            mode,
            (("any", "*"),),
            (),
            rules,
            (("*", "any"),),
            (("*", "any"),),
            name=f"{m.name} ({mode})",
        )

    def refine(self, op: str, args: tuple[str, ...], table: tuple, label: str) -> Algebra:
        """One more rule for `op` on parts of the classes `args`: "*", a
        shape's lower-case name (`not`, `pred`, `atom`) or `=p` for the atom p
        alone (a singleton class)."""
        classes, singletons = dict(self.classes), dict(self.singletons)
        atoms, preds = dict(self.atoms), dict(self.predicates)
        special = {"BOT": self.bot_class, "EQ": self.eq_class}
        rules = {o: list(r) for o, r in self.rules}
        for a in (*args, op.lower()):
            if a == "*" or a in classes:
                continue
            shape = a.upper()
            if shape in SHAPES:
                classes[a] = shape
                if shape in CONNECTIVES:
                    rules[shape] = [
                        Rule(r.args, a if r.cls == "any" else r.cls, r.table) for r in rules[shape]
                    ]
                elif shape == "ATOM":
                    atoms["*"] = a
                elif shape == "PRED":
                    preds["*"] = a
                else:
                    special[shape] = a
            else:  # "=p": the atom p alone
                classes[a], singletons[a], atoms[a[1:]] = "ATOM", Pred(a[1:]), a
        rules[op].insert(0, Rule(args, op.lower(), table))
        return replace(
            self,
            classes=tuple(classes.items()),
            singletons=tuple(singletons.items()),
            rules=tuple((o, tuple(r)) for o, r in rules.items()),
            atoms=tuple(atoms.items()),
            predicates=tuple(preds.items()),
            bot_class=special["BOT"],
            eq_class=special["EQ"],
            name=f"{self.name}; {label}",
        )

    @cached_property
    def _index(self) -> tuple[dict, dict, dict, dict]:
        return dict(self.rules), dict(self.atoms), dict(self.predicates), {}

    def rule(self, op: str, classes: tuple[str, ...]) -> Rule:
        return next(
            r for r in self._index[0][op] if all(a in ("*", c) for a, c in zip(r.args, classes))
        )

    def klass(self, f: Formula) -> str:
        """The class of a formula (memoised: formulas are interned)."""
        memo = self._index[3]
        got = memo.get(f)
        if got is None:
            cls = type(f)
            if cls is Pred:
                names = self._index[2] if f.terms else self._index[1]
                got = names.get(f.name, names["*"])
            elif cls is Bot or cls is Eq:
                got = self.bot_class if cls is Bot else self.eq_class
            else:
                got = self.rule(
                    _OF_TYPE[cls],
                    tuple(self.klass(c) for c in children(f) if isinstance(c, Formula)),
                ).cls
            memo[f] = got
        return got

    def as_data(self) -> dict[str, object]:
        m = self.matrix
        e = m.elements

        def table(t: tuple) -> list:
            return [e[v] if isinstance(v, int) else table(v) for v in t]

        conn: dict[str, object] = {
            op: [{"args": list(r.args), "class": r.cls, "table": table(r.table)} for r in rules]
            for op, rules in self.rules
        }
        conn.update(
            atoms=dict(self.atoms),
            predicates=dict(self.predicates),
            BOT={"class": self.bot_class, "value": e[m.bot]},
            EQ={"class": self.eq_class, "table": [e[m.bottom], e[m.top]]},
        )
        return {
            "truth": {
                "values": list(e),
                "order": [
                    [e[a], e[b]]
                    for a in range(m.size)
                    for b in range(m.size)
                    if a != b and m.leq[a][b]
                ],
            },
            "top_level": self.mode,
            "classes": dict(self.classes),
            "singletons": {k: str(f) for k, f in self.singletons},
            "connectives": conn,
        }


def algebra_from_data(data: Mapping[str, object]) -> Algebra:
    """The algebra a certificate states (raises MatrixError on bad data)."""
    try:
        truth, conn = data["truth"], data["connectives"]
        elements = tuple(truth["values"])  # type: ignore[index]
        index = {v: i for i, v in enumerate(elements)}
        n = len(elements)
        leq = [[a == b for b in range(n)] for a in range(n)]
        for lo, hi in truth["order"]:  # type: ignore[index]
            leq[index[lo]][index[hi]] = True
        for k in range(n):
            for a in range(n):
                for b in range(n):
                    leq[a][b] = leq[a][b] or (leq[a][k] and leq[k][b])

        def table(t: object) -> tuple:
            return tuple(index[v] if isinstance(v, str) else table(v) for v in t)  # type: ignore[union-attr]

        rules = tuple(
            (op, tuple(Rule(tuple(r["args"]), r["class"], table(r["table"])) for r in conn[op]))
            for op in CONNECTIVES
        )  # type: ignore[index]
        catch = {op: rs[-1].table for op, rs in rules}
        m = Matrix(
            "certificate",
            elements,
            tuple(map(tuple, leq)),
            index[conn["BOT"]["value"]],
            catch["NOT"],
            catch["AND"],
            catch["OR"],
            catch["IMPL"],
        )  # type: ignore[index]
        eq = table(conn["EQ"]["table"])  # type: ignore[index]
        if eq != (m.bottom, m.top):
            raise MatrixError("an equation's truths must be bottom and top")
        singletons = tuple((c, parse_formula(f)) for c, f in data.get("singletons", {}).items())  # type: ignore[union-attr]
        return Algebra(
            m,
            str(data["top_level"]),
            tuple(data["classes"].items()),
            singletons,
            rules,  # type: ignore[union-attr]
            tuple(conn["atoms"].items()),
            tuple(conn["predicates"].items()),
            conn["BOT"]["class"],
            conn["EQ"]["class"],
            "certificate",
        )  # type: ignore[index]
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        if isinstance(exc, MatrixError):
            raise
        raise MatrixError(f"malformed algebra ({exc.__class__.__name__}: {exc})") from None


@dataclass(frozen=True)
class Model:
    """An interpretation over range(domain): quantifiers range over `named`,
    the elements constants denote; atoms and predicates take truth values,
    functions may also reach the other elements."""

    domain: int
    named: tuple[int, ...]
    atoms: Mapping[str, int]
    predicates: Mapping[tuple[str, int], Mapping[tuple[int, ...], int]]
    constants: Mapping[str, int]
    functions: Mapping[tuple[str, int], Mapping[tuple[int, ...], int]]

    @staticmethod
    def from_data(data: Mapping[str, object], m: Matrix) -> Model:
        try:
            index = {v: i for i, v in enumerate(m.elements)}

            def sym(key: str) -> tuple[str, int]:
                name, arity = key.rsplit("/", 1)
                return name, int(arity)

            return Model(
                int(data["domain"]),
                tuple(data["named"]),
                {k: index[v] for k, v in data.get("atoms", {}).items()},  # type: ignore[arg-type,union-attr]
                {
                    sym(k): {tuple(a): index[v] for a, v in rows}
                    for k, rows in data.get("predicates", {}).items()
                },  # type: ignore[union-attr]
                dict(data.get("constants", {})),  # type: ignore[arg-type]
                {
                    sym(k): {tuple(a): v for a, v in rows}
                    for k, rows in data.get("functions", {}).items()
                },
            )  # type: ignore[union-attr]
        except (KeyError, TypeError, ValueError) as exc:
            raise MatrixError(f"malformed model ({exc.__class__.__name__}: {exc})") from None

    def as_data(self, m: Matrix) -> dict[str, object]:
        e = m.elements
        return {
            "domain": self.domain,
            "named": list(self.named),
            "atoms": {k: e[v] for k, v in sorted(self.atoms.items())},
            "predicates": {
                f"{k[0]}/{k[1]}": [[list(args), e[v]] for args, v in sorted(t.items())]
                for k, t in sorted(self.predicates.items())
            },
            "constants": dict(sorted(self.constants.items())),
            "functions": {
                f"{k[0]}/{k[1]}": [[list(args), v] for args, v in sorted(t.items())]
                for k, t in sorted(self.functions.items())
            },
        }


def term_value(t: Term, model: Model, env: Mapping[str, int]) -> int:
    if type(t) is Name:
        if t.name in env:
            return env[t.name]
        if t.name not in model.constants:
            raise MatrixError(f"the model does not interpret the constant {t.name}")
        return model.constants[t.name]
    args = tuple(term_value(a, model, env) for a in t.terms)
    table = model.functions.get((t.name, len(args)))
    if table is None or args not in table:
        raise MatrixError(f"the model does not interpret {t.name}/{len(args)} at {args}")
    return table[args]


def value(f: Formula, alg: Algebra, model: Model, env: Mapping[str, int] | None = None) -> int:
    """The truth of `f` in `model` under `alg` (free variables from `env`)."""
    env = env or {}
    m, cls = alg.matrix, type(f)
    if cls is Pred:
        if not f.terms:
            if f.name not in model.atoms:
                raise MatrixError(f"the model does not interpret the atom {f.name}")
            return model.atoms[f.name]
        args = tuple(term_value(t, model, env) for t in f.terms)
        table = model.predicates.get((f.name, len(args)))
        if table is None or args not in table:
            raise MatrixError(f"the model does not interpret {f.name}/{len(args)} at {args}")
        return table[args]
    if cls is Bot:
        return m.bot
    if cls is Eq:
        return (
            m.top if term_value(f.left, model, env) == term_value(f.right, model, env) else m.bottom
        )
    if cls is Forall or cls is Exists:
        op = m.meet if cls is Forall else m.join
        truth = reduce(
            lambda x, y: op[x][y],
            (value(f.body, alg, model, {**env, f.var: d}) for d in model.named),
        )
        return alg.rule(_OF_TYPE[cls], (alg.klass(f.body),)).table[truth]
    parts = [c for c in children(f) if isinstance(c, Formula)]
    rule = alg.rule(_OF_TYPE[cls], tuple(alg.klass(c) for c in parts))
    if cls is Not:
        return rule.table[value(f.body, alg, model, env)]
    return rule.table[value(f.left, alg, model, env)][value(f.right, alg, model, env)]


def refutes(alg: Algebra, model: Model, premises: tuple[Formula, ...], goal: Formula) -> bool:
    """Whether the model's premises hold (are top, when designated) and the goal does not."""
    m = alg.matrix
    values = [value(p, alg, model) for p in premises]
    if alg.mode == "designated":
        return all(v == m.top for v in values) and value(goal, alg, model) != m.top
    ctx = reduce(lambda x, y: m.meet[x][y], values, m.top)
    return not m.leq[ctx][value(goal, alg, model)]


def model_shapes(formulas) -> list[tuple[int, tuple[int, ...]]]:
    """(domain, named) to try: one element; two, both named; and, when there
    are function symbols, two with only the first named (terms reach beyond
    what the quantifiers range over)."""
    sig = signature(formulas)
    if not (
        sig.constants
        or sig.functions
        or any(a for _, a in sig.predicates)
        or any(_quantified(f) for f in formulas)
    ):
        return [(1, (0,))]
    return [(1, (0,)), (2, (0, 1))] + ([(2, (0,))] if sig.functions else [])


def countermodels(
    alg: Algebra,
    premises: tuple[Formula, ...],
    goal: Formula,
    limit: int = 200_000,
    stop: Callable[[], None] | None = None,
) -> Iterator[Model]:
    """Models refuting premises ⊢ goal under `alg`, smallest first (at most
    `limit` candidates per domain shape). `stop` is called every 256
    candidates and may raise to end the search (a caller's time limit)."""
    formulas = (*premises, goal)
    sig = signature(formulas)
    for n, named in model_shapes(formulas):
        # islice ends the shape at the limit: a `break` inside the nested
        # loops left the outer ones running through every atom valuation
        for tried, model in enumerate(islice(_models(alg, sig, n, named), limit), start=1):
            if stop is not None and tried % 256 == 0:
                stop()
            if refutes(alg, model, premises, goal):
                yield model


def _models(alg: Algebra, sig, n: int, named: tuple[int, ...]) -> Iterator[Model]:
    """Every model of the signature with domain range(n), `named` the elements
    constants may denote."""
    atoms = [name for name, arity in sig.predicates if arity == 0]
    preds = [(name, arity) for name, arity in sig.predicates if arity > 0]
    size = alg.matrix.size
    dom = range(n)
    pred_args = [list(product(dom, repeat=a)) for _, a in preds]
    fn_args = [list(product(dom, repeat=a)) for _, a in sig.functions]
    for consts in product(named, repeat=len(sig.constants)):
        for fns in product(*(product(dom, repeat=len(args)) for args in fn_args)):
            for atom_values in product(range(size), repeat=len(atoms)):
                for tables in product(
                    *(product(range(size), repeat=len(args)) for args in pred_args)
                ):
                    yield Model(
                        n,
                        named,
                        dict(zip(atoms, atom_values)),
                        {p: dict(zip(args, t)) for p, args, t in zip(preds, pred_args, tables)},
                        dict(zip(sig.constants, consts)),
                        {f: dict(zip(args, t)) for f, args, t in zip(sig.functions, fn_args, fns)},
                    )


def _quantified(f: Formula) -> bool:
    if isinstance(f, (Forall, Exists, Eq)):
        return True
    return any(isinstance(c, Formula) and _quantified(c) for c in f.args if isinstance(c, Formula))


# -- soundness of a world's rules ------------------------------------------------

# Propositional rule schemas: citations (("line", X) or ("box", assumption, last))
# and the standard conclusion, over metavariables A B C. Nested tuples are
# formulas: ("AND", X, Y), ("NOT", X), ("BOT",).
_BOT = ("BOT",)
_SCHEMAS: dict[str, list[tuple[tuple, object]]] = {
    "reit": [((("line", "A"),), "A")],
    "AND_I": [((("line", "A"), ("line", "B")), ("AND", "A", "B"))],
    "AND_E1": [((("line", ("AND", "A", "B")),), "A")],
    "AND_E2": [((("line", ("AND", "A", "B")),), "B")],
    "OR_I1": [((("line", "A"),), ("OR", "A", "B"))],
    "OR_I2": [((("line", "A"),), ("OR", "B", "A"))],
    "OR_E": [((("line", ("OR", "A", "B")), ("box", "A", "C"), ("box", "B", "C")), "C")],
    "IMPL_I": [((("box", "A", "B"),), ("IMPL", "A", "B"))],
    "IMPL_E": [
        ((("line", ("IMPL", "A", "B")), ("line", "A")), "B"),
        ((("line", "A"), ("line", ("IMPL", "A", "B"))), "B"),
    ],
    "NOT_I": [((("box", "A", _BOT),), ("NOT", "A"))],
    "NOT_E": [
        ((("line", "A"), ("line", ("NOT", "A"))), _BOT),
        ((("line", ("NOT", "A")), ("line", "A")), _BOT),
    ],
    "BOT_E": [((("line", _BOT),), "C")],
    "DNE": [((("line", ("NOT", ("NOT", "A"))),), "A")],
    "LEM": [((), ("OR", "A", ("NOT", "A")))],
}
_STRUCTURAL = ("premise", "assume")  # sound by the meaning of a line (the context is a meet)
_FIRST_ORDER = ("FORALL_I", "FORALL_E", "EXISTS_I", "EXISTS_E", "EQ_I", "EQ_E")
_SHAPES = {"AND": 2, "OR": 2, "IMPL": 2, "NOT": 1, "BOT": 0}


class _Opaque(Exception):
    """A conclusion patch the checker cannot read as a path into the schema."""


def _path(expr, refs: tuple) -> object:
    """Evaluate a conclusion patch made of (ref k), (last k), left, right, sub."""
    if isinstance(expr, Call) and expr.op in ("ref", "last") and len(expr.args) == 1:
        k = getattr(expr.args[0], "value", None)
        if type(k) is not int or not 1 <= k <= len(refs):
            return None
        r = refs[k - 1]
        return r[1] if expr.op == "ref" or r[0] == "line" else r[2]
    if isinstance(expr, Call) and expr.op in ("left", "right", "sub") and len(expr.args) == 1:
        inner = _path(expr.args[0], refs)
        if inner is None:
            return None
        if isinstance(inner, str):
            raise _Opaque("it looks inside a formula the rule does not fix")
        arity = _SHAPES[inner[0]]
        if expr.op == "sub":
            return inner[1] if arity == 1 else None
        return (inner[1] if expr.op == "left" else inner[2]) if arity == 2 else None
    if isinstance(expr, Sym) and expr.name == "conclusion":
        raise _Opaque("it derives the line's own formula, whatever it is")
    raise _Opaque("it is not a path into the rule's citations")


def _val(x: object, m: Matrix, env: Mapping[str, int]) -> int:
    if isinstance(x, str):
        return env[x]
    op = x[0]
    if op == "BOT":
        return m.bot
    if op == "NOT":
        return m.neg[_val(x[1], m, env)]
    table = {"AND": m.conj, "OR": m.disj, "IMPL": m.impl}[op]
    return table[_val(x[1], m, env)][_val(x[2], m, env)]


def _check_schema(m: Matrix, refs: tuple, out: object) -> dict[str, str] | None:
    """A counterexample (context and metavariable values) to the schema, or None."""
    metas = sorted(set(_metas(refs)) | set(_metas(out)))
    le, meet = m.leq, m.meet
    for g in range(m.size):
        for values in product(range(m.size), repeat=len(metas)):
            env = dict(zip(metas, values))
            ok = True
            for r in refs:
                if r[0] == "line":
                    ok = le[g][_val(r[1], m, env)]
                else:
                    ok = le[meet[g][_val(r[1], m, env)]][_val(r[2], m, env)]
                if not ok:
                    break
            if ok and not le[g][_val(out, m, env)]:
                return {"context": m.elements[g], **{k: m.elements[v] for k, v in env.items()}}
    return None


def _metas(x: object) -> Iterator[str]:
    if isinstance(x, str):
        if x not in ("line", "box"):
            yield x
    elif isinstance(x, tuple):
        for part in x[1:] if x and x[0] in ("line", "box", *_SHAPES) else x:
            yield from _metas(part)


def _first_order(rule: str, m: Matrix, n: int) -> str | None:
    """Check a quantifier or equality rule over a domain of n elements."""
    le, meet, join, size = m.leq, m.meet, m.join, m.size
    fns = list(product(range(size), repeat=n))

    def big(op, values):
        return reduce(lambda x, y: op[x][y], values)

    for g in range(size):
        if rule == "EQ_I" and not le[g][m.top]:
            return "EQ(t, t) is not true"
        if rule == "EQ_E":
            for table in product(range(size), repeat=n * n):
                for s in range(n):
                    for t in range(n):
                        eq = m.top if s == t else m.bottom
                        if le[g][eq] and le[g][table[s * n + s]] and not le[g][table[s * n + t]]:
                            return (
                                f"rewriting with an equation of value {m.elements[eq]} loses truth"
                            )
            continue
        for f in fns:
            lo, hi = big(meet, f), big(join, f)
            if rule == "FORALL_E" and le[g][lo] and not all(le[g][v] for v in f):
                return "an instance is not below the universal"
            if rule == "FORALL_I" and all(le[g][v] for v in f) and not le[g][lo]:
                return "the universal is not the meet of its instances"
            if rule == "EXISTS_I" and any(le[g][v] for v in f) and not le[g][hi]:
                return "an instance is not below the existential"
            if rule == "EXISTS_E":
                for c in range(size):
                    if le[g][hi] and all(le[meet[g][v]][c] for v in f) and not le[g][c]:
                        return "existential elimination does not distribute"
    return None


def unsound_rules(m: Matrix, world: World, domain: int = 1) -> list[str]:
    """The rules `world` allows that the matrix does not make sound over a
    domain of `domain` elements (each with a reason); empty when all are."""
    compiled = CompiledWorld(world)
    problems = []
    for rule in RULES:
        if rule in compiled.disabled or rule in _STRUCTURAL:
            continue
        patch = compiled.conclusions.get(rule)
        if rule in _FIRST_ORDER:
            if patch is not None:
                problems.append(
                    f"{rule}: its conclusion is patched ({patch.rule.conclusion}); only "
                    "propositional patches are checked"
                )
                continue
            reason = _first_order(rule, m, domain)
            if reason:
                problems.append(f"{rule}: {reason}")
            continue
        for refs, out in _SCHEMAS[rule]:
            if patch is not None:
                try:
                    out = _path(parse(patch.rule.conclusion), refs)
                except _Opaque as exc:
                    problems.append(
                        f"{rule}: cannot check its patched conclusion {patch.rule.conclusion}: "
                        f"{exc}"
                    )
                    break
                if out is None:
                    continue  # the patch derives nothing from this schema
            bad = _check_schema(m, refs, out)
            if bad is not None:
                where = ", ".join(f"{k}={v}" for k, v in bad.items())
                problems.append(f"{rule}: not sound ({where})")
                break
    return problems
