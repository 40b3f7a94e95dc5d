"""Answering held-out tasks under a believed world.

* A prediction task: its program (shown in the prompt) is run in the believed
  world; the answer is what it prints.
* A synthesis task: the manual-trusting solution (the bank's `naive`, what a
  system that believes the manual writes; never the reference) is ported to
  the believed world with what the prompt shows of its inputs: the example
  call, or the example input values (bound as manual-semantics values), or
  nothing for a closed whole program. When the port fails, the
  manual-trusting solution is the answer.
"""

from __future__ import annotations

import re

from alienworlds.manuals.aliencode import respell
from alienworlds.porting import Bounds, Porter, PortError
from alienworlds.porting.compensation import Memo
from alienworlds.ruleset import World

from aliencode import AlienSyntaxError, Limits, run_source

_CODE = re.compile(r"```(?:aliencode|alien)?\n(.*?)\n```", re.DOTALL)
_PREDICTION = re.compile(r"```aliencode\n(.*?)\n```\n\nGive the exact output", re.DOTALL)
_EXAMPLE_CALL = re.compile(r"Example call:\n```aliencode\n(.*?)\n```", re.DOTALL)
_NAMES = re.compile(r"Before each run the names (.+?) are bound")
_EXAMPLE_INPUT = re.compile(r"^Example input: (.*)$", re.MULTILINE)


class ValueSyntaxError(ValueError):
    pass


def _value(text: str, i: int) -> tuple[str, int]:
    """One printed value (Python's repr form) at text[i:], as a standard
    AlienCode expression, and the index after it."""
    if text.startswith(("[", "("), i):
        close = "]" if text[i] == "[" else ")"
        items, i = [], i + 1
        trailing = False
        while not text.startswith(close, i):
            item, i = _value(text, i)
            items.append(item)
            trailing = text.startswith(",", i)
            if trailing:
                i += 1
                while text.startswith(" ", i):
                    i += 1
        if close == ")" and len(items) == 1 and not trailing:
            return items[0], i + 1  # a parenthesised value, not a tuple
        return ("STRAND(" if close == "]" else "KNOT(") + ", ".join(items) + ")", i + 1
    if text.startswith(("'", '"'), i):
        quote, j, chars = text[i], i + 1, []
        escapes = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"', "r": "\r"}
        while j < len(text) and text[j] != quote:
            if text[j] == "\\":
                if j + 1 >= len(text) or text[j + 1] not in escapes:
                    raise ValueSyntaxError("unsupported escape")
                chars.append(escapes[text[j + 1]])
                j += 2
            else:
                chars.append(text[j])
                j += 1
        body = "".join(chars)
        if any(ord(c) < 32 and c not in "\n\t" for c in body):
            raise ValueSyntaxError("a character AlienCode cannot write")
        body = (
            body.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
        )
        return f'"{body}"', j + 1
    for word, code in (("True", "YES"), ("False", "NO"), ("None", "none")):
        if text.startswith(word, i):
            return code, i + len(word)
    m = re.compile(r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?").match(text, i)
    if not m:
        raise ValueSyntaxError(f"no value at {text[i : i + 20]!r}")
    return m.group(), m.end()


def input_bindings(prompt: str, world: World) -> list[str] | None:
    """`SET name AS value` for each example input a prompt shows (in the
    world's spelling), or None when it shows none."""
    names_m, example_m = _NAMES.search(prompt), _EXAMPLE_INPUT.search(prompt)
    if not names_m or not example_m:
        return None
    names = [n.strip() for n in names_m.group(1).split(",")]
    text, i, out = example_m.group(1), 0, []
    try:
        for k, name in enumerate(names):
            head = f"{name} = "
            if not text.startswith(head, i):
                return None
            value, i = _value(text, i + len(head))
            out.append(respell(f"SET {name} AS {value}", world))
            if k + 1 < len(names):
                if not text.startswith(", ", i):
                    return None
                i += 2
    except (ValueSyntaxError, IndexError):
        return None
    return out


def code_block(reply: str) -> str | None:
    m = _CODE.search(reply or "")
    return m.group(1) if m else None


# The generator's search budget: enough for every compensation a generated
# world is checked to have, and a believed world that is wrong fails fast.
PORT_BOUNDS = Bounds(budget=60_000)


class Answerer:
    """Answers tasks under believed worlds, one porter per world, sharing
    what their searches learned (the believed worlds of one episode differ
    in a few rules)."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.memo = Memo()
        self._porters: dict[str, Porter] = {}
        self._answers: dict[tuple[str, str], str] = {}

    def porter(self, world: World) -> Porter:
        found = self._porters.get(world.hash)
        if found is None:
            found = self._porters[world.hash] = Porter(world, PORT_BOUNDS, self.memo)
        return found

    def answer(self, task: str, prompt: str, naive_reply: str | None, world: World) -> str:
        key = (world.hash, task)
        if key not in self._answers:
            self._answers[key] = self._answer(prompt, naive_reply, world)
        return self._answers[key]

    def _answer(self, prompt: str, naive_reply: str | None, world: World) -> str:
        m = _PREDICTION.search(prompt)
        if m:
            return f"```output\n{run_source(m.group(1), world, self.limits).text()}\n```"
        naive = code_block(naive_reply or "")
        if naive is None:
            return naive_reply or ""
        example = _EXAMPLE_CALL.search(prompt)
        bindings = input_bindings(prompt, world)
        try:
            if example:
                ported = self.porter(world).port(naive, [example.group(1)])
            elif bindings is not None:
                ported = self.porter(world).port(naive, bindings, callers="manual")
            else:
                ported = self.porter(world).port(naive, [])
        except (PortError, AlienSyntaxError, RecursionError):
            return f"```aliencode\n{naive}\n```"
        return f"```aliencode\n{ported.source.rstrip(chr(10))}\n```"
