"""Icon buttons that carry no words: their mark, told by its shape where OCR misreads it.

The text recogniser reads a lone "▲" as "A" or "4" as often as not. A filled triangle
is easy to tell by shape: the mark fills most of the smallest triangle around it (and
far from all of its bounding box), and that triangle's lone corner points up ("▲") or
down ("▼").
Any other mark is left to the recogniser.
"""

from __future__ import annotations

import cv2
import numpy as np

_INK = 40  # grey levels from the button's background that count as the mark
_MIN_AREA = 20  # pixels: smaller blobs are noise
_FILLS = 0.7  # a triangle mark fills this much of the smallest triangle around it, at least (blur and a smudge allowed)


def triangle_mark(grey: np.ndarray) -> str:
    """"▲" or "▼" when the main mark in a small grey crop is a filled triangle pointing up or down, else ""."""
    if grey.size == 0:
        return ""
    border = np.concatenate([grey[0], grey[-1], grey[:, 0], grey[:, -1]])
    background = float(np.median(border))
    ink = (np.abs(grey.astype(np.int16) - background) > _INK).astype(np.uint8)
    contours, _ = cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return ""
    blob = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(blob)
    if area < _MIN_AREA:
        return ""
    triangle_area, corners = cv2.minEnclosingTriangle(blob)
    if triangle_area <= 0 or area < _FILLS * triangle_area:
        return ""  # not a filled triangle
    _, _, w, h = cv2.boundingRect(blob)
    if area > 0.75 * w * h or not 0.5 <= w / max(h, 1) <= 2.5:
        return ""  # a square or a bar fills its enclosing triangle too
    # The apex is the corner on its own: a "▲" has one corner high and two low.
    ys = sorted(float(y) for y in np.asarray(corners).reshape(-1, 2)[:, 1])
    if ys[1] - ys[0] > ys[2] - ys[1]:
        return "▲"
    if ys[2] - ys[1] > ys[1] - ys[0]:
        return "▼"
    return ""
