"""Synthetic screen recordings with a known list of real page changes, for tests and the benchmark.

A recording is a script of steps (idle, move or jiggle the cursor, type into the page's
search field, switch page, scroll) rendered at 30 fps and encoded with libx264, so it
looks to a decoder like a tutorial captured from a browser: a fixed browser bar, a
page of text lines, a search field, product tiles, a mouse pointer and a blinking caret.
Every step that changes the page records a `Change`, and the state of every frame
(page, scroll, field text, pointer) is kept, so tests can check detection both ways:
real changes kept, pointer-only movement not.
"""

from __future__ import annotations

import random
import subprocess
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

VERSION = 1  # bump when the rendering changes, so cached recordings are made again
WIDTH, HEIGHT, FPS = 1280, 720, 30
BAR_HEIGHT = 72  # browser tab and address bar, fixed while the page scrolls
PAGE_HEIGHT = 2000  # page canvas, taller than the viewport so it can scroll
FIELD_BOX = (180, 150, 620, 186)  # search field (x0, y0, x1, y1) in page coordinates
BUTTON_BOX = (640, 150, 740, 186)
FONT = cv2.FONT_HERSHEY_SIMPLEX
TEXT_SCALE = 0.5  # about 14 px tall: ordinary web body text at 720p
CARET_PERIOD_S = 1.06  # on 0.53 s, off 0.53 s, like common desktop defaults
WORDS = (
    "order shipping account settings profile product review price cart checkout address "
    "payment history wishlist compare rating seller description category filter results "
    "forum post comment reply subscribe submit title body image link vote sort newest"
).split()
POINTER = np.array([(0, 0), (0, 17), (4, 13), (7, 19), (10, 18), (7, 12), (12, 12)], np.int32)


@dataclass(frozen=True)
class Change:
    """A moment the page itself changed (not just the pointer)."""

    time_s: float
    kind: str  # "page", "typed", "scroll"
    detail: str = ""


@dataclass(frozen=True)
class FrameState:
    """What one frame shows: the ground truth tests compare detections with."""

    page: int
    scroll: int
    pointer: tuple[int, int]
    text: str  # in the page's search field
    focused: bool

    @property
    def content(self) -> tuple[int, int, str]:
        """Everything but the pointer and the caret."""
        return self.page, self.scroll, self.text


@dataclass
class Recording:
    path: Path
    duration_s: float
    changes: list[Change]
    frames: list[FrameState]
    width: int = WIDTH
    height: int = HEIGHT
    fps: int = FPS

    def state_at(self, time_s: float) -> FrameState:
        """The state shown at `time_s` (the last frame that started at or before it)."""
        return self.frames[min(int(time_s * self.fps + 1e-6), len(self.frames) - 1)]


@dataclass
class _State:
    page: int = 0
    scroll: float = 0.0
    pointer: tuple[float, float] = (900.0, 420.0)
    texts: dict[int, str] = field(default_factory=dict)
    focused: bool = False  # a focused field shows a blinking caret


