"""Finding the mouse pointer in a screen recording by template matching.

The templates are drawn here, not cut from any one recorder: the usual arrow
(white with a dark outline, as Windows and most Linux themes draw it, and dark with a
light outline, as macOS does) at sizes from 100% to about 190% display scaling, and a
pointing hand (shown over links). Matching is normalised cross-correlation inside the
shape's mask only (`TM_CCOEFF_NORMED` with a mask), so the page behind the pointer does
not matter, and blur from video compression only lowers the score a little.

On a real recording a pointer drawn by the system with a shadow or an unusual theme
scores lower than on the sandbox's; `cursor_min_score` sets how low a match may go,
and when no shape passes, the labeler falls back to reading the changes without a
pointer (clicks are then timed by where the screen changed). The pointer is searched
only where the frame changed (it moves) and near where it was last seen, which keeps
the cost per frame to a few small matches; the whole frame is searched, at half
size, only when the pointer is lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from processing.ocr_labeler.frames import Box, clip_box, grow

# The common arrow, tip at (0, 0), as fractions of its height.
_ARROW = ((0.0, 0.0), (0.0, 0.88), (0.21, 0.67), (0.38, 1.0), (0.52, 0.95), (0.36, 0.62), (0.64, 0.62))
# A pointing hand with the index finger up, fingertip at (0.3, 0.0), as fractions of its height.
_HAND = (
    (0.25, 0.05), (0.3, 0.0), (0.36, 0.05), (0.36, 0.4), (0.5, 0.38), (0.62, 0.42), (0.74, 0.47),
    (0.84, 0.55), (0.84, 0.8), (0.72, 1.0), (0.28, 1.0), (0.08, 0.7), (0.0, 0.55), (0.06, 0.5),
    (0.25, 0.62),
)  # fmt: skip
ARROW_HEIGHTS = (17, 20, 23, 27, 32)  # pixels at 1280 wide
HAND_HEIGHTS = (20, 24, 29)
_SUPERSAMPLE = 4
_REACH_X, _REACH_Y = 320, 240  # how far a hand moves the pointer between analysed frames, at most


@dataclass(frozen=True)
class PointerTemplate:
    name: str
    image: np.ndarray  # grey levels
    mask: np.ndarray  # uint8 0/1: the pointer's own pixels
    hotspot: tuple[int, int]  # the tip, in template pixels

    @property
    def size(self) -> tuple[int, int]:
        return self.image.shape[1], self.image.shape[0]


@dataclass(frozen=True)
class PointerHit:
    x: float  # the tip, frame pixels
    y: float
    score: float
    template: int  # index into the template list

    @property
    def point(self) -> tuple[float, float]:
        return self.x, self.y


def _draw(name: str, shape: tuple, height: int, hotspot: tuple[float, float], light: bool) -> PointerTemplate:
    ss = _SUPERSAMPLE
    pad = 2
    points = np.array([((x * height + pad) * ss, (y * height + pad) * ss) for x, y in shape], np.float32)
    width = int(np.ceil(max(x for x, _ in shape) * height)) + 2 * pad + 1
    full_h = height + 2 * pad + 1
    fill = np.zeros((full_h * ss, width * ss), np.uint8)
    cv2.fillPoly(fill, [np.round(points).astype(np.int32)], 255)
    outline = np.zeros_like(fill)
    cv2.polylines(outline, [np.round(points).astype(np.int32)], True, 255, max(ss, int(ss * height / 20)))
    image = np.full(fill.shape, 128, np.uint8)
    image[fill > 0] = 255 if light else 0
    image[outline > 0] = 0 if light else 255
    mask = np.maximum(fill, outline)
    small = cv2.resize(image, (width, full_h), interpolation=cv2.INTER_AREA)
    small_mask = cv2.resize(mask, (width, full_h), interpolation=cv2.INTER_AREA) > 160
    hot = (int(round(hotspot[0] * height + pad)), int(round(hotspot[1] * height + pad)))
    return PointerTemplate(name, small, small_mask.astype(np.uint8), hot)


@lru_cache(maxsize=1)
def pointer_templates() -> tuple[PointerTemplate, ...]:
    """Arrows (light and dark) and hands at the usual sizes; the order is the search order."""
    templates = [_draw(f"arrow-light-{h}", _ARROW, h, (0, 0), True) for h in ARROW_HEIGHTS]
    templates += [_draw(f"arrow-dark-{h}", _ARROW, h, (0, 0), False) for h in ARROW_HEIGHTS]
    templates += [_draw(f"hand-{h}", _HAND, h, (0.3, 0.0), True) for h in HAND_HEIGHTS]
    return tuple(templates)


def sprite_box(hit: PointerHit, margin: int = 2) -> Box:
    """The frame pixels the pointer covers (with a margin)."""
    template = pointer_templates()[hit.template]
    x0 = int(round(hit.x)) - template.hotspot[0]
    y0 = int(round(hit.y)) - template.hotspot[1]
    return x0 - margin, y0 - margin, x0 + template.size[0] + margin, y0 + template.size[1] + margin


def sprite_mask(hit: PointerHit, shape: tuple[int, int]) -> np.ndarray:
    """A boolean image of `shape` (height, width), true where the pointer is drawn (slightly widened)."""
    template = pointer_templates()[hit.template]
    mask = np.zeros(shape, bool)
    x0 = int(round(hit.x)) - template.hotspot[0]
    y0 = int(round(hit.y)) - template.hotspot[1]
    grown = cv2.dilate(template.mask, np.ones((3, 3), np.uint8)) > 0
    h, w = grown.shape
    fx0, fy0, fx1, fy1 = clip_box((x0, y0, x0 + w, y0 + h), shape[1], shape[0])
    if fx0 < fx1 and fy0 < fy1:
        mask[fy0:fy1, fx0:fx1] = grown[fy0 - y0 : fy1 - y0, fx0 - x0 : fx1 - x0]
    return mask


def match_in(luma: np.ndarray, box: Box, indices: list[int]) -> PointerHit | None:
    """The best match of the given templates inside `box` of the grey frame."""
    templates = pointer_templates()
    x0, y0, x1, y1 = clip_box(box, luma.shape[1], luma.shape[0])
    best: PointerHit | None = None
    for index in indices:
        template = templates[index]
        tw, th = template.size
        if x1 - x0 < tw or y1 - y0 < th:
            continue
        scores = cv2.matchTemplate(luma[y0:y1, x0:x1], template.image, cv2.TM_CCOEFF_NORMED, mask=template.mask)
        scores[~np.isfinite(scores)] = -1.0  # flat windows give NaN
        _, top, _, (lx, ly) = cv2.minMaxLoc(scores)
        if best is None or top > best.score:
            best = PointerHit(float(x0 + lx + template.hotspot[0]), float(y0 + ly + template.hotspot[1]), float(top), index)
    return best


def find_anywhere(
    luma: np.ndarray, min_score: float, window: Box | None = None, indices: list[int] | None = None
) -> PointerHit | None:
    """Search the frame (or `window` of it): at half size first (16x cheaper), then refine the best candidates."""
    x0, y0, x1, y1 = clip_box(window or (0, 0, luma.shape[1], luma.shape[0]), luma.shape[1], luma.shape[0])
    x0, y0 = x0 // 2 * 2, y0 // 2 * 2
    if x1 - x0 < 16 or y1 - y0 < 16:
        return None
    region = luma[y0:y1, x0:x1]
    half = cv2.resize(region, (region.shape[1] // 2, region.shape[0] // 2), interpolation=cv2.INTER_AREA)
    templates = pointer_templates()
    candidates: list[tuple[float, int, int, int]] = []
    for index in indices if indices is not None else range(len(templates)):
        small, small_mask = _half_template(index)
        if half.shape[0] < small.shape[0] or half.shape[1] < small.shape[1]:
            continue
        scores = cv2.matchTemplate(half, small, cv2.TM_CCOEFF_NORMED, mask=small_mask)
        scores[~np.isfinite(scores)] = -1.0
        _, top, _, (lx, ly) = cv2.minMaxLoc(scores)
        candidates.append((top, index, x0 + lx * 2, y0 + ly * 2))
    candidates.sort(reverse=True)
    best: PointerHit | None = None
    for _, index, x, y in candidates[:3]:
        template = templates[index]
        hit = match_in(luma, (x - 6, y - 6, x + template.size[0] + 6, y + template.size[1] + 6), [index])
        if hit is not None and (best is None or hit.score > best.score):
            best = hit
    return best if best is not None and best.score >= min_score else None


@lru_cache(maxsize=None)
def _half_template(index: int) -> tuple[np.ndarray, np.ndarray]:
    template = pointer_templates()[index]
    size = (max(4, template.size[0] // 2), max(4, template.size[1] // 2))
    image = cv2.resize(template.image, size, interpolation=cv2.INTER_AREA)
    return image, cv2.resize(template.mask, size, interpolation=cv2.INTER_NEAREST)


class PointerTracker:
    """Follows the pointer from frame to frame, searching only where something changed."""

    def __init__(self, min_score: float, lost_search_every: int = 2) -> None:
        self.min_score = min_score
        self.lost_search_every = lost_search_every  # frames between whole-frame searches while lost
        self.last: PointerHit | None = None
        self._last_seen: PointerHit | None = None  # kept while lost, to search around it
        self._since_search = 0
        self._preferred: list[int] = []  # templates that matched recently, tried first

    def update(self, luma: np.ndarray, changed: list[Box], first: bool = False) -> PointerHit | None:
        """Where the pointer is in this frame; `changed` lists boxes that differ from the previous frame."""
        if first:
            return self._found(find_anywhere(luma, self.min_score))
        last = self.last
        if last is not None:
            here = sprite_box(last, margin=3)
            if not any(_touches(here, box) for box in changed):
                return last  # nothing changed where it was: it is still there
            hit = self._search(luma, [grow(here, 40)])
            if hit is not None:
                return self._found(hit)
        hit = self._search(luma, [grow(box, 30) for box in changed if _pointer_sized(box)][:12])
        if hit is not None:
            return self._found(hit)
        if last is not None:
            hit = match_in(luma, grow(sprite_box(last), 4), [last.template])
            if hit is not None and hit.score >= self.min_score:
                return self._found(hit)  # it stayed while something else changed under it
        seen = self._last_seen
        if seen is not None and changed:
            # A fast move over changing content (a list's rows lighting up): look around where it was.
            window = grow(sprite_box(seen), _REACH_X, _REACH_Y)
            hit = find_anywhere(luma, self.min_score, window, self._preferred or None)
            if hit is not None:
                return self._found(hit)
        self.last = None
        self._since_search += 1
        if self._since_search >= self.lost_search_every:
            self._since_search = 0
            hit = find_anywhere(luma, self.min_score, indices=self._preferred) if self._preferred else None
            return self._found(hit or find_anywhere(luma, self.min_score))
        return None

    def _search(self, luma: np.ndarray, boxes: list[Box]) -> PointerHit | None:
        all_templates = list(range(len(pointer_templates())))
        order = self._preferred + [i for i in all_templates if i not in self._preferred]
        best: PointerHit | None = None
        for box in boxes:
            quick = match_in(luma, box, self._preferred) if self._preferred else None
            hit = quick if quick is not None and quick.score >= self.min_score else match_in(luma, box, order)
            if hit is not None and hit.score >= self.min_score and (best is None or hit.score > best.score):
                best = hit
        return best

    def _found(self, hit: PointerHit | None) -> PointerHit | None:
        self.last = hit
        if hit is not None:
            self._last_seen = hit
            self._since_search = 0
            self._preferred = [hit.template] + [i for i in self._preferred if i != hit.template][:1]
        return hit


def _touches(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _pointer_sized(box: Box) -> bool:
    """Change boxes that could hold the pointer: not whole page areas."""
    return box[2] - box[0] <= 160 and box[3] - box[1] <= 160
