"""Click effects, drawn where a click happened for a moment after it, as screen recorders draw them.

`ring`: a ring that widens and fades around the click (the sandbox tutorials', blended
only around it); `ripple`, `dot`, `square`: an expanding ripple, a dot, a square, each
fading over the whole frame (the held-out style's). Colours are in the frames' channel order.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

Point = tuple[float, float]


@dataclass(frozen=True)
class ClickEffect:
    kind: str  # "ring", "ripple", "dot" or "square"
    seconds: float  # how long it shows
    colour: tuple[int, int, int]

    def draw(self, frame: np.ndarray, center: Point, age_s: float) -> None:
        """The effect `age_s` seconds after the click at `center`, in place."""
        if not 0 <= age_s < self.seconds:
            return
        life = age_s / self.seconds
        if self.kind == "ring":
            _ring(frame, center, life, self.colour)
            return
        centre = (int(round(center[0])), int(round(center[1])))
        overlay = frame.copy()
        if self.kind == "ripple":
            cv2.circle(overlay, centre, int(8 + 26 * life), self.colour, 3, cv2.LINE_AA)
        elif self.kind == "dot":
            cv2.circle(overlay, centre, 11, self.colour, -1, cv2.LINE_AA)
        elif self.kind == "square":
            half = 14
            cv2.rectangle(overlay, (centre[0] - half, centre[1] - half), (centre[0] + half, centre[1] + half),
                          self.colour, 2)  # fmt: skip
        else:
            raise ValueError(f"unknown click effect {self.kind!r}")
        strength = 0.85 * (1 - life)
        cv2.addWeighted(overlay, strength, frame, 1 - strength, 0, dst=frame)


def _ring(frame: np.ndarray, center: Point, progress: float, colour: tuple[int, int, int]) -> None:
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
    cv2.circle(painted, (cx - x0, cy - y0), radius, colour, 3, cv2.LINE_AA)
    cv2.addWeighted(painted, alpha, region, 1 - alpha, 0, dst=region)
