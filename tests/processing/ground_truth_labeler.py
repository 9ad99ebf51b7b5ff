"""A labeler for tests that returns a recorded tutorial's ground-truth actions (`<video>.actions.json`).

It lets the stages after labeling (derived objectives, the index, the replay policy)
be tested on real recordings and keyframes without depending on how well a real
labeler reads the video. Register it for one test with
`monkeypatch.setitem(LABELERS, "ground_truth", "tests.processing.ground_truth_labeler:GroundTruthLabeler")`.
"""

from __future__ import annotations

import bisect
from pathlib import Path
from typing import Any

from processing.changed_frames import KeyFrame
from processing.labeling_accuracy import ground_truth_actions
from processing.plugins import Clip
from foundation.records.trajectory import VideoRecord
from processing.stages.asking import StageStats
from settings import Settings


class GroundTruthLabeler:
    name = "ground_truth"
    roles: tuple[str, ...] = ()

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def identity(self) -> dict[str, Any]:
        return {"labeler": self.name}

    def estimate_calls(self, frame_count: int) -> int:
        return 0

    def label(self, video: VideoRecord, keyframes: list[KeyFrame], client: Any) -> tuple[list[Clip], StageStats]:
        actions = ground_truth_actions(Path(video.path).with_name(Path(video.path).stem + ".actions.json"))
        times = [keyframe.time_s for keyframe in keyframes]
        for action in actions:
            action.start_frame = max(0, bisect.bisect_right(times, action.start_s + 1e-6) - 1)
            action.end_frame = min(len(times) - 1, bisect.bisect_left(times, action.end_s - 1e-6))
        return [Clip(0, len(keyframes) - 1, actions)], StageStats()
