"""The OCR labeler as a pipeline labeler (`--labeler ocr`): no model, the whole video as one clip."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from model_access.client import ModelClient
from processing.changed_frames import KeyFrame
from processing.ocr_labeler.labeler import LABELER_VERSION, OcrLabeler
from processing.plugins import Clip
from foundation.records.trajectory import VideoRecord
from processing.stages.asking import StageStats
from settings.schema import Settings

# Settings that only score labels afterwards; they do not change what is labeled.
_NOT_IDENTITY = ("score_tolerance_s",)


class OcrPipelineLabeler:
    name = "ocr"
    roles: tuple[str, ...] = ()

    def __init__(self, settings: Settings) -> None:
        self.settings = settings.processing.ocr_labeler

    def identity(self) -> dict[str, Any]:
        knobs = {key: value for key, value in asdict(self.settings).items() if key not in _NOT_IDENTITY}
        return {"labeler": self.name, "version": LABELER_VERSION, "settings": knobs}

    def estimate_calls(self, frame_count: int) -> int:
        return 0

    def label(self, video: VideoRecord, keyframes: list[KeyFrame], client: ModelClient) -> tuple[list[Clip], StageStats]:
        actions = OcrLabeler().label(video.path, keyframes, self.settings)
        return [Clip(0, max(0, len(keyframes) - 1), actions)], StageStats()
