"""Naming the element at the pointer the way a person would, from OCR'd text lines around it.

- The control under the pointer (a button, a field, a drop-down) is found as the
  box of even colour the tip sits in (a flood fill that must stay well inside the
  crop; the open page around a link is not a box).
- A button is named by its own text; a field or drop-down by its label (the text just
  above it or just left of it), else by what it shows (a placeholder such as
  "Search entire store here..."); a link or other text by the line under the tip, or the
  nearest line within reach (text to the right of a radio button or check box); a line
  that continues a wrapped link on the lines below is joined to it.
- Names are cleaned: an ellipsis or stray symbols at the ends go, and a lone icon
  glyph is said as a word ("▲" -> "Upvote").
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import cv2
import numpy as np

from processing.ocr_labeler.frames import Box
from processing.ocr_labeler.ocr import TextBox

# Glyphs drawn as icons, said the way people name them.
ICON_WORDS = {
    "▲": "Upvote", "△": "Upvote", "⬆": "Upvote", "▼": "Downvote", "▽": "Downvote", "⬇": "Downvote",
    "×": "Close", "✕": "Close", "✖": "Close", "☆": "Favourite", "★": "Favourite", "♡": "Wish List",
    "❤": "Wish List", "🛒": "Cart", "🔍": "Search", "⋮": "Menu", "☰": "Menu", "≡": "Menu", "↻": "Reload",
    "←": "Back", "→": "Forward", "+": "Add", "🗑": "Delete",
}  # fmt: skip
_FILL_TOLERANCE = 6  # grey levels: a control's background is flat
# Where fills start, relative to the tip: on it, and around it on the tip's row and column.
_SEEDS = ((0, 0), (0, -6), (0, 6), (-6, 0), (8, 0), (0, -11), (0, 11), (-14, 0), (16, 0), (-24, 0))
# How OCR reads a radio button or a check box: no name of their own, the words beside them name them.
TICK_MARKS = frozenset("Oo0〇◯○●◉☐☑☒□■")
_MIN_CONTROL = (16, 14)  # pixels: smaller closed regions are the insides of letters
_BOXLIKE = 0.45  # a control's background fills this share of its box at least (the rest is its text)
_ICON_SIZE = 48  # pixels: a control this small with no words is an icon (vote arrow, star, radio button)
_STACKED = 14  # pixels: a label over a field is this close above it and this close to its left edge
_EDGE_CHARS = " .…·•|:-–—*»«>›<‹"


@dataclass(frozen=True)
class Control:
    box: Box
    texts: tuple[TextBox, ...]  # lines inside it
    kind: str  # "button", "field", "icon" or "container" (see describe_control)


def clean_name(text: str) -> str:
    text = " ".join(text.split())
    if text in ICON_WORDS:
        return ICON_WORDS[text]
    stripped = text.strip(_EDGE_CHARS)
    if stripped and len(stripped) < len(text) and stripped[0] in ICON_WORDS and stripped[1:2] == " ":
        stripped = stripped[2:]  # "↓ Set Descending Direction": the arrow is decoration
    stripped = re.sub(r"^[^\w$€£(]+\s", "", stripped)  # a leading symbol followed by a space
    return stripped.strip(_EDGE_CHARS) or text


def find_control(
    grey: np.ndarray, point: tuple[float, float], origin: tuple[int, int], avoid: Box | None = None
) -> Box | None:
    """The flat-coloured box around `point` (frame pixels) in `grey`, a crop whose top-left is `origin`.

    The fill starts from a few spots around the tip (the tip itself may be on a letter or
    an icon); of the boxes that contain the tip and stay clear of the crop's edges, the
    innermost one big enough to be a control wins (a button inside a card, not the card).
    A box inside `avoid` (frame pixels: where the pointer was painted out) may be the patch
    itself, when the page under it changed shade since (a hover tint): it wins only when
    no other box does.
    """
    height, width = grey.shape
    px, py = int(round(point[0])) - origin[0], int(round(point[1])) - origin[1]
    if not (0 <= px < width and 0 <= py < height):
        return None
    best: Box | None = None
    patch: Box | None = None
    tried: set[tuple[int, int, int, int]] = set()
    for dx, dy in _SEEDS:
        sx, sy = px + dx, py + dy
        if not (0 <= sx < width and 0 <= sy < height):
            continue
        box = _fill_box(grey, (sx, sy), tried)
        if box is None or not (box[0] <= px <= box[2] and box[1] <= py <= box[3]):
            continue
        if box[2] - box[0] < _MIN_CONTROL[0] or box[3] - box[1] < _MIN_CONTROL[1]:
            continue  # the inside of a letter
        if avoid is not None and _within(box, avoid, origin):
            patch = box
            continue
        if best is None or _area(box) < _area(best):
            best = box
    best = best or patch
    if best is None:
        return None
    return best[0] + origin[0], best[1] + origin[1], best[2] + origin[0], best[3] + origin[1]


def _within(box: Box, outer: Box, origin: tuple[int, int]) -> bool:
    x0, y0, x1, y1 = outer[0] - origin[0], outer[1] - origin[1], outer[2] - origin[0], outer[3] - origin[1]
    return box[0] >= x0 and box[1] >= y0 and box[2] <= x1 and box[3] <= y1


def _fill_box(grey: np.ndarray, seed: tuple[int, int], tried: set[tuple[int, int, int, int]]) -> Box | None:
    height, width = grey.shape
    mask = np.zeros((height + 2, width + 2), np.uint8)
    # 4-connected: a fill must not slip out through the faint corner pixels of a rounded border.
    flags = 4 | cv2.FLOODFILL_MASK_ONLY | cv2.FLOODFILL_FIXED_RANGE | (255 << 8)
    _, _, _, (x, y, w, h) = cv2.floodFill(grey, mask, seed, 0, _FILL_TOLERANCE, _FILL_TOLERANCE, flags)
    if (x, y, w, h) in tried:
        return None  # the same region from another seed
    tried.add((x, y, w, h))
    if x <= 1 or y <= 1 or x + w >= width - 1 or y + h >= height - 1:
        return None  # it runs into the crop's edge: open page, not a control
    if not (6 <= h <= 320 and 6 <= w <= 1000):
        return None
    if (mask[1 + y : 1 + y + h, 1 + x : 1 + x + w] > 0).mean() < _BOXLIKE:
        return None  # a winding region (a letter, the gaps between letters), not a box
    return x, y, x + w, y + h


def _area(box: Box) -> int:
    return (box[2] - box[0]) * (box[3] - box[1])


def describe_control(box: Box, texts: list[TextBox]) -> Control:
    """What kind of control a box is, from the text inside it.

    container: two rows of text or more (a card, a panel), named by what is under the tip;
    icon: small, with no words in it; button: one row of text, centred; field: one row at
    its left, or empty.
    """
    inside = tuple(t for t in texts if _contains(box, t.center, 2))
    width, height = box[2] - box[0], box[3] - box[1]
    rows = _rows(inside)
    if rows >= 2:
        return Control(box, inside, "container")
    worded = [t for t in inside if sum(ch.isalnum() for ch in t.text) >= 2]  # "V" may be a misread "▼"
    if width <= _ICON_SIZE and height <= _ICON_SIZE and not worded:
        return Control(box, inside, "icon")
    if inside:
        left = min(t.box[0] for t in inside)
        right = max(t.box[2] for t in inside)
        gap_left, gap_right = left - box[0], box[2] - right
        if abs(gap_left - gap_right) <= max(12, 0.25 * width) or height < 20:
            return Control(box, inside, "button")
    return Control(box, inside, "field")


def _rows(texts: tuple[TextBox, ...]) -> int:
    centres = sorted(t.center[1] for t in texts)
    rows = 0
    last = -1e9
    for y in centres:
        if y - last > 10:
            rows += 1
        last = y
    return rows


def text_at(texts: list[TextBox], point: tuple[float, float], reach: float) -> TextBox | None:
    """The line under `point`, else the nearest one within `reach` (rows count more than columns)."""
    best, best_distance = None, math.inf
    for text in texts:
        x0, y0, x1, y1 = text.box
        dx = max(x0 - point[0], 0, point[0] - x1)
        dy = max(y0 - point[1], 0, point[1] - y1)
        if dx <= 3 and dy <= 3:
            return text
        distance = math.hypot(dx, 2.5 * dy)
        if distance < best_distance:
            best, best_distance = text, distance
    return best if best_distance <= reach else None


def wrapped_lines(texts: list[TextBox], line: TextBox, right_limit: float | None = None) -> list[TextBox]:
    """`line` with the lines above and below that continue it (a link wrapped over several lines).

    A continuation has the same left edge and size, follows with no more than the
    leading of wrapped text, and its first word would not have fitted at the end of the
    line before it (before `right_limit`, the right edge of the block the text sits in;
    by default the widest of these lines). Items of a menu or list fail one of these.
    """
    aligned = [t for t in texts if abs(t.box[0] - line.box[0]) <= 8 and abs(t.height - line.height) <= 0.15 * line.height]
    limit = right_limit if right_limit is not None else max(t.box[2] for t in aligned)

    def follows(upper: TextBox, lower: TextBox) -> bool:
        gap = lower.box[1] - upper.box[3]
        if lower not in aligned or not -2 <= gap <= max(3.0, 0.2 * upper.height):
            return False
        first_word = lower.text.split()[0] if lower.text.split() else ""
        word_width = (lower.box[2] - lower.box[0]) * len(first_word) / max(1, len(lower.text))
        return upper.box[2] + word_width + 0.3 * upper.height > limit

    lines = [line]
    while below := [t for t in texts if t not in lines and follows(lines[-1], t)]:
        lines.append(min(below, key=lambda t: t.box[1]))
    while above := [t for t in texts if t not in lines and follows(t, lines[0])]:
        lines.insert(0, max(above, key=lambda t: t.box[1]))
    return lines


def field_label(texts: list[TextBox], field: Box) -> TextBox | None:
    """The text that labels a field: just above it (left-aligned with it) or just left of it on its row."""
    candidates: list[tuple[float, TextBox]] = []
    fx0, fy0, fx1, fy1 = field
    for text in texts:
        x0, y0, x1, y1 = text.box
        if _contains(field, text.center, 0):
            continue
        above_gap = fy0 - y1
        if -2 <= above_gap <= 40 and x0 < fx1 and x1 > fx0 and x0 - fx0 <= 40:
            candidates.append((above_gap + abs(x0 - fx0) * 0.1, text))
        left_gap = fx0 - x1
        middle = (y0 + y1) / 2
        if -2 <= left_gap <= 160 and fy0 - 4 <= middle <= fy1 + 4:
            candidates.append((left_gap, text))
    return min(candidates, key=lambda item: item[0])[1] if candidates else None


def stacked_label(texts: list[TextBox], field: Box) -> TextBox | None:
    """A form's label set right over its field, flush with its left edge (not a page or dialog title)."""
    label = field_label(texts, field)
    if label is None:
        return None
    above = field[1] - label.box[3]
    return label if -2 <= above <= _STACKED and abs(label.box[0] - field[0]) <= _STACKED else None


