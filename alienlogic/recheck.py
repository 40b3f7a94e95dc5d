"""Independent re-checker of certificates of unprovability.

It reads a certificate (JSON text) and a world file (TOML text) on its own and
imports nothing from this project, only the standard library: no bug in the
search that found a certificate, in the proof checker or in the world loader
can make it accept one. `recheck(certificate_text, world_text)` returns every
problem found; an empty list means the certificate holds.

The claim of a certificate (format 2, kind "matrix"). Truth values form a
finite lattice. A formula's value is a pair (class, truth): its class comes
from its structure (atoms and predicates by name, a connective or quantifier
by its parts' classes, the first matching rule of `connectives`), its truth
from that rule's table; a quantifier's table is applied to the meet (FORALL)
or join (EXISTS) of its body's truths over the model's `named` elements,
which are also the only values constants take. A class may state the shape
every formula in it has, and a singleton class the one formula it holds.
A line whose open assumptions are A1..Ad holds in a model when
g0 ∧ A1 ∧ ... ∧ Ad ≤ its truth, with g0 the premises' meet (`top_level`
"any"), or top for models where every premise is top ("designated").

The check: every rule the world allows keeps lines holding — at every box
depth, for every context value and every value of the rule's formulas —
except instances a side condition of the world surely refuses (side
conditions are evaluated three-valued: what a value cannot tell, such as
line numbers, counts as possibly true); and the model makes the premises
hold and the goal not. By induction on proofs, no proof of any length exists.
The work is estimated, and refused when too large, before any is done.
"""

from __future__ import annotations

import json
import re
import tomllib
from itertools import product

MAX_TEXT, MAX_VALUES, MAX_CLASSES, MAX_RULES, MAX_DOMAIN, MAX_FORMULA, MAX_WORK = (
    200_000,
    6,
    8,
    32,
    3,
    2_000,
    1_500_000,
)
SHAPES = ("ATOM", "PRED", "BOT", "NOT", "AND", "OR", "IMPL", "FORALL", "EXISTS", "EQ")
ARITY = {"NOT": 1, "AND": 2, "OR": 2, "IMPL": 2, "FORALL": 1, "EXISTS": 1}
INF = float("inf")
U = "?unknown"  # a side condition's value that the schematic step cannot tell
NONE = ("none",)  # the expression value none
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
LOWER = re.compile(r"[a-z][A-Za-z0-9_]*")


class Refused(Exception):
    """A problem that ends the check."""


# -- reading the world and formulas ------------------------------------------------------------


