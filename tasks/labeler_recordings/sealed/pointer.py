"""This style's pointer: a white arrow with a black rim, narrow and tall, always an arrow.

Drawn once with supersampling and pasted by alpha with its tip at the pointer's position;
no shadow (the untouched style's arrow is slate blue with a shadow).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

HEIGHT = 21  # pixels, tip to tail
# Tip at (0, 0), in units of the height: a narrow head and a long, thin tail.
_OUTLINE = ((0, 0), (0, 0.9), (0.22, 0.7), (0.38, 1.0), (0.48, 0.95), (0.33, 0.66), (0.6, 0.66))
_FILL = (255, 255, 255)
_RIM = (0, 0, 0)
_SS = 4
PAD = 3


@lru_cache(maxsize=1)
def sprite() -> tuple[np.ndarray, np.ndarray]:
    """(colour BGR, alpha 0..1); the tip is at pixel (PAD, PAD)."""
    size = HEIGHT + 2 * PAD + 2
    canvas = np.zeros((size * _SS, size * _SS, 3), np.uint8)
    alpha = np.zeros((size * _SS, size * _SS), np.uint8)
    poly = np.array([((x * HEIGHT + PAD) * _SS, (y * HEIGHT + PAD) * _SS) for x, y in _OUTLINE], np.int32)
    cv2.fillPoly(canvas, [poly], _FILL)
    cv2.fillPoly(alpha, [poly], 255)
    cv2.polylines(canvas, [poly], True, _RIM, int(1.5 * _SS))
    cv2.polylines(alpha, [poly], True, 255, int(1.5 * _SS))
    colour = cv2.resize(canvas, (size, size), interpolation=cv2.INTER_AREA)
    weight = cv2.resize(alpha, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32)[..., None] / 255
    return colour, weight


def paste(frame: np.ndarray, x: float, y: float) -> None:
    """Draw the arrow with its tip at (x, y), in place."""
    colour, weight = sprite()
    left, top = int(round(x)) - PAD, int(round(y)) - PAD
    h, w = weight.shape[:2]
    x0, y0 = max(0, left), max(0, top)
    x1, y1 = min(frame.shape[1], left + w), min(frame.shape[0], top + h)
    if x0 >= x1 or y0 >= y1:
        return
    a = weight[y0 - top : y1 - top, x0 - left : x1 - left]
    c = colour[y0 - top : y1 - top, x0 - left : x1 - left].astype(np.float32)
    region = frame[y0:y1, x0:x1].astype(np.float32)
    frame[y0:y1, x0:x1] = (region * (1 - a) + c * a).astype(np.uint8)
