"""Which oracle of the ladder a failed episode needs first, as the oracles see it (docs/baselines.md).

The episode is followed along the reference solution with the oracles' own tracker
(values are the policy's business, as under `oracle.selection`), to the first step it
never did. Then, asking the one coverage engine (tasks/reference/coverage.py):
- no labeled trajectory of its videos covers that step, but a tutorial's log does: the
  labels oracle (`labels`) is the first that helps; when no log does either, none can;
- labeled trajectories cover it, but none of them was shown when the step was due, at a place
  still ahead of what the policy had carried out of it: the selection oracle (`selection`);
- one of them was: the grounding oracle (`grounding`).
The loss account (evaluation/reports/loss_account.py) decides its stages with the same
engine; `RUNG_OF_STAGE` there maps its stages to these rungs, and a test holds the two to it.
"""

from __future__ import annotations

from foundation.records.trajectory import Trajectory
from tasks.reference.coverage import covering
from tasks.reference.progress import Act, covers_ahead, follow
from tasks.reference.steps import ReferenceStep

RUNGS = ("labels", "selection", "grounding")


def first_rung(
    acts: list[Act], steps: list[ReferenceStep], intent: str, labeled: list[Trajectory], truths: list[Trajectory]
) -> str | None:
    """The first oracle the episode needs (`RUNGS`), or None when no oracle replaces what it lacks."""
    followed = follow(acts, steps, values_count=False)
    start = followed.left_at
    stuck = followed.progress.stuck_at
    if stuck is None:
        return None  # every step done: what failed is the answer or the evaluator, which no oracle replaces
    remaining = steps[steps.index(stuck):]
    covers = covering(labeled, remaining, intent, from_start=False)
    if not covers:
        return "labels" if covering(truths, remaining, intent, from_start=False) else None
    due = acts[max(start - 1, 0):]  # the demonstration followed when the step before was done, and those after
    shown = {act.shown_trajectory for act in due}
    ahead = covers_ahead(covers, acts[:start])  # a cover the policy had already passed in its trajectory is no help
    return "grounding" if shown & {cover.trajectory_id for cover in ahead} else "selection"