class Script:
    """Steps of a recording; each step appends one state per frame (30 per second)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.state = _State()
        self.frames: list[FrameState] = []
        self.changes: list[Change] = []

    @property
    def now(self) -> float:
        return len(self.frames) / FPS

    def _emit(self) -> None:
        s = self.state
        pointer = (int(round(s.pointer[0])), int(round(s.pointer[1])))
        self.frames.append(FrameState(s.page, int(round(s.scroll)), pointer, s.texts.get(s.page, ""), s.focused))

    def _frames_for(self, seconds: float) -> int:
        return max(1, int(round(seconds * FPS)))

    def idle(self, seconds: float) -> Script:
        start = self.now
        for _ in range(self._frames_for(seconds)):
            self._emit()
        return self

    def move(self, x: float, y: float, seconds: float = 1.0) -> Script:
        """Glide the pointer to (x, y) in viewport coordinates with an ease-in-out curve."""
        start, (x0, y0) = self.now, self.state.pointer
        n = self._frames_for(seconds)
        for i in range(1, n + 1):
            u = i / n
            ease = u * u * (3 - 2 * u)
            self.state.pointer = (x0 + (x - x0) * ease, y0 + (y - y0) * ease)
            self._emit()
        return self

    def jiggle(self, seconds: float, radius: float = 25.0) -> Script:
        """Small restless pointer movements around where it is, like a hand resting on the mouse."""
        start, (cx, cy) = self.now, self.state.pointer
        for _ in range(self._frames_for(seconds)):
            x, y = self.state.pointer
            x = min(max(x + self.rng.uniform(-4, 4), cx - radius), cx + radius)
            y = min(max(y + self.rng.uniform(-4, 4), cy - radius), cy + radius)
            self.state.pointer = (x, y)
            self._emit()
        return self

    def click_field(self) -> Script:
        """Move to the search field and focus it (the caret appears: a real, if tiny, change)."""
        if self.state.scroll > 0:
            self.scroll(-self.state.scroll)
        x0, y0, x1, y1 = FIELD_BOX
        self.move(x0 + 60 + self.rng.uniform(0, 200), y0 + (y1 - y0) / 2 - self.state.scroll + BAR_HEIGHT, 0.8)
        self.state.focused = True
        self._emit()
        return self

    def type(self, text: str, chars_per_s: float = 6.0) -> Script:
        """Type into the focused field one character at a time; each character is a change."""
        self.state.focused = True
        for char in text:
            self.state.texts[self.state.page] = self.state.texts.get(self.state.page, "") + char
            self.changes.append(Change(self.now, "typed", char))
            for _ in range(self._frames_for(1.0 / chars_per_s)):
                self._emit()
        return self

    def page(self, number: int) -> Script:
        """Click a link: the pointer stays, the page is replaced at once."""
        self.state.page, self.state.scroll, self.state.focused = number, 0.0, False
        self.changes.append(Change(self.now, "page", str(number)))
        self._emit()
        return self

    def scroll(self, pixels: float, seconds: float = 0.6) -> Script:
        start = self.state.scroll
        target = min(max(start + pixels, 0.0), PAGE_HEIGHT - (HEIGHT - BAR_HEIGHT))
        if abs(target - start) < 1:
            return self.idle(seconds)  # already at the end of the page: nothing moves
        self.changes.append(Change(self.now, "scroll", f"{target - start:+.0f}"))
        n = self._frames_for(seconds)
        for i in range(1, n + 1):
            u = i / n
            self.state.scroll = start + (target - start) * u * u * (3 - 2 * u)
            self._emit()
        return self

    def recording(self, path: Path) -> Recording:
        """What is known about the video this script renders to `path`."""
        return Recording(path, len(self.frames) / FPS, list(self.changes), list(self.frames))

    def render(self, path: Path, preset: str = "veryfast", crf: int = 23, reuse: bool = False) -> Recording:
        """Encode the frames to an H.264 mp4 at `path` (written to a temporary name first).

        `reuse` keeps an existing file: scripts are deterministic, so callers that cache
        put the generator's VERSION in the file name.
        """
        if reuse and path.is_file():
            return self.recording(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.stem + ".partial" + path.suffix)
        encoder = subprocess.Popen(
            ["ffmpeg", "-nostdin", "-y", "-v", "error", "-f", "rawvideo", "-pix_fmt", "bgr24",
             "-s", f"{WIDTH}x{HEIGHT}", "-r", str(FPS), "-i", "-", "-c:v", "libx264", "-preset", preset,
             "-crf", str(crf), "-pix_fmt", "yuv420p", "-movflags", "+faststart", str(partial)],
            stdin=subprocess.PIPE,
        )  # fmt: skip
        assert encoder.stdin is not None
        try:
            for number, state in enumerate(self.frames):
                caret = state.focused and (number / FPS) % CARET_PERIOD_S < CARET_PERIOD_S / 2
                frame = _viewport(state.page, state.scroll, state.text, caret)
                _draw_pointer(frame, state.pointer)
                encoder.stdin.write(frame.tobytes())
        finally:
            encoder.stdin.close()
            if encoder.wait() != 0:
                raise RuntimeError(f"ffmpeg could not encode {path}")
        partial.replace(path)
        return self.recording(path)


@lru_cache(maxsize=8)
def _page_canvas(page: int, text: str, caret: bool) -> np.ndarray:
    """The whole page (PAGE_HEIGHT tall) for a page number, field text and caret state."""
    rng = random.Random(1000 + page)
    canvas = np.full((PAGE_HEIGHT, WIDTH, 3), 255, np.uint8)
    accent = [(200, 120, 40), (60, 140, 60), (40, 80, 200), (140, 60, 150)][page % 4]
    cv2.rectangle(canvas, (0, 0), (WIDTH, 56), accent, -1)
    cv2.putText(canvas, f"Site {page}  |  Home  Catalog  Forums  Help", (24, 36), FONT, 0.7, (255, 255, 255), 1,
                cv2.LINE_AA)  # fmt: skip
    cv2.putText(canvas, rng.choice(WORDS).title() + " " + rng.choice(WORDS), (180, 120), FONT, 1.0, (30, 30, 30), 2,
                cv2.LINE_AA)  # fmt: skip
    x0, y0, x1, y1 = FIELD_BOX
    cv2.rectangle(canvas, (x0, y0), (x1, y1), (150, 150, 150), 1)
    cv2.putText(canvas, text, (x0 + 8, y1 - 12), FONT, TEXT_SCALE, (20, 20, 20), 1, cv2.LINE_AA)
    if caret:
        caret_x = x0 + 9 + cv2.getTextSize(text, FONT, TEXT_SCALE, 1)[0][0]
        cv2.line(canvas, (caret_x, y0 + 8), (caret_x, y1 - 8), (20, 20, 20), 1)
    bx0, by0, bx1, by1 = BUTTON_BOX
    cv2.rectangle(canvas, (bx0, by0), (bx1, by1), accent, -1)
    cv2.putText(canvas, "Search", (bx0 + 18, by1 - 12), FONT, TEXT_SCALE, (255, 255, 255), 1, cv2.LINE_AA)
    # Left column of links, right column of paragraphs and product tiles.
    for i in range(22):
        cv2.putText(canvas, rng.choice(WORDS).title(), (24, 240 + i * 30), FONT, TEXT_SCALE, (160, 90, 20), 1,
                    cv2.LINE_AA)  # fmt: skip
    y = 240
    while y < PAGE_HEIGHT - 40:
        if rng.random() < 0.25:
            for j in range(4):
                tone = tuple(int(c) for c in rng.choices(range(60, 230), k=3))
                cv2.rectangle(canvas, (180 + j * 250, y), (400 + j * 250, y + 140), tone, -1)
                cv2.putText(canvas, f"{rng.choice(WORDS)} ${rng.randint(5, 300)}", (180 + j * 250, y + 165), FONT,
                            TEXT_SCALE, (40, 40, 40), 1, cv2.LINE_AA)  # fmt: skip
            y += 200
        else:
            line = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 14)))
            cv2.putText(canvas, line, (180, y), FONT, TEXT_SCALE, (50, 50, 50), 1, cv2.LINE_AA)
            y += 26
    return canvas


@lru_cache(maxsize=4)
def _browser_bar(page: int) -> np.ndarray:
    bar = np.full((BAR_HEIGHT, WIDTH, 3), 235, np.uint8)
    cv2.rectangle(bar, (8, 6), (260, 32), (255, 255, 255), -1)
    cv2.putText(bar, f"Site {page} - Browser", (18, 25), FONT, 0.45, (40, 40, 40), 1, cv2.LINE_AA)
    cv2.rectangle(bar, (90, 40), (WIDTH - 20, 66), (255, 255, 255), -1)
    cv2.putText(bar, f"http://127.0.0.1:7770/site-{page}/index", (100, 59), FONT, 0.45, (40, 40, 40), 1, cv2.LINE_AA)
    return bar


def _viewport(page: int, scroll: int, text: str, caret: bool) -> np.ndarray:
    frame = np.empty((HEIGHT, WIDTH, 3), np.uint8)
    frame[:BAR_HEIGHT] = _browser_bar(page)
    frame[BAR_HEIGHT:] = _page_canvas(page, text, caret)[scroll : scroll + HEIGHT - BAR_HEIGHT]
    return frame


def _draw_pointer(frame: np.ndarray, at: tuple[int, int]) -> None:
    shape = POINTER + np.array(at, np.int32)
    cv2.fillPoly(frame, [shape], (0, 0, 0), cv2.LINE_AA)
    cv2.polylines(frame, [shape], True, (255, 255, 255), 1, cv2.LINE_AA)


def tutorial_clip(path: Path, seed: int = 0) -> Recording:
    """About 22 s: idle, type a query, open a result, jiggle, scroll, wander, open another page, type."""
    return tutorial_script(seed).render(path, preset="ultrafast")


def tutorial_script(seed: int = 0) -> Script:
    s = Script(seed)
    s.idle(2.0).click_field().type("wireless mouse").idle(1.5)
    s.move(BUTTON_BOX[0] + 40, BUTTON_BOX[1] + 18 + BAR_HEIGHT, 0.8).page(1).idle(2.0)
    s.jiggle(2.5).scroll(320).idle(1.0)
    s.move(300, 300, 1.2).move(1000, 600, 1.5).page(2).idle(2.0)
    s.click_field().type("order 42").idle(2.0)
    return s


def quiet_clip(path: Path, seed: int = 1) -> Recording:
    """About 14 s in which the page never changes: idle, long pointer moves, jiggle."""
    return quiet_script(seed).render(path, preset="ultrafast")


def quiet_script(seed: int = 1) -> Script:
    s = Script(seed)
    s.idle(3.0).move(200, 650, 1.5).jiggle(3.0).move(1150, 120, 1.5).idle(2.0).jiggle(3.0)
    return s


def long_recording(path: Path, minutes: float = 5.0, seed: int = 7) -> Recording:
    """A tutorial-like recording: mostly still, with pointer travel, typing, page changes and scrolls."""
    return long_script(minutes, seed).render(path, preset="veryfast")


def long_script(minutes: float = 5.0, seed: int = 7) -> Script:
    s = Script(seed)
    rng = random.Random(seed)
    page = 0
    while s.now < minutes * 60 - 12:
        s.idle(rng.uniform(2.0, 8.0))
        s.move(rng.uniform(100, 1200), rng.uniform(150, 680), rng.uniform(0.6, 1.6))
        if rng.random() < 0.5:
            s.click_field().type(" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3))), rng.uniform(4, 8))
        if rng.random() < 0.5:
            s.jiggle(rng.uniform(1.0, 4.0))
        if rng.random() < 0.4:
            s.scroll(rng.choice([-1, 1]) * rng.uniform(150, 600), rng.uniform(0.4, 1.0))
        if rng.random() < 0.6:
            page = (page + rng.randint(1, 5)) % 6
            s.move(rng.uniform(100, 1200), rng.uniform(150, 680), rng.uniform(0.5, 1.2)).page(page)
    s.idle(minutes * 60 - s.now)
    return s
