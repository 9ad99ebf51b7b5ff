"""`OcrLabeler`: a video's actions with no model, from the pointer, pixel differences and OCR.

Which frames: the labeler makes its own streaming pass at `analysis_fps` (8 by default)
rather than reading the pipeline's 2 fps keyframes, because a click, a keystroke and a
wheel notch last a fraction of a second, and reading a target needs the frame just
before its click, with a view of the spot before the pointer covered it. The keyframes
are used to give each action its frame indices (`start_frame`: the last keyframe at or
before the action begins; `end_frame`: the first one showing its effect), as the rest of
the pipeline expects.
"""

from __future__ import annotations

import bisect
import resource
import time
from dataclasses import dataclass
from pathlib import Path

from foundation.errors import UserError
from foundation.records.trajectory import LabeledAction
from processing.changed_frames import KeyFrame
from processing.ocr_labeler.events import assemble
from processing.ocr_labeler.observe import observe
from settings.schema import OcrLabelerSettings

EVIDENCE_MODES = ("auto", "ring", "dwell")
LABELER_VERSION = 6  # bump when a change to the code changes labels, so stored labeling is redone


@dataclass(frozen=True)
class LabelingRun:
    """One video's actions and what labeling it cost."""

    actions: list[LabeledAction]
    seconds: float  # wall clock
    cpu_seconds: float  # this process's threads and the ffmpeg decoder together
    video_s: float
    crops_read: int  # pictures OCR'd

    def per_video_minute(self, seconds: float) -> float:
        return seconds / (self.video_s / 60) if self.video_s > 0 else 0.0


class OcrLabeler:
    name = "ocr"

    def label(self, video_path: str | Path, keyframes: list[KeyFrame], settings: OcrLabelerSettings) -> list[LabeledAction]:
        """The actions in the video at `video_path`, in time order, labeler="ocr"."""
        return self.run(video_path, keyframes, settings).actions

    def run(self, video_path: str | Path, keyframes: list[KeyFrame], settings: OcrLabelerSettings) -> LabelingRun:
        check_settings(settings)
        started, cpu_started = time.perf_counter(), _cpu_seconds()
        observation = observe(video_path, settings)
        steps = assemble(observation, settings)
        times = [keyframe.time_s for keyframe in keyframes]
        actions = [
            LabeledAction(
                kind=step.kind,
                target=step.target,
                text=step.text,
                start_frame=_frame_at_or_before(times, step.start_s),
                end_frame=_frame_at_or_after(times, step.end_s),
                start_s=round(step.start_s, 3),
                end_s=round(step.end_s, 3),
                labeler="ocr",
                point=step.point,  # the click's spot, kept for VideoGUI's click measures and the keyframe's mark
            )
            for step in steps
        ]
        return LabelingRun(
            actions, time.perf_counter() - started, _cpu_seconds() - cpu_started,
            observation.duration_s, observation.reader.crops_read,
        )  # fmt: skip


def _cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def check_settings(settings: OcrLabelerSettings) -> None:
    where = "processing.ocr_labeler"
    if settings.analysis_fps <= 0:
        raise UserError(f"{where}.analysis_fps is {settings.analysis_fps}: set it above 0 (default 8)")
    if settings.click_evidence not in EVIDENCE_MODES:
        raise UserError(
            f"{where}.click_evidence is {settings.click_evidence!r}: use one of {', '.join(EVIDENCE_MODES)}"
        )
    if settings.buffer_s < 2 / settings.analysis_fps:
        raise UserError(f"{where}.buffer_s is {settings.buffer_s}: keep at least two frames (default 3.0)")
    if not 0 < settings.page_change_fraction <= 1:
        raise UserError(f"{where}.page_change_fraction is {settings.page_change_fraction}: set it in (0, 1]")


def _frame_at_or_before(times: list[float], time_s: float) -> int:
    if not times:
        return 0
    return max(0, bisect.bisect_right(times, time_s + 1e-6) - 1)


def _frame_at_or_after(times: list[float], time_s: float) -> int:
    if not times:
        return 0
    return min(len(times) - 1, bisect.bisect_left(times, time_s - 1e-6))
