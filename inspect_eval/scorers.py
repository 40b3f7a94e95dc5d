"""The milestones graded by this project's graders, as an Inspect scorer.

`milestones` grades every milestone reply the solver recorded (the rule
report through the environment's rule-report scoring, each held-out answer
through the bank's grader: `episode.verdict_events.regrade`), computes the
trajectory's report exactly as `aliencode report` does
(`episode.metrics.compute_report`, kept in the score's metadata) and scores
the sample on Inspect's 0-1 scale (the report's percentages divided by 100):

* `endpoint`: accuracy M_t at the last numbered milestone;
* `M0` ... `M4`: the accuracy curve;
* `gain`: M_last - M_0 (from -1 to 1);
* `rule_report`: the share of the world's rules stated correctly at the
  endpoint (AlienCode), or `unprovable_recognition` (AlienLogic);
* `open_book`: accuracy at M4+O (condition open-book-m4);
* `floor`: the best trivial strategy's accuracy on the bank (the validity
  battery of docs/tasks.md), and `chance_corrected`: the endpoint as
  (endpoint - floor) / (1 - floor), left out when the floor is 1.
  Both reducers keep them right:
  Best@n picks one epoch's values, and the mean of chance-corrected scores is
  the chance-corrected mean (the map is linear).

Epochs are trajectories. Two reducers turn them into the headline numbers:
`best_at_n` (Best@n: the trajectory with the highest endpoint, the lowest
epoch breaking a tie, with its whole curve) and `mean_at_n` (Mean@n: the
mean of each key over the epochs). Each tags its score with its name, so
the metric `milestones` names every value after its reducer, e.g.
`endpoint (Best@n)` and `endpoint (Mean@n)`: Inspect's summary heads both
columns with the scorer's name alone. Re-scoring a log (`inspect score`)
grades the recorded replies again.
"""

from __future__ import annotations

from alienworlds.episode.metrics import compute_report
from alienworlds.episode.verdict_events import regrade
from inspect_ai.scorer import SampleScore, Score, Target, metric, score_reducer, scorer
from inspect_ai.solver import TaskState

from .environments import environment_for
from .solver import RECORD

PERCENT = 100.0  # the report's scale; Inspect's is 0-1
REDUCERS = {"best_at_n": "Best@n", "mean_at_n": "Mean@n"}  # reducer: the label of its values


def score_value(report: dict) -> dict[str, float]:
    """The sample's score on the 0-1 scale (see the module docstring)."""

    def share(percent: float) -> float:
        return percent / PERCENT

    value: dict[str, float] = {
        "endpoint": share(report["endpoint"]) if report["endpoint"] is not None else 0.0
    }
    for m in report["milestones"]:
        value[f"M{m['t']}"] = share(m["accuracy"])
    if report["gain"] is not None:
        value["gain"] = share(report["gain"])
    end = report["milestones"][-1] if report["milestones"] else {}
    if end.get("rule_report_score") is not None and end.get("rule_report_of"):
        value["rule_report"] = end["rule_report_score"] / end["rule_report_of"]
    if report.get("unprovable_recognition") is not None:
        value["unprovable_recognition"] = share(report["unprovable_recognition"])
    if report.get("open_book"):
        value["open_book"] = share(report["open_book"]["accuracy"])
    if report.get("floor") is not None:
        value["floor"] = share(report["floor"])
    # None when the floor is 100 (nothing is left to earn): Inspect's reducers
    # take numbers only, so the key is left out
    if report.get("endpoint_chance_corrected") is not None:
        value["chance_corrected"] = share(report["endpoint_chance_corrected"])
    return value


def _tagged(score: Score, reducer: str) -> Score:
    """`score` marked as `reducer`'s, for the metric to name its values."""
    return score.model_copy(update={"metadata": {**(score.metadata or {}), "reducer": reducer}})


@metric(name="milestones")
def milestone_scores():
    """The mean over samples (one sample per world) of each key of the
    score, named after the reducer that made the score."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        keys: list[str] = []
        for sample in scores:
            keys += [k for k in sample.score.value if k not in keys]
        reducer = next(
            (
                (s.score.metadata or {}).get("reducer")
                for s in scores
                if (s.score.metadata or {}).get("reducer")
            ),
            None,
        )
        label = f" ({REDUCERS[reducer]})" if reducer in REDUCERS else ""
        return {
            f"{k}{label}": sum(s.score.value[k] for s in scores if k in s.score.value)
            / sum(1 for s in scores if k in s.score.value)
            for k in keys
        }

    return compute


@score_reducer(name="best_at_n")
def best_at_n():
    """Best@n: the epoch with the highest endpoint (the lowest epoch breaks a tie)."""

    def reduce(scores: list[Score]) -> Score:
        best = min(scores, key=lambda s: (-s.value["endpoint"], (s.metadata or {}).get("epoch", 0)))
        return _tagged(best, "best_at_n")

    return reduce


@score_reducer(name="mean_at_n")
def mean_at_n():
    """Mean@n: the mean of each key over the epochs that have it."""

    def reduce(scores: list[Score]) -> Score:
        keys: list[str] = []
        for score in scores:
            keys += [k for k in score.value if k not in keys]
        value = {
            k: sum(s.value[k] for s in scores if k in s.value)
            / sum(1 for s in scores if k in s.value)
            for k in keys
        }
        return Score(value=value, metadata={"reducer": "mean_at_n", "epochs": len(scores)})

    return reduce


@scorer(metrics=[milestone_scores()])
def milestones(language: str, world: str | None = None, bank: str | None = None):
    async def score(state: TaskState, target: Target) -> Score:
        record = state.metadata.get(RECORD)
        if not record:
            raise ValueError("the sample holds no recorded episode to grade")
        env = environment_for(language, world, bank)
        report = compute_report(regrade(record["events"], env))
        curve = " ".join(f"M{m['t']} {m['accuracy']:.1f}" for m in report["milestones"])
        return Score(
            value=score_value(report),
            answer=f"endpoint {report['endpoint']}",
            explanation=f"accuracy by milestone: {curve}",
            metadata={"epoch": state.epoch, "report": report},
        )

    return score
