"""The selection oracle for the replay policy (`oracle.selection`): follow what does the reference's next steps.

In place of embedding selection, before each step:
- continuation: the trajectory followed is kept while its next step, planned on this
  page, does the reference solution's next step (agent/oracles/progress.py), or
  clears the field that step types into;
- otherwise a trajectory is chosen: of the task's trajectories that cover the
  reference's next step from their first step on (tasks/reference/coverage.py: by the
  steps' names), ranked by how many of the following reference steps they cover, the
  first whose first step, planned on this page by the replay's own grounding and
  values, does that reference step. When none covers the next reference step, the
  steps after it are tried in turn (the tutorials may not show a step the task needs,
  such as opening a forum the task starts outside); when none covers any step up to
  the solution's stop, nothing is chosen and the policy stops, reading the answer off
  the page as it does.
The record has the shape of the embedding selection's (`previous`, `candidates`,
`decision`, `chosen`, `continued`, `reason`), with `oracle` and the reference step
aimed at.
"""

from __future__ import annotations

from typing import Any, Callable

from agent.oracles.progress import LiveProgress, Page
from agent.replay.embedding_selection import CONTINUED, NONE_CHOSEN, RESELECTED
from agent.replay.steps import Plan
from foundation.records.trajectory import Trajectory
from tasks.reference.coverage import covering

PlanFirst = Callable[[Trajectory], "tuple[int, Plan | None]"]  # (first replayed step, its plan here or None)
ORACLE = "selection oracle: the reference solution's next steps"


def continued(trajectory: Trajectory, step_number: int, plan: Plan, progress: LiveProgress) -> dict[str, Any]:
    step = progress.next_step
    reason = f"its step {step_number} ({plan.describe()}) does the reference's next step, {step.text if step else ''}"
    return {
        "oracle": ORACLE,
        "previous": trajectory.trajectory_id,
        "continuation": {"relevant": True, "reason": reason},
        "decision": CONTINUED,
        "chosen": trajectory.trajectory_id,
        "continued": True,
        "reason": reason,
    }


def select(
    progress: LiveProgress,
    trajectories: list[Trajectory],
    intent: str,
    plan_first: PlanFirst,
    page: Page,
    previous: Trajectory | None,
    why_reselect: str,
) -> tuple[Trajectory | None, int, Plan | None, dict[str, Any]]:
    """The trajectory to follow, its first replayed step and that step's plan, and the record of the choice."""
    record: dict[str, Any] = {"oracle": ORACLE, "previous": previous.trajectory_id if previous else None}
    if previous is not None:
        record["continuation"] = {"relevant": False, "reason": why_reselect}
    passed_over: list[str] = []
    for index in range(progress.position, len(progress.steps)):
        step = progress.steps[index]
        if step.verb == "stop":
            break
        covers = covering(trajectories, progress.steps[index:], intent)
        if not covers:
            passed_over.append(f"{step.text}: no demonstration of the task's videos covers it")
            continue
        progress.aim(index)  # the oracle's own grounding, when on, grounds this step
        candidates = []
        for cover in covers:
            start, plan = plan_first(cover.trajectory)
            entry = cover.to_dict()
            entry["first_step"] = plan.describe() if plan is not None else "does not ground here"
            candidates.append(entry)
            if plan is None or not progress.on_track(plan.action, page):
                continue
            covers_here = f"covers {cover.matched} of the reference's next steps from {step.text}"
            reason = f"{covers_here}, and its first step does it here"
            record.update(
                reference_step=step.text, passed_over_steps=passed_over, candidates=candidates[:10],
                decision=RESELECTED, chosen=cover.trajectory.trajectory_id, continued=False, reason=reason,
            )  # fmt: skip
            return cover.trajectory, start, plan, record
        passed_over.append(f"{step.text}: the {len(covers)} demonstration(s) covering it cannot start it on this page")
    reason = progress.why_none_chosen("no demonstration does any of the reference's remaining steps on this page")
    record.update(passed_over_steps=passed_over, candidates=[], decision=NONE_CHOSEN, chosen=None, continued=False)
    record["reason"] = reason
    return None, 0, None, record
