"""Action labeling: a VLM reads clips of changed frames and lists the actions it sees.

Clips hold `clip_frames` keyframes (20) and consecutive clips share `clip_overlap`
of them (3), so an action at a border is seen whole in at least one clip; the merge
stage then removes the ones seen twice. Each request carries the prompt and the
clip's frames, each after a "Frame N:" line with its index among the video's
keyframes. The reply reasons first (REASONING:), then gives a JSON list of actions whose
frame numbers are those indices after an ACTIONS: heading; the list is read from after it.

Then the kind filter (the paper filters labeled actions by type): only the kinds of
`processing.action_kinds.<platform>` are kept, and a hover only when its text names
what it opened (a hover with no result is pointer travel, not an action).
"""

from __future__ import annotations

from typing import Any

from foundation.errors import UserError
from model_access.client import ChatRequest, ModelClient
from model_access.messages import image_part, text_part
from model_access.replies import ReplyParseError, extract_json_list
from processing.changed_frames import KeyFrame
from processing.plugins import Clip
from foundation.records.trajectory import LabeledAction, VideoRecord, as_point
from processing.stages.asking import StageStats, after_heading, ask_parsed, prompt_identity, role_identity
from processing.stages.frames import frame_sizes, model_image
from processing.templates import render, reply_schema
from settings.schema import ProcessingSettings, Settings

STAGE = "labeling"
TEMPLATE = "labeling"
ANSWER_HEADING = "ACTIONS:"

Size = tuple[int, int]  # width, height in pixels

# Spellings models use for the kinds in records.ACTION_KINDS.
_KIND_ALIASES = {
    "rightclick": "right_click",
    "right_click": "right_click",
    "left_click": "click",
    "tap": "click",
    "mouse_over": "hover",
    "mouseover": "hover",
    "input": "type",
    "enter_text": "type",
    "fill": "type",
    "type_text": "type",
    "key": "press",
    "keypress": "press",
    "key_press": "press",
    "press_key": "press",
    "navigate": "goto",
    "go_to": "goto",
    "open_url": "goto",
    "choose": "select",
    "select_option": "select",
    "drag_and_drop": "drag",
}


def clip_ranges(frame_count: int, clip_frames: int, overlap: int) -> list[tuple[int, int]]:
    """(first, last) keyframe indices of each clip, inclusive; consecutive clips share `overlap` frames."""
    if clip_frames < 1 or not 0 <= overlap < clip_frames:
        raise UserError(
            f"clips of {clip_frames} frames with {overlap} shared are impossible: "
            "set processing.clip_frames above processing.clip_overlap (the method uses 20 and 3)"
        )
    ranges: list[tuple[int, int]] = []
    start = 0
    while start < frame_count:
        end = min(start + clip_frames, frame_count)
        ranges.append((start, end - 1))
        if end == frame_count:
            break
        start = end - overlap
    return ranges


def normalise_kind(raw: object) -> str:
    kind = "_".join(str(raw or "").strip().lower().replace("-", " ").split())
    return _KIND_ALIASES.get(kind, kind)


def parse_actions(
    reply: str, first: int, last: int, keyframes: list[KeyFrame], sizes: tuple[Size, Size] | None = None
) -> list[LabeledAction]:
    """The actions in a labeling reply, frame numbers kept inside the clip, in time order.

    `sizes`: the frames' (width, height) as recorded and as the model saw them; a reply's "point" is in the
    latter and is kept in frame pixels. Without `sizes`, or without a usable point, the action has none."""
    items = extract_json_list(after_heading(reply, ANSWER_HEADING))
    actions: list[LabeledAction] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        kind = normalise_kind(item.get("type") or item.get("action") or item.get("kind"))
        if not kind:
            continue
        start = _frame(item.get("start_frame"), first, first, last)
        end = _frame(item.get("end_frame"), start, first, last)
        start, end = min(start, end), max(start, end)
        actions.append(
            LabeledAction(
                kind=kind,
                target=_text(item.get("target") or item.get("element")),
                text=_text(item.get("text") if item.get("text") is not None else item.get("value")),
                start_frame=start,
                end_frame=end,
                start_s=keyframes[start].time_s,
                end_s=keyframes[end].time_s,
                labeler="vlm",
                point=_point(item.get("point"), sizes),
            )
        )
    if items and not actions:
        raise ReplyParseError("action with a type", reply)
    actions.sort(key=lambda action: (action.start_frame, action.end_frame))
    return actions


