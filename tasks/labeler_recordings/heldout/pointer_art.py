"""This recorder's own pointer drawings and click effects (not the sandbox recorder's, not the labeler's).

A theme sets colours and size; the shape follows what the page's CSS asks for under the
pointer (an arrow, a hand over links and buttons, an I-beam over text fields), as a
real system pointer does. Shapes are drawn once per theme and shape, with anti-aliasing,
and pasted by alpha.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

# Arrow with a slimmer body and a longer tail than the usual one, tip at (0, 0), in units of its height.
_ARROW = ((0, 0), (0, 0.82), (0.19, 0.64), (0.33, 0.98), (0.45, 0.93), (0.31, 0.6), (0.56, 0.58))
# Hand: a finger and a rounded palm, fingertip at (0.22, 0).
_HAND = ((0.14, 0.05), (0.22, 0), (0.3, 0.05), (0.3, 0.42), (0.72, 0.48), (0.78, 0.6), (0.74, 0.95),
         (0.2, 0.95), (0.0, 0.66), (0.05, 0.58), (0.14, 0.62))  # fmt: skip
_SS = 4  # supersampling for smooth edges


@dataclass(frozen=True)
class Theme:
    name: str
    height: int  # arrow height in pixels
    fill: tuple[int, int, int]  # BGR
    edge: tuple[int, int, int]
    shadow: bool = False


THEMES = (
    Theme("classic", 19, (255, 255, 255), (0, 0, 0)),
    Theme("dark", 24, (20, 20, 20), (250, 250, 250)),
    Theme("large-yellow", 33, (40, 215, 250), (20, 20, 20)),
    Theme("shadowed", 22, (255, 255, 255), (40, 40, 40), shadow=True),
)


@lru_cache(maxsize=64)
def sprite(theme: Theme, shape: str) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """(colour BGR, alpha 0..1, hotspot) for `shape` in {"arrow", "hand", "text"}."""
    h = theme.height
    pad = 4
    size = (h + 2 * pad + 4, h + 2 * pad + 4)
    canvas = np.zeros((size[1] * _SS, size[0] * _SS, 3), np.uint8)
    alpha = np.zeros(canvas.shape[:2], np.uint8)
    edge_px = max(_SS, int(_SS * h / 16))
    if shape == "text":
        x = (pad + h * 0.2) * _SS
        lines = [((x, pad * _SS), (x, (pad + h) * _SS)), ((x - 3 * _SS, pad * _SS), (x + 3 * _SS, pad * _SS)),
                 ((x - 3 * _SS, (pad + h) * _SS), (x + 3 * _SS, (pad + h) * _SS))]  # fmt: skip
        for a, b in lines:
            pa, pb = tuple(int(v) for v in a), tuple(int(v) for v in b)
            cv2.line(canvas, pa, pb, theme.edge, edge_px * 3)
            cv2.line(alpha, pa, pb, 255, edge_px * 3)
            cv2.line(canvas, pa, pb, theme.fill, edge_px)
        hotspot = (int(pad + h * 0.2), pad + h // 2)
    else:
        points = _HAND if shape == "hand" else _ARROW
        poly = np.array([((x * h + pad) * _SS, (y * h + pad) * _SS) for x, y in points], np.int32)
        if theme.shadow:
            shifted = poly + 3 * _SS
            cv2.fillPoly(alpha, [shifted], 90)
        cv2.fillPoly(canvas, [poly], theme.fill)
        cv2.fillPoly(alpha, [poly], 255)
        cv2.polylines(canvas, [poly], True, theme.edge, edge_px)
        cv2.polylines(alpha, [poly], True, 255, edge_px)
        tip = points[1] if shape == "hand" else points[0]
        hotspot = (int(round(tip[0] * h + pad)), int(round(tip[1] * h + pad)))
    colour = cv2.resize(canvas, size, interpolation=cv2.INTER_AREA)
    weight = cv2.resize(alpha, size, interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    return colour, weight, hotspot


def paste(frame: np.ndarray, theme: Theme, shape: str, x: float, y: float) -> None:
    """Draw the pointer with its hotspot at (x, y), in place."""
    colour, weight, (hx, hy) = sprite(theme, shape)
    _blend(frame, colour, weight, int(round(x)) - hx, int(round(y)) - hy)


def _blend(frame: np.ndarray, colour: np.ndarray, weight: np.ndarray, left: int, top: int) -> None:
    h, w = weight.shape
    x0, y0, x1, y1 = max(0, left), max(0, top), min(frame.shape[1], left + w), min(frame.shape[0], top + h)
    if x0 >= x1 or y0 >= y1:
        return
    sub_w = weight[y0 - top : y1 - top, x0 - left : x1 - left, None]
    sub_c = colour[y0 - top : y1 - top, x0 - left : x1 - left].astype(np.float32)
    region = frame[y0:y1, x0:x1].astype(np.float32)
    frame[y0:y1, x0:x1] = (region * (1 - sub_w) + sub_c * sub_w).astype(np.uint8)


EFFECTS = ("ripple", "dot", "square", "none")
EFFECT_S = 0.45  # how long a click effect shows


def draw_effect(frame: np.ndarray, effect: str, x: float, y: float, age_s: float) -> None:
    """A click effect `age_s` after the press, in place: an expanding ripple, a fading dot, a square."""
    if effect == "none" or not 0 <= age_s < EFFECT_S:
        return
    life = age_s / EFFECT_S
    centre = (int(round(x)), int(round(y)))
    overlay = frame.copy()
    if effect == "ripple":
        cv2.circle(overlay, centre, int(8 + 26 * life), (235, 140, 60), 3, cv2.LINE_AA)
    elif effect == "dot":
        cv2.circle(overlay, centre, 11, (60, 60, 230), -1, cv2.LINE_AA)
    elif effect == "square":
        half = 14
        cv2.rectangle(overlay, (centre[0] - half, centre[1] - half), (centre[0] + half, centre[1] + half),
                      (40, 170, 40), 2)  # fmt: skip
    strength = 0.85 * (1 - life)
    cv2.addWeighted(overlay, strength, frame, 1 - strength, 0, dst=frame)
