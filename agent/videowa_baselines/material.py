"""What VideoWA's video baselines give the base agent at every step (its `prompt_parts` hook)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agent.videos.context import TaskVideo
from agent.videowa_baselines.templates import block


@dataclass
class FramesMaterial:
    """`--policy frames`: every video's frames and transcript, given with the task at every step."""

    parts: list[dict[str, Any]]
    transcript: str = ""  # the narration alone, for prompts that place it themselves (VideoWA's {audio})

    def prompt_parts(self, visual: bool, image_max_side: int) -> list[dict[str, Any]]:
        return self.parts


@dataclass
class SummaryMaterial:
    """`--policy summary`: the task-conditioned summary of each video, given at every step."""

    summaries: list[tuple[TaskVideo, str]]

    def prompt_parts(self, visual: bool, image_max_side: int) -> list[dict[str, Any]]:
        return [block("video_summary", title=video.title, summary=text) for video, text in self.summaries]
