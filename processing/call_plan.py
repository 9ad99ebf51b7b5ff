"""`process-videos --dry-run` for one video: which stages are stored, to do or off, and the model calls to come.

The dry run plays the stages without running any that calls a model (pipeline.py); this turns what it
found into counts. A stage switched off (`--no-action-filtering`, `--no-trajectory-filtering`) is "off",
never "to do", and costs nothing. Every count grows with the changed frames, which a dry run detects
when they are not stored; the one assumption left is one action per changed frame until labeling is stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from processing.stages.trajectories import subsequence_count
from processing.summary import STAGES, VideoOutcome
from settings.schema import ProcessingSettings

EXACT = "exact"


@dataclass
class CallPlan:
    video_id: str
    duration_s: float
    stored: list[str]
    todo: list[str]
    off: list[str]
    calls: list[tuple[str, int, str]] = field(default_factory=list)  # (stage, calls, how the number was found)
    transcript_calls: int = 0  # speech recognition requests, counted apart: another server, other units

    @property
    def total(self) -> int:
        return sum(count for stage, count, _ in self.calls if stage != "transcript")

    @property
    def exact(self) -> bool:
        return all(basis == EXACT for stage, count, basis in self.calls if stage != "transcript" and count)

    def to_dict(self) -> dict[str, Any]:
        return {**vars(self), "total": self.total, "exact": self.exact}


def switched_off(p: ProcessingSettings) -> list[str]:
    return [name for name, on in (("action_filtering", p.action_filtering),
                                  ("trajectory_filtering", p.trajectory_filtering)) if not on]  # fmt: skip


def plan_calls(
    outcome: VideoOutcome,
    duration_s: float,
    p: ProcessingSettings,
    labeler: Any,
    objective_maker: Any,
    *,
    frames_detected: bool,
    transcript_plan: tuple[int, str] | None,
) -> CallPlan:
    """The plan of one video from the stages a dry run found stored (`outcome.stages`)."""
    off = switched_off(p)
    plan = CallPlan(
        outcome.video_id, duration_s,
        stored=[name for name in STAGES if name in outcome.stages and name not in off],
        todo=[name for name in STAGES if name not in outcome.stages and name not in off],
        off=off,
    )  # fmt: skip
    if "transcript" in outcome.stages:
        plan.stored.insert(0, "transcript")
    elif transcript_plan is not None:
        plan.todo.insert(0, "transcript")
        plan.calls.append(("transcript", *transcript_plan))
        plan.transcript_calls = transcript_plan[0]
    if "changed_frames" in plan.stored or frames_detected:
        frames, frames_basis = outcome.keyframes, EXACT
    else:  # the video could not be read: the old bound, one changed frame per sampled frame
        frames, frames_basis = int(duration_s * p.sample_fps) + 1, "at most"
    if "labeling" in plan.todo:
        plan.calls.append(("labeling", labeler.estimate_calls(frames), frames_basis))
        if labeler.roles:
            plan.calls.append(("merging", 1, "at most: none when fewer than two actions are labeled"))
    if "action_filtering" in plan.todo:
        plan.calls.append(("action_filtering", 1, EXACT))
    if "action_filtering" in plan.stored or ("action_filtering" in off and "merging" in plan.stored):
        actions, basis = outcome.actions or outcome.labeled_actions, EXACT
    elif "merging" in plan.stored:
        actions, basis = outcome.labeled_actions, "at most: action filtering may drop actions"
    else:
        actions, basis = frames, "estimate: one action per changed frame"
    spans = subsequence_count(actions, p.max_trajectory_actions, p.min_trajectory_actions)
    if "trajectories" in plan.todo and objective_maker.roles:
        plan.calls.append(("trajectories", spans, basis))
    if "trajectory_filtering" in plan.todo:
        if "trajectories" in plan.stored:
            plan.calls.append(("trajectory_filtering", outcome.named, EXACT))
        elif objective_maker.roles:
            plan.calls.append(("trajectory_filtering", spans, "at most: one per named objective"))
        else:  # a model-free objective maker names every span
            plan.calls.append(("trajectory_filtering", spans, basis))
    return plan
