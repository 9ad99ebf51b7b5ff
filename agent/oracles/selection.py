"""The selection oracle for a model policy (`--policy video` with `oracle.selection`): the right demonstration.

In place of two-stage selection (no model call), before each step the model is shown
the trajectory of the task's videos that covers most of the reference solution's next
steps, by the steps' names (tasks/reference/coverage.py), from any of its steps on (the
model reads the whole trajectory and finds its place in it); the one shown before is
kept while it covers as many. When no trajectory covers the next reference step, the
steps after it are tried in turn; when none covers any step up to the solution's stop,
no demonstration is shown. The position along the solution moves with the actions the
model carries out (agent/oracles/progress.py). The record has the shape of the
method's selection record (`previous`, `candidates`, `decision`, `chosen`, `continued`,
`reason`), with `oracle` and the reference step aimed at.
"""

from __future__ import annotations

from typing import Any

from foundation.records.trajectory import Trajectory
from tasks.reference.coverage import covering
from tasks.reference.progress import ReferenceProgress

ORACLE = "selection oracle: the reference solution's next steps"
CONTINUED = "continued"
RESELECTED = "reselected"
NONE_CHOSEN = "none"


def choose(
    progress: ReferenceProgress, trajectories: list[Trajectory], intent: str, previous: Trajectory | None
) -> tuple[Trajectory | None, dict[str, Any]]:
    """The trajectory to show (None: none) and the record of the choice."""
    record: dict[str, Any] = {"oracle": ORACLE, "previous": previous.trajectory_id if previous else None}
    passed_over: list[str] = []
    for index in range(progress.position, len(progress.steps)):
        step = progress.steps[index]
        if step.verb == "stop":
            break
        covers = covering(trajectories, progress.steps[index:], intent, from_start=False)
        if not covers:
            passed_over.append(f"{step.text}: no demonstration of the task's videos covers it")
            continue
        progress.aim(index)
        best = covers[0]
        kept = next((c for c in covers if previous is not None and c.trajectory.trajectory_id == previous.trajectory_id
                     and c.matched == best.matched), None)  # fmt: skip
        chosen = kept or best
        reason = f"covers {chosen.matched} of the reference's next steps from {step.text}" + (
            ", as the one shown before does" if kept else ""
        )
        record.update(
            reference_step=step.text, passed_over_steps=passed_over, candidates=[c.to_dict() for c in covers[:10]],
            decision=CONTINUED if kept else RESELECTED, chosen=chosen.trajectory.trajectory_id,
            continued=kept is not None, reason=reason,
        )  # fmt: skip
        return chosen.trajectory, record
    reason = progress.why_none_chosen("no demonstration covers any of the reference's remaining steps")
    record.update(passed_over_steps=passed_over, candidates=[], decision=NONE_CHOSEN, chosen=None, continued=False)
    record["reason"] = reason
    return None, record
