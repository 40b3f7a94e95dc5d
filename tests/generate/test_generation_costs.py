"""benchmarks/generation_costs.py: the split of a generation's CPU time adds
up, puts each template where it ended, and leaves the generator as it was."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections import Counter
from pathlib import Path

from alienworlds.generate.aliencode import Knobs, instances, world_draw
from alienworlds.generate.aliencode import bank as bank_draw

_SPEC = importlib.util.spec_from_file_location(
    "generation_costs", Path(__file__).parents[2] / "benchmarks" / "generation_costs.py"
)
costs_module = importlib.util.module_from_spec(_SPEC)
sys.modules.setdefault("generation_costs", costs_module)
_SPEC.loader.exec_module(costs_module)

SMALL = Knobs(altered=4, red_herrings=1, scoped=1, renamed=2, tasks=5)


def test_the_split_adds_up_and_places_every_template():
    steps = (
        instances.Instantiation.draft,
        instances.Drafted.verdict,
        world_draw.Drawer._portable,
        bank_draw._Drawer.__init__,
    )
    # test-15: the cheapest small-knob seed at version 8, five worlds drawn (test_generate.py)
    costs, generated = costs_module.measure("test-15", SMALL)
    split = costs.split()
    assert list(split) == list(costs_module.CATEGORIES)
    assert abs(sum(split.values()) - costs.total) < 1e-6
    assert all(seconds >= 0 for seconds in split.values()), split
    assert costs.world_draws == generated.world_draws > 1
    final = [t for t in costs.templates if t.draw == costs.world_draws]
    earlier = [t for t in costs.templates if t.draw < costs.world_draws]
    assert earlier and split["rejected worlds"] > 0
    # every task of the bank was made and judged in the last draw, and nothing else kept there
    assert sum(t.outcome == "kept" for t in final) == SMALL.tasks
    assert all(t.battery > 0 for t in final if t.outcome == "kept")
    # the draw's own counts of what made no task agree with the outcomes timed
    discarded = {k: v for k, v in generated.templates_discarded.items() if k != "flagged"}
    timed = Counter(t.outcome for t in final if t.outcome not in ("kept", "made", "flagged"))
    assert {k: v for k, v in discarded.items() if k != "no altered rule touches it"} == timed
    assert split["portability: portable"] > 0
    # the generator's steps are its own again
    assert steps == (
        instances.Instantiation.draft,
        instances.Drafted.verdict,
        world_draw.Drawer._portable,
        bank_draw._Drawer.__init__,
    )


def test_bad_arguments_fail_at_once_with_a_message(tmp_path):
    """Before any seed is generated: a control character in a seed, no
    worker, a JSON path it cannot write."""
    script = Path(__file__).parents[2] / "benchmarks" / "generation_costs.py"
    for args, said in (
        (["a\tb"], "control character"),
        (["1", "--jobs", "0"], "at least 1"),
        (["1", "--json", str(tmp_path / "missing" / "out.json")], "can't open"),
    ):
        done = subprocess.run(
            [sys.executable, str(script), *args], capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 2 and said in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr and not done.stdout
