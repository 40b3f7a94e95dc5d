"""Differential testing of the porting compiler.

A pair is a program written in the manual's semantics and a world. The
porter either refuses the pair (a PortError) or prints a program; that
program, run in the world, must print exactly what the original prints under
the manual. Programs come from two sources:

* `random_program`: random statements over a small typed vocabulary (every
  operation, aliasing, in-place changes, loops, CRAFTs), with values drawn
  from the boundary cases (negatives, zero, -0.0, 1 / 1.0 / YES, empty and
  long lists);
* `TARGETED`: shapes that broke earlier porters (a list changed through
  another name, a parameter or an element; maxima with ties; -0.0; values
  beyond small samples; a parameter named like a CRAFT; the greater of two
  lists), instantiated with random boundary values;
* `walk_changing_program`: a SWEEP whose body changes the list it walks, by
  every route the alias analysis must follow (another name, an element, a
  parameter, a function value, a global, a predicate, a list stored before
  the loop), or changes another list (which the porter should still port,
  even one stored in a list after the loop);
* `fresh_list_program`: a loop changing a list made before it, where moves
  drawn before, in and after the loop decide whether that list is the one
  walked (what porting/fresh.py must get right).

Only programs that run to the end under the manual count (the porter
promises nothing for a failing input). A ported program that fails, runs out
of steps or prints something else is a disagreement.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from alienworlds.ruleset import Limits, World, parse_world, standard_world

from aliencode import run_source
from aliencode.sites import COMPARISON
from aliencode.world_schema import SCHEMA

from .compiler import Porter, PortError

INTS = ("0", "1", "2", "3", "-1", "-2", "-5", "7", "27", "-28", "100")
FLOATS = ("0.0", "-0.0", "1.0", "-1.5", "2.5", "0.5")
BOOLS = ("YES", "NO")
STRS = ('""', '"a"', '"ab"', '"B a"', '"zz"', '"1"')
LIMITS = Limits(max_steps=200_000)
PORT_LIMITS = Limits(max_steps=2_000_000)  # room for helpers and compensations


@dataclass
class Tally:
    """What a differential run saw."""

    tried: int = 0  # pairs whose program runs to the end under the manual
    ported: int = 0
    refused: int = 0
    disagreements: list[tuple[str, str, str, str, str]] = field(
        default_factory=list
    )  # world, program, port, want, got

    def add(self, other: Tally) -> None:
        self.tried += other.tried
        self.ported += other.ported
        self.refused += other.refused
        self.disagreements.extend(other.disagreements)


class ProgramMaker:
    """Random manual-semantics programs from one seeded source."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.lists: list[str] = []
        self.scalars: list[str] = []
        self.crafts: list[tuple[str, int]] = []
        self.names = 0

    def fresh(self, stem: str) -> str:
        self.names += 1
        return f"{stem}{self.names}"

    # -- expressions -------------------------------------------------------

    def number(self, depth: int) -> str:
        r = self.rng.random()
        if depth <= 0 or r < 0.35:
            return (
                self.rng.choice(INTS + FLOATS + BOOLS)
                if r < 0.2 or not self.scalars
                else self.rng.choice(self.scalars)
            )
        op = self.rng.choice(
            (
                "SHATTER",
                "WEAVE",
                "PARE",
                "HALVE",
                "RESIDUE",
                "FRACTURE",
                "GAUGE",
                "PLUCK",
                "APEX",
                "NADIR",
                "EXPEL",
                "BOND",
                "RIFT",
                "COIL",
            )
        )
        if op == "GAUGE":
            return f"GAUGE({self.sequence(depth - 1)})"
        if op == "PLUCK":
            return f"PLUCK({self.sequence(depth - 1)}, {self.rng.choice(('0', '1', '-1', '2'))})"
        if op in ("APEX", "NADIR"):
            if self.rng.random() < 0.5:
                return f"{op}({self.listy(depth - 1)})"
            return (
                f"{op}({', '.join(self.number(depth - 1) for _ in range(self.rng.randint(1, 3)))})"
            )
        if op == "EXPEL":
            return f"EXPEL({self.listy(depth - 1)})"
        if op == "COIL":
            return f"COIL({self.number(depth - 1)}, {self.rng.choice(('0', '1', '2', '-1'))})"
        return f"{op}({self.number(depth - 1)}, {self.number(depth - 1)})"

    def boolean(self, depth: int) -> str:
        if depth <= 0:
            return self.rng.choice(BOOLS)
        op = self.rng.choice(
            (
                *COMPARISON,
                "NEGATE",
                "SOME_OF",
                "EVERY_OF",
                "BOND",
                "RIFT",
            )
        )
        if op == "NEGATE":
            return f"NEGATE({self.value(depth - 1)})"
        if op in ("SOME_OF", "EVERY_OF"):
            return f"{op}({self.sequence(depth - 1)})"
        if op in ("BOND", "RIFT"):
            return f"{op}({self.value(depth - 1)}, {self.value(depth - 1)})"
        pick = self.rng.choice((self.number, self.text, self.value))
        return f"{op}({pick(depth - 1)}, {pick(depth - 1)})"

    def text(self, depth: int) -> str:
        if depth <= 0 or self.rng.random() < 0.3:
            return self.rng.choice(STRS)
        op = self.rng.choice(("SHATTER", "PARE", "FUSE", "PLUCK", "CARVE"))
        if op == "SHATTER":
            return f"SHATTER({self.text(depth - 1)}, {self.text(depth - 1)})"
        if op == "PARE":
            return f"PARE({self.text(depth - 1)}, {self.rng.choice(('0', '1', '2', '-1'))})"
        if op == "FUSE":
            return (
                f"FUSE({', '.join(self.value(depth - 1) for _ in range(self.rng.randint(0, 3)))})"
            )
        if op == "PLUCK":
            return f"PLUCK({self.text(depth - 1)}, {self.rng.choice(('0', '-1'))})"
        return f"CARVE({self.text(depth - 1)}, {self.rng.choice(('0', '1', '-1'))})"

    def listy(self, depth: int) -> str:
        r = self.rng.random()
        if self.lists and r < 0.4:
            return self.rng.choice(self.lists)
        if depth <= 0 or r < 0.6:
            n = self.rng.choice((0, 1, 2, 2, 3, 5))
            pool = self.rng.choice((INTS, INTS + FLOATS + BOOLS, STRS, FLOATS))
            return f"STRAND({', '.join(self.rng.choice(pool) for _ in range(n))})"
        op = self.rng.choice(
            (
                "ORDER",
                "GATHER",
                "CARVE",
                "EXTENT",
                "SHATTER",
                "PARE",
                "INDEX",
                "PAIR",
                "STRAND",
                "STRAIN",
            )
        )
        if op in ("ORDER", "GATHER"):
            return f"{op}({self.sequence(depth - 1)})"
        if op == "CARVE":
            return (
                f"CARVE({self.listy(depth - 1)}, {self.rng.choice(('0', '1', '-1'))}, "
                f"{self.rng.choice(('2', '-1', '5'))})"
            )
        if op == "EXTENT":
            return (
                f"EXTENT({self.rng.choice(('0', '3', '-2'))}, {self.rng.choice(('4', '1', '-1'))})"
                if self.rng.random() < 0.5
                else f"EXTENT({self.rng.choice(('0', '3', '30'))})"
            )
        if op == "SHATTER":
            return f"SHATTER({self.listy(depth - 1)}, {self.listy(depth - 1)})"
        if op == "PARE":
            return f"PARE({self.listy(depth - 1)}, {self.rng.choice(('0', '2', '9'))})"
        if op == "INDEX":
            return f"INDEX({self.sequence(depth - 1)})"
        if op == "PAIR":
            return f"PAIR({self.sequence(depth - 1)}, {self.sequence(depth - 1)})"
        if op == "STRAIN" and self.crafts:
            name = self.rng.choice([c for c, n in self.crafts if n == 1] or [None])
            if name:
                return f"STRAIN({name}, {self.listy(depth - 1)})"
        return f"STRAND({', '.join(self.value(depth - 1) for _ in range(self.rng.randint(0, 3)))})"

    def sequence(self, depth: int) -> str:
        return self.listy(depth) if self.rng.random() < 0.7 else self.text(depth)

    def value(self, depth: int) -> str:
        r = self.rng.random()
        if r < 0.35:
            return self.number(depth)
        if r < 0.5:
            return self.boolean(depth)
        if r < 0.65:
            return self.text(depth)
        if r < 0.8 and self.crafts:
            name, n = self.rng.choice(self.crafts)
            return f"{name}({', '.join(self.value(depth - 1) for _ in range(n))})"
        return self.listy(depth)

    # -- statements --------------------------------------------------------

    def statement(self, indent: str, depth: int, in_craft: bool) -> list[str]:
        r = self.rng.random()
        if r < 0.2:
            name = self.fresh("v")
            line = f"{indent}SET {name} AS {self.value(2)}"
            self.scalars.append(name)
            return [line]
        if r < 0.35:
            name = self.fresh("xs")
            source = (
                self.rng.choice(self.lists)
                if self.lists and self.rng.random() < 0.5
                else self.listy(2)
            )
            self.lists.append(name)
            return [f"{indent}SET {name} AS {source}"]
        if r < 0.5 and self.lists:
            target = self.rng.choice(self.lists)
            if self.rng.random() < 0.3:
                target = f"PLUCK(STRAND({target}), 0)"
            if self.rng.random() < 0.5:
                return [f"{indent}ANNEX({target}, {self.value(1)})"]
            return [
                f"{indent}IMPRINT({target}, {self.rng.choice(('0', '-1', '1'))}, {self.value(1)})"
            ]
        if r < 0.7:
            return [
                f"{indent}EMIT({', '.join(self.value(2) for _ in range(self.rng.randint(1, 3)))})"
            ]
        if r < 0.8 and depth > 0:
            name = self.fresh("x")
            body = [f"{indent}SWEEP {name} IN {self.sequence(1)}:"]
            self.scalars.append(name)
            for _ in range(self.rng.randint(1, 2)):
                body.extend(self.statement(indent + "    ", depth - 1, in_craft))
            return body
        if r < 0.88 and depth > 0:
            body = [f"{indent}UPON {self.boolean(2)}:"]
            body.extend(self.statement(indent + "    ", depth - 1, in_craft))
            body.append(f"{indent}DEFAULT:")
            body.extend(self.statement(indent + "    ", depth - 1, in_craft))
            return body
        if not in_craft and depth > 0 and r < 0.95:
            return self.craft(indent, depth)
        return [f"{indent}EMIT({self.value(2)})"]

    def craft(self, indent: str, depth: int) -> list[str]:
        name = self.fresh("f")
        n = self.rng.randint(1, 2)
        params = [self.fresh("p") for _ in range(n)]
        saved = (list(self.lists), list(self.scalars))
        self.lists.extend(params[:1])
        self.scalars.extend(params[1:])
        lines = [f"{indent}CRAFT {name}({', '.join(params)}):"]
        for _ in range(self.rng.randint(1, 3)):
            lines.extend(self.statement(indent + "    ", depth - 1, True))
        lines.append(f"{indent}    DELIVER {self.value(2)}")
        self.lists, self.scalars = saved
        self.crafts.append((name, n))
        lines.append(f"{indent}EMIT({name}({', '.join(self.value(1) for _ in range(n))}))")
        return lines


