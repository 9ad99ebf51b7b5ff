"""Where the screen changed between two frames, and how much.

The frames are compared pixel by pixel, in brightness and in each colour plane. A
pixel changed when it lies more than
`noise` grey levels outside the range of the other frame's 3x3 neighbourhood around
it, in either direction: video compression makes edges ripple by a pixel and flat areas
shimmer by a few grey levels (most at each I-frame), and neither passes, while new
ink, vanished ink, a moved pointer or a scrolled page do. Changed pixels are
pooled into cells of `CELL` x `CELL` pixels, neighbouring cells are joined (so the
letters of a word make one area), and each connected group becomes a box.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from processing.ocr_labeler.frames import Box, Frame, inside, overlaps

CELL = 4  # pixels per side of a change cell
_JOIN = np.ones((3, 3), np.uint8)  # cells one apart belong to the same area
_NEIGHBOURS = np.ones((3, 3), np.uint8)


@dataclass(frozen=True)
class Change:
    cells: np.ndarray  # bool (height / CELL, width / CELL): cells with a changed pixel
    boxes: tuple[Box, ...]  # changed areas in frame pixels, largest first
    fraction: float  # share of the frame's cells that changed

    @property
    def empty(self) -> bool:
        return not self.boxes

    def outside(self, ignored: list[Box]) -> tuple[Box, ...]:
        """The changed areas that are not wholly inside one of `ignored` (e.g. the pointer's old and new place)."""
        return tuple(box for box in self.boxes if not any(inside(box, other) for other in ignored))

    def share_in(self, box: Box) -> float:
        """Share of the cells in `box` that changed."""
        x0, y0, x1, y1 = (max(0, v // CELL) for v in box)
        region = self.cells[y0 : max(y0 + 1, y1), x0 : max(x0 + 1, x1)]
        return float(region.mean()) if region.size else 0.0

    def near(self, box: Box) -> tuple[Box, ...]:
        return tuple(b for b in self.boxes if overlaps(b, box))


def frame_change(current: Frame, previous: Frame, noise: int) -> Change:
    """The change from `previous` to `current` (frames of one size), in brightness or in colour."""
    height, width = current.height, current.width
    grid = (width // CELL, height // CELL)
    cells = cv2.resize(changed_pixels(current.luma, previous.luma, noise), grid, interpolation=cv2.INTER_AREA) > 0
    for now, before in zip(current.chroma(), previous.chroma()):
        # A colour change with little change in brightness: a coloured highlight, a hover tint.
        cells |= cv2.resize(changed_pixels(now, before, noise), grid, interpolation=cv2.INTER_AREA) > 0
    count = int(cells.sum())
    if count == 0:
        return Change(cells, (), 0.0)
    joined = cv2.dilate(cells.astype(np.uint8), _JOIN)
    n, _, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    boxes = []
    for x, y, w, h, _ in stats[1:n]:
        # The dilation grew each area by one cell on every side; take it back.
        x0, y0 = (x + 1) * CELL, (y + 1) * CELL
        x1, y1 = (x + w - 1) * CELL, (y + h - 1) * CELL
        boxes.append((min(x0, x1 - CELL), min(y0, y1 - CELL), max(x1, x0 + CELL), max(y1, y0 + CELL)))
    boxes.sort(key=lambda b: (b[2] - b[0]) * (b[3] - b[1]), reverse=True)
    return Change(cells, tuple(boxes), count / cells.size)


def changed_pixels(current: np.ndarray, previous: np.ndarray, noise: int) -> np.ndarray:
    """255 where a pixel is outside the other frame's local range by more than `noise`, else 0."""
    result = None
    for a, b in ((current, previous), (previous, current)):
        high = cv2.add(cv2.dilate(b, _NEIGHBOURS), noise)
        low = cv2.subtract(cv2.erode(b, _NEIGHBOURS), noise)
        outside = cv2.bitwise_or(cv2.compare(a, high, cv2.CMP_GT), cv2.compare(a, low, cv2.CMP_LT))
        result = outside if result is None else cv2.bitwise_or(result, outside)
    return result
