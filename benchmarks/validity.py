"""What knowing nothing of the world scores on the shipped main banks.

    python benchmarks/validity.py [--keep DIR] [--world LANGUAGE:PATH ...] [--no-episode]

Prints, for the main AlienCode and AlienLogic banks and each world given
with --world (a world file, graded against the bank beside it, e.g.
`--world aliencode:/tmp/gen-a/world.toml`), each strategy's accuracy, the
floor and the flagged tasks (each language's battery, named in its registry entry), with the
battery's
CPU time; then, unless --no-episode, runs the constant-printing strategy through the real
protocol (condition `direct`: milestone M0 only, every task answered three
times, answers extracted and graded as for any system): it answers a task that
shows a whole program's inputs (or needs none) with a CRAFT that prints the
output the manual predicts as a string constant, and every other task with
the manual-trusting solution.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path, and this
# file's name would shadow the `episode` package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from alienworlds.episode import Episode, Settings  # noqa: E402
from alienworlds.episode.agent import Request  # noqa: E402
from alienworlds.episode.aliencode_env import AlienCodeEnvironment  # noqa: E402
from alienworlds.episode.languages import LANGUAGES, LanguageUnknown  # noqa: E402
from alienworlds.episode.languages import language as language_entry  # noqa: E402
from alienworlds.episode.scripted_agents import ScriptedAgent  # noqa: E402
from alienworlds.tasks.aliencode_validity import manual_prediction, printers  # noqa: E402
from alienworlds.tasks.bank import load_bank, own_bank_path  # noqa: E402


class ConstantPrinter(ScriptedAgent):
    """Prints the manual's prediction from inside a CRAFT where it can, else answers naively."""

    name = "constant-printer"

    def answer(self, request: Request) -> str:
        env = self.env
        task = env.bank.task(request.task)
        if task.kind == "synthesis" and task.whole_program:
            predicted = manual_prediction(task, env.world, env.limits)
            if predicted is not None:
                return f"```aliencode\n{printers(predicted, task, env.world)[1]}```"
        return env.naive_reply(request.task)


def show(label: str, language: str, world, bank) -> None:
    start = time.process_time()
    validity = language_entry(language).battery.load()(world, bank)
    print(f"{label}: {validity.tasks} tasks, battery {time.process_time() - start:.2f} s CPU")
    for name, score in validity.strategies.items():
        print(f"  {name:<15} {score.accuracy:6.1f}%  ({len(score.passed)} tasks)")
    print(f"  floor {validity.floor:.1f}%; flagged: {', '.join(validity.flagged) or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", metavar="DIR", help="keep the printer's episode in DIR")
    parser.add_argument(
        "--world",
        action="append",
        default=[],
        metavar="LANGUAGE:PATH",
        help="also measure this world file against the bank beside it",
    )
    parser.add_argument(
        "--no-episode", action="store_true", help="skip the constant printer's episode"
    )
    args = parser.parse_args()
    for language in LANGUAGES:
        show(
            f"{language} main",
            language,
            language_entry(language).load_world("main"),
            load_bank(language, "main"),
        )
    for spec in args.world:
        language, _, path = spec.partition(":")
        try:
            entry = language_entry(language)
        except LanguageUnknown:
            entry = None
        if entry is None or not path:
            parser.error(
                f"--world takes LANGUAGE:PATH with LANGUAGE one of {', '.join(LANGUAGES)}, "
                f"not {spec!r}"
            )
        world = entry.load_world(path)
        show(
            f"{language} {path}",
            language,
            world,
            load_bank(language, world.name, own_bank_path(language, world)),
        )
    if args.no_episode:
        return
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="validity-bench-"))
    shutil.rmtree(root / "printer", ignore_errors=True)
    env = AlienCodeEnvironment("main")
    start = time.perf_counter()
    report = Episode(
        env, ConstantPrinter(env), root / "printer", Settings(condition="direct")
    ).run()
    m0 = report["milestones"][0]
    print(
        f"constant printer, condition direct: M0 = {m0['accuracy']:.1f}% "
        f"(floor {report.get('floor')}, chance-corrected {m0.get('chance_corrected')}) in "
        f"{time.perf_counter() - start:.2f} s"
    )
    if not args.keep:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
