"""The "lost at" stages (evaluation/reports/loss_account.py STAGES) in plain words, with the oracle rung that
replaces each where there is one (RUNG_OF_STAGE), for the key under a run's task list."""

from __future__ import annotations

from evaluation.reports.loss_account import RUNG_OF_STAGE, STAGES

MEANING = {
    "no_covering_trajectory": "no tutorial the policy had shows the step it missed",
    "mislabeled": "a tutorial's log shows the step, but no labeled trajectory covers it (the labels lost it)",
    "covering_not_chosen": "a labeled trajectory covers the step, but the policy followed none of them",
    "step_not_grounded": "it followed a covering trajectory, whose step did not ground on the page",
    "wrong_value": "it acted on the right field or menu with another value, or answered otherwise",
    "evaluator": "it did every reference step and answered as the reference, yet was scored failed",
    "other": "it did every step and others too, ended early, or showed no demonstrations",
    "unknown": "the records cannot decide (no reference solution, no index or logs, an unnamed element)",
}
assert set(MEANING) == set(STAGES), "a stage of loss_account.STAGES has no words here"


def stage_key(stages: set[str]) -> list[dict[str, str]]:
    """The key's rows for `stages` (those the run's tasks were lost at), in STAGES order."""
    return [
        {"stage": stage.replace("_", " "), "meaning": MEANING[stage],
         "rung": f"the {RUNG_OF_STAGE[stage]} oracle" if stage in RUNG_OF_STAGE else ""}
        for stage in STAGES if stage in stages
    ]  # fmt: skip