def join(lines: list[TextBox]) -> str:
    ordered = sorted(lines, key=lambda t: (round(t.center[1] / 8), t.box[0]))
    return " ".join(t.text for t in ordered)


def _contains(box: Box, point: tuple[float, float], margin: float) -> bool:
    return box[0] - margin <= point[0] <= box[2] + margin and box[1] - margin <= point[1] <= box[3] + margin


_INK_FROM_BACKGROUND = 80  # colour distance: a pixel this far from the line's background is ink
_SAME_INK = 70  # and this close to the ink at the tip is written in the same colour
_OTHER_INK = 120  # and this far from it is another colour (plain text around a link)


def colour_run(crop: np.ndarray, tip_x: int) -> tuple[int, int] | None:
    """The columns of a line's words written in the colour of those at `tip_x` (a link inside a sentence).

    `crop` is the line (BGR). None when the whole line is one colour, or nothing is written at the tip.
    The run grows from the tip while the gaps are no wider than a word space and it meets no column
    written only in another colour (a link drawn on a tint of its own has the tint in every column).
    """
    height, width = crop.shape[:2]
    if width < 4 * height or not 0 <= tip_x < width:
        return None
    pixels = crop.astype(np.float32)
    border = np.concatenate([pixels[0], pixels[-1], pixels[:, 0], pixels[:, -1]])
    ink = np.linalg.norm(pixels - np.median(border, axis=0), axis=2) > _INK_FROM_BACKGROUND
    reach = max(4, height // 2)
    near = ink[:, max(0, tip_x - reach) : tip_x + reach]
    if near.sum() < 3:
        return None
    colour = np.median(pixels[:, max(0, tip_x - reach) : tip_x + reach][near], axis=0)
    distance = np.linalg.norm(pixels - colour, axis=2)
    same = (ink & (distance < _SAME_INK)).any(axis=0)
    other = (ink & (distance > _OTHER_INK)).sum(axis=0) >= 2
    if other.sum() < 0.1 * width:
        return None  # one colour: the line is one name
    gap = int(0.9 * height)
    ends = []
    for step in (-1, 1):
        x, last, blank = tip_x, tip_x, 0
        while 0 <= x < width and not (other[x] and not same[x]) and blank <= gap:
            blank = 0 if same[x] else blank + 1
            last = x if same[x] else last
            x += step
        ends.append(last)
    left, right = ends
    if right - left < height or right - left > 0.85 * width or not between_words(crop, left, right + 1):
        return None
    return left, right + 1


def between_words(crop: np.ndarray, left: int, right: int) -> bool:
    """Columns `left` to `right` of a line start and end at gaps between words, not inside one (a pointer's
    leftovers, a ring, cut through letters)."""
    pixels = crop.astype(np.float32)
    border = np.concatenate([pixels[0], pixels[-1], pixels[:, 0], pixels[:, -1]])
    ink = (np.linalg.norm(pixels - np.median(border, axis=0), axis=2) > _INK_FROM_BACKGROUND).any(axis=0)
    outside = np.concatenate([ink[max(0, left - 2) : left], ink[right : right + 2]])
    return not outside.any()
