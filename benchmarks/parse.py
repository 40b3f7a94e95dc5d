"""Parse throughput on what the main bank's audit parses.

Runs the audit of the main world's bank once, recording every text the
parser parses (the parse cache's misses: what the audit pays for), then
times parsing all of them again with a fresh parser, in a child process per
measurement: this checkout's parser and, with --baseline, another
checkout's (its virtual environment's interpreter), alternating, best of
--repeat. Prints the CPU seconds of the parses alone (imports excluded).

    python benchmarks/parse.py [--repeat 5] [--baseline PYTHON]

Not part of the test suite: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

# Run in the child: every text parsed once under the default limits, no deadline.
CHILD = """
import json, sys, time
from aliencode.parser import Parser
from alienworlds.ruleset import Limits
texts = json.load(open(sys.argv[1], encoding="utf-8"))
parser, limits = Parser(), Limits()
start = time.process_time()
for text in texts:
    try:
        parser._parse(text, limits, float("inf"))
    except Exception:
        pass
print(time.process_time() - start)
"""


def audited_texts() -> tuple[list[str], float]:
    """Every text the main bank's audit parses, and the audit's CPU seconds."""
    from alienworlds.tasks.aliencode_audit import audit
    from alienworlds.tasks.bank import load_bank

    from aliencode import parser
    from aliencode.world_schema import load

    texts: list[str] = []
    parse = parser.Parser._parse

    def recorded(self, text, limits, deadline):
        texts.append(text)
        return parse(self, text, limits, deadline)

    parser.Parser._parse = recorded
    start = time.process_time()
    try:
        audit(load("main"), load_bank("aliencode", "main"))
    finally:
        parser.Parser._parse = parse
    return texts, time.process_time() - start


def timed(python: str, path: str) -> float:
    proc = subprocess.run(
        [python, "-P", "-c", CHILD, path], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise SystemExit(f"{python} failed: {proc.stderr}")
    return float(proc.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5, help="runs of each (best counts)")
    parser.add_argument("--baseline", metavar="PYTHON", help="also time another interpreter")
    args = parser.parse_args()
    texts, audit_cpu = audited_texts()
    print(
        f"the audit: {audit_cpu:.1f} s CPU, {len(texts)} parses, "
        f"{sum(map(len, texts)):,} characters"
    )
    handle, path = tempfile.mkstemp(suffix=".json")
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        json.dump(texts, out)
    pythons = {"this checkout": sys.executable}
    if args.baseline:
        pythons["baseline"] = args.baseline
    best = {name: float("inf") for name in pythons}
    try:
        for _ in range(args.repeat):
            for name, python in pythons.items():
                best[name] = min(best[name], timed(python, path))
    finally:
        os.unlink(path)
    for name, cpu in best.items():
        print(f"{name:<14} {cpu:6.2f} s CPU to parse them ({cpu / audit_cpu:.0%} of the audit)")


if __name__ == "__main__":
    main()
