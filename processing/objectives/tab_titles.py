"""The browser tab title shown in a frame, read with OCR from the top strip, cached per strip.

Screen recordings of a browser show the tab strip at the very top: its first tab's
title names the page ("One Stop Market", "Shopping Cart"). Only that thin strip is
read (a fraction of a second on a small CPU, where a whole frame takes many
seconds). Results are cached by the strip's pixels, in memory and in a JSON file
beside the video's keyframes, so identical strips and re-runs cost nothing.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from pathlib import Path

import cv2
import numpy as np

from processing.artifacts import write_json_atomic

STRIP_HEIGHT = 0.05  # share of the frame height holding the tab strip (40 px at 800)
STRIP_WIDTH = 0.2  # the first tab (256 px at 1280): a third of the OCR time of half the width
CACHE_NAME = "tab_titles.json"
# The close button (a lone x or X only after a space), the new-tab sign and the dots of a cut title.
_TRAILING = re.compile(r"(\s+[xX+]|\s*[×✕][xX]?|\s*[.…]+)+\s*$")


def clean_title(text: str) -> str:
    """A tab's text without its close button, new-tab sign and the ellipsis of a cut title."""
    return _TRAILING.sub("", " ".join(text.split())).strip(" ,-|")


def tab_strip(frame: np.ndarray) -> np.ndarray:
    height, width = frame.shape[:2]
    return frame[: max(8, round(height * STRIP_HEIGHT)), : max(8, round(width * STRIP_WIDTH))]


def title_from_strip(strip: np.ndarray, min_score: float) -> str:
    """The first readable title in a tab strip (BGR), or ""."""
    from processing.ocr_labeler.ocr import read_image  # the labeler's engine: one OCR model per process

    boxes = sorted(read_image(strip, min_score=min_score), key=lambda box: box.box[0])
    for box in boxes:
        title = clean_title(box.text)
        if sum(ch.isalpha() for ch in title) >= 3:
            return title
    return ""


class TabTitleReader:
    """Tab titles of one video's keyframes; `save()` writes what was read to the cache file."""

    def __init__(self, cache_file: Path, min_score: float) -> None:
        self.cache_file = Path(cache_file)
        self.min_score = min_score
        self.strips_read = 0
        self._lock = threading.Lock()
        try:
            loaded = json.loads(self.cache_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            loaded = {}
        self._cache: dict[str, str] = loaded if isinstance(loaded, dict) else {}
        self._by_path: dict[Path, str] = {}

    def title(self, frame_path: Path) -> str:
        frame_path = Path(frame_path)
        if frame_path in self._by_path:
            return self._by_path[frame_path]
        frame = cv2.imread(str(frame_path))
        if frame is None:
            return ""
        strip = np.ascontiguousarray(tab_strip(frame))
        key = hashlib.sha1(strip.tobytes() + f"{strip.shape}/{self.min_score}".encode()).hexdigest()
        with self._lock:
            if key not in self._cache:
                self._cache[key] = title_from_strip(strip, self.min_score)
                self.strips_read += 1
            title = self._cache[key]
        self._by_path[frame_path] = title
        return title

    def save(self) -> None:
        if self.strips_read:
            write_json_atomic(self.cache_file, self._cache)
