"""Trajectory construction: name the objective of every short run of consecutive actions.

For n actions and at most L actions per trajectory (processing.max_trajectory_actions,
15) the candidates are every span a[i..j] with j - i + 1 <= L: sum over i of
min(L, n - i) spans, one VLM call each. The VLM sees the span's steps, the frame
before its first action and the frame after its last one, and answers the
objective the span accomplishes, or none.

Frames: the frame "before" action a is keyframe a.start_frame (the screen as the
action begins); the frame "after" is keyframe a.end_frame (the first one showing
its result, as the labeling prompt defines it). Each step's keyframe is the frame
before it.
"""

from __future__ import annotations

from typing import Any

from model_access.client import ChatRequest, ModelClient
from model_access.messages import image_part, text_part
from model_access.replies import ReplyParseError, extract_json_object, strip_thinking
from processing.changed_frames import KeyFrame
from foundation.records.trajectory import LabeledAction, Trajectory, VideoRecord
from processing.stages.asking import StageStats, after_heading, ask_parsed, prompt_identity, role_identity
from processing.stages.frames import model_image
from processing.templates import render, reply_schema
from settings.schema import Settings

STAGE = "trajectories"
TEMPLATE = "trajectory"
QUESTION_TEMPLATE = "trajectory_question"
STEPS_TEMPLATE = "trajectory_steps"
_NONE_WORDS = {"", "none", "null", "no objective", "n/a", "no task"}
ANSWER_HEADING = "OBJECTIVE:"


def subsequences(action_count: int, max_actions: int, min_actions: int = 1) -> list[tuple[int, int]]:
    """Every (i, j), inclusive, with `min_actions` to `max_actions` actions, ordered by i then j."""
    longest, shortest = max(1, max_actions), max(1, min_actions)
    return [
        (i, j) for i in range(action_count) for j in range(i + shortest - 1, min(action_count, i + longest))
    ]


def subsequence_count(action_count: int, max_actions: int, min_actions: int = 1) -> int:
    """len(subsequences(...)) without listing them: per start i, the lengths from the shortest to min(L, n - i)."""
    longest, shortest = max(1, max_actions), max(1, min_actions)
    return sum(max(0, min(longest, action_count - i) - shortest + 1) for i in range(action_count))


def format_steps(actions: list[LabeledAction]) -> str:
    """The numbered step list shown to the VLM (and matched by scripted test servers)."""
    return "\n".join(f"{n}. {action.describe()}" for n, action in enumerate(actions, 1))


def parse_objective(reply: str) -> str | None:
    """The objective named by a reply, or None for "none"; a reply without the field is unreadable."""
    if strip_thinking(reply).strip().strip("`\"'. ").lower() in _NONE_WORDS:
        return None
    data = extract_json_object(after_heading(reply, ANSWER_HEADING))
    if "objective" not in data:
        raise ReplyParseError('"objective" field', reply)
    value = data["objective"]
    if value is None or value is False:
        return None
    text = " ".join(str(value).split())
    return None if text.lower().strip(".") in _NONE_WORDS else text


def frames_around(actions: list[LabeledAction], keyframes: list[KeyFrame]) -> tuple[KeyFrame, KeyFrame]:
    """The keyframe before the first action and the one after the last."""
    return keyframes[actions[0].start_frame], keyframes[actions[-1].end_frame]


def build_trajectory(
    video_id: str,
    actions: list[LabeledAction],
    keyframes: list[KeyFrame],
    span: tuple[int, int],
    objective: str,
    source: str,
) -> Trajectory:
    i, j = span
    steps = actions[i : j + 1]
    first, last = frames_around(steps, keyframes)
    return Trajectory(
        trajectory_id=f"{video_id}/{i}-{j}",
        video_id=video_id,
        objective=objective,
        actions=list(steps),
        step_keyframes=[str(keyframes[a.start_frame].path) for a in steps],
        first_frame=str(first.path),
        last_frame=str(last.path),
        start_s=steps[0].start_s,
        end_s=steps[-1].end_s,
        span=(i, j),
        objective_source=source,
    )


WHOLE_VIDEO_SOURCE = "whole_video"


