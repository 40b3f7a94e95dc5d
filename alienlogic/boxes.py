"""Assumption boxes, tracked explicitly as the lines of a proof arrive.

A box opens with an `assume` line one level deeper than the line before it
(or at the same depth, which first closes the sibling box there). It closes
when a line leaves its depth or a sibling opens, and a closed box never
opens again: its lines are out of reach for every later line, a sibling
box included. A range `a-b` is accepted only when it is exactly one closed
box whose enclosing box is still open.
"""

from __future__ import annotations

from dataclasses import dataclass

from .verdict import Rejection


@dataclass
class Box:
    parent: int  # index of the enclosing box; -1 for the top level
    depth: int
    first: int  # the assumption's line; 0 for the top level
    last: int = 0  # the box's last line, known once it closes
    open: bool = True


class Boxes:
    """The box structure of one proof; `enter` each line in order, 1, 2, ..."""

    def __init__(self, journal: bool = False) -> None:
        self.boxes: list[Box] = [Box(-1, 0, 0)]
        self.stack: list[int] = [0]  # open boxes, outermost first
        self.box_of: list[int] = [0]  # innermost box of each line (index 0 unused)
        # With a journal every change is recorded so that `rollback` can undo
        # it in time proportional to the change (a copy of the whole
        # structure per step made writing a proof quadratic).
        self.journal: list[tuple] | None = [] if journal else None

    def rollback(self, mark: int) -> None:
        """Undo every change recorded since the journal had `mark` entries."""
        journal = self.journal
        while len(journal) > mark:
            entry = journal.pop()
            if entry[0] == "line":
                self.box_of.pop()
            elif entry[0] == "open":
                self.boxes.pop()
                self.stack.pop()
            else:
                _, index, last = entry
                box = self.boxes[index]
                box.open, box.last = True, last
                self.stack.append(index)

    def enter(self, n: int, depth: int, assumption: bool) -> None:
        """Place line n at `depth`, opening and closing boxes; raise Rejection."""
        current = len(self.stack) - 1
        if depth < 0:
            raise Rejection("DEPTH_JUMP", f"line {n} has a negative depth")
        if assumption:
            if depth == 0:
                raise Rejection(
                    "ASSUME_AT_TOP",
                    f"line {n} is an assumption outside every box; write it as '| formula "
                    "[assume]'",
                )
            if depth > current + 1:
                raise Rejection(
                    "DEPTH_JUMP",
                    f"line {n} is at depth {depth}, but the line before it is at depth {current}",
                )
            self._close_to(depth - 1, n)
            self.boxes.append(Box(self.stack[-1], depth, n))
            self.stack.append(len(self.boxes) - 1)
            if self.journal is not None:
                self.journal.append(("open",))
        else:
            if depth > current:
                reason = "BOX_WITHOUT_ASSUMPTION" if depth == current + 1 else "DEPTH_JUMP"
                raise Rejection(
                    reason,
                    f"line {n} is at depth {depth}, deeper than the line before it ({current}), "
                    "but only an assumption opens a box",
                )
            self._close_to(depth, n)
        self.box_of.append(self.stack[-1])
        if self.journal is not None:
            self.journal.append(("line",))

    def _close_to(self, depth: int, n: int) -> None:
        while len(self.stack) - 1 > depth:
            index = self.stack.pop()
            box = self.boxes[index]
            if self.journal is not None:
                self.journal.append(("close", index, box.last))
            box.open = False
            box.last = n - 1

    def check_line(self, k: int, n: int) -> None:
        """Line k may be cited at line n."""
        if not 1 <= k < n:
            raise Rejection(
                "REF_NOT_EARLIER", f"line {n} cites line {k}, which is not an earlier line"
            )
        if not self.boxes[self.box_of[k]].open:
            raise Rejection(
                "REF_NOT_ACCESSIBLE",
                f"line {n} cites line {k}, which lies in a box closed before line {n}",
            )

    def check_range(self, a: int, b: int, n: int) -> None:
        """The range a-b is exactly one closed box reachable from line n."""
        if not 1 <= a < n or not 1 <= b < n:
            raise Rejection(
                "REF_NOT_EARLIER", f"line {n} cites {a}-{b}, which is not a range of earlier lines"
            )
        box = self.boxes[self.box_of[a]]
        if box.first != a or a > b:
            raise Rejection(
                "RANGE_NOT_A_BOX",
                f"{a}-{b} is not a box: line {a} does not open a box ending at line {b}",
            )
        if box.open:
            raise Rejection(
                "RANGE_NOT_CLOSED", f"the box opened at line {a} is still open at line {n}"
            )
        if box.last != b:
            raise Rejection(
                "RANGE_NOT_A_BOX",
                f"{a}-{b} is not a box: the box opened at line {a} ends at line {box.last}",
            )
        if not self.boxes[box.parent].open:
            raise Rejection(
                "RANGE_NOT_ACCESSIBLE", f"the box {a}-{b} lies inside a box closed before line {n}"
            )
        if self.boxes[self.box_of[b]] is not box:
            raise Rejection(
                "BOX_ENDS_IN_SUBPROOF",
                f"the box {a}-{b} ends inside a box nested in it; end it with a line of its own",
            )

    def open_assumptions(self) -> list[int]:
        """Lines of the assumptions of the boxes open now, outermost first."""
        return [self.boxes[i].first for i in self.stack[1:]]
