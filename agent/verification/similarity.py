"""How much the live page after a step looks like the video's next keyframe (SSIM from scikit-image).

A keyframe is a whole screen recording (often with the browser's tab strip and
address bar above the page); the screenshot is the page alone. The keyframe is
scaled to the screenshot's width and, when taller, its top is cut off (the browser
bar sits there), so the page areas are compared. Both are shrunk to a small width
first: layout decides the score, not anti-aliasing or the pointer.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from skimage.metrics import structural_similarity


def page_area(frame: np.ndarray, width: int, height: int) -> np.ndarray:
    """The bottom `height`/`width` share of a grey frame, scaled to `width` x `height`."""
    scale = width / frame.shape[1]
    scaled = cv2.resize(frame, (width, max(1, round(frame.shape[0] * scale))), interpolation=cv2.INTER_AREA)
    if scaled.shape[0] > height:
        scaled = scaled[scaled.shape[0] - height :]
    elif scaled.shape[0] < height:
        scaled = cv2.resize(scaled, (width, height), interpolation=cv2.INTER_AREA)
    return scaled


def page_similarity(screenshot_png: bytes, keyframe: str | Path, width: int) -> float | None:
    """SSIM (-1..1, 1 = same) of the screenshot and the keyframe's page area; None when either is unreadable."""
    if not screenshot_png or not keyframe or not Path(keyframe).is_file():
        return None
    shot = cv2.imdecode(np.frombuffer(screenshot_png, np.uint8), cv2.IMREAD_GRAYSCALE)
    frame = cv2.imread(str(keyframe), cv2.IMREAD_GRAYSCALE)
    if shot is None or frame is None:
        return None
    height = max(8, round(shot.shape[0] * width / shot.shape[1]))
    small_shot = cv2.resize(shot, (width, height), interpolation=cv2.INTER_AREA)
    return float(structural_similarity(small_shot, page_area(frame, width, height), data_range=255))
