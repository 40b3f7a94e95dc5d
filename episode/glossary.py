"""What the abbreviations of the reports mean: one text for the replay
pages, the index, report.md and the leaderboard."""

from __future__ import annotations

TERMS: dict[str, str] = {
    "M0…M4": "milestones: M0 before any probe, M1–M4 after each of the four rounds of exploration; "
    "the accuracy at a milestone is the mean over held-out tasks of the share of passing answers",
    "floor": "the best trivial strategy's accuracy on this bank (strategies that know nothing of the hidden rules)",
    "cc": "chance-corrected score, 100 × (score − floor) / (100 − floor): 0 at the floor, 100 at full marks, "
    "negative below the floor",
    "Best@n": "the highest endpoint (M4) accuracy among a system's n trajectories",
    "Mean@n": "the mean endpoint (M4) accuracy over a system's n trajectories",
    "sd": "the sample standard deviation of the endpoint accuracy over trajectories",
    "σ": "answering noise: the standard deviation of the accuracy of the separate answer passes at a milestone",
    "gain": "M4 − M0",
    "rules": "rules of the world stated correctly in the rule report (behavioural equivalence), of all rules",
    "cov / uncov": "accuracy on the tasks all of whose rules were stated correctly, and on the others",
    "prov / unprov": "AlienLogic: accuracy on provable theorems, and recognition of unprovable ones (clean refusals)",
    "C": "tool calls counted against the budget (12 a round), cumulative",
    "P": "probe units of the programs that ran (AlienLogic: proofs checked), cumulative",
    "T": "tokens (prompt + completion) of the exploration requests (turns and notes), cumulative",
    "Tm": "tokens of the milestone requests (rule reports and answers)",
    "Ttot": "all tokens of the trajectory (T + Tm)",
    "tokens": "mean total tokens (Ttot) per trajectory",
    "bits": "exploration: the mean information per probe that ran, log2 of the hypotheses before over after it "
    "(the hypothesis engine's count, from the trace alone)",
    "redundant": "exploration: the share (%) of probes whose outcome every surviving hypothesis predicted",
    "mass": "exploration: the surviving hypothesis mass on the world's true rules at the last milestone (1 = certain)",
    "errors": "exploration / exploitation errors, mean per trajectory: probes that made no progress while some rule was "
    "unresolved, and rule reports or answers that got wrong what the probes had already resolved",
    "probes": "tool calls counted against the budget in the whole episode "
    "(C at the last milestone), mean per trajectory",
    "eff": "probe efficiency, min(1, (reference probes / probes)²), mean per trajectory: "
    "the reference is the median probes of the people who played the world (human:<id>), "
    "else of the explorer agent; 1 without a probe",
    "eff×M": "efficiency-weighted score: efficiency × endpoint (M4) accuracy, mean per trajectory",
    "failures": "a sweep's episodes of this system in this setting that stopped with an error (their errors are in "
    "sweep.json); they are not among the n trajectories, and a resumed sweep runs them again",
}


def terms(*names: str) -> list[tuple[str, str]]:
    """The named terms, in the order given (all of them without names)."""
    return [(n, TERMS[n]) for n in (names or TERMS)]


def markdown(*names: str) -> str:
    return "\n".join(f"* **{name}**: {text}" for name, text in terms(*names))
