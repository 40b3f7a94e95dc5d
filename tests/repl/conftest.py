"""A REPL in a real pseudo-terminal, with its history in a test folder."""

import os
import sys

import pytest


class Terminals:
    def __init__(self, pexpect, home):
        self.pexpect, self.home, self.children = pexpect, home, []

    def start(self, language, world, term="xterm"):
        """The REPL of `language` on `world`, running in a pty."""
        env = dict(os.environ, XDG_DATA_HOME=str(self.home), TERM=term, PROMPT_TOOLKIT_NO_CPR="1")
        child = self.pexpect.spawn(
            sys.executable,
            ["-m", f"alienworlds.cli.{language}", "repl", "--world", world],
            env=env,
            encoding="utf-8",
            timeout=20,
            dimensions=(40, 120),
        )
        self.children.append(child)
        return child

    def leave(self, child):
        """Ctrl-D, and the REPL ends."""
        child.sendcontrol("d")
        child.expect(self.pexpect.EOF)


@pytest.fixture
def terminal(tmp_path):
    terminals = Terminals(pytest.importorskip("pexpect"), tmp_path)
    yield terminals
    for child in terminals.children:
        child.close(force=True)
