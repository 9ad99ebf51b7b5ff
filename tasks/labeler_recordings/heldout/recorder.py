"""The held-out style: 1280x720, 12 fps H.264 videos with exact ground truth, watched live after each action.

Unlike the other styles (a virtual clock between screenshots), this one lets the page run
in real time after each click or key: it keeps taking screenshots for a moment, each shown
at the video time it was taken, so spinners, toasts and fades appear as a screen recorder
would catch them. Between actions the clock is virtual (pointer moves, pauses). Each script
chooses its pointer theme and click effect (`pointer_art`); the pointer's shape is taken
from the page's CSS cursor under it.

    <cache>/labeler_heldout/<name>.mp4 / .actions.json / .fingerprint
"""

from __future__ import annotations

import math
import random
import time
from pathlib import Path

import cv2
import numpy as np

from foundation.errors import UserError
from settings import Settings
from tasks.labeler_recordings import recorder
from tasks.labeler_recordings.heldout import apps, pointer_art, scripts
from tasks.labeler_recordings.take import Take
from tasks.recording.encoder import Codec
from tasks.recording.film import Film
from tasks.recording.motion import Reach
from tasks.recording.style import VideoStyle
from tasks.sandbox.tutorials.ground_truth import ActionRecord

VIDEO = VideoStyle(
    width=1280, page_height=720, capture_fps=12, pointer=pointer_art.THEMES[0],
    codec=Codec("bgr24", ("-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p")),
)  # fmt: skip
FPS = VIDEO.fps
LIVE_AFTER_S = 1.6  # real time watched after a click or Enter: loading states and toasts happen then
_IS_FIELD = "([x, y]) => { const e = document.elementFromPoint(x, y); return !!e && e.tagName === 'INPUT'; }"
_CURSOR = "([x, y]) => { const e = document.elementFromPoint(x, y); return e ? getComputedStyle(e).cursor : 'auto'; }"


class LiveTake(Take):
    """Films the page as it runs: a screenshot whenever it may have changed, shown from then on."""

    def __init__(self, style: recorder.LabelerStyle, page, film: Film, rng: random.Random) -> None:
        super().__init__(style, page, film, rng)
        self.snap()

    def snap(self) -> None:
        png = self.page.screenshot(type="png")
        self.film.show_page(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR))

    shown_changed = snap

    def hold(self, seconds: float) -> None:
        self.film.hold(seconds)

    def live(self, seconds: float) -> None:
        """Let the page run in real time, showing each screenshot at the video time it was taken."""
        start_real, start_t = time.monotonic(), self.t
        while (elapsed := time.monotonic() - start_real) < seconds:
            self.film.hold_until(start_t + elapsed)
            self.snap()
        self.film.hold_until(start_t + seconds)

    def _update_shape(self) -> None:
        cursor = self.page.evaluate(_CURSOR, [self.x, self.y])
        if cursor == "pointer":
            self.film.shape = "hand"
        elif cursor == "text" or (cursor == "auto" and self.page.evaluate(_IS_FIELD, [self.x, self.y])):
            self.film.shape = "text"
        else:
            self.film.shape = "arrow"

    def move(self, x: float, y: float) -> None:
        """Glide along a slight curve with easing; hover effects come from moving the real mouse too."""
        reach = self.style.reach
        steps, bend = reach.plan(math.hypot(x - self.x, y - self.y), self.rng, self.film.fps)
        for i, point in enumerate(reach.path(self.film.cursor, (x, y), steps, bend), 1):
            self.film.cursor = point
            if i == steps // 2 or i == steps:
                self.page.mouse.move(self.x, self.y)
                self._update_shape()
                self.snap()
            self.hold(1 / FPS)

    def aim(self, box, text_start: bool = False) -> tuple[float, float]:
        x, y, w, h = box
        if text_start:
            return x + min(w * 0.3, 60) + self.rng.uniform(-8, 8), y + h / 2 + self.rng.uniform(-3, 3)
        return x + w / 2 + self.rng.uniform(-w / 5, w / 5), y + h / 2 + self.rng.uniform(-h / 6, h / 6)

    def press_mouse(self) -> None:
        self.film.click()
        self.page.mouse.click(self.x, self.y)


