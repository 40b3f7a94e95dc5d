"""The order the suite's files run in (tests/conftest.py applies it).

pytest-xdist runs a file in one process and hands the processes files in
the order collected (pyproject.toml turns off its reordering by number of
tests). The invariants test comes first: it audits the main AlienCode bank
and keeps the report in the run's cache, and the environment tests that come
later read it there instead of auditing main once more (about 30 s).
"""

from __future__ import annotations

# The invariants test, then the dearest files, longest first (seconds measured with
# --durations=0 at 3b2d8fb): a file that starts near the end of the run keeps one process
# busy while the other has nothing left. The order changes no verdict, only the time.
RUN_FIRST = (
    "aliencode/test_invariants.py",  # 68
    "sweep/test_sweep_run.py",  # 52
    "generate/test_generate.py",  # 49
    "sweep/test_sweep_kill.py",  # 46
    "alienlogic/test_logic_limits.py",  # 42
    "generate/test_alienlogic_generate.py",  # 40
    "porting/test_soundness.py",  # 35
    "sweep/test_endpoint_limits.py",  # 34
    "aliencode/test_adversarial.py",  # 32
    "cli/test_play.py",  # 27
    "tasks/test_alienlogic_adaptive.py",  # 27
    "generate/test_resistant.py",  # 27
    "sweep/test_generated_worlds.py",  # 26
    "tasks/test_validity.py",  # 25
    "inspect_eval/test_inspect_tasks.py",  # 24
)
FIRST = {f"tests/{name}": rank for rank, name in enumerate(RUN_FIRST)}


def first_files_first(items: list) -> None:
    """Sort the collected items (in place): the named files first, in their
    order, then every other file in the order collected."""
    items.sort(key=lambda item: FIRST.get(item.nodeid.split("::")[0], len(FIRST)))
