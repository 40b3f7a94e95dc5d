"""Agents that sweep tests plug in through `class = "sweep_agents:..."`."""

from __future__ import annotations

import os
import time
from pathlib import Path

from alienworlds.episode.agent import AgentError, Reply, Request
from alienworlds.episode.scripted_agents import FixedAgent


class SlowFixedAgent(FixedAgent):
    """The fixed agent, a few milliseconds a request: an episode lasts long
    enough for a test to kill the sweep in the middle of it."""

    name = "slow-fixed"

    def respond(self, request: Request) -> Reply:
        time.sleep(
            0.02
            # long enough that a kill after a partial trace is seen lands inside the episode on a
            # busy
            # machine
        )
        return super().respond(request)


class RaisingAgent(FixedAgent):
    """Fails at its first milestone answer, as a broken agent would."""

    name = "raising"

    def respond(self, request: Request) -> Reply:
        if request.purpose == "answer":
            raise AgentError("the raising agent cannot answer (on purpose)")
        return super().respond(request)


class HeldFixedAgent(FixedAgent):
    """The fixed agent, held at its first request until the file named by
    $SWEEP_TEST_RELEASE exists: a test decides when its episode goes on."""

    name = "held-fixed"

    def respond(self, request: Request) -> Reply:
        release = Path(os.environ["SWEEP_TEST_RELEASE"])
        while not release.exists():
            time.sleep(0.01)
        return super().respond(request)
