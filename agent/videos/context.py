"""A task's tutorial videos as VideoWA sees them: frames at 1 fps (at most 60) and the transcript; read by the
factual question every video policy asks and by VideoWA's baselines.

    videos, reasons = load_task_videos(task, index, settings)     # files found through the trajectory index
    frames = VideoFrames(settings.video_context).sample(video)     # [(time_s, data URL)], decoded once

The index records each processed video's file and transcript (subtitles or speech
recognition, processing/transcripts.py), so the baselines use the same videos the
method does. Frames are spread evenly: one a second up to `max_frames`, then
`max_frames` over the whole video, each shrunk to `image_max_side`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2

from agent.videos.templates import block
from foundation.errors import UserError
from foundation.video_io import VideoError, iter_frames, probe
from model_access.messages import image_part, rgb_from_bgr
from settings import Settings
from settings.schema import VideoContextSettings

Frame = tuple[float, dict[str, Any]]  # (time in the video, image content part)


@dataclass
class TaskVideo:
    video_id: str
    path: Path
    title: str
    transcript: str


def load_task_videos(task: Any, index: Any, settings: Settings) -> tuple[list[TaskVideo], list[str]]:
    """The task's videos whose files can be read, and one line per video that cannot (with the fix)."""
    found: list[TaskVideo] = []
    problems: list[str] = []
    limit = settings.agent.videos_per_task
    for video_id in task.videos:
        record = index.video(video_id) if index is not None else None
        if record is None:
            problems.append(f"video {video_id} is not in the trajectory index, which records its file: "
                            "run process-videos on it (docs/processing.md)")  # fmt: skip
        elif not Path(record.path).is_file():
            problems.append(f"video {video_id}: its file {record.path} is missing; restore it or process it again")
        elif limit > 0 and len(found) >= limit:
            problems.append(f"video {video_id} left out: agent.videos_per_task is {limit}")
        else:
            found.append(TaskVideo(video_id, Path(record.path), record.title or video_id, record.transcript.strip()))
    return found, problems


class VideoFrames:
    """Frames of videos at VideoWA's rate, decoded once per video per process."""

    def __init__(self, settings: VideoContextSettings, as_videowa_reads: bool = False) -> None:
        """`as_videowa_reads`: each frame whole, as a PNG of OpenCV's BGR array read as RGB (red and blue
        swapped), the way VideoWA's video processor hands frames to PIL; else shrunk, RGB, JPEG."""
        if settings.frames_per_second <= 0 or settings.max_frames < 1:
            raise UserError("video_context.frames_per_second must be above 0 and max_frames at least 1 (e.g. 1 and 60)")
        self.settings = settings
        self.as_videowa_reads = as_videowa_reads
        self._frames: dict[Path, list[Frame]] = {}

    def sample(self, video: TaskVideo) -> list[Frame]:
        if video.path not in self._frames:
            self._frames[video.path] = self._decode(video.path)
        return self._frames[video.path]

    def _decode(self, path: Path) -> list[Frame]:
        s = self.settings
        try:
            info = probe(path)
            # One a second while that gives at most max_frames; else max_frames spread over the video.
            fps = min(s.frames_per_second, s.max_frames / info.duration_s)
            frames: list[Frame] = []
            for frame in iter_frames(path, fps, info):
                if len(frames) >= s.max_frames:
                    break
                if self.as_videowa_reads:
                    part = image_part(frame.bgr(), image_format="PNG")  # the array's BGR order taken as RGB
                else:
                    part = image_part(_shrunk(frame.bgr(), s.image_max_side), image_format="JPEG", jpeg_quality=85)
                frames.append((round(frame.time_s, 2), part))
        except VideoError as exc:
            raise UserError(f"the frames of tutorial video {path} could not be read: {exc}") from exc
        return frames


def _shrunk(bgr: Any, max_side: int) -> Any:
    height, width = bgr.shape[:2]
    scale = max_side / max(height, width)
    if scale < 1:
        bgr = cv2.resize(bgr, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
    return rgb_from_bgr(bgr)


def spacing_words(frames: list[Frame]) -> str:
    if len(frames) < 2:
        return "from the video"
    step = (frames[-1][0] - frames[0][0]) / (len(frames) - 1)
    return "one a second" if step <= 1.05 else f"every {step:.1f} seconds"


def frame_parts(video: TaskVideo, frames: list[Frame], transcript_chars: int) -> list[dict[str, Any]]:
    """The frames with their times, then the narration: VideoWA's in-context video."""
    parts = [block("video_frames", title=video.title, count=len(frames), spacing=spacing_words(frames))]
    for time_s, image in frames:
        parts += [block("video_frame_time", time=f"{time_s:.0f} s"), image]
    parts.append(transcript_part(video, transcript_chars))
    return parts


def transcript_part(video: TaskVideo, chars: int) -> dict[str, Any]:
    if not video.transcript:
        return block("video_no_narration")
    text = video.transcript if len(video.transcript) <= chars else video.transcript[:chars].rstrip() + " [...]"
    return block("transcript", title=video.title, transcript=text)