def sexpr(text: str):
    """A rule expression as nested tuples of ints, bools, NONE and symbol strings."""
    tokens = re.findall(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()"]+', text)
    if len(tokens) > 1000:
        raise Refused("a world expression is too long")
    pos = 0

    def read(depth: int):
        nonlocal pos
        if pos >= len(tokens) or depth > 50 or tokens[pos] == ")":
            raise Refused(f"cannot read the world expression {text[:60]!r}")
        tok, pos = tokens[pos], pos + 1
        if tok != "(":
            if re.fullmatch(r"-?\d{1,12}", tok):
                return int(tok)
            return {"true": True, "false": False, "none": NONE}.get(tok, tok)
        items = []
        while pos < len(tokens) and tokens[pos] != ")":
            items.append(read(depth + 1))
        if pos >= len(tokens):
            raise Refused(f"cannot read the world expression {text[:60]!r}")
        pos += 1
        return tuple(items)

    expr = read(0)
    if pos != len(tokens):
        raise Refused(f"cannot read the world expression {text[:60]!r}")
    return expr


def world_patches(world_text: str | None) -> dict[str, dict]:
    """Per standard rule name: disabled, its require expressions, its conclusion patch."""
    rules = tomllib.loads(world_text).get("rules", []) if world_text else []
    if not isinstance(rules, list) or not all(isinstance(r, dict) for r in rules):
        raise Refused("the world's rules are not a list of tables")
    out: dict[str, dict] = {}
    for r in rules:
        entry = out.setdefault(
            str(r.get("target")), {"disabled": False, "require": [], "conclusion": None}
        )
        entry["disabled"] |= r.get("disabled") is True
        if isinstance(r.get("require"), str):
            entry["require"].append(sexpr(r["require"]))
        if isinstance(r.get("conclusion"), str):
            if entry["conclusion"] is not None:
                raise Refused(f"two conclusion patches for {r.get('target')}")
            entry["conclusion"] = sexpr(r["conclusion"])
    return out


def parse_formula(text: object) -> tuple:
    """("BOT",) ("NOT", f) ("AND", f, g) ("FORALL", x, f) ("EQ", s, t) ("P", name, terms);
    a term is (name, args)."""
    if not isinstance(text, str) or len(text) > MAX_FORMULA:
        raise Refused(
            f"{str(text)[:40]!r} is not a formula (a string of at most {MAX_FORMULA} characters)"
        )
    tokens = re.findall(r"[A-Za-z][A-Za-z0-9_]*|\S", text)
    pos = 0

    def take(pattern: re.Pattern | str) -> str:
        nonlocal pos
        ok = pos < len(tokens) and (
            tokens[pos] == pattern if isinstance(pattern, str) else pattern.fullmatch(tokens[pos])
        )
        if not ok:
            raise Refused(f"cannot read the formula {text[:60]!r}")
        pos += 1
        return tokens[pos - 1]

    def terms(depth: int) -> tuple:
        if pos >= len(tokens) or tokens[pos] != "(":
            return ()
        take("(")
        out = [term(depth + 1)]
        while tokens[pos : pos + 1] == [","]:
            take(",")
            out.append(term(depth + 1))
        take(")")
        return tuple(out)

    def term(depth: int) -> tuple:
        if depth > 60:
            raise Refused(f"the formula {text[:60]!r} is nested too deeply")
        return (take(LOWER), terms(depth))

    def formula(depth: int) -> tuple:
        if depth > 60:
            raise Refused(f"the formula {text[:60]!r} is nested too deeply")
        word = take(NAME)
        if word == "BOT":
            return ("BOT",)
        if word in ("FORALL", "EXISTS", "EQ") or word in ARITY:
            take("(")
            if word in ("FORALL", "EXISTS"):
                parts = [take(LOWER), take(",") and formula(depth + 1)]
            elif word == "EQ":
                parts = [term(depth + 1), take(",") and term(depth + 1)]
            else:
                parts = [formula(depth + 1)] + [
                    take(",") and formula(depth + 1) for _ in range(ARITY[word] - 1)
                ]
            take(")")
            return (word, *parts)
        return ("P", word, terms(depth))

    f = formula(0)
    if pos != len(tokens):
        raise Refused(f"cannot read the formula {text[:60]!r}")
    return f


def shape_of(f: tuple) -> str:
    return ("PRED" if f[2] else "ATOM") if f[0] == "P" else f[0]


# -- the certificate, validated ----------------------------------------------------------------


class Certificate:
    """The certificate's parts; every problem of its data goes to `problems`."""

    def __init__(self, data: dict) -> None:
        self.problems: list[str] = []
        self.premises = self._formulas(data.get("premises"), "premises")
        self.goal = self._formulas([data.get("goal")], "goal")
        truth = self._object(data, "truth")
        self.values = self._names(truth.get("values"), "truth.values", MAX_VALUES)
        self.index = {v: i for i, v in enumerate(self.values)}
        self._lattice(truth.get("order"))
        self.mode = data.get("top_level")
        if self.mode not in ("any", "designated"):
            self.problems.append('top_level: "any" or "designated"')
        classes = self._object(data, "classes")
        if not 1 <= len(classes) <= MAX_CLASSES:
            self.problems.append(f"classes: from 1 to {MAX_CLASSES} classes, each with a shape")
        self.shape = {
            str(c): (s if s in SHAPES else None) for c, s in list(classes.items())[:MAX_CLASSES]
        }
        for c, s in classes.items():
            if s != "*" and s not in SHAPES:
                self.problems.append(f"classes.{c}: a shape is * or one of {' '.join(SHAPES)}")
            if c == "*":
                self.problems.append("classes: * is the wildcard of rules, not a class name")
        self.singletons = {}
        for c, f in self._object(data, "singletons", optional=True).items():
            if c not in self.shape:
                self.problems.append(f"singletons.{c}: not a class")
            self.singletons[c] = (self._formulas([f], f"singletons.{c}") or [("BOT",)])[0]
        conn = self._object(data, "connectives")
        self.rules = {op: self._rules(conn.get(op), op, n) for op, n in ARITY.items()}
        self.atoms = self._naming(conn.get("atoms"), "atoms", "ATOM")
        self.predicates = self._naming(conn.get("predicates"), "predicates", "PRED")
        self.bot = self._constant(conn.get("BOT"), "BOT", "value")
        self.eq = self._constant(conn.get("EQ"), "EQ", "table")
        self._model(self._object(data, "model"))
        if not self.problems:
            self._singletons()

    def _formulas(self, items: object, where: str) -> list[tuple]:
        if not isinstance(items, list) or len(items) > 64:
            self.problems.append(f"{where}: expected a list of formulas")
            return []
        out = []
        for f in items:
            try:
                out.append(parse_formula(f))
            except Refused as exc:
                self.problems.append(f"{where}: {exc}")
        return out

    def _object(self, data: dict, key: str, optional: bool = False, where: str = "") -> dict:
        v = data.get(key, {} if optional else None)
        if not isinstance(v, dict):
            self.problems.append(f"{where}{key}: expected an object")
            return {}
        return v

    def _names(self, items: object, where: str, cap: int) -> list[str]:
        if (
            not isinstance(items, list)
            or not 1 <= len(items) <= cap
            or not all(isinstance(x, str) for x in items)
            or len(set(items)) != len(items)
        ):
            self.problems.append(f"{where}: expected 1 to {cap} distinct names")
            return ["0"]
        return items

    def _lattice(self, order: object) -> None:
        n = len(self.values)
        le = [[a == b for b in range(n)] for a in range(n)]
        if not isinstance(order, list) or len(order) > n * n:
            self.problems.append("truth.order: expected a list of [lower, upper] pairs")
            order = []
        for pair in order:
            if (
                isinstance(pair, list)
                and len(pair) == 2
                and all(isinstance(p, str) and p in self.index for p in pair)
            ):
                le[self.index[pair[0]]][self.index[pair[1]]] = True
            else:
                self.problems.append(f"truth.order: {str(pair)[:40]} is not a pair of truth values")
        for k, a, b in product(range(n), repeat=3):
            le[a][b] = le[a][b] or (le[a][k] and le[k][b])
        self.le = le
        if any(le[a][b] and le[b][a] for a in range(n) for b in range(a)):
            self.problems.append("truth.order: not antisymmetric")

        def bound(a: int, b: int, lower: bool) -> int:
            common = [
                c for c in range(n) if (le[c][a] and le[c][b] if lower else le[a][c] and le[b][c])
            ]
            best = [c for c in common if all(le[d][c] if lower else le[c][d] for d in common)]
            return best[0] if len(best) == 1 else -1

        self.meet = [[bound(a, b, True) for b in range(n)] for a in range(n)]
        self.join = [[bound(a, b, False) for b in range(n)] for a in range(n)]
        if any(-1 in row for row in self.meet + self.join):
            self.problems.append("truth.order: not a lattice (a pair has no meet or no join)")
            self.meet = self.join = [[0] * n for _ in range(n)]
        self.top = max(range(n), key=lambda a: sum(le[b][a] for b in range(n)))
        self.bottom = max(range(n), key=lambda a: sum(le[a][b] for b in range(n)))

    def _value(self, v: object, where: str) -> int:
        if not isinstance(v, str) or v not in self.index:
            self.problems.append(f"{where}: {str(v)[:40]!r} is not a truth value")
            return 0
        return self.index[v]

    def _class(
        self, c: object, where: str, shape: str | None = None, wildcard: bool = False
    ) -> str:
        if wildcard and c == "*":
            return c
        if not isinstance(c, str) or c not in self.shape:
            self.problems.append(f"{where}: {str(c)[:40]!r} is not a class")
            return next(iter(self.shape), "*")
        if shape and self.shape[c] not in (None, shape):
            self.problems.append(f"{where}: class {c} has shape {self.shape[c]}, not {shape}")
        return c

    def _table(self, t: object, where: str, binary: bool) -> list:
        n = len(self.values)
        rows = t if binary else [t]
        if (
            not isinstance(rows, list)
            or len(rows) != (n if binary else 1)
            or not all(isinstance(r, list) and len(r) == n for r in rows)
        ):
            self.problems.append(
                f"{where}.table: one truth value per truth value of the "
                f"operand{' (a row per left value)' if binary else ''}"
            )
            return [[0] * n for _ in range(n)] if binary else [0] * n
        out = [[self._value(v, f"{where}.table") for v in r] for r in rows]
        return out if binary else out[0]

    def _rules(self, rules: object, op: str, arity: int) -> list[tuple]:
        out = []
        if not isinstance(rules, list) or not 1 <= len(rules) <= MAX_RULES:
            self.problems.append(f"connectives.{op}: a list of 1 to {MAX_RULES} rules")
            rules = []
        for i, r in enumerate(rules):
            where = f"connectives.{op}[{i}]"
            if (
                not isinstance(r, dict)
                or not isinstance(r.get("args"), list)
                or len(r["args"]) != arity
            ):
                self.problems.append(
                    f"{where}: expected {{args: [{arity} class(es) or *], class, table}}"
                )
                continue
            args = tuple(self._class(a, where, wildcard=True) for a in r["args"])
            out.append(
                (
                    args,
                    self._class(r.get("class"), where, op),
                    self._table(r.get("table"), where, arity == 2),
                )
            )
        if rules and (not out or any(a != "*" for a in out[-1][0])):
            self.problems.append(
                f"connectives.{op}: the last rule must match every class (args all *)"
            )
        return out or [
            (
                ("*",) * arity,
                next(iter(self.shape), "*"),
                [[0] * len(self.values)] * len(self.values)
                if arity == 2
                else [0] * len(self.values),
            )
        ]

    def _naming(self, names: object, key: str, shape: str) -> dict[str, str]:
        if not isinstance(names, dict) or "*" not in names or len(names) > 64:
            self.problems.append(
                f"connectives.{key}: an object from names to classes, with a default *"
            )
            return {"*": next(iter(self.shape), "*")}
        return {k: self._class(v, f"connectives.{key}.{k}", shape) for k, v in names.items()}

    def _constant(self, r: object, key: str, part: str) -> tuple:
        if not isinstance(r, dict):
            self.problems.append(f"connectives.{key}: expected {{class, {part}}}")
            return (next(iter(self.shape), "*"), [0, 0])
        c = self._class(r.get("class"), f"connectives.{key}", key)
        if part == "value":
            return (c, [self._value(r.get("value"), f"connectives.{key}.value")])
        t = r.get("table")
        if not isinstance(t, list) or len(t) != 2:
            self.problems.append(
                f"connectives.{key}.table: [truth when the terms differ, truth when they are equal]"
            )
            return (c, [0, 0])
        return (c, [self._value(v, f"connectives.{key}.table") for v in t])

    def _model(self, m: dict) -> None:
        n = m.get("domain")
        if type(n) is not int or not 1 <= n <= MAX_DOMAIN:
            self.problems.append(f"model.domain: an integer from 1 to {MAX_DOMAIN}")
            n = 1
        self.domain = n
        named = m.get("named")
        if (
            not isinstance(named, list)
            or not named
            or len(set(map(str, named))) != len(named)
            or not all(type(e) is int and 0 <= e < n for e in named)
        ):
            self.problems.append("model.named: a non-empty list of distinct elements of the domain")
            named = [0]
        self.named = named

        def element(v: object, where: str, within: list[int]) -> int:
            if type(v) is not int or v not in within:
                self.problems.append(
                    f"{where}: {str(v)[:40]!r} is not one of the elements {within}"
                )
                return within[0]
            return v

        def symbols(key: str, cell) -> dict:
            out = {}
            for sym, rows in self._object(m, key, optional=True, where="model.").items():
                name, _, arity = sym.rpartition("/")
                k = int(arity) if arity in ("1", "2", "3") else 0
                if (
                    not k
                    or not NAME.fullmatch(name)
                    or not isinstance(rows, list)
                    or len(rows) != n**k
                ):
                    self.problems.append(
                        f"model.{key}.{sym}: name/arity (1 to 3) and one [[arguments], value] "
                        "row per argument tuple"
                    )
                    continue
                table = {}
                for row in rows:
                    if (
                        isinstance(row, list)
                        and len(row) == 2
                        and isinstance(row[0], list)
                        and len(row[0]) == k
                    ):
                        table[
                            tuple(element(a, f"model.{key}.{sym}", list(range(n))) for a in row[0])
                        ] = cell(row[1], f"model.{key}.{sym}")
                    else:
                        self.problems.append(f"model.{key}.{sym}: a row is [[arguments], value]")
                out[(name, k)] = table
            return out

        self.atom_truth = {
            k: self._value(v, f"model.atoms.{k}")
            for k, v in self._object(m, "atoms", True, "model.").items()
        }
        self.constants = {
            k: element(v, f"model.constants.{k}", named)
            for k, v in self._object(m, "constants", True, "model.").items()
        }
        self.pred_truth = symbols("predicates", self._value)
        self.functions = symbols("functions", lambda v, w: element(v, w, list(range(n))))

    def _singletons(self) -> None:
        """Whatever produces a singleton class must produce exactly its formula."""
        single = self.singletons
        for name, c in self.atoms.items():
            if c in single and single[c] != ("P", name, ()):
                self.problems.append(
                    f"connectives.atoms.{name}: class {c} holds only the formula of singletons.{c}"
                )
        for c in [*self.predicates.values(), self.eq[0]]:
            if c in single:
                self.problems.append(
                    f"class {c}: the class of a predicate or an equation cannot be a singleton"
                )
        if self.bot[0] in single and single[self.bot[0]] != ("BOT",):
            self.problems.append(
                f"class {self.bot[0]}: the class of BOT holds only another formula"
            )
        for op, rules in self.rules.items():
            for args, c, _ in rules:
                if c in single and (
                    op in ("FORALL", "EXISTS")
                    or any(a not in single for a in args)
                    or single[c] != (op, *(single[a] for a in args))
                ):
                    self.problems.append(
                        f"connectives.{op}: class {c} holds only one formula, which this rule "
                        "does not build"
                    )
        for c, f in single.items():
            if self.shape[c] != shape_of(f):
                self.problems.append(
                    f"singletons.{c}: the formula's shape is {shape_of(f)}, the class's "
                    f"{self.shape[c]}"
                )

    def connective(self, op: str, classes: tuple) -> tuple[str, list]:
        return next(
            (c, t)
            for args, c, t in self.rules[op]
            if all(a in ("*", b) for a, b in zip(args, classes))
        )

    # -- values ---------------------------------------------------------------------------------

    def value(self, f: tuple, env: dict[str, int]) -> tuple[str, int]:
        """(class, truth) of a formula of the theorem in the model."""
        op = f[0]
        if op == "BOT":
            return self.bot[0], self.bot[1][0]
        if op == "P":
            if not f[2]:
                if f[1] not in self.atom_truth:
                    raise Refused(f"the model gives no truth to the atom {f[1]}")
                return self.atoms.get(f[1], self.atoms["*"]), self.atom_truth[f[1]]
            args = tuple(self.term(t, env) for t in f[2])
            table = self.pred_truth.get((f[1], len(args)), {})
            if args not in table:
                raise Refused(f"the model does not interpret {f[1]}/{len(args)} at {args}")
            return self.predicates.get(f[1], self.predicates["*"]), table[args]
        if op == "EQ":
            return self.eq[0], self.eq[1][self.term(f[1], env) == self.term(f[2], env)]
        if op in ("FORALL", "EXISTS"):
            parts = [self.value(f[2], {**env, f[1]: e}) for e in self.named]
            c, table = self.connective(op, (parts[0][0],))
            acc = self.meet if op == "FORALL" else self.join
            truth = parts[0][1]
            for _, t in parts[1:]:
                truth = acc[truth][t]
            return c, table[truth]
        parts = [self.value(g, env) for g in f[1:]]
        c, table = self.connective(op, tuple(p[0] for p in parts))
        return c, (table[parts[0][1]] if op == "NOT" else table[parts[0][1]][parts[1][1]])

    def term(self, t: tuple, env: dict[str, int]) -> int:
        name, args = t
        if not args:
            if name in env:
                return env[name]
            if name not in self.constants:
                raise Refused(f"the model gives no element to the constant {name}")
            return self.constants[name]
        vals = tuple(self.term(a, env) for a in args)
        table = self.functions.get((name, len(vals)), {})
        if vals not in table:
            raise Refused(f"the model does not interpret {name}/{len(vals)} at {vals}")
        return table[vals]

    def cost(self, f: tuple) -> int:
        """Work of evaluating f (quantifiers multiply), to bound before evaluating."""
        if f[0] in ("FORALL", "EXISTS"):
            return 1 + len(self.named) * self.cost(f[2])
        return 1 + sum(self.cost(g) for g in f[1:]) if f[0] in ("NOT", "AND", "OR", "IMPL") else 1

    def element(self, node: object, env: dict) -> tuple | None:
        """(class, truth) of a schematic formula: metavariables from env."""
        if isinstance(node, str):
            return env.get(node)
        if not (
            isinstance(node, tuple) and node and node[0] in ("BOT", "NOT", "AND", "OR", "IMPL")
        ):
            return None
        if node == ("BOT",):
            return self.bot[0], self.bot[1][0]
        parts = [self.element(p, env) for p in node[1:]]
        if None in parts or any(p[1] is None for p in parts):
            return None
        c, table = self.connective(node[0], tuple(p[0] for p in parts))
        return c, (table[parts[0][1]] if node[0] == "NOT" else table[parts[0][1]][parts[1][1]])


# -- side conditions, three-valued ----------------------------------------------------------


class Step:
    """A schematic step. Nodes: metavariable names (values in env), BOT, or
    (connective, parts); `box` citations are ("box", assumption, last)."""

    def __init__(
        self,
        cert: Certificate,
        depth: tuple,
        refs: list,
        out: object,
        env: dict,
        extra: dict | None = None,
    ) -> None:
        self.cert, self.depth, self.refs, self.out, self.env, self.extra = (
            cert,
            depth,
            refs,
            out,
            env,
            extra or {},
        )

    def shape(self, node: object) -> str | None:
        if isinstance(node, tuple) and node[0] in SHAPES:
            return node[0]
        e = self.cert.element(node, self.env) if node is not NONE else None
        return self.cert.shape.get(e[0]) if e else None

    def equal(self, a: object, b: object) -> object:
        if a == b:
            return True
        if NONE in (a, b):
            return False
        sa, sb = self.shape(a), self.shape(b)
        if sa and sb and sa != sb:
            return False
        ea, eb = self.cert.element(a, self.env), self.cert.element(b, self.env)
        if not (ea and eb):
            return U
        if ea[0] == eb[0] and ea[0] in self.cert.singletons:
            return True  # one formula per singleton class
        if ea[0] != eb[0] or None not in (ea[1], eb[1]) and ea[1] != eb[1]:
            return False  # different values: different formulas
        return U

    def part(self, op: str, node: object) -> object:
        if node is NONE or node == BOT:
            return NONE
        if isinstance(node, tuple) and node[0] in ("NOT", "AND", "OR", "IMPL"):
            index = {
                "sub": 1 if node[0] == "NOT" else None,
                "left": 1 if len(node) == 3 else None,
                "right": 2 if len(node) == 3 else None,
            }[op]
            return NONE if index is None else node[index]
        if (op, node) in self.extra:
            return self.extra[(op, node)]
        shape = self.shape(node)
        has = ("NOT", "FORALL", "EXISTS") if op == "sub" else ("AND", "OR", "IMPL", "EQ")
        return NONE if shape and shape not in has else U

    def eval(self, e: object) -> object:
        if isinstance(e, bool) or e is NONE:
            return e
        if isinstance(e, int):
            return (e, e)
        if e == "depth":
            return self.depth
        if e == "nrefs":
            return (len(self.refs), len(self.refs))
        if e == "conclusion":
            return self.out
        if not isinstance(e, tuple) or not e:
            return U
        op, args = e[0], e[1:]
        if (
            op in ("ref", "last")
            and len(args) == 1
            and isinstance(args[0], int)
            and not isinstance(args[0], bool)
        ):
            if not 1 <= args[0] <= len(self.refs):
                return NONE
            r = self.refs[args[0] - 1]
            return (r[2] if op == "last" else r[1]) if r[:1] == ("box",) else r
        if op == "if" and len(args) == 3:
            c = self.eval(args[0])
            if isinstance(c, bool):
                return self.eval(args[1] if c else args[2])
            a, b = self.eval(args[1]), self.eval(args[2])
            return a if a != U and a == b else U
        vals = [self.eval(a) for a in args]
        if op == "not" and len(vals) == 1:
            return (not vals[0]) if isinstance(vals[0], bool) else U
        if op in ("and", "or") and vals:
            decisive = op == "or"
            if decisive in vals:
                return decisive
            return (not decisive) if all(isinstance(v, bool) for v in vals) else U
        if op == "is" and len(vals) == 2 and args[0] in SHAPES:
            shape = None if vals[1] in (U, NONE) else self.shape(vals[1])
            return False if vals[1] is NONE else (U if shape is None else shape == args[0])
        if op in ("left", "right", "sub") and len(vals) == 1:
            return U if vals[0] == U else self.part(op, vals[0])
        if op == "size" and len(vals) == 1:
            return self.extra.get(("size", vals[0]), U)
        if op in ("==", "!=", "<", "<=", ">", ">=") and len(vals) == 2 and U not in vals:
            return compare(self, op, *vals)
        return U


def kind(x: object) -> str:
    """What a value of a side condition is: bool, num (a range of integers),
    size (of a schematic formula), or formula (a schematic node or none)."""
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, tuple) and x[:1] == ("size",):
        return "size"
    if (
        isinstance(x, tuple)
        and len(x) == 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in x)
    ):
        return "num"
    return "formula"


