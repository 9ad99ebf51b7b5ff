"""One labeler recording in progress: the page, the film, the hand's chance, the ground truth logged.

`Take` is what every labeler style's choreography works with; `ClockTake` is the untouched
and sealed styles' way of filming: each picture moves the page's own clock (Playwright's
fake timers) forward by exactly one capture interval before the screenshot, so timers,
loading notes and results land on the same picture however loaded the machine is. The
held-out style watches the page in real time instead (its own `LiveTake`).
"""

from __future__ import annotations

import math
import random
import time
from typing import Protocol

import cv2
import numpy as np

from foundation.errors import UserError
from tasks.recording.film import Film
from tasks.recording.motion import Reach
from tasks.sandbox.tutorials.ground_truth import ActionRecord


class TakeStyle(Protocol):
    """What a take reads of its labeler style (recorder.LabelerStyle fits by shape; the recorder imports this
    module, so it is not named here)."""

    name: str
    scroll_to_targets: bool
    tremor: float
    reach: Reach | None


_ROLES = {"click": "button", "type": "textbox", "select": "combobox"}

# Choosing a native menu's option the way its own list does: the value changes, then the page hears of it.
PICK_OPTION = """([el, index]) => { el.selectedIndex = index; el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true})); }"""
CLOSE_MENU_LIST = "() => document.getElementById('__menu')?.remove()"


class Take:
    def __init__(self, style: TakeStyle, page, film: Film, rng: random.Random) -> None:
        self.style, self.page, self.film, self.rng = style, page, film, rng
        self.actions: list[ActionRecord] = []

    @property
    def x(self) -> float:
        return self.film.cursor[0]

    @x.setter
    def x(self, value: float) -> None:
        self.film.cursor = (value, self.film.cursor[1])

    @property
    def y(self) -> float:
        return self.film.cursor[1]

    @y.setter
    def y(self, value: float) -> None:
        self.film.cursor = (self.film.cursor[0], value)

    @property
    def t(self) -> float:
        """Video time now."""
        return self.film.t

    def hold(self, seconds: float) -> None:
        raise NotImplementedError

    def box(self, selector: str) -> tuple[float, float, float, float]:
        """Where the element is; scrolled into view first where the style does that, else it must be in view."""
        element = self.page.locator(selector).first
        if element.count() == 0:
            raise UserError(f"{self.style.name} script: {selector!r} is not on the page")
        if self.style.scroll_to_targets:
            element.scroll_into_view_if_needed()
            self.shown_changed()
        found = element.bounding_box()
        if not found:
            raise UserError(f"{self.style.name} script: {selector!r} is not shown")
        if not self.style.scroll_to_targets and (found["y"] < 0 or found["y"] + found["height"] > self.film.height):
            raise UserError(f"{self.style.name} script: {selector!r} is not in view (the script must scroll to it)")
        return found["x"], found["y"], found["width"], found["height"]

    def shown_changed(self) -> None:
        """The page may look different now (a take that films only on its own clock needs not know)."""

    def log(self, kind: str, target: str, text: str, start_s: float, end_s: float, step: int, box=None, **extra):
        self.actions.append(ActionRecord(kind, target, _ROLES.get(kind, ""), text, round(start_s, 3), round(end_s, 3),
                                         step, cursor=[round(self.x, 1), round(self.y, 1)],
                                         box=list(box) if box else None, extra=extra))  # fmt: skip


class ClockTake(Take):
    """Films on the page's own clock: one picture per capture interval of page time."""

    def __init__(self, style: TakeStyle, page, film: Film, rng: random.Random) -> None:
        super().__init__(style, page, film, rng)
        self._clock_ms = 0  # page time run so far, kept exact so that captures never drift from their rate
        page.mouse.move(self.x, self.y)

    def capture(self, x: float | None = None, y: float | None = None) -> None:
        """One interval of page time, then one picture with the pointer drawn at (x, y) (default: where it is)."""
        target_ms = round((self.film.frames + 1) * (1000 / self.film.fps))
        self.page.clock.run_for(target_ms - round(self._clock_ms))
        self._clock_ms = target_ms
        png = self.page.screenshot(type="png", animations="disabled", caret="initial")
        self.film.show_page(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR))
        self.film.picture(None if x is None else (x, y))

    def hold(self, seconds: float) -> None:
        """Rest; where the style has a tremor, the hand moves a pixel now and then (drawn only: the page's mouse
        stays put)."""
        tremor = self.style.tremor
        for _ in range(max(1, round(seconds * self.film.fps))):
            if tremor and self.rng.random() < tremor:
                self.capture(self.x + self.rng.choice((-1, 1)), self.y + self.rng.choice((-1, 0, 1)))
            else:
                self.capture()

    def glide(self, x: float, y: float) -> None:
        """A reach as the style's `reach` says; the real mouse follows, so hover styles show on the way."""
        distance = math.hypot(x - self.x, y - self.y)
        if distance < 1:
            return
        reach = self.style.reach
        steps, bend = reach.plan(distance, self.rng, self.film.fps)
        for point in reach.path(self.film.cursor, (x, y), steps, bend):
            self.film.cursor = point
            self.page.mouse.move(*point)
            self.capture()


def settle_scroll(page) -> None:
    """Wait (real time) until a wheel notch has finished moving the page, so the capture shows where it landed."""
    last = None
    for _ in range(40):
        now = page.evaluate("window.scrollY")
        if now == last:
            return
        last = now
        time.sleep(0.03)
