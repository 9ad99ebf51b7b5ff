"""Frames as the labeler looks at them: YUV planes straight from the decoder, colour only for crops.

The streaming pass holds the last few seconds of frames (`FrameBuffer`), so that a
target can be read from a moment before the click, or from a frame where the pointer
did not cover it, without decoding the video twice.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from foundation.video_io import VideoInfo, iter_frames

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in frame pixels, end exclusive


@dataclass
class Frame:
    index: int  # position among the analysed frames
    time_s: float
    yuv: np.ndarray  # planar 4:2:0, (height * 3 / 2, width)
    _bgr: np.ndarray | None = field(default=None, repr=False)

    @property
    def height(self) -> int:
        return self.yuv.shape[0] * 2 // 3

    @property
    def width(self) -> int:
        return self.yuv.shape[1]

    @property
    def luma(self) -> np.ndarray:
        return self.yuv[: self.height]

    def chroma(self) -> tuple[np.ndarray, np.ndarray]:
        """The U and V planes at half resolution (views)."""
        h, w = self.height, self.width
        quarter = h * w // 4
        flat = self.yuv[h:].reshape(-1)
        return flat[:quarter].reshape(h // 2, w // 2), flat[quarter : 2 * quarter].reshape(h // 2, w // 2)

    def bgr(self) -> np.ndarray:
        if self._bgr is None:
            self._bgr = cv2.cvtColor(self.yuv, cv2.COLOR_YUV2BGR_I420)
        return self._bgr

    def crop(self, box: Box) -> np.ndarray:
        """A BGR copy of `box`, clipped to the frame."""
        x0, y0, x1, y1 = clip_box(box, self.width, self.height)
        return self.bgr()[y0:y1, x0:x1].copy()


def clip_box(box: Box, width: int, height: int) -> Box:
    x0, y0, x1, y1 = box
    return max(0, int(x0)), max(0, int(y0)), min(width, int(x1)), min(height, int(y1))


def grow(box: Box, dx: int, dy: int | None = None) -> Box:
    dy = dx if dy is None else dy
    return box[0] - dx, box[1] - dy, box[2] + dx, box[3] + dy


def union(a: Box | None, b: Box) -> Box:
    if a is None:
        return b
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(inner: Box, outer: Box) -> bool:
    return inner[0] >= outer[0] and inner[1] >= outer[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def box_around(point: tuple[float, float], left: int, up: int, right: int, down: int) -> Box:
    """The box reaching `left`, `up`, `right` and `down` pixels from `point`."""
    x, y = int(round(point[0])), int(round(point[1]))
    return x - left, y - up, x + right, y + down


def stream(path: str | Path, fps: float, info: VideoInfo) -> Iterator[Frame]:
    for sampled in iter_frames(path, fps, info):
        yield Frame(sampled.index, sampled.time_s, sampled.yuv)


class FrameBuffer:
    """The most recent frames, oldest first; older ones drop out."""

    def __init__(self, seconds: float, fps: float) -> None:
        self._frames: deque[Frame] = deque(maxlen=max(2, int(round(seconds * fps)) + 1))

    def push(self, frame: Frame) -> None:
        self._frames.append(frame)

    def get(self, index: int) -> Frame | None:
        if not self._frames:
            return None
        offset = index - self._frames[0].index
        if 0 <= offset < len(self._frames):
            return self._frames[offset]
        return None

    def recent(self) -> list[Frame]:
        """Newest first."""
        return list(reversed(self._frames))
