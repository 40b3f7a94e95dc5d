"""`alienlogic repl`: a proof block and its verdict, :detail, pipe and pty."""

import subprocess
import sys

from alienworlds.repl.alienlogic_backend import AlienLogicBackend
from alienworlds.repl.shell import COMPLETE, INCOMPLETE

from alienlogic import load_world

MODUS_PONENS = (
    "PROOF\npremises: IMPL(p, q), p\ngoal: q\n"
    "1. IMPL(p, q) [premise]\n2. p [premise]\n3. q [IMPL_E 1, 2]\nEND"
)
RIGHT_CONJUNCT = "PROOF\npremises: AND(p, q)\ngoal: p\n1. AND(p, q) [premise]\n2. p [AND_E1 1]\nEND"


def test_a_block_is_complete_at_end():
    backend = AlienLogicBackend(load_world("standard"))
    assert backend.state("PROOF\npremises: p") == INCOMPLETE
    assert backend.state(MODUS_PONENS) == COMPLETE
    assert backend.state("not a proof") == COMPLETE


def test_verdicts_and_detail_toggle():
    backend = AlienLogicBackend(load_world("demo"))
    assert backend.run(MODUS_PONENS) == "accepted (3 steps)"
    hidden = backend.run(RIGHT_CONJUNCT)
    assert hidden.startswith("rejected at step 2: ALIEN_SIDE_CONDITION") and "detail" not in hidden
    assert backend.command("detail", "") == "author detail on"
    assert "detail:" in backend.run(RIGHT_CONJUNCT)
    assert backend.command("units", "") == "3 proofs checked, 1 accepted"


def test_pipe():
    script = f"{MODUS_PONENS}\n{RIGHT_CONJUNCT}\n:world\n:quit\n{MODUS_PONENS}\n"
    proc = subprocess.run(
        [sys.executable, "-m", "alienworlds.cli.alienlogic", "repl", "--world", "demo"],
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "accepted (3 steps)"
    assert lines[1].startswith("rejected at step 2: ALIEN_SIDE_CONDITION")
    assert lines[2].startswith("AlienLogic, world demo (sha256:")
    assert len(lines) == 3


def test_pseudo_terminal(terminal):
    child = terminal.start("alienlogic", "demo")
    child.expect("Ctrl-D to leave")
    child.expect("proof>")
    for line in MODUS_PONENS.split("\n"):
        child.send(line + "\r")
    child.expect(r"accepted \(3 steps\)")
    child.expect("proof>")
    terminal.leave(child)
