"""A recorded tutorial's ground truth: its action log, and which logged action a labeled one stands for.

A sandbox tutorial is recorded with the log of what was done in it (`<video>.actions.json`
beside the video, tasks/sandbox/tutorials/ground_truth.py: each action's kind, element,
text and time). A labeled action stands for the logged action nearest in time to it
(spans overlapping or at most `tolerance_s` apart).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

from foundation.records.trajectory import LabeledAction

LOG_SUFFIX = ".actions.json"


def log_path(video_path: str | Path) -> Path:
    """Where a recorded tutorial's log lies: beside its video."""
    return Path(video_path).with_suffix(LOG_SUFFIX)


def read_log(path: str | Path) -> list[LabeledAction] | None:
    """The logged actions as labeled actions (labeler "ground_truth"), or None when there is no readable log."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return [
        LabeledAction(
            kind=item.get("type", ""),
            target=item.get("target", ""),
            text=item.get("text", ""),
            start_s=float(item.get("start_s") or 0.0),
            end_s=float(item.get("end_s") or 0.0),
            labeler="ground_truth",
            point=item.get("cursor") if item.get("box") else None,  # the pointer's tip, where it acted on an element
        )
        for item in data.get("actions") or []
    ]


def time_gap(a: LabeledAction, b: LabeledAction) -> float:
    """Seconds between two actions' time spans (0 when they overlap)."""
    return max(0.0, max(a.start_s, b.start_s) - min(max(a.start_s, a.end_s), max(b.start_s, b.end_s)))


def nearest(action: LabeledAction, others: Iterable[LabeledAction], tolerance_s: float) -> LabeledAction | None:
    """The action of `others` nearest in time to `action`, within the tolerance, or None."""
    best: tuple[float, LabeledAction] | None = None
    for other in others:
        gap = time_gap(action, other)
        if gap <= tolerance_s and (best is None or gap < best[0]):
            best = (gap, other)
    return best[1] if best else None
