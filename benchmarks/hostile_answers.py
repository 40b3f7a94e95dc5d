"""Hostile answers for the AlienLogic grader, the checker and the episode's
readers: a deterministic generator, and a benchmark that runs many of them.

Every answer is model text built to stress one reader: numbers of thousands
of digits, formulas nested thousands deep, lines of a hundred thousand
characters, hundreds of thousands of blank lines, unbalanced fences and
parentheses, control characters, refusals mixed with proofs, giant
citation lists, many proof blocks, mutated real proofs. `answers(seed, n)`
gives the same n answers on every machine; `large` controls the share of
the big ones (about 1 in `large`).

    python benchmarks/hostile_answers.py                  # 10,000 answers, seed 0
    python benchmarks/hostile_answers.py --count 100000 --large 10 --seed 7

For each answer the benchmark times, in CPU seconds, the AlienLogic
reader `read_answer`, `grade` (for a provable or an unprovable task of
the main bank), `check` of the raw text and the other readers (a
prediction, a rule report), and reports any exception, the
slowest answers and the total. The test suite runs a fixed-seed slice
(tests/tasks/test_hostile_answers.py).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Iterator

MP = (
    "PROOF\npremises: IMPL(p, q), p\ngoal: q\n"
    "1. IMPL(p, q)  [premise]\n2. p  [premise]\n3. q  [IMPL_E 2, 1]\nEND"
)
BOX = (
    "PROOF\npremises:\ngoal: IMPL(p, p)\n"
    "1. | p  [assume]\n2. | p  [reit 1]\n3. IMPL(p, p)  [IMPL_I 1-2]\nEND"
)
REFUSALS = [
    "ANSWER: UNPROVABLE",
    "**ANSWER: UNPROVABLE**",
    "- ANSWER: UNPROVABLE",
    "# ANSWER: UNPROVABLE",
    "ANSWER: UNPROVABLE!",
    "`ANSWER: UNPROVABLE`",
    "> answer : unprovable.",
    "ANSWER: UNPROVABLE?",
    "ANSWER: UNPROVABLE, I think",
    "1. ANSWER: UNPROVABLE",
]
CONTROL = "\x00\x01\x07\x08\x0b\x0c\x1b\x1c\x1d\x1e\x7f\x85\xa0\u2028\u2029\ufeff\ud7ff"
NOISE = "PROOFEND ANSWER:UNPROVABLE|[]()0123456789.,-#*_`>~\n\t pqrNOTANDORIMPLBOTFORALLEXISTSEQxyc"


def _digits(rng: random.Random, n: int) -> str:
    return str(rng.randint(1, 9)) + "".join(rng.choice("0123456789") for _ in range(n - 1))


class Sizes:
    """How big an answer of one kind gets: up to `small` usually, between a
    quarter of `big` and `big` for a large one; `scale` shrinks the small ones."""

    def __init__(self, rng: random.Random, large: bool, scale: float) -> None:
        self.rng, self.large, self.scale = rng, large, scale

    def __call__(self, small: int, big: int) -> int:
        if self.large:
            return self.rng.randint(big // 4, big)
        return self.rng.randint(1, max(1, int(small * self.scale)))


# -- kinds of hostile answers: each takes (rng, size) -------------------------------


def huge_numbers(rng, size):
    n = size(300, 20000)
    where = rng.choice(("step", "cite", "range", "premise"))
    num = _digits(rng, n)
    if where == "step":
        return f"PROOF\npremises: p\ngoal: p\n{num}. p [premise]\nEND"
    if where == "cite":
        return f"PROOF\npremises: p\ngoal: p\n1. p [premise]\n2. p [reit {num}]\nEND"
    if where == "range":
        return (
            "PROOF\npremises:\ngoal: IMPL(p, p)\n"
            f"1. | p [assume]\n2. IMPL(p, p) [IMPL_I 1-{num}]\nEND"
        )
    return f"ANSWER: {num}\n" + MP.replace("2, 1", f"{num}, {'0' * n}1")


def deep_nesting(rng, size):
    depth = size(400, 4000)
    op = rng.choice(("NOT(", "AND(p, ", "FORALL(x, ", "(", "f("))
    closing = ")" * (depth if rng.random() < 0.5 else rng.randint(0, depth))
    formula = op * depth + "p" + closing
    return f"PROOF\npremises: {formula}\ngoal: {formula}\n1. {formula} [premise]\nEND"


def long_lines(rng, size):
    n = size(3000, 150000)
    ch = rng.choice([" ", "\t", "|", "*", "`", "#", ">", "-", "a", "(", "1", ".", ":", "P"])
    line = ch * n
    head = rng.choice(["", "ANSWER:", "PROOF", "R01:", "PREDICTION:", "```"])
    return rng.choice(
        [f"{head}{line}", f"{line}{head}", f"{MP}\n{head}{line}x\n", f"ANSWER:{line}UNPROVABLE"]
    )


def blank_lines(rng, size):
    n = size(2000, 150000)
    nl = rng.choice(["\n", "\r\n", "\r", " \n", "\t\n", "\n>"])
    return rng.choice(
        [
            nl * n,
            nl * n + "ANSWER: UNPROVABLE",
            MP + nl * n,
            "PROOF" + nl * n,
            nl * n + "x" + nl * n,
        ]
    )


def fences(rng, size):
    n = size(200, 1500)
    fence = rng.choice(["```", "~~~", "````", "```proof", "``", "```PROOF"])
    body = rng.choice([MP, "x", "ANSWER: UNPROVABLE", ""])
    return "\n".join(rng.choice([fence, body, "```", "text"]) for _ in range(n))


def control_chars(rng, size):
    n = size(500, 50000)
    chars = "".join(rng.choice(CONTROL + "PROOF END\n") for _ in range(n))
    return rng.choice(
        [chars, MP.replace("\n", rng.choice(CONTROL) + "\n"), chars + MP, "ANSWER:\x00UNPROVABLE"]
    )


def refusal_and_proof(rng, size):
    parts = [
        rng.choice(REFUSALS),
        MP,
        BOX,
        "```proof\n" + MP + "\n```",
        "I think the answer is UNPROVABLE.",
    ]
    rng.shuffle(parts)
    return "\n".join(parts[: rng.randint(1, len(parts))])


def giant_citations(rng, size):
    n = size(500, 10000)
    cites = ", ".join(rng.choice(["1", "2", "1-2", "0", "3-1", "999999"]) for _ in range(n))
    return (
        f"PROOF\npremises: p, q\ngoal: p\n1. p [premise]\n2. q [premise]\n3. p [AND_I {cites}]\nEND"
    )


def many_blocks(rng, size):
    n = size(50, 1200)
    return "\n".join(
        rng.choice([MP, BOX, "PROOF", "END", "```", "ANSWER: UNPROVABLE"]) for _ in range(n)
    )


def unterminated(rng, size):
    n = size(500, 3000)
    tail = rng.choice(["p\n", "| ", "1. p [premise]\n", "(", ")\n"]) * n
    return "PROOF\npremises: p\ngoal: p\n" + tail


def wide_formulas(rng, size):
    n = size(100, 300)
    conj = "p"
    for _ in range(min(n, 190)):
        conj = f"AND({conj}, q)"
    wide = ", ".join(["P(" + ", ".join(["a"] * rng.randint(1, 50)) + ")"] * n)
    return rng.choice(
        [
            f"PROOF\npremises: {wide}\ngoal: p\nEND",
            f"PROOF\npremises: {conj}\ngoal: {conj}\n1. {conj} [premise]\nEND",
        ]
    )


def many_boxes(rng, size):
    n = size(300, 8000)
    bars = "| " * n
    return f"PROOF\npremises:\ngoal: p\n1. {bars}p [assume]\n2. {bars}p [reit 1]\nEND"


def mutated(rng, size):
    text = list(rng.choice([MP, BOX]))
    for _ in range(size(30, 3000)):
        op = rng.random()
        i = rng.randrange(len(text) + 1)
        if op < 0.4 and text:
            del text[min(i, len(text) - 1)]
        elif op < 0.8:
            text.insert(i, rng.choice(NOISE))
        else:
            text.insert(i, rng.choice(NOISE) * rng.randint(2, 200))
    return "".join(text)


def noise(rng, size):
    n = size(400, 100000)
    return "".join(rng.choice(NOISE) for _ in range(n))


def rule_reports(rng, size):
    n = size(200, 20000)
    line = rng.choice(
        [
            "R01" + " (x)" * n + ": 1",
            "R01" + " " * n + "!",
            "- **R02**" + "*" * n + ": (",
            "PREDICTION" + " *" * n + ": x",
            "R03: (" + "(" * n,
        ]
    )
    return line


KINDS: list[Callable[[random.Random, Sizes], str]] = [
    huge_numbers,
    deep_nesting,
    long_lines,
    blank_lines,
    fences,
    control_chars,
    refusal_and_proof,
    giant_citations,
    many_blocks,
    unterminated,
    wide_formulas,
    many_boxes,
    mutated,
    noise,
    rule_reports,
]


def answers(
    seed: int, count: int, large: int = 100, scale: float = 1.0
) -> Iterator[tuple[str, str]]:
    """(kind name, answer text) pairs; about one in `large` is big, and the
    others are shrunk by `scale`."""
    rng = random.Random(f"hostile-answers:{seed}")
    for i in range(count):
        kind = KINDS[i % len(KINDS)]
        yield kind.__name__, kind(rng, Sizes(rng, rng.randrange(large) == 0, scale))


# -- running them ---------------------------------------------------------------


def readers():
    """The functions under test, each taking the answer text."""
    from alienworlds.episode.answers import rule_lines
    from alienworlds.tasks.alienlogic_grading import AlienLogicGrader, logic_tasks
    from alienworlds.tasks.alienlogic_reader import read_answer
    from alienworlds.tasks.answer_text import prediction
    from alienworlds.tasks.bank import load_bank

    from alienlogic import check, load_world

    world = load_world("main")
    bank = load_bank("alienlogic", "main")
    grader = AlienLogicGrader(world, bank)
    tasks = logic_tasks(bank)
    provable = next(t.id for t in tasks if t.provable)
    unprovable = next(t.id for t in tasks if not t.provable)
    return {
        "read_answer": read_answer,
        "grade": lambda text: grader.grade(provable if len(text) % 2 else unprovable, text),
        "check": lambda text: check(text, grader.compiled),
        "other readers": lambda text: (
            prediction(text),
            rule_lines(text, ["R01", "R02", "R03"]),
        ),
    }


def run(seed: int, count: int, large: int) -> dict[str, object]:
    fns = readers()
    slowest: list[tuple[float, str, int, int]] = []
    errors: list[str] = []
    total = 0.0
    for i, (kind, text) in enumerate(answers(seed, count, large)):
        start = time.process_time()
        for name, fn in fns.items():
            try:
                fn(text)
            except Exception as exc:  # noqa: BLE001 - the point is to find any
                errors.append(f"#{i} {kind} {name}: {type(exc).__name__}: {exc}"[:300])
        spent = time.process_time() - start
        total += spent
        slowest.append((spent, kind, i, len(text)))
        slowest.sort(reverse=True)
        del slowest[5:]
    return {"count": count, "seconds": total, "errors": errors, "slowest": slowest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument(
        "--large", type=int, default=100, help="About one answer in LARGE is big (default 100)."
    )
    args = parser.parse_args()
    result = run(args.seed, args.count, args.large)
    print(
        f"{result['count']} hostile answers in {result['seconds']:.2f} s CPU "
        f"(read_answer, grade, check, other readers); {len(result['errors'])} exceptions"
    )
    for spent, kind, i, size in result["slowest"]:
        print(f"  {spent * 1000:8.1f} ms  #{i} {kind} ({size} characters)")
    for e in result["errors"][:20]:
        print("  error:", e)


if __name__ == "__main__":
    main()