def compare(step: Step, op: str, a: object, b: object) -> object:
    if op == "!=":
        same = compare(step, "==", a, b)
        return U if same == U else not same
    ka, kb = kind(a), kind(b)
    if "bool" in (ka, kb):
        return a == b if op == "==" and ka == kb else U
    if "size" in (ka, kb):  # ("size", base, growth): growth "0" is the base's size, "+" larger
        if op != "==" or ka != kb or a[1] != b[1] or a[2] == b[2] == "+":
            return U
        return a[2] == b[2]
    if ka == kb == "num":
        (lo1, hi1), (lo2, hi2) = a, b  # number ranges: the depth may stand for lo or deeper
        always = {
            "==": lo1 == hi1 == lo2 == hi2,
            "<": hi1 < lo2,
            "<=": hi1 <= lo2,
            ">": lo1 > hi2,
            ">=": lo1 >= hi2,
        }[op]
        never = {
            "==": hi1 < lo2 or hi2 < lo1,
            "<": lo1 >= hi2,
            "<=": lo1 > hi2,
            ">": hi1 <= lo2,
            ">=": hi1 < lo2,
        }[op]
        return True if always else (False if never else U)
    if op != "==":
        return U
    return False if ka != kb else step.equal(a, b)  # a number is never a formula or none


