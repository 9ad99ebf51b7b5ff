"""The tutorials' pointer and click highlight, and the paths a hand makes.

Headless Chromium draws no pointer, so the recorder paints one onto every
frame: a classic white arrow with a black outline, its tip at the pointer
position. `cursor_sprite()` is also what tests use to find the pointer again by
template matching.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import numpy as np

from tasks.recording.effects import ClickEffect
from tasks.recording.pointer import PlainArrow

Point = tuple[float, float]

# The arrow, tip at (0, 0), in pixels of a 1280-wide screen: white with a black outline.
POINTER = PlainArrow(((0, 0), (0, 20), (5, 15), (9, 23), (12, 22), (8, 14), (15, 14)))
# An amber ring (RGB), as screen recorders draw clicks.
RING = ClickEffect("ring", 0.4, (255, 176, 0))


def cursor_sprite() -> tuple[np.ndarray, np.ndarray]:
    """(RGB image, boolean mask) of the pointer; the tip is pixel (0, 0)."""
    return POINTER.sprite()


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
