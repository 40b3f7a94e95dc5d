"""Run one episode of a sweep from its `Job`, in any process: a pool
worker, a Ray worker, or the driver itself.

The episode always runs with resume on: a folder with a partial trace
continues from it (the driver's resume: nothing recorded is redone or
written twice), a finished one is left as it is. An exclusive lock on the
folder keeps two processes from ever writing one trace. Every failure is
caught and returned as the outcome's error, so one episode's failure never
stops the others.
"""

from __future__ import annotations

import hashlib
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from alienworlds.ruleset.phases import Phases

from .gates import GatedAgent, Permits, local_permits
from .plan import Job

LOCK_NAME = ".sweep-lock"
_ENVIRONMENTS: dict[
    tuple, object
] = {}  # per process: building one audits the bank (seconds for a large bank)
_FILES: Path | None = None


class EpisodeBusy(Exception):
    """Another process holds the episode's folder."""


def _materialise(name: str, text: str) -> str:
    """A world or bank that travelled as text, written once per process
    under its content hash (its name kept: error messages show it)."""
    global _FILES
    if _FILES is None:
        _FILES = Path(tempfile.mkdtemp(prefix="alienworlds-sweep-"))
    folder = _FILES / hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]
    path = folder / name
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return str(path)


def environment(job: Job, phases: Phases | None = None):
    from alienworlds.episode.environment_loader import make_environment

    key = (job.language, job.world, job.world_text, job.bank_name, job.bank_text)
    if key not in _ENVIRONMENTS:
        world = _materialise(job.world, job.world_text) if job.world_text is not None else job.world
        bank = _materialise(job.bank_name, job.bank_text) if job.bank_text is not None else None
        with (phases or Phases(None)).phase(
            f"loading world {job.world} and auditing its bank (once per worker)"
        ):
            _ENVIRONMENTS[key] = make_environment(job.language, world, bank)
    return _ENVIRONMENTS[key]


def _stderr_line(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def job_phases(job: Job, announce: bool) -> Phases:
    """The phases of a job, named on this process's standard error (a pool
    worker shares the driver's) when `announce`."""
    return Phases(_stderr_line if announce else None, f"{job.language} sweep: {job.key}: ")


class _FolderLock:
    """An exclusive, non-blocking lock on the episode's folder (released by
    the kernel when the process dies)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LOCK_NAME
        self._fh = None

    def __enter__(self) -> _FolderLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = open(self.path, "a+")
        try:
            import fcntl
        except (
            ImportError
        ):  # no advisory locks on this platform: the sweep's own bookkeeping must do
            return self
        try:
            fcntl.flock(self._fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._fh.close()
            raise EpisodeBusy(f"{self.path.parent} is being written by another process") from None
        return self

    def __exit__(self, *exc: object) -> None:
        self._fh.close()  # closing releases the lock


def make_job_agent(job: Job, env: object):
    from alienworlds.episode.agent_registry import AGENTS, make_agent, register

    known = AGENTS.get(job.agent)
    if job.agent_class and (known is None or known.text != job.agent_class):
        register(job.agent, job.agent_class)
    return make_agent(job.agent, env, seed=job.seed, **job.options)


def run_job(
    job: Job,
    root: str | Path,
    gate: object = None,
    permits: Callable[[object, str], Permits] = local_permits,
    announce: bool = False,
) -> dict:
    """Run (or continue) the episode; its outcome: key, status (`done`,
    `failed`, `interrupted`), error, seconds (in all), setup_seconds (of
    them, before the episode started: the bank audit when this process had
    not built the world's environment yet), the system's identity, the
    endpoint accuracy. `gate` (with `permits`, see `gates`) limits the
    requests in flight to the job's endpoint. With `announce`, each phase
    names itself on standard error."""
    from alienworlds.episode.aggregate import system_identity
    from alienworlds.episode.driver import Episode, Settings
    from alienworlds.episode.interrupt import Interrupted
    from alienworlds.episode.progress import Progress

    started = time.perf_counter()
    phases = job_phases(job, announce)
    out = Path(root) / job.key
    outcome = {
        "key": job.key,
        "status": "failed",
        "error": None,
        "seconds": 0.0,
        "system": None,
        "endpoint": None,
        "setup_seconds": 0.0,
    }
    agent = None
    held = permits(gate, job.key) if gate is not None else None
    try:
        with _FolderLock(out):
            if (
                held is not None
            ):  # permits under this episode's key were leaked by an earlier run that died
                held.release_all()
            env = environment(job, phases)
            agent = make_job_agent(job, env)
            outcome["system"] = system_identity(agent.config())
            if held is not None:
                agent = GatedAgent(agent, held)
            settings = Settings(
                condition=job.condition,
                seed=job.seed,
                fixed_per_round=job.fixed_calls,
                passes=job.passes,
            )
            outcome["setup_seconds"] = round(time.perf_counter() - started, 3)
            progress = Progress(mode="off", phases=phases)  # no milestone lines: phases only
            report = Episode(env, agent, out, settings, resume=True, progress=progress).run()
        outcome.update(status="done", endpoint=report.get("endpoint"))
    except Interrupted as exc:
        outcome.update(status="interrupted", error=str(exc))
    except Exception as exc:  # noqa: BLE001 - any failure of one episode is recorded, and the others go on
        outcome["error"] = f"{type(exc).__name__}: {exc}".strip()
    finally:
        if agent is not None:
            try:
                agent.close()
            except Exception:  # noqa: BLE001 - closing a broken agent must not hide the outcome
                pass
        if held is not None:
            try:
                held.release_all()
            except Exception:  # noqa: BLE001 - the gate is gone (the sweep is ending): nothing is left to return
                pass
    outcome["seconds"] = round(time.perf_counter() - started, 3)
    return outcome