def read_path(e: object) -> bool:
    """Whether a conclusion patch is a path into the rule's citations."""
    if isinstance(e, tuple) and len(e) == 2 and e[0] in ("ref", "last"):
        return isinstance(e[1], int) and not isinstance(e[1], bool)
    return (
        isinstance(e, tuple)
        and len(e) == 2
        and e[0] in ("left", "right", "sub")
        and read_path(e[1])
    )


# -- rule checks ----------------------------------------------------------------------------


def box(a: object, b: object) -> tuple:
    return ("box", a, b)


BOT = ("BOT",)
# citations and conclusion over metavariables A B C; either citation order where the rule allows it
SCHEMAS = {
    "reit": [(["A"], "A")],
    "AND_I": [(["A", "B"], ("AND", "A", "B"))],
    "AND_E1": [([("AND", "A", "B")], "A")],
    "AND_E2": [([("AND", "A", "B")], "B")],
    "OR_I1": [(["A"], ("OR", "A", "B"))],
    "OR_I2": [(["A"], ("OR", "B", "A"))],
    "OR_E": [([("OR", "A", "B"), box("A", "C"), box("B", "C")], "C")],
    "IMPL_I": [([box("A", "B")], ("IMPL", "A", "B"))],
    "IMPL_E": [([("IMPL", "A", "B"), "A"], "B"), (["A", ("IMPL", "A", "B")], "B")],
    "NOT_I": [([box("A", BOT)], ("NOT", "A"))],
    "NOT_E": [(["A", ("NOT", "A")], BOT), ([("NOT", "A"), "A"], BOT)],
    "BOT_E": [([BOT], "C")],
    "DNE": [([("NOT", ("NOT", "A"))], "A")],
    "LEM": [([], ("OR", "A", ("NOT", "A")))],
}
QUANTIFIER_RULES = ("FORALL_E", "FORALL_I", "EXISTS_I", "EXISTS_E", "EQ_I", "EQ_E")


