"""The typed records the offline half hands to the online half.

Processing writes them (one JSON file per stage per video), the index stores
them, and the agent reads them back through the index. They are plain data:
`to_dict()` / `from_dict()` round-trip through JSON.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

# Action kinds a labeler may emit (the VLM prompt lists the same set).
ACTION_KINDS = ("click", "right_click", "hover", "type", "press", "scroll", "select", "drag", "goto")


def as_point(value: Any) -> tuple[int, int] | None:
    """(x, y) rounded to whole pixels from a pair of numbers; None for anything else."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        return None
    try:
        x, y = (float(v) for v in value)
    except (TypeError, ValueError):
        return None
    if any(isinstance(v, bool) for v in value) or not all(abs(v) < 1e6 for v in (x, y)):  # NaN fails too
        return None
    return int(round(x)), int(round(y))


def _from_dict(cls, data: dict[str, Any]):
    known = {f.name for f in fields(cls)}
    return cls(**{key: value for key, value in data.items() if key in known})


@dataclass
class VideoRecord:
    """One tutorial video and what is known about it before labeling."""

    video_id: str  # stable name: the VideoWA `video` value, a file stem, or "yt-<id>"
    path: str
    source: str  # videowa_tutorials | dir | urls | sandbox | manifest
    title: str = ""
    description: str = ""
    transcript: str = ""
    duration_s: float = 0.0
    task_keys: list[str] = field(default_factory=list)  # tasks that name this video, when known

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> VideoRecord:
        return _from_dict(cls, data)


@dataclass
class LabeledAction:
    """One action seen in a video, as a person would describe it."""

    kind: str  # one of ACTION_KINDS
    target: str  # the element as a person names it: "Add to Cart", "Search"
    text: str = ""  # typed text, pressed key, chosen option, URL, or what a hover opened, where relevant
    start_frame: int = 0  # index into the video's keyframes
    end_frame: int = 0
    start_s: float = 0.0
    end_s: float = 0.0
    labeler: str = "vlm"  # which labeler produced it ("vlm", "ocr", "ground_truth")
    # Where it happened (x, y in frame pixels): the click's spot, for VideoGUI's click measures and for marking
    # the keyframe; None when the labeler gave none (a key press, a scroll, a reply without one).
    point: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        self.point = as_point(self.point)

    def describe(self) -> str:
        """One short line, used in prompts and galleries."""
        target = f' "{self.target}"' if self.target else ""
        if self.kind == "type":
            return f'type "{self.text}" into{target}'
        if self.kind in ("press", "goto") and self.text:
            return f"{self.kind} {self.text}"
        if self.kind == "select" and self.text:
            return f'select "{self.text}" in{target}'
        if self.kind == "hover" and self.text:  # a VLM-labeled hover says what it opened (labeling.txt)
            return f'hover{target} (opens "{self.text}")'
        return f"{self.kind}{target}"

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if self.point is None:
            del data["point"]  # records without a point stay as they were written before points existed
        else:
            data["point"] = list(self.point)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LabeledAction:
        return _from_dict(cls, data)


@dataclass
class Trajectory:
    """A contiguous run of actions a[i..j] of one video, tagged with the objective it accomplishes."""

    trajectory_id: str  # f"{video_id}/{i}-{j}"
    video_id: str
    objective: str
    actions: list[LabeledAction]
    step_keyframes: list[str]  # keyframe image shown before each action (same length as actions)
    first_frame: str  # the frame before a[i]
    last_frame: str  # the frame after a[j]
    start_s: float
    end_s: float
    span: tuple[int, int]  # (i, j), inclusive indices into the video's action list
    objective_source: str = "vlm"  # "vlm" (the method) or "derived" (model-free baseline)
    checks: dict[str, Any] = field(default_factory=dict)  # trajectory-filtering verdicts and reasons
    # What the video's narration says from the end of the action before a[i] to the end of a[j] (its transcript's
    # cues, processing/narration.py); "" without a transcript. Left out of the JSON when empty.
    narration: str = ""

    @property
    def length(self) -> int:
        return len(self.actions)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["actions"] = [action.to_dict() for action in self.actions]
        data["span"] = list(self.span)
        if not data["narration"]:
            del data["narration"]  # records without narration stay as they were written before it existed
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Trajectory:
        record = _from_dict(cls, data)
        record.actions = [LabeledAction.from_dict(a) if isinstance(a, dict) else a for a in record.actions]
        record.span = tuple(record.span)
        return record
