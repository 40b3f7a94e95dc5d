"""Inspect's entry point: importing this registers the tasks, the scorer,
its metric and the Best@n epoch reducer."""

from .scorers import best_at_n, milestone_scores, milestones  # noqa: F401
from .tasks import aliencode, alienlogic  # noqa: F401