def random_program(rng: random.Random, statements: int = 6) -> str:
    maker = ProgramMaker(rng)
    lines: list[str] = []
    for _ in range(statements):
        lines.extend(maker.statement("", 2, False))
    return "\n".join(lines) + "\n"


# Shapes that broke earlier porters; {a}, {b}, {c} are boundary values, {s} a string.
TARGETED = (
    "SET xs AS STRAND({a}, {b})\nSET ys AS xs\nANNEX(ys, {s})\nEMIT(PLUCK(xs, 2), "
    "SHATTER(PLUCK(xs, 2), PLUCK(xs, 2)))\n",
    "SET xs AS STRAND({a}, {b})\nCRAFT f(p):\n    ANNEX(p, {s})\n    DELIVER "
    "0\nEMIT(f(xs))\nEMIT(SHATTER(PLUCK(xs, -1), PLUCK(xs, -1)))\n",
    "SET xs AS STRAND({a})\nSET m AS STRAND(xs)\nANNEX(PLUCK(m, 0), {s})\nEMIT(FUSE(PLUCK(xs, "
    "-1), PLUCK(xs, 0)))\n",
    "SET xs AS STRAND({a})\nCRAFT g():\n    DELIVER xs\nSET ys AS g()\nIMPRINT(ys, 0, "
    "{s})\nEMIT(SHATTER(PLUCK(xs, 0), PLUCK(xs, 0)))\n",
    "EMIT(SOME_OF(STRAND({a})), EVERY_OF(STRAND({a}, {b})), SOME_OF(STRAND()))\n",
    "EMIT(APEX(STRAND({a}, {b}, {c})), NADIR(STRAND({a}, {b}, {c})))\nEMIT(APEX({a}, {b}), "
    "NADIR({b}, {a}))\n",
    "EMIT(APEX(STRAND(NO, 0)), APEX(STRAND(1, 1.0, YES)), NADIR(STRAND(0.0, -0.0, NO)), "
    "APEX(STRAND(-0.0, 0.0)))\n",
    "EMIT({a}, {b}, {c}, -0.0)\nEMIT(WEAVE({a}, {b}), PARE({a}, {c}), SHATTER({c}, {b}))\n",
    "SET xs AS STRAND({a}, {b}, {c})\nEMIT(ORDER(xs), PLUCK(xs, 0), CARVE(xs, 1), GAUGE(xs), "
    "INDEX(xs))\n",
    "SET t AS 0\nSWEEP x IN STRAND({a}, {b}, {c}):\n    SET t AS SHATTER(t, x)\nEMIT(t, OVER(t, "
    "{a}), UNDER({b}, {c}))\n",
    "CRAFT f(xs):\n    ANNEX(xs, {a})\n    DELIVER xs\nSET ys AS STRAND({b})\nSET zs AS "
    "f(ys)\nANNEX(zs, {s})\nEMIT(ys, PLUCK(ys, -1))\n",
    "SET xs AS EXTENT(30)\nIMPRINT(xs, -1, {a})\nEMIT(APEX(xs), NADIR(xs), SOME_OF(xs), "
    "EVERY_OF(xs), EXPEL(xs), GAUGE(xs))\n",
    "CRAFT f(q):\n    DELIVER {a}\nCRAFT h(p):\n    DELIVER {s}\nCRAFT use(f, v):\n    DELIVER "
    "SHATTER(f(v), f(v))\nEMIT(use(h, {b}), use(f, {c}))\n",
    "SET xs AS STRAND({a})\nSET ys AS STRAND({b})\nSET z AS APEX(xs, ys)\nANNEX(z, {s})\n"
    "EMIT(SHATTER(PLUCK(xs, -1), PLUCK(xs, -1)), SHATTER(PLUCK(ys, -1), PLUCK(ys, -1)))\n",
)
BOUNDARY = ("0", "1", "-1", "-5", "0.0", "-0.0", "1.0", "YES", "NO", "2", "27", "-28", "2.5")


