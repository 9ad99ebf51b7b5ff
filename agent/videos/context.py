"""A task's tutorial videos as VideoWA sees them: frames at 1 fps (at most 60) and the transcript; read by the
factual question every video policy asks and by VideoWA's baselines.

    videos, reasons = load_task_videos(task, index, settings)     # files found through the trajectory index
    frames = VideoFrames(settings.video_context).sample(video)     # [(time_s, data URL)], decoded once

The index records each processed video's file and transcript (subtitles or speech
recognition, processing/transcripts.py), so the baselines use the same videos the
method does. Frames are spread evenly: one a second up to `max_frames`, then
`max_frames` over the whole video, each shrunk to `image_max_side` (0: full size), in
`frame_channel_order` and encoded as `frame_format`. With `video_context.reference_quirks`
naming `fps_frame_step` (`--harness videowa`) the frames are picked as VideoWA's
video_processor.py picks them (`videowa_frame_step`), and `quirk_notes` records what it kept.
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


FPS_FRAME_STEP = "fps_frame_step"
FRAME_QUIRKS = {FPS_FRAME_STEP: "frames whose index % the step is 0, the step the frame rate for a video of at most "
                                "max_frames seconds (VideoWA's video_processor.py:24-34)"}


def videowa_frame_step(frame_count: int, fps: float, max_frames: int) -> float:
    """VideoWA's step between kept frames (video_processor.py:24-27): an integer for a video longer than
    `max_frames` whole seconds, else the frame rate itself, a float that a non-integer rate never divides
    (29.97: only frame 0 within 1001 s)."""
    if frame_count // fps > max_frames:  # int // float: whole seconds, as a float, as the reference compares
        return (frame_count + max_frames - 1) // max_frames
    return fps


def videowa_keeps(index: int, step: float) -> bool:
    return index % step == 0  # float modulo, exactly as the reference tests it (video_processor.py:34)


FRAME_FORMATS = {"jpeg": {"image_format": "JPEG", "jpeg_quality": 85}, "png": {"image_format": "PNG"}}
CHANNEL_ORDERS = ("rgb", "bgr")


class VideoFrames:
    """Frames of videos at VideoWA's rate, decoded once per video per process."""

    def __init__(self, settings: VideoContextSettings, as_videowa_reads: bool = False) -> None:
        """Each frame as `settings` say (image_max_side, frame_channel_order, frame_format); `as_videowa_reads`:
        whole, as a PNG of OpenCV's BGR array read as RGB (red and blue swapped), the way VideoWA's video
        processor hands frames to PIL, whatever the settings."""
        if settings.frames_per_second <= 0 or settings.max_frames < 1:
            raise UserError("video_context.frames_per_second must be above 0 and max_frames at least 1 (e.g. 1 and 60)")
        self.settings = settings
        if as_videowa_reads:
            self.look = (0, "bgr", "png")
        else:
            self.look = (settings.image_max_side, settings.frame_channel_order, settings.frame_format)
        max_side, order, encoding = self.look
        if max_side < 0:
            raise UserError(f"video_context.image_max_side is {max_side}; use 0 (full size) or a size in pixels")
        if order not in CHANNEL_ORDERS:
            raise UserError(f"video_context.frame_channel_order is {order!r}; use 'rgb' or 'bgr'")
        if encoding not in FRAME_FORMATS:
            raise UserError(f"video_context.frame_format is {encoding!r}; use 'jpeg' or 'png'")
        unknown = sorted(set(settings.reference_quirks) - set(FRAME_QUIRKS))
        if unknown:
            raise UserError(f"video_context.reference_quirks names {', '.join(map(repr, unknown))}; "
                            f"known: {', '.join(sorted(FRAME_QUIRKS))}")  # fmt: skip
        self.quirks = frozenset(settings.reference_quirks)
        self._frames: dict[Path, list[Frame]] = {}
        self._notes: dict[Path, dict[str, Any]] = {}

    def sample(self, video: TaskVideo) -> list[Frame]:
        if video.path not in self._frames:
            self._frames[video.path] = self._decode(video.path)
        return self._frames[video.path]

    def quirk_record(self, videos: list[TaskVideo]) -> dict[str, Any]:
        """For a record: the reference quirks that chose the frames of `videos` and, per video id, what each kept
        (quirk, rate, frame count, step, frames); {} when none did."""
        notes = {video.video_id: self._notes[video.path] for video in videos if video.path in self._notes}
        return {"quirks": sorted({note["quirk"] for note in notes.values()}), "frame_sampling": notes} if notes else {}

    def _decode(self, path: Path) -> list[Frame]:
        if FPS_FRAME_STEP in self.quirks:
            return self._decode_like_videowa(path)
        s = self.settings
        max_side, order, encoding = self.look
        try:
            info = probe(path)
            # One a second while that gives at most max_frames; else max_frames spread over the video.
            fps = min(s.frames_per_second, s.max_frames / info.duration_s)
            frames: list[Frame] = []
            for frame in iter_frames(path, fps, info):
                if len(frames) >= s.max_frames:
                    break
                pixels = _shrunk(frame.bgr(), max_side)
                # "bgr": the array goes on as it is and is read as RGB, as the reference's Image.fromarray does.
                pixels = rgb_from_bgr(pixels) if order == "rgb" else pixels
                frames.append((round(frame.time_s, 2), image_part(pixels, **FRAME_FORMATS[encoding])))
        except VideoError as exc:
            raise UserError(f"the frames of tutorial video {path} could not be read: {exc}") from exc
        return frames

    def _decode_like_videowa(self, path: Path) -> list[Frame]:
        """The frames VideoWA keeps, read through OpenCV as it reads them (its rate and frame count, every frame
        decoded in order, no cap at max_frames: an integer rate keeps up to max_frames + 1), in this look."""
        max_side, order, encoding = self.look
        capture = cv2.VideoCapture(str(path))
        if not capture.isOpened():
            raise UserError(f"the frames of tutorial video {path} could not be read: OpenCV cannot open it")
        try:
            fps = float(capture.get(cv2.CAP_PROP_FPS))
            count = int(capture.get(cv2.CAP_PROP_FRAME_COUNT))
            if fps <= 0:
                raise UserError(f"the frames of tutorial video {path} could not be read: OpenCV reads no frame rate")
            step = videowa_frame_step(count, fps, self.settings.max_frames)
            frames: list[Frame] = []
            index = 0
            while capture.grab():  # grab every frame (the reference reads each); decode only those kept
                if videowa_keeps(index, step):
                    ok, pixels = capture.retrieve()
                    if not ok:
                        break
                    pixels = _shrunk(pixels, max_side)
                    pixels = rgb_from_bgr(pixels) if order == "rgb" else pixels
                    frames.append((round(index / fps, 2), image_part(pixels, **FRAME_FORMATS[encoding])))
                index += 1
        finally:
            capture.release()
        if not frames:
            raise UserError(f"the frames of tutorial video {path} could not be read: OpenCV decoded none")
        self._notes[path] = {"quirk": FPS_FRAME_STEP, "fps": fps, "frame_count": count, "step": step,
                             "frames": len(frames)}  # fmt: skip
        return frames


def _shrunk(bgr: Any, max_side: int) -> Any:
    height, width = bgr.shape[:2]
    scale = max_side / max(height, width)
    if 0 < scale < 1:
        bgr = cv2.resize(bgr, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
    return bgr


def transcript_share(settings: VideoContextSettings, videos: int) -> int:
    """Characters of each video's transcript to show when `videos` are shown together; 0: all of it."""
    total = settings.transcript_max_chars
    if total < 0:
        raise UserError(f"video_context.transcript_max_chars is {total}; use 0 (whole) or a number of characters")
    return 0 if total == 0 else max(1, total // max(1, videos))


def cut_transcript(text: str, chars: int) -> str:
    """`text` cut to `chars` with a mark where it was cut; 0: whole."""
    return text if chars == 0 or len(text) <= chars else text[:chars].rstrip() + " [...]"


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
    return block("transcript", title=video.title, transcript=cut_transcript(video.transcript, chars))
