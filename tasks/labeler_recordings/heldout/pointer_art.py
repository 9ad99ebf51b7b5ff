"""This style's own pointer drawings and click effects (not the sandbox recorder's, not the labeler's).

A theme sets colours and size; the shape follows what the page's CSS asks for under the
pointer (an arrow, a hand over links and buttons, an I-beam over text fields), as a
real system pointer does. Arrow and hand are the engine's supersampled `Arrow`; the I-beam
is drawn here the same way, and all are pasted by alpha.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from tasks.recording.effects import ClickEffect
from tasks.recording.pointer import Arrow, blend

# Arrow with a slimmer body and a longer tail than the usual one, tip at (0, 0), in units of its height.
_ARROW = ((0, 0), (0, 0.82), (0.19, 0.64), (0.33, 0.98), (0.45, 0.93), (0.31, 0.6), (0.56, 0.58))
# Hand: a finger and a rounded palm, fingertip at (0.22, 0).
_HAND = ((0.14, 0.05), (0.22, 0), (0.3, 0.05), (0.3, 0.42), (0.72, 0.48), (0.78, 0.6), (0.74, 0.95),
         (0.2, 0.95), (0.0, 0.66), (0.05, 0.58), (0.14, 0.62))  # fmt: skip
_SS = 4  # supersampling for smooth edges
_PAD = 4


@dataclass(frozen=True)
class Theme:
    name: str
    height: int  # arrow height in pixels
    fill: tuple[int, int, int]  # BGR
    edge: tuple[int, int, int]
    shadow: bool = False

    @property
    def edge_px(self) -> int:
        return max(_SS, int(_SS * self.height / 16))

    def paste(self, frame: np.ndarray, x: float, y: float, shape: str = "arrow") -> None:
        """Draw the pointer of `shape` ("arrow", "hand" or "text") with its hotspot at (x, y), in place."""
        if shape == "text":
            colour, weight, (hx, hy) = _ibeam(self)
            blend(frame, colour, weight, int(round(x)) - hx, int(round(y)) - hy)
        else:
            _polygon(self, shape).paste(frame, x, y)


THEMES = (
    Theme("classic", 19, (255, 255, 255), (0, 0, 0)),
    Theme("dark", 24, (20, 20, 20), (250, 250, 250)),
    Theme("large-yellow", 33, (40, 215, 250), (20, 20, 20)),
    Theme("shadowed", 22, (255, 255, 255), (40, 40, 40), shadow=True),
)

# The click effects a script chooses from ("none": no effect), BGR.
EFFECTS: dict[str, ClickEffect | None] = {
    "ripple": ClickEffect("ripple", 0.45, (235, 140, 60)),
    "dot": ClickEffect("dot", 0.45, (60, 60, 230)),
    "square": ClickEffect("square", 0.45, (40, 170, 40)),
    "none": None,
}


@lru_cache(maxsize=16)
def _polygon(theme: Theme, shape: str) -> Arrow:
    hand = shape == "hand"
    return Arrow(
        outline=_HAND if hand else _ARROW, height=theme.height, fill=theme.fill, rim=theme.edge, rim_px=theme.edge_px,
        shadow=(3, 90) if theme.shadow else None, pad=_PAD, margin=4, tip=1 if hand else 0,
    )  # fmt: skip


@lru_cache(maxsize=8)
def _ibeam(theme: Theme) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """(colour BGR, alpha 0..1 with a channel axis, hotspot) of the I-beam."""
    h, pad = theme.height, _PAD
    size = (h + 2 * pad + 4, h + 2 * pad + 4)
    canvas = np.zeros((size[1] * _SS, size[0] * _SS, 3), np.uint8)
    alpha = np.zeros(canvas.shape[:2], np.uint8)
    edge_px = theme.edge_px
    x = (pad + h * 0.2) * _SS
    lines = [((x, pad * _SS), (x, (pad + h) * _SS)), ((x - 3 * _SS, pad * _SS), (x + 3 * _SS, pad * _SS)),
             ((x - 3 * _SS, (pad + h) * _SS), (x + 3 * _SS, (pad + h) * _SS))]  # fmt: skip
    for a, b in lines:
        pa, pb = tuple(int(v) for v in a), tuple(int(v) for v in b)
        cv2.line(canvas, pa, pb, theme.edge, edge_px * 3)
        cv2.line(alpha, pa, pb, 255, edge_px * 3)
        cv2.line(canvas, pa, pb, theme.fill, edge_px)
    colour = cv2.resize(canvas, size, interpolation=cv2.INTER_AREA)
    weight = cv2.resize(alpha, size, interpolation=cv2.INTER_AREA).astype(np.float32)[..., None] / 255
    return colour, weight, (int(pad + h * 0.2), pad + h // 2)