def targeted_program(rng: random.Random) -> str:
    shape = rng.choice(TARGETED)
    return shape.format(
        a=rng.choice(BOUNDARY), b=rng.choice(BOUNDARY), c=rng.choice(BOUNDARY), s=rng.choice(STRS)
    )


@dataclass(frozen=True)
class WalkRoute:
    """One way a SWEEP's body can reach the list it walks. `pre` is written
    at the top level, `before` and `after` around the loop in its scope;
    `call` is the body's statement, `target` where `{change}` lands."""

    call: str = "{change}"
    target: str = "w"
    pre: str = ""
    before: str = ""
    walked: str = "w"
    after: str = ""
    changes_walked: bool = True
    by_global: bool = False  # reaches `w` by its top-level name (not as a parameter)


_CHANGER = "CRAFT ch(p):\n{change}\n    DELIVER 0\n"
WALK_ROUTES = {
    "direct": WalkRoute(),
    "alias": WalkRoute(target="ys", before="SET ys AS w"),
    "element": WalkRoute(target="PLUCK(m, 0)", before="SET m AS STRAND(w)"),
    "bond": WalkRoute(target="BOND(YES, w)"),
    "parameter": WalkRoute(call="ch(w)", target="p", pre=_CHANGER),
    "function value": WalkRoute(
        call="run(ch, w)", target="p", pre=_CHANGER + "CRAFT run(h, q):\n    DELIVER h(q)\n"
    ),
    "global": WalkRoute(call="ch()", pre="CRAFT ch():\n{change}\n    DELIVER 0\n", by_global=True),
    "returned": WalkRoute(target="get()", pre="CRAFT get():\n    DELIVER w\n", by_global=True),
    "predicate": WalkRoute(
        call="SET kept AS STRAIN(keep, STRAND(1))",
        pre="CRAFT keep(v):\n{change}\n    DELIVER YES\n",
        by_global=True,
    ),
    # a list made before the loop and stored in another only before it: the walked one
    "stored before": WalkRoute(
        target="acc",
        before="SET acc AS STRAND(1, 2)\nSET m AS STRAND(w, acc)",
        walked="PLUCK(m, 1)",
    ),
    # safe: the walked list never changes
    "another list": WalkRoute(target="other", changes_walked=False),
    "stored after": WalkRoute(
        target="acc",
        before="SET acc AS STRAND(1, 2)\nSET m AS STRAND(w)",
        walked="PLUCK(m, 0)",
        after="ANNEX(m, acc)\nEMIT(m)",
        changes_walked=False,
    ),
}
WALK_CHANGES = (
    "IMPRINT({t}, -1, {v})",
    "UPON OVER(GAUGE({t}), 1):\n    IMPRINT({t}, 1, {v})",
    "UPON UNDER(GAUGE({t}), 6):\n    ANNEX({t}, {v})",
    "UPON OVER(GAUGE({t}), 1):\n    EXPEL({t})",
)


