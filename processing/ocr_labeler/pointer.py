"""Finding the mouse pointer in a screen recording by template matching.

The templates are drawn here, not cut from any one recorder: the usual arrow
(white with a dark outline, as Windows and most Linux themes draw it, and dark with a
light outline, as macOS does) at sizes from 100% to about 190% display scaling, and a
pointing hand (shown over links). Matching is normalised cross-correlation inside the
shape's mask only (`TM_CCOEFF_NORMED` with a mask), so the page behind the pointer does
not matter, and blur from video compression only lowers the score a little.

On a real recording a pointer drawn by the system with a shadow or an unusual theme
scores lower than on the sandbox's; `cursor_min_score` sets how low a match may go.
When no drawn shape passes (another theme's hand or I-beam), the pointer is found by
motion: a pointer-sized blob that changed near where it was last seen, whose pixels
then serve as a template learned from that video; a drawn shape found moving elsewhere
takes over again. The pointer is searched
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
# Finding the pointer by motion: a grey-level step that is a drawn edge, not compression shimmer; how many
# pixels and how wide a pointer may be; how many pixels a shape needs to be kept as a template.
MOTION_NOISE = 40
MOTION_PIXELS = (12, 1600)
MOTION_SIZE = 56
LEARN_MIN_PIXELS = 40
LEARNED_KEPT = 4
LEARNED_MIN_SCORE = 0.8


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
    template: int  # index into the template list (-1: a shape learned from this video, in `sprite`)
    sprite: PointerTemplate | None = None

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


def _template_of(hit: PointerHit) -> PointerTemplate:
    return hit.sprite if hit.sprite is not None else pointer_templates()[hit.template]


def sprite_box(hit: PointerHit, margin: int = 2) -> Box:
    """The frame pixels the pointer covers (with a margin)."""
    template = _template_of(hit)
    x0 = int(round(hit.x)) - template.hotspot[0]
    y0 = int(round(hit.y)) - template.hotspot[1]
    return x0 - margin, y0 - margin, x0 + template.size[0] + margin, y0 + template.size[1] + margin


def sprite_mask(hit: PointerHit, shape: tuple[int, int]) -> np.ndarray:
    """A boolean image of `shape` (height, width), true where the pointer is drawn (slightly widened)."""
    template = _template_of(hit)
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
        self._learned: list[PointerTemplate] = []  # shapes cut from this video where the pointer moved
        self._previous: np.ndarray | None = None  # the last frame's grey levels

    def update(self, luma: np.ndarray, changed: list[Box], first: bool = False) -> PointerHit | None:
        """Where the pointer is in this frame; `changed` lists boxes that differ from the previous frame."""
        hit = self._update(luma, changed, first)
        self._previous = luma
        return hit

    def _update(self, luma: np.ndarray, changed: list[Box], first: bool) -> PointerHit | None:
        if first:
            return self._found(find_anywhere(luma, self.min_score))
        last = self.last
        if last is not None:
            here = sprite_box(last, margin=3)
            if last.sprite is not None:
                # A shape found by motion may have been something else that moved (a spinner): a drawn
                # pointer shape found moving elsewhere wins.
                elsewhere = [grow(box, 30) for box in changed if _pointer_sized(box) and not _touches(here, box)]
                hit = self._search(luma, elsewhere[:12]) if elsewhere else None
                if hit is not None:
                    return self._found(hit)
            if not any(_touches(here, box) for box in changed):
                return last  # nothing changed where it was: it is still there
            hit = self._search(luma, [grow(here, 40)])
            if hit is not None:
                return self._found(hit)
            if self._unchanged_under(luma, last):
                return last  # the page changed around a resting pointer (a field's focus ring, a tint)
        hit = self._search(luma, [grow(box, 30) for box in changed if _pointer_sized(box)][:12])
        if hit is not None:
            return self._found(hit)
        if last is not None:
            hit = match_in(luma, grow(sprite_box(last), 4), [last.template])
            if hit is not None and hit.score >= self.min_score:
                return self._found(hit)  # it stayed while something else changed under it
        seen = self._last_seen
        if seen is not None and changed:
            hit = self._learned_near(luma, seen, changed) or self._by_motion(luma, seen, changed)
            if hit is not None:
                return self._found(hit)
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
            if hit.sprite is None:
                self._preferred = [hit.template] + [i for i in self._preferred if i != hit.template][:1]
        return hit

    def _unchanged_under(self, luma: np.ndarray, hit: PointerHit) -> bool:
        """Whether the pointer's own pixels are as they were in the last frame."""
        if self._previous is None or self._previous.shape != luma.shape:
            return False
        template = _template_of(hit)
        x0, y0 = int(round(hit.x)) - template.hotspot[0], int(round(hit.y)) - template.hotspot[1]
        h, w = template.mask.shape
        if x0 < 0 or y0 < 0 or x0 + w > luma.shape[1] or y0 + h > luma.shape[0]:
            return False
        mine = template.mask > 0
        now, before = luma[y0 : y0 + h, x0 : x0 + w][mine], self._previous[y0 : y0 + h, x0 : x0 + w][mine]
        return bool(mine.any()) and float((np.abs(now.astype(np.int16) - before) > MOTION_NOISE).mean()) < 0.1

    # ---- shapes none of the drawn templates fit (other themes, a hand or I-beam of another design) ----

    def _learned_near(self, luma: np.ndarray, seen: PointerHit, changed: list[Box]) -> PointerHit | None:
        """A shape learned earlier in this video, where something changed near where the pointer was."""
        boxes = [grow(box, 12) for box in changed if _pointer_sized(box) and _touches(box, _reach(seen))]
        best: PointerHit | None = None
        for box in boxes[:8]:
            for sprite in self._learned:
                hit = _match_sprite(luma, box, sprite)
                if hit is not None and hit.score >= LEARNED_MIN_SCORE and (best is None or hit.score > best.score):
                    best = hit
        return best

    def _by_motion(self, luma: np.ndarray, seen: PointerHit, changed: list[Box]) -> PointerHit | None:
        """The pointer where a pointer-sized patch changed near where it was last seen, its shape learned.

        What changed there is the pointer's new position (the old one is masked out when known):
        those pixels become a template for the frames that follow, the topmost one its tip.
        """
        previous = self._previous
        if previous is None or previous.shape != luma.shape:
            return None
        old = sprite_mask(seen, luma.shape) if self.last is seen else None
        candidates: list[tuple[float, PointerHit]] = []
        for box in changed:
            if not _pointer_sized(box) or not _touches(box, _reach(seen)):
                continue
            x0, y0, x1, y1 = clip_box(grow(box, 2), luma.shape[1], luma.shape[0])
            moved = np.abs(luma[y0:y1, x0:x1].astype(np.int16) - previous[y0:y1, x0:x1]) > MOTION_NOISE
            if old is not None:
                moved &= ~old[y0:y1, x0:x1]
            # Separate blobs: a link's underline or a button's tint can change beside the pointer.
            count, labels, stats, _ = cv2.connectedComponentsWithStats(
                cv2.dilate(moved.astype(np.uint8), np.ones((3, 3), np.uint8)), connectivity=8
            )
            for part in range(1, count):
                bx0, by0, bw, bh, _ = (int(v) for v in stats[part])
                if not (4 <= bw <= MOTION_SIZE and 8 <= bh <= MOTION_SIZE):
                    continue
                mask = (moved & (labels == part))[by0 : by0 + bh, bx0 : bx0 + bw].astype(np.uint8)
                if not MOTION_PIXELS[0] <= int(mask.sum()) <= MOTION_PIXELS[1]:
                    continue
                image = luma[y0 + by0 : y0 + by0 + bh, x0 + bx0 : x0 + bx0 + bw].copy()
                rows = np.nonzero(mask.any(axis=1))[0]
                top_row = int(rows[0])
                top = int(np.argmax(mask[top_row]))
                sprite = PointerTemplate("learned", image, mask, (top, top_row))
                hit = PointerHit(float(x0 + bx0 + top), float(y0 + by0 + top_row), 1.0, -1, sprite)
                candidates.append((float(np.hypot(hit.x - seen.x, hit.y - seen.y)), hit))
        if not candidates:
            return None
        hit = min(candidates, key=lambda c: c[0])[1]
        sprite = hit.sprite
        if int(sprite.mask.sum()) >= LEARN_MIN_PIXELS and float(sprite.image[sprite.mask > 0].std()) > 20:
            self._learned = [hit.sprite] + self._learned[: LEARNED_KEPT - 1]
        return hit


def _reach(hit: PointerHit) -> Box:
    return grow(sprite_box(hit), _REACH_X, _REACH_Y)


def _match_sprite(luma: np.ndarray, box: Box, sprite: PointerTemplate) -> PointerHit | None:
    x0, y0, x1, y1 = clip_box(box, luma.shape[1], luma.shape[0])
    tw, th = sprite.size
    if x1 - x0 < tw or y1 - y0 < th:
        return None
    scores = cv2.matchTemplate(luma[y0:y1, x0:x1], sprite.image, cv2.TM_CCOEFF_NORMED, mask=sprite.mask)
    scores[~np.isfinite(scores)] = -1.0
    _, top, _, (lx, ly) = cv2.minMaxLoc(scores)
    return PointerHit(float(x0 + lx + sprite.hotspot[0]), float(y0 + ly + sprite.hotspot[1]), float(top), -1, sprite)


def _touches(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _pointer_sized(box: Box) -> bool:
    """Change boxes that could hold the pointer: not whole page areas."""
    return box[2] - box[0] <= 160 and box[3] - box[1] <= 160
