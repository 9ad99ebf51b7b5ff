"""Reading text off frames with RapidOCR (PP-OCR models run by onnxruntime, shipped in the wheel, offline).

Only crops are read, never whole frames, and in two steps: the text detector finds
the lines of the crop, and only the lines that touch the area of interest (`focus`)
are recognised, recognition being most of the cost. The detector is told not to
enlarge crops (`limit_type: max`): screen text is already the size it was trained on.

The detector joins words on one row into one line even across wide gaps (a menu:
"My Account   My Wish List   Sign In"); each line is cut wherever a run of empty
columns is wider than half its height, which word spacing never is, so each item is
read on its own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from foundation.errors import UserError
from processing.ocr_labeler.frames import Box, overlaps

_LOCK = threading.Lock()  # one engine per process, shared by the threads that label videos
_INK = 40  # grey levels from a line's background that count as ink when cutting it into items
_PAD = 3  # pixels kept around an item when it is recognised
_MARGIN = 24  # pixels around the focus where lines are looked for
_MARK_SCORE = 0.3  # a lone icon glyph is read with less confidence than words; it must still be one of ICON_WORDS


@dataclass(frozen=True)
class TextBox:
    text: str
    box: Box  # frame pixels
    score: float
    contrast: float = 0.0  # grey-level spread inside the box: placeholders are drawn paler than typed text

    @property
    def center(self) -> tuple[float, float]:
        return (self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2

    @property
    def height(self) -> int:
        return self.box[3] - self.box[1]


@lru_cache(maxsize=1)
def _engine():
    try:
        from rapidocr import RapidOCR
    except ImportError as exc:  # pragma: no cover - the package is a dependency
        raise UserError("rapidocr is not installed: run `make install` (it ships the OCR models)") from exc
    return RapidOCR(
        params={
            "Global.log_level": "error",
            "Global.use_cls": False,  # screen text is upright
            "Det.limit_type": "max",
            "Det.limit_side_len": 1344,
        }
    )


def detect_lines(image: np.ndarray) -> list[Box]:
    """Boxes (crop pixels) of the text lines in a BGR image."""
    if image.size == 0 or min(image.shape[:2]) < 8:
        return []
    with _LOCK:
        found = _engine()(image, use_det=True, use_cls=False, use_rec=False)
    boxes = getattr(found, "boxes", None)
    if boxes is None:
        return []
    height, width = image.shape[:2]
    lines = []
    for quad in boxes:
        xs, ys = [float(p[0]) for p in quad], [float(p[1]) for p in quad]
        box = (max(0, int(min(xs))), max(0, int(min(ys))), min(width, int(max(xs)) + 1), min(height, int(max(ys)) + 1))
        if box[2] - box[0] >= 3 and box[3] - box[1] >= 3:
            lines.append(box)
    return lines


def recognise(image: np.ndarray) -> tuple[str, float]:
    """The text of one line image, and the recogniser's confidence."""
    with _LOCK:
        found = _engine()(image, use_det=False, use_cls=False, use_rec=True)
    texts = getattr(found, "txts", None)
    if not texts:
        return "", 0.0
    return " ".join(str(texts[0]).split()), float(found.scores[0])


