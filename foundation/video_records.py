"""What a video is and what reading one yields: its facts (VideoInfo), its sampled frames (SampledFrame) and the
error that names a video that cannot be used. Both readers (foundation/video_io.py's ffmpeg pipe and
foundation/sparse_decode.py's PyAV decoder) produce these."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from foundation.errors import UserError

FIX = "download it again or remove it from the folder"


class VideoError(UserError):
    """A video that cannot be used; the message names the file and what is wrong with it."""


@dataclass(frozen=True)
class VideoInfo:
    path: Path
    duration_s: float
    fps: float
    width: int  # as displayed, after any rotation the file asks for
    height: int
    frame_count: int  # from the container when it says, else duration x fps
    codec: str
    rotation: int = 0  # degrees the file asks the player to turn it (display matrix); 0 for screen recordings


@dataclass(frozen=True)
class SampledFrame:
    """One frame at the sampling rate, as planar YUV 4:2:0 straight from the decoder."""

    index: int  # position among the sampled frames
    time_s: float  # index / sampling rate: the moment of the video this frame shows
    yuv: np.ndarray  # (height * 3 / 2, width) uint8: Y plane, then U and V

    @property
    def luma(self) -> np.ndarray:
        """The grey image (BT.601/709 luma), a view without copying."""
        return self.yuv[: self.yuv.shape[0] * 2 // 3]

    def bgr(self) -> np.ndarray:
        return cv2.cvtColor(self.yuv, cv2.COLOR_YUV2BGR_I420)
