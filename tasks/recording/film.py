"""The video being made, on a virtual clock: what every recording style writes its frames through.

Nothing is filmed in real time. The film holds what the screen shows now (the last page
screenshot, and what a subclass draws around or over it: the sandbox's browser bar and
open drop-down list), where the pointer is and its shape, and the click effects still
showing. Two ways to make frames:
- composed (the sandbox tutorials, the held-out style): `hold` and `move` advance the
  clock and write one frame per tick of the constant frame rate, composing the pointer
  onto each, so an action that took seconds of browser time can take any time on screen;
  a frame that would look like the last one is written again without composing it;
- captured (the untouched and sealed styles): `picture` writes one frame of what was just
  shown and moves the clock to the next picture.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tasks.recording.effects import ClickEffect
from tasks.recording.encoder import VideoEncoder
from tasks.recording.pointer import PointerLook

Point = tuple[float, float]


class Film:
    def __init__(
        self, encoder: VideoEncoder, fps: int, width: int, height: int, pointer: PointerLook,
        effect: ClickEffect | None, cursor: Point,
    ):  # fmt: skip
        self.encoder = encoder
        self.fps = fps  # pictures per second of video (each written `encoder.repeat` times)
        self.width = width
        self.height = height
        self.pointer = pointer
        self.effect = effect
        self.shape = "arrow"  # the pointer's shape, as the page's CSS cursor asks
        self.t = 0.0  # the virtual clock, in seconds of video
        self.frames = 0
        self.cursor: Point = cursor
        self._page = np.full((height, width, 3), 255, np.uint8)
        self._clicks: list[tuple[float, Point]] = []
        self._base: np.ndarray | None = None  # what the screen shows under the pointer, rebuilt after a change
        self._last: tuple[object, bytes] | None = None  # (what a frame showed, its bytes)

    # ---- what the screen shows ----

    def show_page(self, image: np.ndarray) -> None:
        self._page = image
        self._base = None

    def click(self) -> None:
        """A click effect at the pointer, starting now."""
        if self.effect is not None:
            self._clicks.append((self.t, self.cursor))

    # ---- time ----

    def hold(self, seconds: float) -> None:
        """Let `seconds` pass with the pointer resting."""
        self.hold_until(self.t + max(seconds, 0.0))

    def hold_until(self, t_end: float) -> None:
        resting = self.cursor
        self._advance(t_end, lambda _t: resting)

    def move(self, end: Point, seconds: float, path: Callable[[float], Point]) -> None:
        """Move the pointer along `path` (time fraction -> point), arriving at `end` after `seconds`."""
        start_t = self.t
        seconds = max(seconds, 1e-6)
        self._advance(start_t + seconds, lambda t: path((t - start_t) / seconds))
        self.cursor = end

    def picture(self, point: Point | None = None) -> None:
        """One frame now with the pointer at `point` (default: where it is); the clock moves to the next frame."""
        self._write(self.frames / self.fps, self.cursor if point is None else point)
        self.frames += 1
        self.t = self.frames / self.fps

    # ---- frames ----

    def _advance(self, t_end: float, position: Callable[[float], Point]) -> None:
        while self.frames / self.fps < t_end - 1e-9:
            frame_t = self.frames / self.fps
            self._write(frame_t, position(frame_t))
            self.frames += 1
        self.t = t_end

    def _write(self, frame_t: float, point: Point) -> None:
        effects = []
        if self._clicks:
            seconds = self.effect.seconds
            effects = [(center, frame_t - start) for start, center in self._clicks if 0 <= frame_t - start < seconds]
            self._clicks = [click for click in self._clicks if frame_t - click[0] < seconds]
        overlay = self._overlay_at(point)
        base = self._base_frame()  # a rebuilt base forgets the last frame
        look = ((int(round(point[0])), int(round(point[1]))), self.shape, overlay)
        if not effects and self._last is not None and self._last[0] == look:
            self.encoder.write(self._last[1])  # nothing moved: the same frame again
            return
        frame = base.copy()
        self._draw_overlay(frame, overlay)
        for center, age in effects:
            self.effect.draw(frame, center, age)
        self.pointer.paste(frame, point[0], point[1], self.shape)
        data = self.encoder.encode(frame)
        self._last = (look, data) if not effects else None
        self.encoder.write(data)

    def _base_frame(self) -> np.ndarray:
        if self._base is None:
            self._base = self._compose_base()
            self._last = None
        return self._base

    # ---- what a subclass adds ----

    def _compose_base(self) -> np.ndarray:
        """The screen without pointer, overlay and effects."""
        return self._page

    def _overlay_at(self, point: Point) -> object:
        """What an overlay drawn over the page shows with the pointer at `point` (part of a frame's look)."""
        return None

    def _draw_overlay(self, frame: np.ndarray, shown: object) -> None:
        pass
