"""Agent names that both languages share: `explorer`, `explorer-random`,
`explorer-fixed` name an AlienCode agent and an AlienLogic agent, and the
registry entry picks one by the environment's language when the agent is
made (the registry's entries are "module:attribute" paths whose attribute
has `from_options`; a `ByLanguage` object is such an attribute).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from alienworlds.episode.agent import Agent, AgentError


@dataclass(frozen=True)
class ByLanguage:
    """One agent name, one implementing class per language ("module:Class")."""

    name: str
    paths: dict[str, str]

    def from_options(self, env: object, seed: int, options: dict[str, object]) -> Agent:
        language = getattr(env, "language", None)
        path = self.paths.get(language)
        if path is None:
            raise AgentError(
                f"the agent {self.name!r} has no {language} version; it runs on "
                f"{', '.join(self.paths)}"
            )
        module, _, attr = path.partition(":")
        try:
            cls = getattr(import_module(module), attr)
        except (ImportError, AttributeError) as e:
            raise AgentError(
                f"the {language} version of the agent {self.name!r} is not installed ({path}): {e}"
            ) from None
        return cls.from_options(env, seed, options)


_CODE = "alienworlds.explore.aliencode.agent"
_LOGIC = "alienworlds.explore.alienlogic.agent"
EXPLORER = ByLanguage(
    "explorer", {"aliencode": f"{_CODE}:ExplorerAgent", "alienlogic": f"{_LOGIC}:ExplorerAgent"}
)
RANDOM_PROBE = ByLanguage(
    "explorer-random",
    {"aliencode": f"{_CODE}:RandomProbeAgent", "alienlogic": f"{_LOGIC}:RandomProbeAgent"},
)
FIXED_PROBE = ByLanguage(
    "explorer-fixed",
    {"aliencode": f"{_CODE}:FixedProbeAgent", "alienlogic": f"{_LOGIC}:FixedProbeAgent"},
)
