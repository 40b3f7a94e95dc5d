"""Environments shared by the solver and the scorer within one process
(building one audits its bank)."""

from __future__ import annotations

import threading

from alienworlds.episode.environment import Environment
from alienworlds.episode.environment_loader import make_environment

_ENVIRONMENTS: dict[tuple[str, str | None, str | None], Environment] = {}
_LOCK = threading.Lock()


def environment_for(language: str, world: str | None, bank: str | None) -> Environment:
    key = (language, world, bank)
    with _LOCK:
        if key not in _ENVIRONMENTS:
            _ENVIRONMENTS[key] = make_environment(language, world, bank)
        return _ENVIRONMENTS[key]
