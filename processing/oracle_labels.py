"""The labels oracle (`oracle.labels`): a tutorial's ground-truth action log stands in for the labeler.

The bundled sandbox records every tutorial from a script and writes what was done
beside the video (`<name>.actions.json`, tasks/sandbox/tutorials/README.md). With
`oracle.labels` on, processing takes those actions as the video's labels: kind,
target, text and times exactly as logged (scrolls and hovers included, as the log has
them), each given the keyframes around it as the OCR labeler does (`start_frame`: the
last keyframe at or before it begins; `end_frame`: the first showing its effect). The
later stages (merging, objectives, the index) run as they do for any labeler.

Oracle labels are processed into folders of their own (`processed_dir`,
`default_index_dir`), so the labeler's index and the oracle's stay side by side.
A video without a log (any source but the sandbox) is a one-line error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from foundation.errors import UserError
from model_access.client import ModelClient
from processing.changed_frames import KeyFrame
from processing.labeling_accuracy import ground_truth_actions
from processing.ocr_labeler.labeler import _frame_at_or_after, _frame_at_or_before
from processing.plugins import Clip
from foundation.records.trajectory import LabeledAction, VideoRecord
from processing.stages.asking import StageStats
from settings.schema import Settings

LABELER = "ground_truth"
SUFFIX = "oracle-labels"  # of the processed and index folders made with oracle labels


def processed_dir(settings: Settings) -> Path:
    """Where processing keeps each video's artifacts: a folder of its own under oracle labels."""
    default = settings.paths.processed_dir
    return default.with_name(f"{default.name}-{SUFFIX}") if settings.oracle.labels else default


def default_index_dir(settings: Settings) -> Path:
    """The index processing writes and the agent reads when none is named: a folder of its own under oracle labels."""
    default = settings.paths.index_dir
    return default.with_name(f"{default.name}-{SUFFIX}") if settings.oracle.labels else default


def log_path(video: VideoRecord) -> Path:
    """The ground-truth action log recorded beside a sandbox tutorial's video."""
    return Path(video.path).with_suffix(".actions.json")


def oracle_actions(video: VideoRecord, keyframes: list[KeyFrame]) -> list[LabeledAction]:
    """The logged actions of `video`, with keyframe indices; UserError when it has no log."""
    path = log_path(video)
    if not path.is_file():
        raise UserError(
            f"oracle.labels is on but video {video.video_id} has no ground-truth action log ({path}); only the "
            "sandbox tutorials have one: process `--source sandbox`, or turn oracle.labels off"
        )
    times = [keyframe.time_s for keyframe in keyframes]
    actions = ground_truth_actions(path)
    for action in actions:
        action.start_frame = _frame_at_or_before(times, action.start_s)
        action.end_frame = _frame_at_or_after(times, action.end_s)
    return actions


class OracleLabeler:
    """The pipeline's labeler under `oracle.labels`: the whole video as one clip of its logged actions, no model."""

    name = LABELER
    roles: tuple[str, ...] = ()

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def identity(self) -> dict[str, Any]:
        # The log is made with the video, whose keyframes are this stage's input: a new recording is a new key.
        return {"labeler": self.name}

    def estimate_calls(self, frame_count: int) -> int:
        return 0

    def label(
        self, video: VideoRecord, keyframes: list[KeyFrame], client: ModelClient
    ) -> tuple[list[Clip], StageStats]:
        return [Clip(0, max(0, len(keyframes) - 1), oracle_actions(video, keyframes))], StageStats()