def _metas(x: object) -> set[str]:
    if isinstance(x, str):
        return {x}
    return (
        set().union(*(_metas(p) for p in x[1:]))
        if isinstance(x, tuple)
        else set().union(*(_metas(p) for p in x))
    )


def depth_ranges(patches: dict) -> list[tuple]:
    """Box depths in classes no side condition tells apart: each integer
    constant c of a condition gets its own class, the rest are ranges."""
    points = {0, 1}

    def walk(e: object) -> None:
        if isinstance(e, int) and not isinstance(e, bool) and 0 <= e < 10**6:
            points.update((e, e + 1))
        elif isinstance(e, tuple):
            for x in e:
                walk(x)

    for p in patches.values():
        walk(p["require"])
    pts = sorted(points)
    return [(a, b - 1) for a, b in zip(pts, pts[1:])] + [(pts[-1], INF)]


class Checker:
    def __init__(self, cert: Certificate, patches: dict, first: bool = False) -> None:
        self.c, self.patches, self.first = cert, patches, first  # first: stop at the first problem
        self.depths = depth_ranges(patches)
        n = range(len(cert.values))
        self.elements = [(k, t) for k in cert.shape for t in n]

    def contexts(self, depth: tuple) -> list[int]:
        return (
            [self.c.top]
            if depth[0] == 0 and self.c.mode == "designated"
            else list(range(len(self.c.values)))
        )

    def allowed(self, rule: str) -> bool:
        return not self.patches.get(rule, {}).get("disabled")

    def refused(self, rule: str, step: Step) -> bool:
        return any(step.eval(r) is False for r in self.patches.get(rule, {}).get("require", []))

    def work(self) -> int:
        """An upper bound on the steps of the check: instances times the size
        of the side conditions evaluated on each, plus the model's work."""
        c, nv, ndepth = self.c, len(self.c.values), len(self.depths)

        def size(e: object) -> int:
            return 1 + sum(size(x) for x in e) if isinstance(e, tuple) else 1

        def conditions(rule: str) -> int:
            return 2 + sum(size(e) for e in self.patches.get(rule, {}).get("require", []))

        total = sum(
            ndepth * nv * len(self.elements) ** len(_metas([refs, out])) * conditions(rule)
            for rule, variants in SCHEMAS.items()
            if self.allowed(rule)
            for refs, out in variants
        )
        total += sum(
            ndepth * nv * len(c.shape) * nv**c.domain * (3 * c.domain + nv) * conditions(rule)
            for rule in QUANTIFIER_RULES
        )
        return total + sum(c.cost(f) for f in [*c.premises, *c.goal])

    def propositional(self) -> list[str]:
        problems = []
        for rule, variants in SCHEMAS.items():
            if not self.allowed(rule):
                continue
            patch = self.patches.get(rule, {}).get("conclusion")
            if patch is not None and not read_path(patch):
                problems.append(
                    f"{rule}: its patched conclusion is not a path into its citations; it cannot "
                    "be checked"
                )
                continue
            for refs, out in variants:
                metas = sorted(_metas([refs, out]))
                bad = self._schema(rule, refs, out, metas, patch)
                if bad:
                    problems.append(f"{rule}: not sound ({bad})")
                    break
            if problems and self.first:
                break
        return problems

    def _schema(
        self, rule: str, refs: list, out: object, metas: list[str], patch: object
    ) -> str | None:
        """A counterexample to the rule: cited lines hold, the conclusion does
        not, and no side condition surely refuses the step; or None."""
        c, le, meet = self.c, self.c.le, self.c.meet
        for values in product(self.elements, repeat=len(metas)):
            env = dict(zip(metas, values))
            concl = out
            if patch is not None:
                concl = Step(c, (0, INF), refs, None, env).eval(patch)
                if concl == U:
                    return (
                        "its patched conclusion looks inside a formula "
                        f"the rule does not fix, at {env}"
                    )
                if concl is NONE:
                    continue
            lines = [c.element(r, env)[1] for r in refs if r[:1] != ("box",)]
            boxes = [
                (c.element(r[1], env)[1], c.element(r[2], env)[1])
                for r in refs
                if r[:1] == ("box",)
            ]
            truth = c.element(concl, env)[1]
            for depth in self.depths:
                for g in self.contexts(depth):
                    if (
                        le[g][truth]
                        or not all(le[g][t] for t in lines)
                        or not all(le[meet[g][a]][b] for a, b in boxes)
                    ):
                        continue
                    if not self.refused(rule, Step(c, depth, refs, concl, env)):
                        where = ", ".join(f"{k}={v[0]}:{c.values[v[1]]}" for k, v in env.items())
                        return (
                            f"depth {depth[0]}{'+' if depth[1] == INF else ''}, "
                            f"context {c.values[g]}{', ' + where if where else ''}"
                        )
        return None

    def quantifiers(self) -> list[str]:
        """FORALL_E/EXISTS_I instantiate with a name (a named element), a term
        (any element; its size exceeds the variable's) or vacuously; FORALL_I
        and EXISTS_E generalise a fresh name (every named element)."""
        c, le, meet, problems = self.c, self.c.le, self.c.meet, []
        nv = range(len(c.values))
        for rule in QUANTIFIER_RULES:
            if not self.allowed(rule):
                continue
            if self.patches.get(rule, {}).get("conclusion") is not None:
                problems.append(
                    f"{rule}: its conclusion is patched; only propositional patches are checked"
                )
                continue
            bad = next((why for why in self._quantifier(rule, c, le, meet, nv) if why), None)
            if bad:
                problems.append(f"{rule}: not sound ({bad})")
                if self.first:
                    break
        return problems

    def _quantifier(self, rule: str, c: Certificate, le, meet, nv):
        op = "FORALL" if rule.startswith("FORALL") else "EXISTS"
        for depth in self.depths:
            for g in self.contexts(depth):
                where = f"depth {depth[0]}{'+' if depth[1] == INF else ''}, context {c.values[g]}"
                if rule == "EQ_I":
                    step = Step(c, depth, [], "EQN", {"EQN": (c.eq[0], c.eq[1][1])})
                    yield (
                        None
                        if self.refused(rule, step) or le[g][c.eq[1][1]]
                        else f"{where}: EQ(t, t) is not true"
                    )
                    continue
                if rule == "EQ_E":
                    env = {"EQN": (c.eq[0], c.eq[1][0]), "PHI": None, "PHI2": None}
                    for refs in (["EQN", "PHI"], ["PHI", "EQN"]):
                        step = Step(c, depth, refs, "PHI2", env)
                        if not self.refused(rule, step) and le[g][c.eq[1][0]] and g != c.bottom:
                            yield (
                                f"{where}: an equation between different elements "
                                "is not false enough to rewrite with"
                            )
                    continue
                for body in c.shape:
                    qc, table = c.connective(op, (body,))
                    for f in product(nv, repeat=c.domain):
                        acc = c.meet if op == "FORALL" else c.join
                        m = f[c.named[0]]
                        for e in c.named[1:]:
                            m = acc[m][f[e]]
                        q = table[m]
                        yield self._instance(rule, depth, g, body, qc, q, f, where)

    def _instance(
        self, rule: str, depth: tuple, g: int, body: str, qc: str, q: int, f: tuple, where: str
    ) -> str | None:
        c, le, meet = self.c, self.c.le, self.c.meet
        vacuous = len(set(f)) == 1
        kinds = [("0", c.named), ("+", range(c.domain))] + (
            [("v", range(c.domain))] if vacuous else []
        )
        env = {"Q": (qc, q), "BODY": (body, None), "INST": (body, None), "CHI": None}
        extra = {("sub", "Q"): "BODY"}
        for growth, elements in kinds:
            if rule in ("FORALL_I", "EXISTS_E") and growth == "+":
                continue  # a fresh constant is a name
            extra[("size", "BODY")], extra[("size", "INST")] = (
                ("size", "x", "0"),
                ("size", "x", "0" if growth == "v" else growth),
            )
            if rule == "FORALL_E":
                step = Step(c, depth, ["Q"], "INST", env, extra)
                bad = le[g][q] and any(not le[g][f[e]] for e in elements)
            elif rule == "EXISTS_I":
                step = Step(c, depth, ["INST"], "Q", env, extra)
                bad = any(le[g][f[e]] for e in elements) and not le[g][q]
            elif rule == "FORALL_I":
                step = Step(c, depth, ["INST"], "Q", env, extra)
                bad = all(le[g][f[e]] for e in c.named) and not le[g][q]
            else:
                step = Step(c, depth, ["Q", box("INST", "CHI")], "CHI", env, extra)
                bad = le[g][q] and any(
                    all(le[meet[g][f[e]]][x] for e in c.named) and not le[g][x]
                    for x in range(len(c.values))
                )
            if bad and not self.refused(rule, step):
                return f"{where}, body class {body}, body truths {[c.values[v] for v in f]}"
        return None

    def countermodel(self) -> list[str]:
        c = self.c
        try:
            premises = [c.value(p, {})[1] for p in c.premises]
            goal = c.value(c.goal[0], {})[1]
        except Refused as exc:
            return [f"model: {exc}"]
        if c.mode == "designated":
            if any(p != c.top for p in premises):
                return ["model: a premise is not top (top_level designated)"]
            return ["model: the goal is top, so the model refutes nothing"] if goal == c.top else []
        g = c.top
        for p in premises:
            g = c.meet[g][p]
        return ["model: the premises' meet is below the goal"] if c.le[g][goal] else []


