"""Changed-frame detection: the keyframes of a screen recording, written to the cache.

Frames are sampled at `sample_fps` (by default among the frames the decoder needs anyway,
`decode_frames`; a sample then carries its own time); the first is always kept, and a later one is kept
when it differs enough from the last kept frame. Comparing with the last *kept* frame
(not the previous sample) lets slow changes, such as text typed a letter at a time,
add up until they count.

The difference is a mean absolute grey-level difference on a small copy of the frame
(`diff_width` wide), with two corrections measured on screen recordings:
- pixel differences below `diff_noise_floor` are ignored: video compression makes
  a still screen shimmer by a few grey levels (at every I-frame), which on its own would
  add up to as much as a pointer movement;
- a moved pointer darkens one spot and lightens another by the same amount, while new
  content (text, a page) mostly changes in one direction or far more. So up to
  `pointer_allowance` of matching lighter-and-darker change is discounted, which makes
  pointer-only movement score about zero while a typed character still scores its own ink.
Setting both to 0 gives the plain mean absolute difference.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np

from foundation.errors import UserError
from foundation.video_io import DECODE_MODES, SampledFrame, VideoInfo, iter_frames, probe
from settings.schema import ProcessingSettings

MANIFEST_NAME = "keyframes.json"
MANIFEST_VERSION = 1
KEYFRAME_NAME = re.compile(r"t\d{6,}\.\d{3}\.jpg")


@dataclass(frozen=True)
class KeyFrame:
    index: int  # position among the sampled frames
    time_s: float  # moment of the video the frame shows
    path: Path  # the JPEG
    diff: float | None  # change score against the previous keyframe; None for the first

    def to_json(self, base: Path) -> dict:
        """A JSON-ready dict with the path relative to `base` (the manifest's folder)."""
        return {"index": self.index, "time_s": self.time_s, "path": os.path.relpath(self.path, base), "diff": self.diff}

    @classmethod
    def from_json(cls, data: dict, base: Path) -> KeyFrame:
        return cls(int(data["index"]), float(data["time_s"]), base / data["path"], data["diff"])


def keyframe_name(time_s: float) -> str:
    """File name that sorts by time: 12.5 s -> t000012.500.jpg."""
    return f"t{time_s:010.3f}.jpg"


def diff_image(luma: np.ndarray, diff_width: int) -> np.ndarray:
    """The small grey copy frames are compared on (never wider than the frame itself)."""
    height, width = luma.shape
    small_width = max(1, min(diff_width, width))
    small_height = max(1, round(height * small_width / width))
    # Halving first: OpenCV's area average is ~6x cheaper at an exact factor of 2 than at 4,
    # and the result differs by at most a rounding step (one grey level).
    while luma.shape[1] >= 2 * small_width and luma.shape[0] >= 2 * small_height:
        luma = cv2.resize(luma, (luma.shape[1] // 2, luma.shape[0] // 2), interpolation=cv2.INTER_AREA)
    if luma.shape != (small_height, small_width):
        luma = cv2.resize(luma, (small_width, small_height), interpolation=cv2.INTER_AREA)
    return luma.astype(np.int16)


def change_score(current: np.ndarray, reference: np.ndarray, noise_floor: float, pointer_allowance: float) -> float:
    """How much `current` differs from `reference` (int16 grey images of one size), in mean grey levels.

    Mean absolute difference over pixels that changed by at least `noise_floor`, minus
    twice the smaller of (lighter total, darker total, `pointer_allowance`): the part that
    a pointer moving from one spot to another explains.
    """
    delta = current - reference
    lighter = np.maximum(delta, 0)
    darker = np.maximum(-delta, 0)
    if noise_floor > 0:
        lighter[lighter < noise_floor] = 0
        darker[darker < noise_floor] = 0
    size = delta.size
    lighter_mean = float(lighter.sum()) / size
    darker_mean = float(darker.sum()) / size
    moved = min(lighter_mean, darker_mean, pointer_allowance)
    return lighter_mean + darker_mean - 2 * moved


def detect_changed_frames(path: str | Path, settings: ProcessingSettings, out_dir: str | Path) -> list[KeyFrame]:
    """Write the keyframes of the video at `path` as JPEGs into `out_dir`, with a manifest; return them.

    Streams the video: memory stays flat in its length. Files left in `out_dir` by an
    earlier run (keyframes, manifest) are replaced. Raises VideoError for a bad video.
    """
    _check_settings(settings)
    path, out_dir = Path(path), Path(out_dir)
    info = probe(path)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / MANIFEST_NAME).unlink(missing_ok=True)
    for stale in out_dir.glob("t*.jpg"):
        if KEYFRAME_NAME.fullmatch(stale.name):
            stale.unlink()

    keyframes: list[KeyFrame] = []
    reference: np.ndarray | None = None
    # Latest sample not kept, and its score: the end state. Always the sample before the current one,
    # so its reused buffer (iter_frames keeps the last three) is still intact when it is written.
    held: tuple[SampledFrame, float] | None = None
    sampled = 0
    for frame in iter_frames(
        path, settings.sample_fps, info, settings.decode_threads, decode=settings.decode_frames, reuse_buffers=True
    ):
        sampled += 1
        small = diff_image(frame.luma, settings.diff_width)
        if reference is None:
            score = None
        else:
            score = change_score(small, reference, settings.diff_noise_floor, settings.pointer_allowance)
            if score <= settings.change_threshold:
                held = (frame, score)
                continue
        keyframes.append(_write(frame, score, out_dir, settings.keyframe_quality))
        reference, held = small, None
    if held is not None and held[1] > 0:
        keyframes.append(_write(held[0], held[1], out_dir, settings.keyframe_quality))

    _write_manifest(out_dir, info, settings, sampled, keyframes)
    return keyframes


def load_keyframes(out_dir: str | Path) -> list[KeyFrame]:
    """The keyframes a finished `detect_changed_frames` run left in `out_dir`."""
    out_dir = Path(out_dir)
    manifest = out_dir / MANIFEST_NAME
    if not manifest.is_file():
        raise UserError(f"no {MANIFEST_NAME} in {out_dir}: run changed-frame detection for this video first")
    data = json.loads(manifest.read_text())
    return [KeyFrame.from_json(item, out_dir) for item in data["keyframes"]]


def _check_settings(settings: ProcessingSettings) -> None:
    if settings.sample_fps <= 0:
        raise UserError(f"processing.sample_fps is {settings.sample_fps}: set it above 0 (the method uses 2)")
    if settings.diff_width < 8:
        raise UserError(f"processing.diff_width is {settings.diff_width}: set it to at least 8 pixels (default 320)")
    if not 1 <= settings.keyframe_quality <= 100:
        raise UserError(f"processing.keyframe_quality is {settings.keyframe_quality}: set it between 1 and 100")
    if settings.decode_threads < 0:
        threads = settings.decode_threads
        raise UserError(f"processing.decode_threads is {threads}: set it to 1 (least CPU) or 0 (ffmpeg picks)")
    if settings.decode_frames not in DECODE_MODES:
        modes = ", ".join(DECODE_MODES)
        raise UserError(f"processing.decode_frames is {settings.decode_frames!r}: set it to one of {modes}")


def _write(frame: SampledFrame, score: float | None, out_dir: Path, quality: int) -> KeyFrame:
    target = out_dir / keyframe_name(frame.time_s)
    ok, encoded = cv2.imencode(".jpg", frame.bgr(), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise UserError(f"could not encode keyframe {target.name} as JPEG: check processing.keyframe_quality")
    try:
        target.write_bytes(encoded.tobytes())
    except OSError as exc:
        raise UserError(f"cannot write keyframe {target} ({exc.strerror}): free disk space or fix permissions") from exc
    return KeyFrame(frame.index, round(frame.time_s, 3), target, None if score is None else round(score, 4))


def _write_manifest(
    out_dir: Path, info: VideoInfo, settings: ProcessingSettings, sampled: int, keyframes: list[KeyFrame]
) -> None:
    """Write the manifest last and atomically, so its presence means the folder is complete."""
    video = asdict(info)
    video["path"] = str(info.path)
    manifest = {
        "version": MANIFEST_VERSION,
        "video": video,
        "settings": {
            key: getattr(settings, key)
            for key in (
                "sample_fps",
                "diff_width",
                "change_threshold",
                "diff_noise_floor",
                "pointer_allowance",
                "keyframe_quality",
                "decode_frames",
                "decode_threads",
            )
        },
        "sampled_frames": sampled,
        "keyframes": [keyframe.to_json(out_dir) for keyframe in keyframes],
    }
    partial = out_dir / (MANIFEST_NAME + ".partial")
    partial.write_text(json.dumps(manifest, indent=1))
    partial.replace(out_dir / MANIFEST_NAME)
