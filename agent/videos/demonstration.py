"""What the policy is shown from the tutorial videos at a step: one trajectory, or the videos' narration.

A `Demonstration` renders itself twice: as content parts of the policy's prompt
(text, and the keyframe before each step when images are on) and as the step's
record for the report (`DemonstrationShown`, foundation/records/demonstration.py:
objective, steps, small copies of the keyframes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agent.videos.images import keyframe_data_url, report_thumbnail
from agent.videos.templates import block, render
from agent.videos.verdicts import verdict_label
from agent.base.templates import text_block
from model_access.messages import image_part
from foundation.records.demonstration import CONTINUED, SELECTED, TRANSCRIPT, WHOLE_VIDEO, DemonstrationShown
from foundation.records.trajectory import LabeledAction, Trajectory

# How a demonstration came to be shown (recorded with every step): the record's own names.
__all__ = ["CONTINUED", "SELECTED", "TRANSCRIPT", "WHOLE_VIDEO", "Demonstration", "Transcript", "numbered_steps"]


def numbered_steps(actions: list[LabeledAction]) -> str:
    return "\n".join(f"{number}. {action.describe()}" for number, action in enumerate(actions, 1))


@dataclass
class Transcript:
    video_id: str
    title: str
    text: str


@dataclass
class Demonstration:
    how: str  # SELECTED, CONTINUED, WHOLE_VIDEO or TRANSCRIPT
    trajectory: Trajectory | None = None
    transcripts: list[Transcript] = field(default_factory=list)
    # Ring the point where each step happened on its keyframe (`agent.demonstration_mark_points`; the policy sets it).
    mark_points: bool = False

    @property
    def key(self) -> str:
        """Names the material shown, so the same one is recognised at a later step."""
        if self.trajectory is not None:
            return self.trajectory.trajectory_id
        return "transcript:" + ",".join(t.video_id for t in self.transcripts)

    def prompt_parts(self, visual: bool, max_side: int) -> list[dict[str, Any]]:
        """Content parts for the policy's (or the intermediate question's) user message."""
        if self.trajectory is None:
            sections = [render("transcript", title=t.title, transcript=t.text) for t in self.transcripts]
            return [text_block("\n\n".join(sections))]
        trajectory = self.trajectory
        text = render("demonstration", objective=trajectory.objective, steps=numbered_steps(trajectory.actions))
        if not visual:
            return [text_block(text)]
        parts = [text_block(text + "\n" + render("demonstration_screens"))]
        for number, path in enumerate(trajectory.step_keyframes, 1):
            action = trajectory.actions[number - 1] if number <= len(trajectory.actions) else None
            mark = action.point if self.mark_points and action is not None else None
            url = keyframe_data_url(path, max_side, mark)
            if url is not None:  # a keyframe deleted from the cache: its step is shown as text only
                parts.append(block("demonstration_screen_caption", number=number))
                parts.append(image_part(url))
        return parts

    def record(self, visual: bool, shown_at_step: int | None) -> DemonstrationShown:
        """The step's record of what was shown; images only the first time (`shown_at_step` names that step)."""
        if self.trajectory is None:
            said = "\n\n".join(t.text for t in self.transcripts)
            return DemonstrationShown(
                how=self.how, videos=[t.video_id for t in self.transcripts],
                transcript=said if shown_at_step is None else f"(shown in full at step {shown_at_step})",
            )  # fmt: skip
        trajectory = self.trajectory
        shown = DemonstrationShown(
            how=self.how,
            trajectory_id=trajectory.trajectory_id,
            video=trajectory.video_id,
            objective=trajectory.objective,
            actions=[action.describe() for action in trajectory.actions],
            video_time=f"{trajectory.start_s:.1f}-{trajectory.end_s:.1f} s",
            verification=verdict_label(trajectory),  # what `process-videos --verify` found on the live site
        )
        if not visual:
            shown.keyframes = "not shown to the model (agent.visual is off)"
        elif shown_at_step is not None:
            shown.keyframes = f"(as at step {shown_at_step})"
        else:  # small copies, saved beside the record when the step is
            shown.keyframes = [report_thumbnail(path) or f"missing: {path}" for path in trajectory.step_keyframes]
        return shown
