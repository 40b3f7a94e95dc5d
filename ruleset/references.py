"""References to code by name: "package.module:attribute", imported when used.

Every registry of the package (agents, languages and what each language
plugs in) names its entries this way, so that a registry imports nothing
until an entry is used: a command pays only for what it runs, and a module
a registry names never has to import the registry (no import cycle).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import import_module

_FORM = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*")


class MalformedReference(ValueError):
    """Text that is not "package.module:attribute"."""

    def __init__(self, text: object) -> None:
        super().__init__(f'expected "package.module:attribute", got {text!r}')
        self.text = text


class UnresolvedReference(ImportError):
    """A well-formed reference whose module or attribute cannot be loaded."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"cannot load {text}: {reason}")
        self.text = text
        self.reason = reason


@dataclass(frozen=True)
class Reference:
    text: str

    def __post_init__(self) -> None:
        if not isinstance(self.text, str) or not _FORM.fullmatch(self.text):
            raise MalformedReference(self.text)

    @property
    def module(self) -> str:
        return self.text.partition(":")[0]

    @property
    def attribute(self) -> str:
        return self.text.partition(":")[2]

    def load(self) -> object:
        """The object named; UnresolvedReference when it cannot be imported."""
        try:
            module = import_module(self.module)
        except ImportError as exc:
            raise UnresolvedReference(self.text, str(exc)) from None
        try:
            return getattr(module, self.attribute)
        except AttributeError:
            raise UnresolvedReference(
                self.text, f"{self.module} has no {self.attribute!r}"
            ) from None


def is_reference(text: object) -> bool:
    return isinstance(text, str) and _FORM.fullmatch(text) is not None
