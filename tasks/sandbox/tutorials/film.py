"""The tutorial's film: the engine's `Film` with the browser's top bar above the page and a drawn drop-down list.

Headless screenshots hold only the page, so the bar (tab title, address field) is drawn
above each one, and an open `<select>` list, which Chromium draws in a popup that page
screenshots never contain, is drawn over it with the row under the pointer highlighted.
"""

from __future__ import annotations

import numpy as np

from tasks.recording.encoder import VideoEncoder
from tasks.recording.film import Film, Point
from tasks.recording.style import VideoStyle
from tasks.sandbox.tutorials import chrome
from tasks.sandbox.tutorials.dropdown import OpenList


class BrowserFilm(Film):
    def __init__(self, encoder: VideoEncoder, style: VideoStyle, cursor: Point):
        super().__init__(encoder, style.capture_fps, style.width, style.height, style.pointer, style.click_effect,
                         cursor)  # fmt: skip
        self._page = np.full((style.page_height, style.width, 3), 255, np.uint8)
        self._bar = chrome.ChromeState()
        self._list: OpenList | None = None

    @property
    def bar(self) -> chrome.ChromeState:
        return self._bar

    def show_bar(self, state: chrome.ChromeState) -> None:
        if state != self._bar:
            self._bar = state
            self._base = None

    def show_list(self, open_list: OpenList | None) -> None:
        self._list = open_list
        self._last = None

    def _compose_base(self) -> np.ndarray:
        return np.vstack([chrome.render(self._bar, self.width), self._page])

    def _overlay_at(self, point: Point) -> int | None:
        return self._list.row_at(point) if self._list else None

    def _draw_overlay(self, frame: np.ndarray, highlighted: int | None) -> None:
        if self._list is not None:
            self._list.draw(frame, highlighted)