def _play(take: LiveTake, step: tuple, index: int) -> None:
    rng = take.rng
    kind = step[0]
    if kind == "pause":
        take.hold(step[1])
    elif kind == "wander":  # a hand drifting while the person talks: no action
        for _ in range(rng.randint(2, 3)):
            take.move(rng.uniform(150, 1150), rng.uniform(120, 650))
            take.hold(rng.uniform(0.3, 0.9))
    elif kind == "click":
        _, selector, name = step
        box = take.box(selector)
        take.move(*take.aim(box))
        take.hold(rng.uniform(0.25, 0.6))
        record = ActionRecord("click", name, "button", "", take.t, take.t, index, cursor=[take.x, take.y],
                              box=list(box))  # fmt: skip
        take.press_mouse()
        take.live(LIVE_AFTER_S)
        record.end_s = take.t - LIVE_AFTER_S + 0.7
        take.actions.append(record)
    elif kind == "type":
        selector, label, text = step[1:4]
        enter = len(step) > 4 and step[4]
        box = take.box(selector)
        take.move(*take.aim(box, text_start=True))
        take.hold(rng.uniform(0.25, 0.5))
        record = ActionRecord("type", label, "textbox", text, take.t, take.t, index, cursor=[take.x, take.y],
                              box=list(box))  # fmt: skip
        take.press_mouse()
        take.live(0.3)
        previous = ""
        for char in text:
            take.hold(rng.uniform(0.07, 0.22) + (0.25 if previous == " " else 0.0))
            take.page.keyboard.type(char)
            take.snap()
            previous = char
        take.hold(0.1)
        record.end_s = take.t
        record.extra = {"typed_s": round(take.t, 3), "masked": "password" in (selector + label).lower()}
        if enter:
            take.hold(rng.uniform(0.3, 0.6))
            take.page.keyboard.press("Enter")
            take.live(LIVE_AFTER_S)
        take.actions.append(record)
    elif kind == "scroll":
        amount = step[1]
        take.move(rng.uniform(400, 900), rng.uniform(300, 500))
        take.hold(rng.uniform(0.2, 0.4))
        before = take.page.evaluate("window.scrollY")
        record = ActionRecord("scroll", "", "", "down" if amount > 0 else "up", take.t, take.t, index,
                              cursor=[take.x, take.y], scroll_before=before)  # fmt: skip
        notch = 60 if amount > 0 else -60
        for _ in range(max(1, abs(amount) // 60)):  # smooth: small wheel steps a frame or two apart
            take.page.mouse.wheel(0, notch)
            take.page.wait_for_timeout(30)
            take.snap()
            take.hold(rng.choice((1, 2)) / FPS)
        take.live(0.3)
        record.end_s = take.t
        record.scroll_after = take.page.evaluate("window.scrollY")
        take.actions.append(record)
    elif kind == "field":  # a click into a field, logged as a click of its own
        _, selector, label = step
        box = take.box(selector)
        take.move(*take.aim(box, text_start=True))
        take.hold(rng.uniform(0.25, 0.5))
        record = ActionRecord("click", label, "textbox", "", take.t, take.t + 0.3, index, cursor=[take.x, take.y],
                              box=list(box))  # fmt: skip
        take.press_mouse()
        take.live(0.4)
        take.actions.append(record)
        take.hold(rng.uniform(0.3, 0.7))
    elif kind == "keys":  # typing into the focused field, after a click or Tab logged on its own
        _, label, text = step
        take.hold(rng.uniform(0.2, 0.5))
        record = ActionRecord("type", label, "textbox", text, take.t, take.t, index, cursor=[take.x, take.y])
        for char in text:
            take.page.keyboard.type(char)
            take.snap()
            take.hold(rng.uniform(0.07, 0.22))
        record.end_s = take.t
        take.actions.append(record)
        take.hold(rng.uniform(0.3, 0.6))
    elif kind == "press":
        key = step[1]
        take.hold(rng.uniform(0.3, 0.6))
        record = ActionRecord("press", "", "", key, take.t, take.t + 0.3, index, cursor=[take.x, take.y])
        take.page.keyboard.press(key)
        take.live(0.8)
        take.actions.append(record)
    elif kind == "hover":  # the pointer rests on something that reacts; no action
        box = take.box(step[1])
        take.move(*take.aim(box))
        take.page.mouse.move(take.x, take.y)
        take.snap()
        take.hold(rng.uniform(1.0, 1.6))
    elif kind in ("menu_keys", "menu_list"):
        _play_menu(take, step, index)
    else:
        raise UserError(f"held-out script step {step!r}: unknown kind {kind!r}")


# A native menu's list, drawn into the page (a headless browser shows none): grey rows, a dark border.
_OPEN_LIST = """(el) => {
  const r = el.getBoundingClientRect(), list = document.createElement('div');
  list.id = '__list';
  list.style.cssText = `position:absolute;left:${r.left + scrollX}px;top:${r.bottom + scrollY}px;width:${r.width}px;
    background:#fff;border:1px solid #333;font-size:16px;z-index:50`;
  [...el.options].forEach((o, i) => {
    const row = document.createElement('div');
    row.textContent = o.text; row.style.padding = '5px 10px';
    if (i === el.selectedIndex) row.style.background = '#d0d7e5';
    list.appendChild(row);
  });
  document.body.appendChild(list);
}"""
_PICK = """([el, i]) => { document.getElementById('__list')?.remove(); el.selectedIndex = i;
  el.dispatchEvent(new Event('change', {bubbles: true})); }"""
_MARK_ROW = """(i) => { const rows = document.querySelectorAll('#__list > div');
  rows.forEach((row, n) => row.style.background = n === i ? '#d0d7e5' : '#fff'); }"""


def _play_menu(take: LiveTake, step: tuple, index: int) -> None:
    """A native menu: clicked, then the option chosen with the arrow keys or from the opened list; one select."""
    kind, selector, name, option = step
    rng, page = take.rng, take.page
    element = page.locator(selector).first
    box = take.box(selector)
    options = element.evaluate("el => [...el.options].map(o => o.text)")
    wanted = options.index(option)
    take.move(*take.aim(box))
    take.hold(rng.uniform(0.25, 0.5))
    record = ActionRecord("select", name, "combobox", option, take.t, take.t, index, cursor=[take.x, take.y],
                          box=list(box))  # fmt: skip
    take.film.click()
    element.focus()
    if kind == "menu_keys":
        take.snap()
        take.hold(rng.uniform(0.4, 0.7))
        for position in range(element.evaluate("el => el.selectedIndex") + 1, wanted + 1):
            page.evaluate(_PICK, [element.element_handle(), position])
            take.snap()
            take.hold(rng.uniform(0.35, 0.6))
    else:
        element.evaluate(_OPEN_LIST)
        take.snap()
        take.hold(rng.uniform(0.4, 0.7))
        row = page.locator("#__list > div").nth(wanted).bounding_box()
        take.move(row["x"] + row["width"] * rng.uniform(0.2, 0.5), row["y"] + row["height"] / 2)
        page.evaluate(_MARK_ROW, wanted)
        take.snap()
        take.hold(rng.uniform(0.3, 0.5))
        take.film.click()
        page.evaluate(_PICK, [element.element_handle(), wanted])
        take.snap()
    record.end_s = take.t
    take.actions.append(record)
    take.hold(rng.uniform(0.4, 0.8))


def _look_of(script: scripts.Script):
    """The script's own pointer theme and click effect."""
    return next(t for t in pointer_art.THEMES if t.name == script.theme), pointer_art.EFFECTS[script.effect]


_PAGES = sorted((Path(apps.__file__).parent / "pages").glob("*.html"))
STYLE = recorder.LabelerStyle(
    key="heldout", name="held-out", video=VIDEO, scripts=scripts.SCRIPTS, pages=apps.pages,
    code=(Path(__file__), Path(apps.__file__), Path(pointer_art.__file__), Path(scripts.__file__), *_PAGES),
    take=LiveTake, play=_play, start_box=((500, 800), (300, 500)), look_of=_look_of,
    reach=Reach("linear", base_s=0.25, scale=900, cap_s=1.4, spread=(0.85, 1.2), bend=0.15, ease="smoothstep",
                round_steps=False),
)  # fmt: skip


def folder_of(settings: Settings) -> Path:
    return recorder.folder_of(STYLE, settings)


def record_all(settings: Settings, only: list[str] | None = None, report=print) -> list[recorder.Recording]:
    """Every held-out recording, recording those missing or made by older code first."""
    return recorder.record_all(STYLE, settings, only, report)
