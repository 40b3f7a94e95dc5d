"""What the abbreviations of the reports mean: one text for the replay
pages, the index, report.md and the leaderboard."""

from __future__ import annotations

import re

TERMS: dict[str, str] = {
    "M0…M4": "milestones: M0 before any probe, M1–M4 after each of the four rounds of exploration; "
    "the accuracy at a milestone is the mean over held-out tasks of the share of passing answers",
    "floor": "the best trivial strategy's accuracy on this bank (strategies that know nothing of "
    "the hidden rules)",
    "cc": "chance-corrected score, 100 × (score − floor) / (100 − floor): 0 at the floor, 100 at "
    "full marks, "
    "negative below the floor",
    "Best@n": "the highest endpoint (M4) accuracy among a system's n trajectories",
    "Mean@n": "the mean endpoint (M4) accuracy over a system's n trajectories",
    "sd": "the sample standard deviation of the endpoint accuracy over trajectories",
    "σ": "answering noise: the standard deviation of the accuracy of the separate answer passes "
    "at a milestone",
    "gain": "M4 − M0",
    "rules": "rules of the world stated correctly in the rule report (behavioural equivalence), "
    "of all rules",
    "cov / uncov": "accuracy on the tasks all of whose rules were stated correctly, and on the "
    "others",
    "prov / unprov": "AlienLogic: accuracy on provable theorems, and recognition of unprovable "
    "ones (clean refusals)",
    "C": "tool calls counted against the budget (12 a round), cumulative",
    "P": "probe units of the programs that ran (AlienLogic: proofs checked), cumulative",
    "T": "tokens (prompt + completion) of the exploration requests (turns and notes), cumulative",
    "Tm": "tokens of the milestone requests (rule reports and answers)",
    "Ttot": "all tokens of the trajectory (T + Tm)",
    "tokens": "mean total tokens (Ttot) per trajectory",
    "bits": "exploration: the mean information per probe that ran, log2 of the hypotheses before "
    "over after it "
    "(the hypothesis engine's count, from the trace alone)",
    "redundant": "exploration: the share (%) of probes whose outcome every surviving hypothesis "
    "predicted",
    "mass": "exploration: the surviving hypothesis mass on the world's true rules at the last "
    "milestone (1 = certain)",
    "errors": "exploration / exploitation errors, mean per trajectory: probes that made no "
    "progress while some rule was "
    "unresolved, and rule reports or answers that got wrong what the probes had already resolved",
    "probes": "tool calls counted against the budget in the whole episode "
    "(C at the last milestone), mean per trajectory",
    "eff": "probe efficiency, min(1, (reference probes / probes)²), mean per trajectory: "
    "the reference is the median probes of the people who played the world (human:<id>), "
    "else of the explorer agent; 1 without a probe",
    "reference": "the probes efficiency is measured against: the median of the people who "
    "played the world, else of the explorer agent (n: trajectories in the median)",
    "eff×M": "efficiency-weighted score: efficiency × endpoint (M4) accuracy, mean per trajectory",
    "failures": "a sweep's episodes of this system in this setting that stopped with an error "
    "(their errors are in "
    "sweep.json); they are not among the n trajectories, and a resumed sweep runs them again",
    "rank": "the place by the ranking score (ties broken by Mean@n, then by name); "
    "rows equal on both share a rank",
    "system": "an agent with its model configuration, as its trace header records it",
    "n": "the number of the system's trajectories in this setting",
    "trajectory": "one episode's run (its folder), linked to its replay",
    "agent": "the agent's name, with its model when it has one",
    "world": "the world the episode ran in",
    "condition": "what the agent was given to explore with: autonomous (its own probes), "
    "hindsight, fixed-probe, without-tool, direct (M0 only), open-book-m0, open-book-m4 "
    "(docs/episodes.md)",
    "seed": "the trajectory's seed: it drives the fixed-probe sequence and is sent to an endpoint",
    "complete": "whether the episode reached its last milestone",
    "milestone": "the milestone a row describes (see M0…M4)",
    "accuracy": "the mean over held-out tasks of the share of passing answers, in %",
    "largest step": "the largest step between two milestones as a share of the gain "
    "(the largest drop when the gain is negative); – when the gain is 0",
    "reversal": "whether the trajectory ends at least 3 points below an earlier milestone",
    "M4+O": "the open-book milestone (condition open-book-m4): the tasks again after M4, "
    "once the world's rules are disclosed",
    "band": "the kind of skill a task asks for: apply, interact, scope, engineer or algorithm",
    "family": "the group a task belongs to in its bank (docs/tasks.md)",
    "best trajectory": "the endpoint (M4) accuracy of the best trajectory r* on these tasks",
    "mean": "the mean endpoint (M4) accuracy over the trajectories on these tasks",
    "rejected calls": "counted tool calls whose program did not run (refused: over the probe "
    "budget, not a program), cumulative",
    "rule": "a rule of the world, by its id",
    "reported expression": "what the rule report says the rule does",
    "verdict": "whether the reported expression behaves like the world's rule",
    "task": "a held-out task of the bank",
    "kind": "synthesis (write code), prediction (say what a program prints) or proof",
    "pass k": "the k-th independent answer to the task at this milestone",
    "probes run": "the tool calls whose program ran (the exploration measures count these)",
    "bits in all": "the information all probes gave together (see bits)",
    "redundant rate": "the share of probes whose outcome every surviving hypothesis predicted",
    "exploration errors": "probes that made no progress while some rule was unresolved",
    "exploitation errors": "rule reports or answers that got wrong what the probes had resolved",
    "reached after Rk": "the rules some probe had reached by the end of round k, of all",
    "true mass Mk": "the surviving hypothesis mass on the world's true rules at milestone Mk "
    "(1 = certain)",
}

# Columns whose heading is not itself a term: the terms that explain them.
ALIASES: dict[str, tuple[str, ...]] = {
    "Best@n cc": ("Best@n", "cc"),
    "Mean@n cc": ("Mean@n", "cc"),
    "M4 cc": ("M0…M4", "cc"),
    "end cc": ("cc",),
    "prov": ("prov / unprov",),
    "unprov": ("prov / unprov",),
    "cov": ("cov / uncov",),
    "uncov": ("cov / uncov",),
    "C (calls)": ("C",),
    "P (probe units)": ("P",),
    "T (exploration tokens)": ("T",),
    "Tm (tokens at this milestone)": ("Tm",),
}
# Columns numbered by a milestone, a round or an answer: the term of the family.
NUMBERED = (
    (r"M\d+", "M0…M4"),
    (r"pass \d+", "pass k"),
    (r"reached after R\d+", "reached after Rk"),
    (r"true mass M\S+", "true mass Mk"),
)


def column_terms(heading: str) -> tuple[str, ...]:
    """The terms that explain a table column; KeyError for a column the
    glossary does not know (a test renders every table and asks)."""
    if heading in TERMS:
        return (heading,)
    if heading in ALIASES:
        return ALIASES[heading]
    for pattern, term in NUMBERED:
        if re.fullmatch(pattern, heading):
            return (term,)
    raise KeyError(f"no glossary entry for the column {heading!r}")


def for_columns(*headings: str) -> tuple[str, ...]:
    """The terms of these columns, each once, in the order of first use."""
    return tuple(dict.fromkeys(t for h in headings for t in column_terms(h)))


def terms(*names: str) -> list[tuple[str, str]]:
    """The named terms, in the order given (all of them without names)."""
    return [(n, TERMS[n]) for n in (names or TERMS)]


def markdown(*names: str) -> str:
    return "\n".join(f"* **{name}**: {text}" for name, text in terms(*names))
