"""Identities of the manual: ways it could itself write an operation with
other operations. Compensations try them before searching (see
compensation.py); their literals are kept by value, written per world."""

from __future__ import annotations

from aliencode.sites import LAZY_OPERAND

from .templates import Hole, Lit, Node, Op


def identities(op: str, n: int) -> list[Node]:
    """Ways the manual itself could write `op` with other operations (its
    literals by value): tried before enumerating, they work whenever the
    world leaves the operations they use alone. De Morgan's laws are one
    size beyond the enumeration's usual reach, and keep `b` lazy."""
    h = [Hole(k) for k in range(n)]
    if n == 1:
        x = h[0]
        table = {
            "EVERY_OF": [Op("NADIR", (Op("RIFT", (x, Op("STRAND", (Lit(True, None),)))),))],
            "SOME_OF": [Op("APEX", (Op("RIFT", (x, Op("STRAND", (Lit(False, None),)))),))],
            "INDEX": [Op("PAIR", (Op("EXTENT", (Op("GAUGE", (x,)),)), x))],
            "APEX": [Op("PLUCK", (Op("ORDER", (x,)), Lit(-1, None)))],
            "NADIR": [Op("PLUCK", (Op("ORDER", (x,)), Lit(0, None)))],
            "GATHER": [Op("CARVE", (x, Lit(0, None)))],
            "EXTENT": [Op("EXTENT", (Lit(0, None), x))],
        }
        return table.get(op, [])
    if op in ("APEX", "NADIR"):
        # The manual gives the first of equal extremes (NO before 0). Sorting
        # keeps equal values in order, so the first smallest leads the sorted
        # values, and the first largest ends them once the values are reversed.
        order = tuple(h[::-1]) if op == "APEX" else tuple(h)
        return [
            Op("PLUCK", (Op("ORDER", (Op("STRAND", order),)), Lit(-1 if op == "APEX" else 0, None)))
        ]
    if n != 2:
        return []
    a, b = h
    flipped = {"OVER": "UNDER", "UNDER": "OVER", "ATOP": "BENEATH", "BENEATH": "ATOP"}
    complement = {
        "OVER": "BENEATH",
        "UNDER": "ATOP",
        "ATOP": "UNDER",
        "BENEATH": "OVER",
        "AKIN": "APART",
        "APART": "AKIN",
    }
    out: list[Node] = []
    if op in flipped:
        out.append(Op(flipped[op], (b, a)))
    if op in complement:
        out.append(Op("NEGATE", (Op(complement[op], (a, b)),)))
    if op == "SHATTER":
        out.append(Op("WEAVE", (a, Op("WEAVE", (Lit(0, None), b)))))
    if op == "WEAVE":
        out.append(Op("SHATTER", (a, Op("PARE", (b, Lit(-1, None))))))
    if op in LAZY_OPERAND:
        na, nb = Op("NEGATE", (a,)), Op("NEGATE", (b,))
        out.extend(Op("NEGATE", (Op(other, (na, nb)),)) for other in ("BOND", "RIFT"))
    return out