def read_image(
    image: np.ndarray, offset: tuple[int, int] = (0, 0), min_score: float = 0.5, focus: Box | None = None
) -> list[TextBox]:
    """The text items of a BGR crop whose top-left corner is at `offset` in the frame.

    Lines are detected only around `focus` (frame pixels; None: everywhere); a line
    that runs out of that area is followed along its row, so it is read whole.
    """
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.size else image
    height, width = grey.shape[:2]
    x0, y0, x1, y1 = (0, 0, width, height)
    if focus is not None:
        fx0, fy0, fx1, fy1 = focus
        x0, y0 = max(0, fx0 - offset[0] - _MARGIN), max(0, fy0 - offset[1] - _MARGIN)
        x1, y1 = min(width, fx1 - offset[0] + _MARGIN), min(height, fy1 - offset[1] + _MARGIN)
        if x1 - x0 < 8 or y1 - y0 < 8:
            return []
    items = []
    for lx0, ly0, lx1, ly1 in detect_lines(image[y0:y1, x0:x1]):
        top, bottom = ly0 + y0, ly1 + y0
        row = grey[top:bottom]
        left = _follow(row, lx0 + x0, -1) if lx0 <= 1 and x0 > 0 else lx0 + x0
        right = _follow(row, lx1 + x0, 1) if lx1 >= x1 - x0 - 1 and x1 < width else lx1 + x0
        for a, b in split_items(row[:, left:right]):
            start, end = max(0, left + a - _PAD), min(width, left + b + _PAD)
            text, score = recognise(image[top:bottom, start:end])
            if text and score >= min_score:
                box = (left + a + offset[0], top + offset[1], left + b + offset[0], bottom + offset[1])
                items.append(TextBox(text, box, score, _contrast(row[:, left + a : left + b])))
    items.sort(key=lambda t: (t.box[1], t.box[0]))
    return items


def _follow(row: np.ndarray, edge: int, step: int) -> int:
    """How far a line's ink continues from column `edge` in direction `step`, bridging gaps under half its height."""
    height, width = row.shape
    background = float(np.median(np.concatenate([row[0], row[-1]])))
    inked = (np.abs(row.astype(np.int16) - background) > _INK).any(axis=0)
    gap_limit = max(2, int(0.5 * height))
    column, last_ink, gap = edge, edge, 0
    while 0 <= column < width and gap <= gap_limit:
        if inked[column]:
            last_ink, gap = column, 0
        else:
            gap += 1
        column += step
    return last_ink + 1 if step > 0 else last_ink


def split_items(line: np.ndarray) -> list[tuple[int, int]]:
    """(left, right) column spans of the items in a grey line image, cut at gaps wider than half its height."""
    height, width = line.shape
    if height == 0 or width == 0:
        return []
    border = np.concatenate([line[0], line[-1], line[:, 0], line[:, -1]])
    background = float(np.median(border))
    inked = (np.abs(line.astype(np.int16) - background) > _INK).any(axis=0)
    columns = np.nonzero(inked)[0]
    if len(columns) == 0:
        return [(0, width)]
    spans: list[tuple[int, int]] = []
    start = previous = int(columns[0])
    for column in columns[1:]:
        column = int(column)
        if column - previous - 1 > 0.5 * height:
            spans.append((start, previous + 1))
            start = column
        previous = column
    spans.append((start, previous + 1))
    return spans


def _contrast(patch: np.ndarray) -> float:
    if patch.size == 0:
        return 0.0
    low, high = np.percentile(patch, (3, 97))
    return float(high - low)


class TextReader:
    """OCR of kept pictures, each read once, with a count of the crops read (for the timing report)."""

    def __init__(self, min_score: float) -> None:
        self.min_score = min_score
        self.crops_read = 0
        self._cache: dict[tuple[bytes, Box | None], list[TextBox]] = {}
        self._marks: dict[tuple[bytes, Box], str] = {}

    def read_picture(self, key: bytes, image: Callable[[], np.ndarray], box: Box, focus: Box | None) -> list[TextBox]:
        """The text items of a crop whose top-left corner is at `box`'s in the frame; `key` identifies it."""
        if (key, focus) not in self._cache:
            self.crops_read += 1
            self._cache[(key, focus)] = read_image(image(), (box[0], box[1]), self.min_score, focus)
        return self._cache[(key, focus)]

    def read_mark(self, key: bytes, crop: np.ndarray, mark: Box) -> str:
        """The text of a small crop (the area `mark` of the picture `key`), read as one item."""
        if (key, mark) not in self._marks:
            text, score = recognise(np.pad(crop, ((_PAD, _PAD), (_PAD, _PAD), (0, 0)), mode="edge"))
            self._marks[(key, mark)] = text if score >= _MARK_SCORE else ""
        return self._marks[(key, mark)]
