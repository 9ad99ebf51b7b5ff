"""Record the held-out scripts into 1280x720, 12 fps H.264 videos with exact ground truth.

Unlike the sandbox recorder (a virtual clock between screenshots), this one lets the
page run in real time after each click or key: it keeps taking screenshots for a
moment, each shown at the video time it was taken, so spinners, toasts and fades appear
as a screen recorder would catch them. Between actions the clock is virtual (pointer
moves, pauses). The pointer is composed onto each frame with this package's own
drawings, its shape taken from the page's CSS cursor under it.

    <cache>/labeler_heldout/<name>.mp4 / .actions.json / .fingerprint
"""

from __future__ import annotations

import hashlib
import math
import random
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from foundation.errors import UserError
from tasks.labeler_recordings.heldout import apps, pointer_art, scripts
from tasks.labeler_recordings.heldout.scripts import Script
from settings import Settings
from tasks.labeler_recordings.saving import restore_recording, save_recording
from tasks.sandbox.tutorials.ground_truth import ActionRecord

STYLE = "held-out"  # the recordings store's name for this style, and the description it writes
FPS = 12
WIDTH, HEIGHT = 1280, 720
LIVE_AFTER_S = 1.6  # real time watched after a click or Enter: loading states and toasts happen then
_IS_FIELD = "([x, y]) => { const e = document.elementFromPoint(x, y); return !!e && e.tagName === 'INPUT'; }"
_CODE = [Path(apps.__file__), Path(pointer_art.__file__), Path(scripts.__file__), Path(__file__),
         *sorted((Path(apps.__file__).parent / "pages").glob("*.html"))]


@dataclass(frozen=True)
class Recording:
    name: str
    video: Path
    actions: Path


def folder_of(settings: Settings) -> Path:
    return Path(settings.paths.cache_dir) / "labeler_heldout"


def fingerprint(script: Script) -> str:
    digest = hashlib.sha256(repr(script).encode())
    for path in _CODE:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def record_all(settings: Settings, only: list[str] | None = None, report=print) -> list[Recording]:
    """Every held-out recording, recording those missing or made by older code first."""
    folder = folder_of(settings)
    chosen = [s for s in scripts.SCRIPTS if not only or s.name in only]
    if only and len(chosen) != len(set(only)):
        names = ", ".join(s.name for s in scripts.SCRIPTS)
        raise UserError(f"unknown held-out recording in {only}: choose from {names}")
    stale = [
        s for s in chosen if not _current(folder, s) and not restore_recording(folder, STYLE, s.name, fingerprint(s))
    ]
    if stale:
        from playwright.sync_api import sync_playwright

        from foundation.browser import launch_chromium

        with apps.AppServer(folder / "site") as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright, settings.browser)
            try:
                for script in stale:
                    started = time.monotonic()
                    seconds = _record(browser, server.url(script.app), script, folder)
                    report(f"recorded {script.name}: {seconds:.1f} s of video in {time.monotonic() - started:.1f} s")
            finally:
                browser.close()
    return [Recording(s.name, folder / f"{s.name}.mp4", folder / f"{s.name}.actions.json") for s in chosen]


def _current(folder: Path, script: Script) -> bool:
    mark = folder / f"{script.name}.fingerprint"
    needed = [folder / f"{script.name}{suffix}" for suffix in (".mp4", ".actions.json")]
    return mark.exists() and all(p.exists() for p in needed) and mark.read_text().strip() == fingerprint(script)


class _Encoder:
    def __init__(self, path: Path) -> None:
        self.path = path
        command = ["ffmpeg", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "bgr24",
                   "-s", f"{WIDTH}x{HEIGHT}", "-r", str(FPS), "-i", "-", "-c:v", "libx264", "-preset", "veryfast",
                   "-crf", "23", "-pix_fmt", "yuv420p", "-f", "mp4", str(path)]  # fmt: skip
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE)
        except FileNotFoundError:
            raise UserError("ffmpeg not found: install it (apt-get install ffmpeg)") from None

    def write(self, frame: np.ndarray) -> None:
        self.process.stdin.write(frame.tobytes())

    def close(self) -> None:
        self.process.stdin.close()
        if self.process.wait() != 0:
            raise UserError(f"ffmpeg failed writing {self.path}: see its message above")