def copying_world() -> World:
    """A world whose SWEEP walks a copy of the sequence it is given: every
    compensation check on sequences passes, and only a list changed during
    the walk tells it from the manual."""
    text = (
        'format = 1\nname = "copying"\nlanguage = "aliencode"\n\n[[rules]]\nid = "C1"\n'
        'name = "SWEEP walks a copy"\ntarget = "SWEEP"\nactual = "(reverse (reverse seq))"\n'
        'scope = "anywhere"\n'
    )
    return parse_world(text, "copying.toml", SCHEMA)


def _indented(text: str, pad: str) -> str:
    return "\n".join(pad + line for line in text.split("\n"))


def walk_changing_program(rng: random.Random, route: str | None = None) -> str:
    """A program whose SWEEP body changes, by one of WALK_ROUTES, the list
    the loop walks (or, for a route that does not change it, another list),
    at the top level or in a CRAFT (the walked list a parameter or a
    global), printing every element the loop visits. The manual's SWEEP
    sees the change in the elements still to come; a port that walks a
    copy does not."""
    way = WALK_ROUTES[route or rng.choice(sorted(WALK_ROUTES))]
    scopes = ["top", "craft, global"] + ([] if way.by_global else ["craft, parameter"])
    scope = rng.choice(scopes)
    elements = ", ".join(rng.choice(BOUNDARY) for _ in range(rng.randint(1, 4)))
    value = rng.choice((*BOUNDARY, "STRAND()", '"a"'))
    change = rng.choice(WALK_CHANGES).format(t=way.target, v=value)
    lines = ["SET other AS STRAND(0)"]
    if scope != "craft, parameter":
        lines.append(f"SET w AS STRAND({elements})")
    if way.pre:
        lines.append(way.pre.format(change=_indented(change, "    ")).rstrip("\n"))
    loop = ["SET seen AS STRAND()", *(way.before.split("\n") if way.before else ())]
    loop.append(f"SWEEP x IN {way.walked}:")
    loop.append("    ANNEX(seen, x)")
    body = way.call.format(change=change)
    if rng.random() < 0.3:
        body = f"UPON AKIN(GAUGE(seen), {rng.choice(('1', '2'))}):\n" + _indented(body, "    ")
    loop.append(_indented(body, "    "))
    if way.after:
        loop.extend(way.after.split("\n"))
    if scope == "top":
        lines.extend(loop)
        lines.append("EMIT(seen)")
    else:
        params = "w" if scope == "craft, parameter" else ""
        lines.append(f"CRAFT walk({params}):")
        lines.extend(_indented(line, "    ") for line in [*loop, "DELIVER seen"])
        args = f"STRAND({elements})" if params else ""
        lines.append(f"EMIT(walk({args}))")
    lines.append("EMIT(other)")
    return "\n".join(lines) + "\n"


