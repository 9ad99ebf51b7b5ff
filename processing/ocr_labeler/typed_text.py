"""What was typed into a field: the text it shows after typing, minus what it showed before.

Both states are OCR'd lines of the same screen area. Lines that are the same before and
after (a label, a help text under the field) are left out; each new or changed line is
compared with the old lines at its place: what it adds to them was typed.
"""

from __future__ import annotations

import re

import cv2
import numpy as np

from processing.ocr_labeler.frames import overlaps
from processing.ocr_labeler.ocr import TextBox

_BULLET_INK = 60  # grey levels from the background that count as a bullet's ink
_URL = re.compile(r"^(https?://)?[\w-]+(\.[\w-]+)*(:\d+)?(/\S*)?$")


def typed_text(before: str, after: str) -> str:
    """The text added between `before` and `after` (strings of one place on screen).

    When the old text is still there at the start (typing after existing text), what
    follows it is new; when it is gone (a placeholder that disappears on the first key, a
    value replaced), all of the new text was typed.
    """
    before, after = " ".join(before.split()), " ".join(after.split())
    if not after or after == before:
        return ""
    if before and after.startswith(before):
        return after[len(before) :].strip()
    return after


def typed_from_lines(before: list[TextBox], after: list[TextBox]) -> str:
    """What was typed, from the lines read in one area before and after; lone marks (a caret, a clear button) left out."""
    parts = []
    for line in sorted(after, key=lambda t: (t.box[1], t.box[0])):
        if any(_same_words(old.text, line.text) and _same_place(old, line) for old in before):
            continue  # unchanged (read a little differently, maybe): a label, a help text, a link
        under = [old for old in before if overlaps(old.box, line.box)]
        old_text = " ".join(old.text for old in sorted(under, key=lambda t: t.box[0]))
        added = typed_text(old_text, line.text).rstrip("|")
        if added:
            parts.append(added)
    if len(parts) > 1:
        parts = [part for part in parts if len(part) > 1]
    return " ".join(part for part in parts if any(ch.isalnum() for ch in part))


def url_in(texts: list[TextBox]) -> str:
    """The longest URL-looking word in the texts (an address field also holds icons)."""
    words = [word for text in texts for word in text.text.split() if looks_like_url(word)]
    return max(words, key=len) if words else ""


def looks_like_url(text: str) -> bool:
    text = text.strip()
    return bool(text) and " " not in text and any(c in text for c in "./:") and bool(_URL.match(text))


def _same_words(a: str, b: str) -> bool:
    """Equal but for punctuation, case and an OCR slip of a character or two."""
    a, b = re.sub(r"\W", "", a).lower(), re.sub(r"\W", "", b).lower()
    if a == b:
        return True
    return len(a) >= 6 and abs(len(a) - len(b)) <= 1 and sum(x != y for x, y in zip(a, b)) <= max(1, len(a) // 10)


def _same_place(a: TextBox, b: TextBox) -> bool:
    return abs(a.box[0] - b.box[0]) <= 6 and abs(a.box[1] - b.box[1]) <= 6


def masked_length(grey: np.ndarray) -> int:
    """How many bullets a password field shows (a row of equal dots OCR cannot read), or 0.

    Ink is what differs from the field's background. A bullet is a small solid blob about
    as wide as it is tall; a masked entry is a row of at least three of one size at an
    even pitch (letters are hollow or uneven, and not evenly spaced).
    """
    if grey.size == 0:
        return 0
    background = float(np.median(grey))
    ink = (np.abs(grey.astype(np.int16) - background) > _BULLET_INK).astype(np.uint8)
    count, _, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
    limit = 0.4 * grey.shape[0]
    dots = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if 2 <= w <= limit and 2 <= h <= limit and 0.6 <= w / h <= 1.6 and area >= 0.6 * w * h:
            dots.append((float(centres[i][0]), float(centres[i][1]), area))
    if len(dots) < 3:
        return 0
    typical_area = float(np.median([d[2] for d in dots]))
    row = float(np.median([d[1] for d in dots]))
    xs = sorted(d[0] for d in dots if abs(d[2] - typical_area) <= 0.35 * typical_area and abs(d[1] - row) <= 2)
    if len(xs) < 3:
        return 0
    pitch = float(np.median(np.diff(xs)))
    best = run = 1
    for gap in np.diff(xs):
        run = run + 1 if abs(gap - pitch) <= 0.3 * pitch else 1
        best = max(best, run)
    return best if best >= 3 else 0