class _Take:
    """One recording in progress: the page, the video clock, the pointer."""

    def __init__(self, page, encoder: _Encoder, script: Script, rng: random.Random) -> None:
        self.page, self.encoder, self.rng = page, encoder, rng
        self.theme = next(t for t in pointer_art.THEMES if t.name == script.theme)
        self.effect = script.effect
        self.t = 0.0
        self.frames = 0
        self.x, self.y = rng.uniform(500, 800), rng.uniform(300, 500)
        self.shape = "arrow"
        self.clicks: list[tuple[float, float, float]] = []  # (time, x, y) for click effects
        self.screen = self._shot()
        self.actions: list[ActionRecord] = []

    def _shot(self) -> np.ndarray:
        png = self.page.screenshot(type="png")
        return cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)

    def _emit_until(self, t_end: float) -> None:
        """Write frames up to video time `t_end` showing the current screen and pointer."""
        while self.frames / FPS < t_end - 1e-9:
            now = self.frames / FPS
            frame = self.screen.copy()
            for t0, cx, cy in self.clicks:
                pointer_art.draw_effect(frame, self.effect, cx, cy, now - t0)
            pointer_art.paste(frame, self.theme, self.shape, self.x, self.y)
            self.encoder.write(frame)
            self.frames += 1
        self.t = max(self.t, t_end)

    def hold(self, seconds: float) -> None:
        self._emit_until(self.t + seconds)

    def live(self, seconds: float) -> None:
        """Let the page run in real time, showing each screenshot at the video time it was taken."""
        start_real, start_t = time.monotonic(), self.t
        while (elapsed := time.monotonic() - start_real) < seconds:
            self._emit_until(start_t + elapsed)
            self.screen = self._shot()
        self._emit_until(start_t + seconds)

    def _update_shape(self) -> None:
        cursor = self.page.evaluate(
            "([x, y]) => { const e = document.elementFromPoint(x, y); return e ? getComputedStyle(e).cursor : 'auto'; }",
            [self.x, self.y],
        )
        if cursor == "pointer":
            self.shape = "hand"
        elif cursor == "text" or (cursor == "auto" and self.page.evaluate(_IS_FIELD, [self.x, self.y])):
            self.shape = "text"
        else:
            self.shape = "arrow"

    def move(self, x: float, y: float) -> None:
        """Glide along a slight curve with easing; hover effects come from moving the real mouse too."""
        x0, y0 = self.x, self.y
        distance = math.hypot(x - x0, y - y0)
        duration = min(1.4, 0.25 + distance / 900) * self.rng.uniform(0.85, 1.2)
        bend = self.rng.uniform(-0.15, 0.15) * distance
        normal = ((y0 - y) / (distance or 1), (x - x0) / (distance or 1))
        steps = max(1, int(duration * FPS))
        for i in range(1, steps + 1):
            s = i / steps
            e = s * s * (3 - 2 * s)
            arc = math.sin(math.pi * e) * bend
            self.x, self.y = x0 + (x - x0) * e + normal[0] * arc, y0 + (y - y0) * e + normal[1] * arc
            if i == steps // 2 or i == steps:
                self.page.mouse.move(self.x, self.y)
                self._update_shape()
                self.screen = self._shot()
            self.hold(1 / FPS)

    def box(self, selector: str) -> tuple[float, float, float, float]:
        element = self.page.locator(selector).first
        element.scroll_into_view_if_needed()
        self.screen = self._shot()
        found = element.bounding_box()
        if not found:
            raise UserError(f"held-out script: {selector!r} is not on the page")
        return found["x"], found["y"], found["width"], found["height"]

    def aim(self, box, text_start: bool = False) -> tuple[float, float]:
        x, y, w, h = box
        if text_start:
            return x + min(w * 0.3, 60) + self.rng.uniform(-8, 8), y + h / 2 + self.rng.uniform(-3, 3)
        return x + w / 2 + self.rng.uniform(-w / 5, w / 5), y + h / 2 + self.rng.uniform(-h / 6, h / 6)

    def press_mouse(self) -> None:
        self.clicks.append((self.t, self.x, self.y))
        self.page.mouse.click(self.x, self.y)


def _record(browser, url: str, script: Script, folder: Path) -> float:
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / f"{script.name}.partial.mp4"
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, device_scale_factor=1)
    encoder = _Encoder(partial)
    try:
        page = context.new_page()
        page.goto(url)
        take = _Take(page, encoder, script, random.Random(f"heldout:{script.name}"))
        take.hold(1.0)
        for index, step in enumerate(script.steps):
            _play(take, step, index)
        take.hold(1.0)
        encoder.close()
    except BaseException:
        encoder.process.kill()
        raise
    finally:
        context.close()
    duration = take.frames / FPS
    save_recording(
        folder, partial, script, style=STYLE, url=url, fps=FPS, size=(WIDTH, HEIGHT), duration_s=duration,
        actions=take.actions, fingerprint=fingerprint(script),
    )
    return duration


def _play(take: _Take, step: tuple, index: int) -> None:
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
            take.screen = take._shot()
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
            take.screen = take._shot()
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
            take.screen = take._shot()
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
        take.screen = take._shot()
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


def _play_menu(take: _Take, step: tuple, index: int) -> None:
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
    take.clicks.append((take.t, take.x, take.y))
    element.focus()
    if kind == "menu_keys":
        take.screen = take._shot()
        take.hold(rng.uniform(0.4, 0.7))
        for position in range(element.evaluate("el => el.selectedIndex") + 1, wanted + 1):
            page.evaluate(_PICK, [element.element_handle(), position])
            take.screen = take._shot()
            take.hold(rng.uniform(0.35, 0.6))
    else:
        element.evaluate(_OPEN_LIST)
        take.screen = take._shot()
        take.hold(rng.uniform(0.4, 0.7))
        row = page.locator("#__list > div").nth(wanted).bounding_box()
        take.move(row["x"] + row["width"] * rng.uniform(0.2, 0.5), row["y"] + row["height"] / 2)
        page.evaluate(_MARK_ROW, wanted)
        take.screen = take._shot()
        take.hold(rng.uniform(0.3, 0.5))
        take.clicks.append((take.t, take.x, take.y))
        page.evaluate(_PICK, [element.element_handle(), wanted])
        take.screen = take._shot()
    record.end_s = take.t
    take.actions.append(record)
    take.hold(rng.uniform(0.4, 0.8))