# Statements that may (or may not) let `acc`, a list made before the loop,
# reach `m`, whose element the loop walks: what decides whether `acc` is
# fresh at the loop (fresh.py).
FRESH_MOVES = (
    "ANNEX(m, acc)",
    "IMPRINT(m, 0, acc)",
    "SET m AS STRAND(acc, w)",
    "SET ys AS acc\nANNEX(m, ys)",
    "SET acc AS STRAND(3)",
    "SET acc AS PLUCK(m, -1)",
    "SET acc AS BOND(YES, PLUCK(m, 0))",
    "SET acc AS APEX(PLUCK(m, 0), STRAND())",
    "SET acc AS GATHER(PLUCK(m, 0))",
    "EMIT(GAUGE(acc), PLUCK(acc, 0))",
    "SET k AS keep(acc)",
    "SET k AS put(acc)",
    "UPON AKIN(GAUGE(seen), 1):\n    ANNEX(m, acc)",
    "SWEEP y IN STRAND(1):\n    SET acc AS PLUCK(m, -1)",
)


def fresh_list_program(rng: random.Random) -> str:
    """A loop walking an element of `m` while its body changes `acc`, with
    FRESH_MOVES drawn before it, in its body and after it (helpers `keep`,
    which only reads its argument, and `put`, which stores it in `m`), at
    the top level or in a CRAFT. Whether `acc` is the walked list depends
    on the order of those moves, which the alias analysis does not see."""
    elements = ", ".join(rng.choice(BOUNDARY) for _ in range(rng.randint(1, 4)))
    value = rng.choice((*BOUNDARY, "STRAND()", '"a"'))
    change = rng.choice(WALK_CHANGES).format(t="acc", v=value)

    def moves(most: int) -> list[str]:
        return [rng.choice(FRESH_MOVES) for _ in range(rng.randint(0, most))]

    body = [
        "SET seen AS STRAND()",
        "SET acc AS STRAND(1, 2)",
        "SET m AS STRAND(w)",
        *moves(2),
        f"SWEEP x IN PLUCK(m, {rng.choice(('0', '-1'))}):",
        "    ANNEX(seen, x)",
        _indented(change, "    "),
        *(_indented(line, "    ") for line in moves(1)),
        *moves(1),
        "EMIT(m)",
    ]
    lines = [
        f"SET w AS STRAND({elements})",
        "CRAFT keep(p):\n    DELIVER GAUGE(p)",
    ]
    if rng.random() < 0.5:
        lines.append("SET m AS STRAND()\nCRAFT put(p):\n    ANNEX(m, p)\n    DELIVER 0")
        lines.extend(body)
        lines.append("EMIT(seen)")
    else:
        lines.append("CRAFT walk():")
        lines.append("    CRAFT put(p):\n        ANNEX(m, p)\n        DELIVER 0")
        lines.extend(_indented(line, "    ") for line in body)
        lines.append("    DELIVER seen")
        lines.append("EMIT(walk())")
    return "\n".join(lines) + "\n"


