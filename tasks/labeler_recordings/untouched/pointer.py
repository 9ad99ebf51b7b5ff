"""This style's pointer: a drawn arrow of its own shape and colour, always an arrow (no hand, no I-beam).

A slate-blue arrow with a white rim and a soft shadow, drawn once with supersampling and
pasted by alpha with its tip at the pointer's position.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

HEIGHT = 26  # pixels, tip to tail
# Tip at (0, 0), in units of the height: a broad head and a short, thick tail.
_OUTLINE = ((0, 0), (0, 0.78), (0.2, 0.62), (0.36, 0.95), (0.5, 0.88), (0.35, 0.56), (0.62, 0.54))
_FILL = (150, 80, 45)  # BGR slate blue
_RIM = (255, 255, 255)
_SS = 4


@lru_cache(maxsize=1)
def sprite() -> tuple[np.ndarray, np.ndarray]:
    """(colour BGR, alpha 0..1); the tip is at pixel (PAD, PAD)."""
    size = HEIGHT + 2 * PAD + 4
    canvas = np.zeros((size * _SS, size * _SS, 3), np.uint8)
    alpha = np.zeros((size * _SS, size * _SS), np.uint8)
    poly = np.array([((x * HEIGHT + PAD) * _SS, (y * HEIGHT + PAD) * _SS) for x, y in _OUTLINE], np.int32)
    cv2.fillPoly(alpha, [poly + 2 * _SS], 70)  # the shadow, down and right
    cv2.polylines(canvas, [poly], True, _RIM, 3 * _SS)
    cv2.polylines(alpha, [poly], True, 255, 3 * _SS)
    cv2.fillPoly(canvas, [poly], _FILL)
    cv2.fillPoly(alpha, [poly], 255)
    colour = cv2.resize(canvas, (size, size), interpolation=cv2.INTER_AREA)
    weight = cv2.resize(alpha, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32)[..., None] / 255
    return colour, weight


PAD = 4


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
