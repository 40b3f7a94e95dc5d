"""Agents that sweep tests plug in through `class = "sweep_agents:..."`."""

from __future__ import annotations

import time

from alienworlds.episode.agent import AgentError, Reply, Request
from alienworlds.episode.scripted_agents import FixedAgent


class SlowFixedAgent(FixedAgent):
    """The fixed agent, a few milliseconds a request: an episode lasts long
    enough for a test to kill the sweep in the middle of it."""

    name = "slow-fixed"

    def respond(self, request: Request) -> Reply:
        time.sleep(0.004)
        return super().respond(request)


class RaisingAgent(FixedAgent):
    """Fails at its first milestone answer, as a broken agent would."""

    name = "raising"

    def respond(self, request: Request) -> Reply:
        if request.purpose == "answer":
            raise AgentError("the raising agent cannot answer (on purpose)")
        return super().respond(request)
