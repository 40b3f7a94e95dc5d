"""benchmarks/explorer.py's summary of one agent, on the demo fixture (the
full comparison runs on demand: `python benchmarks/explorer.py`)."""

import importlib.util
from pathlib import Path

_SPEC = importlib.util.spec_from_file_location(
    "explorer_bench", Path(__file__).parents[2] / "benchmarks" / "explorer.py"
)
bench = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench)


def test_the_summary_shows_curves_spend_decisions_and_exploration(fixed_probe_trace):
    _, report = fixed_probe_trace
    other = {
        **report,
        "milestones": [dict(m, accuracy=m["accuracy"] + 10) for m in report["milestones"]],
    }
    lines = bench.summary(
        "explorer-fixed",
        {"reports": [report, other], "decisions": [0.5, 0.1, 0.2], "seconds": [1.0, 2.0]},
    )
    text = "\n".join(lines)
    best = " ".join(f"{m['accuracy'] + 10:.1f}" for m in report["milestones"])
    assert f"Best@2 M0..M4: {best}   (seed 1)" in text  # the trajectory with the higher endpoint
    assert "median 0.200" in text and "calls 48.0" in text
    section = report["exploration"]
    assert f"redundant rate {section['redundant_rate']}" in text
    assert (
        "exploration errors "
        f"{section['errors']['exploration']}/{section['errors']['exploration_required']}" in text
    )