def whole_video_trajectory(
    video: VideoRecord, actions: list[LabeledAction], keyframes: list[KeyFrame]
) -> Trajectory | None:
    """Every action of the video, each with its keyframe, as one trajectory named by the video's title.

    The `--no-trajectory-selection` ablation shows this (the paper prepends the whole video's actions).
    """
    if not actions:
        return None
    whole = build_trajectory(
        video.video_id, actions, keyframes, (0, len(actions) - 1), video.title or video.video_id, WHOLE_VIDEO_SOURCE
    )
    whole.trajectory_id = f"{video.video_id}/whole"
    return whole


def two_frame_message(prompt: str, before: KeyFrame, after: KeyFrame, settings: Settings) -> dict[str, Any]:
    """The prompt, then the frame before the first step and the frame after the last, each introduced."""
    return framed_message([prompt], before, [], after, settings)


def framed_message(
    opening: list[str], before: KeyFrame, middle: list[str], after: KeyFrame, settings: Settings
) -> dict[str, Any]:
    """`opening` texts, the frame before the first step, `middle` texts, the frame after the last step.

    With `processing.frames_in_prompts` off (a text-only model) the frames and their captions are left out.
    """
    p = settings.processing
    frames = p.frames_in_prompts
    content: list[dict[str, Any]] = [text_part("\n\n".join(opening) + "\n\n")]
    if frames:
        content.append(text_part("Screen before the first step:"))
        content.append(image_part(model_image(before.path, p.model_image_max_side, p.keyframe_quality)))
    if middle:
        content.append(text_part("\n\n".join(middle) + "\n\n"))
    if frames:
        content.append(text_part("Screen after the last step:"))
        content.append(image_part(model_image(after.path, p.model_image_max_side, p.keyframe_quality)))
    return {"role": "user", "content": content}


def objective_message(
    steps: list[LabeledAction], before: KeyFrame, after: KeyFrame, settings: Settings
) -> dict[str, Any]:
    """One objective call's message.

    `processing.shared_opening` (default) sends what every call of one start action shares first: the
    instructions, the screen before the first step, then the steps so far, so a server that keeps the
    previous prompt reads only the new step and the screen after it; off, the steps come before the
    instructions and both screens last (the order before issue 28). The same words either way.
    """
    p = settings.processing
    intro, question = render(TEMPLATE, p), render(QUESTION_TEMPLATE, p)
    listed = render(STEPS_TEMPLATE, p, actions=format_steps(steps))
    if p.shared_opening:
        return framed_message([intro, question], before, [listed], after, settings)
    return framed_message([intro, listed, question], before, [], after, settings)


def _objective_of(_: int, reply: str) -> str | None:
    return parse_objective(reply)


class VlmObjectives:
    """The method's objective maker: one VLM call per span."""

    name = "vlm"
    roles = ("vlm",)

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def identity(self) -> dict[str, Any]:
        return {
            "objectives": self.name,
            "model_image_max_side": self.settings.processing.model_image_max_side,
            "prompts": prompt_identity(self.settings.processing, TEMPLATE, QUESTION_TEMPLATE, STEPS_TEMPLATE),
            "shared_opening": self.settings.processing.shared_opening,
            "frames_in_prompts": self.settings.processing.frames_in_prompts,
            "model": role_identity(self.settings, "vlm"),
        }

    def name_objectives(
        self,
        video: VideoRecord,
        actions: list[LabeledAction],
        keyframes: list[KeyFrame],
        spans: list[tuple[int, int]],
        client: ModelClient,
    ) -> tuple[list[str | None], StageStats]:
        requests = []
        schema = reply_schema(QUESTION_TEMPLATE, self.settings.processing)
        for i, j in spans:  # by start, then end: calls of one start follow each other (see objective_message)
            steps = actions[i : j + 1]
            before, after = frames_around(steps, keyframes)
            message = objective_message(steps, before, after, self.settings)
            requests.append(ChatRequest("vlm", [message], STAGE, reply_schema=schema))
        labels = [f"{video.video_id} actions {i}-{j}" for i, j in spans]
        outcome = ask_parsed(client, requests, _objective_of, self.settings.processing, labels)
        return outcome.values, outcome.stats
