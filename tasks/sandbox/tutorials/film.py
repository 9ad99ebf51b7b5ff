"""The video being made, on a virtual clock.

Nothing is recorded in real time. The film holds what the screen shows now (the
browser bar, the last page screenshot, an open drop-down list), where the pointer
is, and any click highlights; `hold` and `move` advance the clock and write one
frame per tick of the constant frame rate, composing the pointer onto each.
Changes (a new screenshot, a new bar) take effect at the current time, so an
action that took seconds of real browser time can take any time on screen.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from tasks.sandbox.tutorials import chrome
from tasks.sandbox.tutorials.cursor import RING_SECONDS, Point, draw_cursor, draw_ring
from tasks.sandbox.tutorials.dropdown import OpenList
from tasks.sandbox.tutorials.encoder import VideoEncoder


class Film:
    def __init__(self, encoder: VideoEncoder, fps: int, width: int, page_height: int, cursor: Point):
        self.encoder = encoder
        self.fps = fps
        self.width = width
        self.height = chrome.HEIGHT + page_height
        self.t = 0.0  # the virtual clock, in seconds of video
        self.frames = 0
        self.cursor: Point = cursor
        self._page = np.full((page_height, width, 3), 255, np.uint8)
        self._bar = chrome.ChromeState()
        self._list: OpenList | None = None
        self._rings: list[tuple[float, Point]] = []
        self._base: np.ndarray | None = None  # bar + page, rebuilt after a change
        self._last: tuple[object, bytes] | None = None  # (what a frame showed, its bytes)

    # ---- what the screen shows ----

    @property
    def bar(self) -> chrome.ChromeState:
        return self._bar

    def show_page(self, image: np.ndarray) -> None:
        self._page = image
        self._base = None

    def show_bar(self, state: chrome.ChromeState) -> None:
        if state != self._bar:
            self._bar = state
            self._base = None

    def show_list(self, open_list: OpenList | None) -> None:
        self._list = open_list
        self._last = None

    def click(self) -> None:
        """A click highlight at the pointer, starting now."""
        self._rings.append((self.t, self.cursor))

    # ---- time ----

    def hold(self, seconds: float) -> None:
        """Let `seconds` pass with the pointer resting."""
        resting = self.cursor
        self._advance(self.t + max(seconds, 0.0), lambda _t: resting)

    def move(self, end: Point, seconds: float, path: Callable[[float], Point]) -> None:
        """Move the pointer along `path` (time fraction -> point), arriving at `end` after `seconds`."""
        start_t = self.t
        seconds = max(seconds, 1e-6)
        self._advance(start_t + seconds, lambda t: path((t - start_t) / seconds))
        self.cursor = end

    # ---- frames ----

    def _advance(self, t_end: float, position: Callable[[float], Point]) -> None:
        while self.frames / self.fps < t_end - 1e-9:
            frame_t = self.frames / self.fps
            self._write(frame_t, position(frame_t))
            self.frames += 1
        self.t = t_end

    def _write(self, frame_t: float, point: Point) -> None:
        rings = [(center, frame_t - start) for start, center in self._rings if 0 <= frame_t - start < RING_SECONDS]
        self._rings = [ring for ring in self._rings if frame_t - ring[0] < RING_SECONDS]
        highlighted = self._list.row_at(point) if self._list else None
        base = self._base_frame()  # a rebuilt base forgets the last frame
        look = ((int(round(point[0])), int(round(point[1]))), highlighted)
        if not rings and self._last is not None and self._last[0] == look:
            self.encoder.write(self._last[1])  # nothing moved: the same frame again
            return
        frame = base.copy()
        if self._list is not None:
            self._list.draw(frame, highlighted)
        for center, age in rings:
            draw_ring(frame, center, age)
        draw_cursor(frame, point)
        data = cv2.cvtColor(frame, cv2.COLOR_RGB2YUV_I420).tobytes()
        self._last = (look, data) if not rings else None
        self.encoder.write(data)

    def _base_frame(self) -> np.ndarray:
        if self._base is None:
            self._base = np.vstack([chrome.render(self._bar, self.width), self._page])
            self._last = None
        return self._base
