"""Sweeps: many episodes (worlds × agents × conditions × trajectories) run
in a local process pool or on a Ray cluster, each an independent,
resumable folder, with one leaderboard over them (docs/sweeps.md).

    from alienworlds.sweep import load_sweep, run_sweep
    result = run_sweep(load_sweep("examples/sweep.toml", "aliencode"), "out/sweep", jobs=2)

Names load on first use, so a worker process that imports `sweep.worker`
does not pay for the leaderboard.
"""

from importlib import import_module

_HOMES = {
    "Result": "runner",
    "run_sweep": "runner",
    "Sweep": "spec",
    "SweepError": "spec",
    "load_sweep": "spec",
}


def __getattr__(name: str):
    if name in _HOMES:
        return getattr(import_module(f".{_HOMES[name]}", __name__), name)
    raise AttributeError(name)


__all__ = sorted(_HOMES)