def kept_kinds(settings: ProcessingSettings) -> list[str]:
    """The kind list of the configured platform; an unknown platform is a one-line error."""
    kinds = getattr(settings.action_kinds, settings.platform, None)
    if not isinstance(kinds, list):
        raise UserError(f"processing.platform is {settings.platform!r}: use web or desktop")
    return [normalise_kind(kind) for kind in kinds]


def keep_kinds(actions: list[LabeledAction], kinds: list[str]) -> list[LabeledAction]:
    """The actions of the kept kinds; a hover only when its text says what it opened."""
    return [a for a in actions if a.kind in kinds and (a.kind != "hover" or a.text.strip())]


def _frame(value: object, default: int, first: int, last: int) -> int:
    try:
        number = int(float(value))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        number = default
    return min(max(number, first), last)


def _point(value: object, sizes: tuple[Size, Size] | None) -> tuple[int, int] | None:
    """A reply's [x, y] (pixels of the frame as shown) in frame pixels; None when absent or off the frame."""
    point = as_point(value)
    if point is None or sizes is None:
        return None
    (width, height), (shown_w, shown_h) = sizes
    if not (0 <= point[0] <= shown_w and 0 <= point[1] <= shown_h):
        return None  # not on the frame: a guess, not a place
    return as_point((point[0] * width / shown_w, point[1] * height / shown_h))


def _text(value: object) -> str:
    return " ".join(str(value).split()) if value is not None else ""


class VlmLabeler:
    """The method's labeler: one VLM call per clip."""

    name = "vlm"
    roles = ("vlm",)

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.processing: ProcessingSettings = settings.processing

    def identity(self) -> dict[str, Any]:
        p = self.processing
        return {
            "labeler": self.name,
            "clip_frames": p.clip_frames,
            "clip_overlap": p.clip_overlap,
            "model_image_max_side": p.model_image_max_side,
            "kept_kinds": kept_kinds(p),
            "prompts": prompt_identity(p, TEMPLATE),
            "model": role_identity(self.settings, "vlm"),
        }

    def clips(self, frame_count: int) -> list[tuple[int, int]]:
        return clip_ranges(frame_count, self.processing.clip_frames, self.processing.clip_overlap)

    def estimate_calls(self, frame_count: int) -> int:
        return len(self.clips(frame_count))

    def label(
        self, video: VideoRecord, keyframes: list[KeyFrame], client: ModelClient
    ) -> tuple[list[Clip], StageStats]:
        ranges = self.clips(len(keyframes))
        kinds = kept_kinds(self.processing)
        # The schema's action kinds are the configured platform's (the file lists the web's).
        schema = reply_schema(TEMPLATE, self.processing).with_enum(("items", "properties", "type"), kinds)
        requests = [
            ChatRequest("vlm", [self._message(video, keyframes, first, last)], STAGE, reply_schema=schema)
            for first, last in ranges
        ]
        labels = [f"{video.video_id} frames {first}-{last}" for first, last in ranges]
        sizes = self._sizes(keyframes)

        def parse(i: int, reply: str) -> list[LabeledAction]:
            first, last = ranges[i]
            return keep_kinds(parse_actions(reply, first, last, keyframes, sizes), kinds)

        outcome = ask_parsed(client, requests, parse, self.processing, labels)
        clips = [Clip(first, last, actions) for (first, last), actions in zip(ranges, outcome.values)]
        return clips, outcome.stats

    def _sizes(self, keyframes: list[KeyFrame]) -> tuple[Size, Size] | None:
        """The frames' size as recorded and as sent (one video's keyframes share a size)."""
        return frame_sizes(keyframes[0].path, self.processing.model_image_max_side) if keyframes else None

    def _message(self, video: VideoRecord, keyframes: list[KeyFrame], first: int, last: int) -> dict[str, Any]:
        shown = self._sizes(keyframes)
        width, height = shown[1] if shown else (0, 0)
        prompt = render(
            TEMPLATE,
            self.processing,
            title=video.title or video.video_id,
            first_frame=first,
            last_frame=last,
            frame_count=len(keyframes),
            frame_width=width,
            frame_height=height,
        )
        parts: list[dict[str, Any]] = [text_part(prompt)]
        p = self.processing
        for index in range(first, last + 1):
            image = model_image(keyframes[index].path, p.model_image_max_side, p.keyframe_quality)
            parts += [text_part(f"Frame {index}:"), image_part(image)]
        return {"role": "user", "content": parts}
