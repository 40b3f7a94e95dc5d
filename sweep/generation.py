"""The worlds a sweep generates from seeds (`{ seeds = [...] }` in its
`worlds`), each one a task of its own run before any episode: a Ray task
with `--ray`, else the generator's own process (`<language> world generate`)
beside the others, at most `--jobs` at once.

A world is generated into DIR/worlds/<label>/ through a scratch folder
renamed at the end, so a killed generation leaves no half-written world. On
`--resume` a world already there from the same language, seed and knobs is
kept (its finished episodes were run on it). A generation that fails is
recorded: its world's episodes are recorded as failed with its error, and
the rest of the sweep goes on.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from alienworlds.tasks.bank import BESIDE as BANK_BESIDE

from .spec import Sweep, WorldSpec
from .stopping import POLL, never

WORLDS = "worlds"
WORLD_FILE = "world.toml"
# what the folder was generated from (the seed only as a digest: it stays private)
MARK = "generated.json"
TIMEOUT = 3600.0  # seconds; a generator that runs longer is recorded as failed


def wanted(language: str, seed: str, knobs: dict[str, int]) -> dict:
    return {
        "language": language,
        "seed_sha256": hashlib.sha256(seed.encode("utf-8")).hexdigest(),
        "knobs": dict(sorted(knobs.items())),
    }


def command(language: str, seed: str, knobs: dict[str, int], out: Path) -> list[str]:
    cmd = [
        sys.executable,
        "-m",
        f"alienworlds.cli.{language}",
        "world",
        "generate",
        "--seed",
        seed,
        "--out",
        str(out),
    ]
    for key, value in sorted(knobs.items()):
        cmd += [f"--{key.replace('_', '-')}", str(value)]
    return cmd


def already_there(folder: Path, mark: dict) -> bool:
    try:
        return (
            json.loads((folder / MARK).read_text(encoding="utf-8")) == mark
            and (folder / WORLD_FILE).is_file()
        )
    except (OSError, ValueError):
        return False


def generate_one(
    language: str,
    seed: str,
    knobs: dict[str, int],
    folder: str,
    stop: Callable[[], int | None] = never,
) -> dict:
    """Generate one world into `folder`; {"error": None or why, "seconds",
    "reused"}. Plain data in and out: it runs as a Ray task too."""
    target, start = Path(folder), time.monotonic()
    mark = wanted(language, seed, knobs)
    if already_there(target, mark):
        return {"error": None, "seconds": 0.0, "reused": True}
    scratch = target.with_name(target.name + ".partial")
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.parent.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        command(language, seed, knobs, scratch),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    error = None
    while True:
        try:
            _, stderr = process.communicate(timeout=POLL)
            break
        except subprocess.TimeoutExpired:
            if stop() or time.monotonic() - start > TIMEOUT:
                process.kill()
                process.communicate()
                shutil.rmtree(scratch, ignore_errors=True)
                return {
                    "error": "stopped" if stop() else f"the generator ran over {TIMEOUT:.0f} s",
                    "seconds": time.monotonic() - start,
                    "reused": False,
                }
    missing = [name for name in (WORLD_FILE, BANK_BESIDE) if not (scratch / name).is_file()]
    if process.returncode != 0:
        lines = [line for line in stderr.splitlines() if line.strip()]
        error = f"the generator exited with status {process.returncode}" + (
            f": {lines[-1]}" if lines else ""
        )
    elif missing:
        error = f"the generator wrote no {' or '.join(missing)}"
    if error:
        shutil.rmtree(scratch, ignore_errors=True)
        return {"error": error, "seconds": time.monotonic() - start, "reused": False}
    (scratch / MARK).write_text(json.dumps(mark, indent=1) + "\n", encoding="utf-8")
    shutil.rmtree(target, ignore_errors=True)
    scratch.rename(target)
    return {"error": None, "seconds": time.monotonic() - start, "reused": False}


def resolved(world: WorldSpec, folder: Path, language: str) -> WorldSpec | str:
    """The generated world as the sweep runs it, or why it cannot be used."""
    from alienworlds.episode.languages import language as language_entry
    from alienworlds.ruleset import WorldError
    from alienworlds.tasks.bank import BankError, load_bank

    load = language_entry(language).load_world
    path, bank = folder / WORLD_FILE, folder / BANK_BESIDE
    try:
        loaded = load(str(path))
        load_bank(language, loaded.name, bank)
    except (WorldError, BankError) as exc:
        return f"the generated world cannot be used: {exc}"
    return replace(world, spec=str(path), name=loaded.name, world_hash=loaded.hash, bank=str(bank))


def generate_worlds(
    sweep: Sweep,
    root: Path,
    workers: int,
    ray: bool = False,
    note: Callable[[str], None] = lambda line: None,
    stop: Callable[[], int | None] = never,
) -> tuple[Sweep, dict[str, str]]:
    """The sweep with its generated worlds resolved to their files under
    root/worlds, and the error of each world (by label) that could not be
    generated."""
    todo = [w for w in sweep.worlds if w.generated]
    if not todo:
        return sweep, {}
    folders = {w.label: root / WORLDS / w.label for w in todo}
    if ray:
        outcomes = _on_ray(sweep.language, todo, folders, stop)
    else:
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            futures = {
                w.label: pool.submit(
                    generate_one, sweep.language, w.seed, w.knobs, str(folders[w.label]), stop
                )
                for w in todo
            }
            outcomes = {label: future.result() for label, future in futures.items()}
    errors: dict[str, str] = {}
    worlds = []
    for world in sweep.worlds:
        if not world.generated:
            worlds.append(world)
            continue
        outcome = outcomes[world.label]
        result = (
            resolved(world, folders[world.label], sweep.language)
            if outcome["error"] is None
            else outcome["error"]
        )
        if isinstance(result, str):
            errors[world.label] = result
            note(f"world {world.label}: generation FAILED: {result}")
            worlds.append(world)
        else:
            what = (
                "kept from an earlier run"
                if outcome["reused"]
                else f"generated in {outcome['seconds']:.1f}s"
            )
            note(f"world {world.label}: {what}")
            worlds.append(result)
    return replace(sweep, worlds=worlds), errors


def _on_ray(
    language: str, todo: list[WorldSpec], folders: dict[str, Path], stop: Callable[[], int | None]
) -> dict[str, dict]:
    import ray

    task = ray.remote(num_cpus=1, max_retries=0)(generate_one)
    refs = {task.remote(language, w.seed, w.knobs, str(folders[w.label])): w.label for w in todo}
    outcomes: dict[str, dict] = {}
    while len(outcomes) < len(refs):
        if stop():
            for ref in refs:
                ray.cancel(ref, force=True)
            return {
                label: outcomes.get(label, {"error": "stopped", "seconds": 0.0, "reused": False})
                for label in refs.values()
            }
        pending = [ref for ref, label in refs.items() if label not in outcomes]
        done, _ = ray.wait(pending, num_returns=1, timeout=POLL)
        for ref in done:
            try:
                outcomes[refs[ref]] = ray.get(ref)
            except ray.exceptions.RayError as exc:
                first = str(exc).splitlines()[0] if str(exc) else ""
                outcomes[refs[ref]] = {
                    "error": f"Ray: {type(exc).__name__}: {first}",
                    "seconds": 0.0,
                    "reused": False,
                }
    return outcomes
