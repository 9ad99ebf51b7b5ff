"""Scrolling: the page content moved up or down between two frames.

Only the rows that changed are compared (a fixed browser bar or sticky header stays
out of it), at half size. Phase correlation proposes a vertical shift; it is kept
only when moving the old rows by it explains the new ones far better than no
shift does, which tells a scroll from a page that was replaced.
"""

from __future__ import annotations

import cv2
import numpy as np

from processing.ocr_labeler.changes import CELL, Change

_SCALE = 2  # compare at half size
_MIN_ROWS = 40  # frame rows that must have changed for a shift to be measurable
_EXPLAINED = 0.35  # the shifted difference must be at most this share of the unshifted one
_RESIDUE = 8.0  # and at most this many grey levels on average


def vertical_shift(current: np.ndarray, previous: np.ndarray, change: Change) -> int | None:
    """How far (frame pixels) the content moved up between `previous` and `current` (grey frames).

    Positive: content moved up (the page was scrolled down). None: not a scroll.
    """
    rows = np.nonzero(change.cells.any(axis=1))[0]
    if len(rows) * CELL < _MIN_ROWS:
        return None
    top, bottom = int(rows[0]) * CELL, (int(rows[-1]) + 1) * CELL
    cols = np.nonzero(change.cells.any(axis=0))[0]
    left, right = int(cols[0]) * CELL, (int(cols[-1]) + 1) * CELL
    if bottom - top < _MIN_ROWS or right - left < _MIN_ROWS:
        return None
    size = ((right - left) // _SCALE, (bottom - top) // _SCALE)
    now = cv2.resize(current[top:bottom, left:right], size, interpolation=cv2.INTER_AREA).astype(np.float32)
    before = cv2.resize(previous[top:bottom, left:right], size, interpolation=cv2.INTER_AREA).astype(np.float32)
    window = cv2.createHanningWindow(size, cv2.CV_32F)
    (dx, dy), _ = cv2.phaseCorrelate(before.copy(), now.copy(), window)  # it windows its inputs in place
    shift = int(round(-dy))  # phaseCorrelate reports how `now` is displaced from `before`
    if abs(dx) > 1.5 or shift == 0 or abs(shift) >= size[1] - 4:
        return None
    if shift > 0:
        moved, reference = now[: size[1] - shift], before[shift:]
    else:
        moved, reference = now[-shift:], before[: size[1] + shift]
    shifted = float(np.abs(moved - reference).mean())
    unshifted = float(np.abs(now - before).mean())
    if unshifted <= 0 or shifted > _EXPLAINED * unshifted or shifted > _RESIDUE:
        return None
    return shift * _SCALE
