"""The agent registry: the built-in agents by name.

Each entry names the class that implements the agent, a reference
"package.module:Class" (`ruleset.references`) imported only when an agent is
made, so no agent module imports the registry (no import cycle) and a
command pays only for the agent it runs. The explorers' names are shared by
the languages: their entries pick the class by the environment's language
(`languages.SharedAgent`). Every agent class builds itself
from the environment, the trajectory's seed and the command's options
(`from_options`). `register` adds an agent.

The interface (`Agent`, `Request`, `Reply`, `AgentError`) lives in
`episode.agent` and is re-exported here.
"""

from __future__ import annotations

from alienworlds.ruleset.references import Reference, UnresolvedReference

from .agent import Agent, AgentError, Reply, Request, text_reply
from .environment import Environment

AGENTS: dict[str, Reference] = {
    name: Reference(path)
    for name, path in {
        "oracle": f"{__package__}.scripted_agents:OracleAgent",
        "naive": f"{__package__}.scripted_agents:NaiveAgent",
        "fixed": f"{__package__}.scripted_agents:FixedAgent",
        "replay": f"{__package__}.replay_agent:ReplayAgent",
        "openai": f"{__package__}.openai_agent:OpenAIAgent",
        # the explorers and their baselines, one class per language (explore/)
        "explorer": f"{__package__}.languages:EXPLORER",
        "explorer-random": f"{__package__}.languages:RANDOM_PROBE",
        "explorer-fixed": f"{__package__}.languages:FIXED_PROBE",
    }.items()
}
BUILT_IN = tuple(AGENTS)


def register(name: str, path: str) -> None:
    """Make `name` an agent: `path` is "package.module:Class", the class an
    `Agent` with a `from_options(env, seed, options)` class method;
    MalformedReference when it is not of that form."""
    AGENTS[name] = Reference(path)


def agent_class(name: str) -> type[Agent]:
    try:
        reference = AGENTS[name]
    except KeyError:
        raise AgentError(f"unknown agent {name!r}; built in: {', '.join(AGENTS)}") from None
    try:
        return reference.load()
    except UnresolvedReference as exc:
        raise AgentError(f"the agent {name!r} cannot be loaded: {exc}") from None


def make_agent(name: str, env: Environment, seed: int = 0, **options: object) -> Agent:
    """An agent by name; `seed` is the trajectory's, `options` the agent's
    own settings (replay: `source`; openai: `model`, `base_url`, ...)."""
    return agent_class(name).from_options(env, seed, options)


__all__ = [
    "AGENTS",
    "BUILT_IN",
    "Agent",
    "AgentError",
    "Reply",
    "Request",
    "agent_class",
    "make_agent",
    "register",
    "text_reply",
]
