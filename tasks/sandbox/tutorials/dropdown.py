"""The open list of a `<select>`, drawn by the recorder.

Chromium draws a drop-down's open list in a separate popup window that page
screenshots never contain, so a recording would show a click on the box and then
a changed value out of nowhere. This draws the list the way a desktop browser
shows it: under the box, one row per option, the row under the pointer
highlighted.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw

from tasks.sandbox.tutorials.chrome import ui_font

Box = tuple[float, float, float, float]
ROW_HEIGHT = 24
_FONT_SIZE = 14
_PAD_X = 10
_BORDER = (118, 118, 118)
_HOVER_BG = (30, 110, 220)


@dataclass(frozen=True)
class OpenList:
    box: tuple[int, int, int, int]  # x, y, width, height in frame pixels
    options: tuple[str, ...]
    selected: int

    def row_box(self, index: int) -> Box:
        x, y, w, _ = self.box
        return (x + 1, y + 1 + index * ROW_HEIGHT, w - 2, ROW_HEIGHT)

    def row_at(self, point: tuple[float, float]) -> int | None:
        x, y, w, h = self.box
        px, py = point
        if not (x <= px < x + w and y <= py < y + h):
            return None
        index = int((py - y - 1) // ROW_HEIGHT)
        return index if 0 <= index < len(self.options) else None

    def draw(self, frame: np.ndarray, highlighted: int | None) -> None:
        patch = _render(self.options, self.box[2], self.box[3], self.selected if highlighted is None else highlighted)
        x, y, w, h = self.box
        frame[y : y + h, x : x + w] = patch


def open_list(select_box: Box, options: list[str], selected: int, frame_size: tuple[int, int], top: int) -> OpenList:
    """Place the list under the select box (above it when there is no room below); `top` is the page's top edge."""
    font = ui_font(_FONT_SIZE)
    frame_w, frame_h = frame_size
    sx, sy, sw, sh = select_box
    width = int(max(sw, max((font.getlength(text) for text in options), default=0) + 2 * _PAD_X + 2))
    height = len(options) * ROW_HEIGHT + 2
    x = int(min(max(sx, 0), frame_w - width))
    below = int(sy + sh)
    y = below if below + height <= frame_h else max(int(sy) - height, top)
    return OpenList((x, y, width, height), tuple(options), selected)


@lru_cache(maxsize=64)
def _render(options: tuple[str, ...], width: int, height: int, highlighted: int) -> np.ndarray:
    image = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    font = ui_font(_FONT_SIZE)
    for index, text in enumerate(options):
        top = 1 + index * ROW_HEIGHT
        colour = (20, 20, 20)
        if index == highlighted:
            draw.rectangle((1, top, width - 2, top + ROW_HEIGHT - 1), fill=_HOVER_BG)
            colour = (255, 255, 255)
        draw.text((_PAD_X, top + ROW_HEIGHT // 2), text, font=font, fill=colour, anchor="lm")
    draw.rectangle((0, 0, width - 1, height - 1), outline=_BORDER)
    return np.asarray(image).copy()
