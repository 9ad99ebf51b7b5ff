"""A view of the screen without the pointer over it, for reading the text the pointer covers.

At a click the pointer sits on its target, often over the very letters that name it.
The patch it covers is taken from the latest recent frame in which the pointer was
elsewhere, provided the pixels around the patch, and those inside it that the pointer
leaves in view, show the same page in both frames (it did not scroll or change; a hover
tint that came or went is fine, the letters under it are the same, and the patch is
shifted to the tint); failing that, the pointer's pixels are painted over from the
colours around them, which loses at most a letter's part. The patch's own visible pixels
count because a change may stay within it: letters typed up to the pointer, or a focus
ring drawn along a field's edge, would otherwise be pasted over with the old page's
pixels (a stroke of the placeholder beside the typed word, read as one more letter).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from processing.ocr_labeler.frames import Box, Frame, FrameBuffer, clip_box, grow, overlaps
from processing.ocr_labeler.pointer import PointerHit, sprite_box, sprite_mask

# Around the patch, at most this share of pixels may differ by more than _SAME grey levels for two
# frames to show the same page there: a hover tint passes (letters under it are unchanged), a
# scroll or a new page does not.
_SAME = 40
_SAME_SHARE = 0.1


def pointer_free(
    frame: Frame, hit: PointerHit | None, buffer: FrameBuffer, hit_at: Callable[[int], PointerHit | None]
) -> np.ndarray:
    """The whole frame as BGR with the pointer removed (a copy; `frame` is left as it is)."""
    image = frame.bgr().copy()
    if hit is None:
        return image
    patch = clip_box(sprite_box(hit, margin=2), frame.width, frame.height)
    if patch[0] >= patch[2] or patch[1] >= patch[3]:
        return image
    ring = clip_box(grow(patch, 4), frame.width, frame.height)
    covered = sprite_mask(hit, (frame.height, frame.width))
    for older in buffer.recent():
        if older.index >= frame.index:
            continue
        other = hit_at(older.index)
        if other is not None and overlaps(sprite_box(other, margin=2), ring):
            continue
        if _border_difference(frame, older, patch, ring, covered) <= _SAME_SHARE:
            x0, y0, x1, y1 = patch
            image[y0:y1, x0:x1] = _matched(older.bgr(), image, patch, ring)
            return image
    return _painted_over(image, hit)


def _border_difference(a: Frame, b: Frame, inner: Box, outer: Box, covered: np.ndarray) -> float:
    """Share of the pixels that differ between the frames (a hover colour, a new page, letters typed): around
    the patch, or among those in it that the pointer (`covered`, a frame-sized mask) leaves in view, the larger.
    Each is judged on its own: a change inside the patch is small beside the whole ring."""
    x0, y0, x1, y1 = outer
    differs = cv2.absdiff(a.luma[y0:y1, x0:x1], b.luma[y0:y1, x0:x1]) > _SAME
    around = np.ones(differs.shape, bool)
    around[inner[1] - y0 : inner[3] - y0, inner[0] - x0 : inner[2] - x0] = False
    within = ~around & ~covered[y0:y1, x0:x1]
    return max(float(differs[part].mean()) if part.any() else 0.0 for part in (around, within))


def _matched(source: np.ndarray, target: np.ndarray, patch: Box, ring: Box) -> np.ndarray:
    """The patch from `source`, shifted in colour by how the pixels around it differ from `target`'s
    (a hover tint that came since), so it does not stand out as a box of its own."""
    x0, y0, x1, y1 = ring
    keep = np.ones((y1 - y0, x1 - x0), bool)
    keep[patch[1] - y0 : patch[3] - y0, patch[0] - x0 : patch[2] - x0] = False
    shift = np.median(target[y0:y1, x0:x1][keep].astype(np.int16) - source[y0:y1, x0:x1][keep], axis=0)
    px0, py0, px1, py1 = patch
    return np.clip(source[py0:py1, px0:px1].astype(np.int16) + shift.astype(np.int16), 0, 255).astype(np.uint8)


def _painted_over(image: np.ndarray, hit: PointerHit) -> np.ndarray:
    mask = sprite_mask(hit, image.shape[:2]).astype(np.uint8) * 255
    return cv2.inpaint(image, mask, 3, cv2.INPAINT_TELEA)