def recheck(
    certificate_text: str, world_text: str | None, first: bool = False
) -> tuple[str, list[str]]:
    """("holds", []), ("fails", problems) when the certificate is well formed
    but does not hold against the world (None: the standard world), or
    ("malformed", problems) for data that is no certificate or asks for too
    much work. With `first`, stop at the first problem of a check."""
    if not isinstance(certificate_text, str) or len(certificate_text) > MAX_TEXT:
        return "malformed", [f"the certificate is not a text of at most {MAX_TEXT} characters"]
    try:
        data = json.loads(certificate_text)
    except (ValueError, RecursionError) as exc:
        return "malformed", [f"not JSON: {str(exc)[:80]}"]
    if not isinstance(data, dict):
        return "malformed", ["the certificate is not a JSON object"]
    if data.get("format") != 2 or data.get("kind") != "matrix":
        return "malformed", [
            'not a certificate of format 2 and kind "matrix" (a bounded search is evidence, not '
            "a certificate)"
        ]
    try:
        patches = world_patches(world_text)
    except (Refused, tomllib.TOMLDecodeError, RecursionError) as exc:
        return "malformed", [f"the world: {exc}"]
    cert = Certificate(data)
    if len(cert.goal) != 1:
        cert.problems.append("goal: expected one formula")
    for rule, patch in patches.items():
        if rule not in (*SCHEMAS, *QUANTIFIER_RULES, "premise", "assume"):
            cert.problems.append(
                f"the world patches {rule[:40]!r}, which is no rule the re-checker knows"
            )
        elif rule in ("premise", "assume") and patch["conclusion"] is not None:
            cert.problems.append(
                f"{rule}: its conclusion is patched; the re-checker cannot check that"
            )
    if cert.problems:
        return "malformed", cert.problems
    checker = Checker(cert, patches, first)
    work = checker.work()
    if work > MAX_WORK:
        return "malformed", [
            f"the check would take about {work} steps, more than the limit of {MAX_WORK}"
        ]
    problems: list[str] = []
    try:
        for check in (checker.countermodel, checker.propositional, checker.quantifiers):
            problems += check()
            if first and problems:
                break
    except Refused as exc:
        problems.append(str(exc))
    return ("fails" if problems else "holds"), problems