def programs(seed: int, count: int) -> list[str]:
    """`count` programs from `seed`: a quarter targeted, an eighth changing
    the list a SWEEP walks, the rest random."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        if k % 4 == 0:
            out.append(targeted_program(rng))
        elif k % 8 == 2:
            out.append(walk_changing_program(rng))
        else:
            out.append(random_program(rng, rng.randint(2, 8)))
    return out


def manual_output(source: str) -> str | None:
    """What `source` prints under the manual, or None when it fails there."""
    result = run_source(source, standard_world("aliencode"), LIMITS)
    return None if result.error is not None else result.text()


def runnable(sources: list[str]) -> list[tuple[str, str]]:
    """(source, what it prints under the manual) for the sources that run to
    the end there."""
    out = []
    for source in sources:
        want = manual_output(source)
        if want is not None:
            out.append((source, want))
    return out


def differential(
    world: World,
    cases: list[tuple[str, str]],
    porter: Porter | None = None,
    progress: Callable[[Tally], None] | None = None,
    every: int = 250,
) -> Tally:
    """Port every (source, manual output) case to `world` (standard keywords
    in, the world's out) and compare what the port prints; `progress` is
    told the tally after every `every` pairs and after each disagreement."""
    porter = porter or Porter(world)
    tally = Tally()
    for source, want in cases:
        if progress is not None and tally.tried and tally.tried % every == 0:
            progress(tally)
        tally.tried += 1
        try:
            ported = porter.port(source, examples=[], keywords={})
        except PortError:
            tally.refused += 1
            continue
        tally.ported += 1
        got = run_source(ported.source, world, PORT_LIMITS)
        shown = got.text()
        if got.error is not None or shown != want:
            tally.disagreements.append((world.name, source, ported.source, want, shown))
            if progress is not None:
                progress(tally)
    return tally
