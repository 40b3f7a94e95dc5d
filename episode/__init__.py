"""The episode driver: the ExplorationBench protocol over a world, its
manual, worked examples and task bank (docs/episodes.md).

    from alienworlds.episode import AlienCodeEnvironment, Episode, Settings, make_agent
    env = AlienCodeEnvironment("demo")
    report = Episode(env, make_agent("oracle", env), "out/demo-oracle").run()
    report["milestones"][0]["accuracy"]   # 100.0

Names load on first use, so the command line can register the episode commands
without paying for the driver.
"""

from importlib import import_module

_HOMES = {
    "Agent": "agent",
    "AgentError": "agent",
    "Reply": "agent",
    "Request": "agent",
    "AGENTS": "agent_registry",
    "make_agent": "agent_registry",
    "register": "agent_registry",
    "Episode": "driver",
    "Settings": "driver",
    "Interrupted": "interrupt",
    "Environment": "environment",
    "TaskInfo": "environment",
    "ToolOutcome": "environment",
    "compute_report": "metrics",
    "CONDITIONS": "protocol",
    "cap_feedback": "protocol",
    "Trace": "trace",
    "TraceError": "trace",
    "read_trace": "trace",
    "AlienCodeEnvironment": "aliencode_env",
    "AlienLogicEnvironment": "alienlogic_env",
}


def __getattr__(name: str):
    if name in _HOMES:
        return getattr(import_module(f".{_HOMES[name]}", __name__), name)
    raise AttributeError(name)


__all__ = sorted(_HOMES)
