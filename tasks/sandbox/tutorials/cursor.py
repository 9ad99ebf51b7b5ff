"""The drawn mouse pointer, the click highlight, and the paths a hand makes.

Headless Chromium draws no pointer, so the recorder paints one onto every
frame: a classic white arrow with a black outline, its tip at the pointer
position. `cursor_sprite()` is also what tests use to find the pointer again by
template matching.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from functools import lru_cache

import cv2
import numpy as np

Point = tuple[float, float]

# Outline of the arrow, tip at (0, 0), in pixels of a 1280-wide screen.
_ARROW = np.array([(0, 0), (0, 20), (5, 15), (9, 23), (12, 22), (8, 14), (15, 14)], dtype=np.int32)
RING_COLOR = (255, 176, 0)  # RGB: an amber highlight, as screen recorders draw clicks
RING_SECONDS = 0.4


@lru_cache(maxsize=1)
def cursor_sprite() -> tuple[np.ndarray, np.ndarray]:
    """(RGB image, boolean mask) of the pointer; the tip is pixel (0, 0)."""
    width, height = int(_ARROW[:, 0].max()) + 1, int(_ARROW[:, 1].max()) + 1
    image = np.zeros((height, width, 3), np.uint8)
    mask = np.zeros((height, width), np.uint8)
    cv2.fillPoly(mask, [_ARROW], 255)
    cv2.polylines(mask, [_ARROW], True, 255, 1)
    cv2.fillPoly(image, [_ARROW], (255, 255, 255))
    cv2.polylines(image, [_ARROW], True, (0, 0, 0), 1)
    return image, mask > 0


def draw_cursor(frame: np.ndarray, point: Point) -> None:
    """Paint the pointer with its tip at `point` (clipped at the frame's edges)."""
    sprite, mask = cursor_sprite()
    x, y = int(round(point[0])), int(round(point[1]))
    height, width = frame.shape[:2]
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + sprite.shape[1], width), min(y + sprite.shape[0], height)
    if x0 >= x1 or y0 >= y1:
        return
    region = frame[y0:y1, x0:x1]
    part = mask[y0 - y : y1 - y, x0 - x : x1 - x]
    region[part] = sprite[y0 - y : y1 - y, x0 - x : x1 - x][part]


def draw_ring(frame: np.ndarray, center: Point, age_s: float) -> None:
    """The click highlight `age_s` seconds after the click: a ring that widens and fades."""
    if not 0 <= age_s < RING_SECONDS:
        return
    progress = age_s / RING_SECONDS
    radius = int(7 + 17 * progress)
    alpha = 0.75 * (1 - progress)
    cx, cy = int(round(center[0])), int(round(center[1]))
    pad = radius + 4
    height, width = frame.shape[:2]
    x0, y0, x1, y1 = max(cx - pad, 0), max(cy - pad, 0), min(cx + pad, width), min(cy + pad, height)
    if x0 >= x1 or y0 >= y1:
        return
    region = frame[y0:y1, x0:x1]
    painted = region.copy()
    cv2.circle(painted, (cx - x0, cy - y0), radius, RING_COLOR, 3, cv2.LINE_AA)
    cv2.addWeighted(painted, alpha, region, 1 - alpha, 0, dst=region)


def minimum_jerk(tau: float) -> float:
    """Position along a reach at time fraction `tau`: slow start, fast middle, gentle stop."""
    tau = min(max(tau, 0.0), 1.0)
    return tau**3 * (10 - 15 * tau + 6 * tau * tau)


def hand_path(start: Point, end: Point, rng: random.Random) -> Callable[[float], Point]:
    """A slightly curved reach from `start` to `end`: position at time fraction 0..1."""
    (x0, y0), (x3, y3) = start, end
    dx, dy = x3 - x0, y3 - y0
    distance = math.hypot(dx, dy)
    if distance < 1:
        return lambda _tau: end
    # Hands bow to one side; the bow grows with the distance but stays modest.
    bow = rng.uniform(-0.12, 0.12) * distance
    nx, ny = -dy / distance, dx / distance
    c1 = (x0 + dx / 3 + nx * bow, y0 + dy / 3 + ny * bow)
    c2 = (x0 + 2 * dx / 3 + nx * bow * 0.6, y0 + 2 * dy / 3 + ny * bow * 0.6)

    def at(tau: float) -> Point:
        s = minimum_jerk(tau)
        u = 1 - s
        x = u**3 * x0 + 3 * u * u * s * c1[0] + 3 * u * s * s * c2[0] + s**3 * x3
        y = u**3 * y0 + 3 * u * u * s * c1[1] + 3 * u * s * s * c2[1] + s**3 * y3
        return (x, y)

    return at


def aim_point(box: tuple[float, float, float, float], rng: random.Random, text_start: bool = False) -> Point:
    """Where a person lands inside a box: near the middle, never exactly on it.

    `text_start` aims at the left part of a text field, where people click to type.
    """
    x, y, w, h = box
    if text_start:
        fx = rng.uniform(0.12, 0.3) if w > 120 else rng.uniform(0.35, 0.6)
    else:
        fx = rng.uniform(0.35, 0.65)
    fy = rng.uniform(0.38, 0.62)
    # Keep the tip at least 2 px inside small boxes.
    px = min(max(x + fx * w, x + 2), x + w - 2)
    py = min(max(y + fy * h, y + 2), y + h - 2)
    return (px, py)
