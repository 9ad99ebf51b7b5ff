"""How a labeler style's hand reaches a point: how long it takes, how it bends, how it eases in and out.

A `Reach` is part of a style's record: the seconds a reach of some distance takes (a capped
straight line in distance, or Fitts's law), a person's spread around that, the bow to one side,
the easing, and how the seconds become pictures. `bowed_path` gives the pointer's positions.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass


def smoothstep(s: float) -> float:
    return s * s * (3 - 2 * s)


def minimum_jerk(s: float) -> float:
    """Slow start, fast middle, gentle stop."""
    return 10 * s**3 - 15 * s**4 + 6 * s**5


EASINGS = {"smoothstep": smoothstep, "minimum-jerk": minimum_jerk}


@dataclass(frozen=True)
class Reach:
    # "linear": min(cap_s, base_s + distance / scale); "fitts": base_s + scale * log2(1 + distance / target_px)
    law: str
    base_s: float
    scale: float
    spread: tuple[float, float]  # the seconds times a draw from this range
    bend: float  # the bow, up to this fraction of the distance to either side
    ease: str  # a name in EASINGS
    cap_s: float = 0.0
    target_px: float = 1.0
    min_steps: int = 1
    round_steps: bool = True  # pictures of a reach: the seconds' nearest whole number (else cut down to one)

    def seconds(self, distance: float) -> float:
        if self.law == "linear":
            return min(self.cap_s, self.base_s + distance / self.scale)
        return self.base_s + self.scale * math.log2(1 + distance / self.target_px)

    def plan(self, distance: float, rng: random.Random, fps: float) -> tuple[int, float]:
        """(pictures the reach takes, its bow in pixels)."""
        seconds = self.seconds(distance) * rng.uniform(*self.spread)
        bend = rng.uniform(-self.bend, self.bend) * distance
        pictures = seconds * fps
        return max(self.min_steps, round(pictures) if self.round_steps else int(pictures)), bend

    def path(self, start: tuple[float, float], end: tuple[float, float], steps: int, bend: float):
        return bowed_path(start, end, steps, bend, EASINGS[self.ease])


def bowed_path(start, end, steps: int, bend: float, ease) -> Iterator[tuple[float, float]]:
    """`steps` positions from just after `start` to `end`, eased, bowed by `bend` pixels at the middle."""
    (x0, y0), (x, y) = start, end
    distance = math.hypot(x - x0, y - y0)
    nx, ny = (y0 - y) / (distance or 1), (x - x0) / (distance or 1)
    for i in range(1, steps + 1):
        s = i / steps
        e = ease(s)
        arc = math.sin(math.pi * e) * bend
        yield x0 + (x - x0) * e + nx * arc, y0 + (y - y0) * e + ny * arc
