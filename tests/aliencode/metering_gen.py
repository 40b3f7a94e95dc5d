"""A generator of programs that try to print more than their probe cost
admits: output inside CRAFTs reached from loops, WHILE conditions, recursion
and mutual recursion, functions passed on, stored, returned, aliased and
called back by STRAIN, CRAFTs called from two places, redefined, shadowed or
nested. Every generated program terminates quickly under the manual's
semantics, and each EMIT prints a distinct marker first, so a run shows how
often each EMIT ran."""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class Generated:
    source: str
    arguments: dict[int, int] = field(default_factory=dict)  # marker -> number of EMIT arguments


class _Builder:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.out = Generated("")
        self.next_marker = 1

    def emit(self, extra: str = "") -> str:
        marker = self.next_marker
        self.next_marker += 1
        args = [str(marker)] + ([extra] if extra else []) + ["7"] * self.rng.randint(0, 2)
        self.out.arguments[marker] = len(args)
        return f"EMIT({', '.join(args)})"

    def body(self, names: list[str], depth: int) -> list[str]:
        """Statements of a CRAFT body with parameter d: output, guarded calls."""
        lines = [self.emit("d")]
        for _ in range(self.rng.randint(0, 2)):
            callee = self.rng.choice(names)
            call = f"{callee}(WEAVE(d, 1))"
            kind = self.rng.choice(("guarded", "guarded", "loop", "cond"))
            if kind == "guarded":
                lines += ["UPON OVER(d, 0):", f"    {call}"]
            elif kind == "loop":
                lines += ["UPON OVER(d, 0):", "    SWEEP k IN EXTENT(2):", f"        {call}"]
            else:
                lines += ["UPON OVER(d, 0):", f"    SET z AS {call}"]
        if depth < 1 and self.rng.random() < 0.3:  # a nested CRAFT, called once or twice
            inner = f"inner{self.next_marker}"
            lines += [f"CRAFT {inner}(d):", "    " + self.emit("d"), "    DELIVER d"]
            lines += [f"{inner}(d)"] * self.rng.randint(1, 2)
        if self.rng.random() < 0.3:
            lines += ["SWEEP k IN STRAND(1, 2):", "    " + self.emit("k")]
        lines.append("DELIVER d")
        return lines

    def program(self) -> Generated:
        rng = self.rng
        names = [f"f{i}" for i in range(rng.randint(1, 4))]
        lines: list[str] = []
        for name in names:
            lines.append(f"CRAFT {name}(d):")
            lines += ["    " + line for line in self.body(names, 0)]
        lines += [
            "CRAFT apply(h, x):",
            "    DELIVER h(x)",
            "CRAFT keep(x):",
            "    " + self.emit("x"),
            "    DELIVER YES",
        ]
        for _ in range(rng.randint(1, 5)):
            lines += self.use(rng.choice(names))
        if (
            rng.random() < 0.6
        ):  # a chain of CRAFTs each called once: output the meter may charge once
            outer, inner = f"solo{self.next_marker}", f"solo{self.next_marker + 1}"
            lines += [
                f"CRAFT {inner}():",
                "    " + self.emit(),
                f"CRAFT {outer}():",
                "    " + self.emit(),
                f"    {inner}()",
                f"{outer}()",
            ]
        self.out.source = "\n".join(lines) + "\n"
        return self.out

    def use(self, f: str) -> list[str]:
        """One way of running f (and sometimes an EMIT beside it)."""
        rng = self.rng
        d = rng.randint(0, 2)
        form = rng.randrange(13)
        if form == 0:
            return [f"{f}({d})"]
        if form == 1:
            return [f"SWEEP i IN EXTENT({rng.randint(0, 3)}):", f"    {f}({d})"]
        if form == 2:
            return ["SET c AS 0", f"WHILE UNDER({f}(c), 2):", "    SET c AS SHATTER(c, 1)"]
        if form == 3:
            return [f"SET g AS {f}", f"g({d})", *([f"g({d})"] if rng.random() < 0.5 else [])]
        if form == 4:
            return [f"SET kept AS STRAIN(keep, STRAND({', '.join(['1'] * rng.randint(0, 3))}))"]
        if form == 5:
            return [f"SET fs AS STRAND({f})", f"PLUCK(fs, 0)({d})"]
        if form == 6:
            return [f"apply({f}, {d})"]
        if form == 7:
            return ["UPON YES:", f"    {f}({d})", "DEFAULT:", f"    {f}({d})"]
        if form == 8:  # redefined under the same name, then called
            return [
                f"CRAFT {f}(d):",
                "    " + self.emit("d"),
                "    DELIVER d",
                f"{f}({d})",
                f"{f}({d})",
            ]
        if form == 9:  # a parameter that shadows a CRAFT's name
            return [
                f"CRAFT shadow{self.next_marker}({f}):",
                f"    DELIVER {f}(1)",
                f"shadow{self.next_marker}(apply)",
            ]
        if form == 10:
            return [
                "SET c AS 0",
                "WHILE BOND(UNDER(c, 2), NEGATE(" + self.emit() + ")):",
                "    SET c AS SHATTER(c, 1)",
            ]
        if form == 11:
            return [
                f"CRAFT getter{self.next_marker}():",
                f"    DELIVER {f}",
                f"getter{self.next_marker}()({d})",
            ]
        return [
            self.emit(),
            f"SWEEP i IN {rng.choice(['STRAND()', 'STRAND(1)', 'EXTENT(2)'])}:",
            "    " + self.emit("i"),
        ]


def bypass_attempt(seed: int) -> Generated:
    return _Builder(random.Random(f"metering-bypass:{seed}")).program()


def executions(source: str) -> dict[int, int]:
    """How often each marked EMIT ran under the manual's semantics (each
    printed line starts with its EMIT's marker)."""
    from aliencode import run_source

    ran: dict[int, int] = {}
    for line in run_source(source).output.splitlines():
        if line.strip():
            marker = int(line.split()[0])
            ran[marker] = ran.get(marker, 0) + 1
    return ran


def underpaid(attempt: Generated) -> str | None:
    """Why the meter lets this attempt print more than it pays for, or None:
    an EMIT that ran more than once must be charged ×3, and the cost must
    cover every EMIT that ran (×3 for those that ran again)."""
    from aliencode import parse
    from aliencode import syntax as s
    from aliencode.metering import LOOP_FACTOR, emit_costs

    tree = parse(attempt.source)
    costs = emit_costs(tree)
    by_pos = {c.pos: c.factor for c in costs}
    factor: dict[int, int] = {}
    stack: list[object] = list(tree.body)
    while stack:
        node = stack.pop()
        if (
            isinstance(node, s.OpCall)
            and node.op == "EMIT"
            and node.args
            and isinstance(node.args[0], s.IntLit)
        ):
            factor[node.args[0].value] = by_pos[node.pos]
        stack.extend(s.children(node))
    ran = executions(attempt.source)
    for marker, count in ran.items():
        if count > 1 and factor[marker] != LOOP_FACTOR:
            return f"EMIT {marker} ran {count} times but was charged once"
    paid = sum(attempt.arguments[m] * (1 if n == 1 else LOOP_FACTOR) for m, n in ran.items())
    if sum(c.units for c in costs) < paid:
        return (
            f"the program costs {sum(c.units for c in costs)} units but its output is worth {paid}"
        )
    return None
