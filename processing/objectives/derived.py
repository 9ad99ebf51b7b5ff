"""`--objectives derived`: every span gets an objective worded from its actions and page titles, no model.

The model-free baseline of trajectory construction. Each span a[i..j] is named by
`wording.derived_objective`: its actions in plain words, then the tab titles (read
with OCR) of the frame before a[i] and the frame after a[j]. With no model to say
"this span accomplishes nothing", every span is named; the pipeline already bounds
the spans to `processing.max_trajectory_actions` actions each. Trajectories built
from these objectives carry `objective_source="derived"`.
"""

from __future__ import annotations

from typing import Any

from model_access.client import ModelClient
from processing.changed_frames import KeyFrame
from processing.objectives.tab_titles import CACHE_NAME, STRIP_HEIGHT, STRIP_WIDTH, TabTitleReader
from processing.objectives.wording import derived_objective
from foundation.records.trajectory import LabeledAction, VideoRecord
from processing.stages.asking import StageStats
from processing.stages.trajectories import frames_around
from settings.schema import Settings

WORDING_VERSION = 3  # bump when the wording rules change, so stored objectives are made again


class DerivedObjectives:
    name = "derived"
    roles: tuple[str, ...] = ()

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def identity(self) -> dict[str, Any]:
        return {
            "objectives": self.name,
            "wording_version": WORDING_VERSION,
            "tab_strip": [STRIP_HEIGHT, STRIP_WIDTH],
            "ocr_min_score": self.settings.processing.ocr_labeler.ocr_min_score,
        }

    def name_objectives(
        self,
        video: VideoRecord,
        actions: list[LabeledAction],
        keyframes: list[KeyFrame],
        spans: list[tuple[int, int]],
        client: ModelClient,
    ) -> tuple[list[str | None], StageStats]:
        if not keyframes:
            return [derived_objective(actions[i : j + 1]) for i, j in spans], StageStats()
        reader = TabTitleReader(
            keyframes[0].path.parent.parent / CACHE_NAME, self.settings.processing.ocr_labeler.ocr_min_score
        )
        objectives: list[str | None] = []
        for i, j in spans:
            steps = actions[i : j + 1]
            before, after = frames_around(steps, keyframes)
            objectives.append(derived_objective(steps, reader.title(before.path), reader.title(after.path)))
        reader.save()
        return objectives, StageStats()
