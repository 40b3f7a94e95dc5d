"""The episode driver: the ExplorationBench protocol over a world, its
manual, worked examples and task bank (DESIGN §8).

    from episode import AlienCodeEnvironment, Episode, Settings, make_agent
    env = AlienCodeEnvironment("demo")
    report = Episode(env, make_agent("oracle", env), "out/demo-oracle").run()
    report["milestones"][0]["accuracy"]   # 100.0
"""

from .agents import Agent, AgentError, Reply, Request, make_agent
from .driver import Episode, Settings
from .environment import Environment, TaskInfo, ToolOutcome, Verdict
from .metrics import compute_report
from .protocol import CONDITIONS, cap_feedback
from .trace import Trace, TraceError, read_trace



def __getattr__(name: str):  # the language environments load on first use
    if name == "AlienCodeEnvironment":
        from .aliencode_env import AlienCodeEnvironment

        return AlienCodeEnvironment
    raise AttributeError(name)


__all__ = [
    "Agent", "AgentError", "AlienCodeEnvironment", "CONDITIONS", "Environment", "Episode", "Reply", "Request",
    "Settings", "TaskInfo", "ToolOutcome", "Trace", "TraceError", "Verdict", "cap_feedback", "compute_report",
    "make_agent", "read_trace",
]
