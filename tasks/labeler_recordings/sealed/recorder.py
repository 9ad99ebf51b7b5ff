"""Record the sealed scripts: the screen captured at 15 fps by virtual time, each picture written twice at 30 fps.

As in the untouched style, each capture moves the page's own clock (Playwright's fake
timers) forward by exactly one capture interval before the screenshot, so the recording
is a function of the script alone, whatever the machine's load. What differs: the
capture rate (15 fps, so a picture lasts two frames of the 30 fps file), the encoder
(H.264 at another quality, a keyframe every 60 frames, B-frames, no audio), the pointer
(`pointer`: a black-rimmed white arrow) and how it moves: minimum-jerk strokes that
overshoot a little and correct, a one-pixel tremor now and then while resting, a press
held for two pictures, keys pressed for real (arrow keys step a native menu), and a
wheel of 120 pixels a notch turned wherever the hand happens to be. A native menu's
opened list is drawn into the page (a headless browser shows none) in a look of its own.

    <cache>/labeler_sealed/<name>.mp4 / .actions.json / .fingerprint
"""

from __future__ import annotations

import hashlib
import math
import random
import subprocess
import time
from pathlib import Path

import cv2
import numpy as np

from foundation.errors import UserError
from settings import Settings
from tasks.labeler_recordings.page_server import PageServer
from tasks.labeler_recordings.sealed import pointer, scripts
from tasks.labeler_recordings.untouched.recorder import Recording
from tasks.labeler_recordings.untouched.scripts import Script
from tasks.labeler_recordings.saving import restore_recording, save_recording
from tasks.sandbox.tutorials.ground_truth import ActionRecord

STYLE = "sealed"  # the recordings store's name for this style, and the description it writes
CAPTURE_FPS = 15
REPEAT = 2  # each captured picture is shown this many frames
FPS = CAPTURE_FPS * REPEAT
GOP = 60
WIDTH, HEIGHT = 1280, 720
STEP_MS = 1000 / CAPTURE_FPS
NOTCH_PX = 120
_PAGES = Path(__file__).resolve().parent / "pages"
_CODE = [Path(__file__), Path(pointer.__file__), Path(scripts.__file__), *sorted(_PAGES.glob("*.html"))]

# A native menu's opened list: pale rows with rounded corners; the row under the pointer gets a light fill and a bar.
_OPEN_LIST = """(el) => {
  const r = el.getBoundingClientRect();
  const list = document.createElement('div');
  list.id = '__menu';
  list.style.cssText = `position:fixed;left:${r.left - 2}px;top:${r.bottom + 3}px;min-width:${r.width + 4}px;z-index:99;
    background:#f9f9f9;border:1px solid #c8c8c8;border-radius:7px;padding:4px;box-shadow:0 6px 16px #0003;
    font:14px 'DejaVu Sans',sans-serif`;
  [...el.options].forEach((o, i) => {
    const row = document.createElement('div');
    row.textContent = o.text;
    row.style.cssText = 'padding:6px 12px 6px 14px;color:#1b1b1b;border-radius:4px;border-left:3px solid transparent';
    const on = () => {
      for (const c of list.children) { c.style.background = ''; c.style.borderLeftColor = 'transparent'; }
      row.style.background = '#dbe9f6'; row.style.borderLeftColor = '#1a73c9';
    };
    row.addEventListener('mousemove', on);
    if (i === el.selectedIndex) on();
    list.appendChild(row);
  });
  document.body.appendChild(list);
}"""
_CLOSE_LIST = "() => document.getElementById('__menu')?.remove()"
_PICK = """([el, index]) => { el.selectedIndex = index; el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true})); }"""
_ROLES = {"click": "button", "type": "textbox", "select": "combobox"}


def folder_of(settings: Settings) -> Path:
    return Path(settings.paths.cache_dir) / "labeler_sealed"


def fingerprint(script: Script) -> str:
    digest = hashlib.sha256(repr(script).encode())
    for path in _CODE:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def record_all(settings: Settings, only: list[str] | None = None, report=print) -> list[Recording]:
    """Every sealed recording, recording those missing or made by older code first."""
    folder = folder_of(settings)
    chosen = [s for s in scripts.SCRIPTS if not only or s.name in only]
    if only and len(chosen) != len(set(only)):
        raise UserError(f"unknown sealed recording in {only}: choose from {', '.join(s.name for s in scripts.SCRIPTS)}")
    stale = [
        s for s in chosen if not _current(folder, s) and not restore_recording(folder, STYLE, s.name, fingerprint(s))
    ]
    if stale:
        from playwright.sync_api import sync_playwright

        from foundation.browser import launch_chromium

        pages = {page.stem: page.read_text("utf-8") for page in _PAGES.glob("*.html")}
        with PageServer(folder / "site", pages) as server, sync_playwright() as playwright:
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
                   "-s", f"{WIDTH}x{HEIGHT}", "-r", str(FPS), "-i", "-", "-an", "-c:v", "libx264", "-preset", "fast",
                   "-g", str(GOP), "-keyint_min", str(GOP), "-bf", "2", "-crf", "28", "-pix_fmt", "yuv420p",
                   "-f", "mp4", str(path)]  # fmt: skip
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE)
        except FileNotFoundError:
            raise UserError("ffmpeg not found: install it (apt-get install ffmpeg)") from None

    def write(self, frame: np.ndarray) -> None:
        data = frame.tobytes()
        for _ in range(REPEAT):
            self.process.stdin.write(data)

    def close(self) -> None:
        self.process.stdin.close()
        if self.process.wait() != 0:
            raise UserError(f"ffmpeg failed writing {self.path}: see its message above")


class _Take:
    """One recording in progress: the page on its virtual clock, the pointer, the actions logged."""

    def __init__(self, page, encoder: _Encoder, rng: random.Random) -> None:
        self.page, self.encoder, self.rng = page, encoder, rng
        self.captures = 0
        self.clock_ms = 0.0  # page time run so far, kept exact so that captures never drift from 15 fps
        self.x, self.y = rng.uniform(380, 900), rng.uniform(250, 520)
        self.actions: list[ActionRecord] = []

    @property
    def t(self) -> float:
        """Video time of the next capture."""
        return self.captures / CAPTURE_FPS

    def capture(self, x: float | None = None, y: float | None = None) -> None:
        """One interval of page time, then one picture with the pointer drawn at (x, y) (default: where it is)."""
        target_ms = round((self.captures + 1) * STEP_MS)
        self.page.clock.run_for(target_ms - round(self.clock_ms))
        self.clock_ms = target_ms
        png = self.page.screenshot(type="png", animations="disabled", caret="initial")
        frame = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
        pointer.paste(frame, self.x if x is None else x, self.y if y is None else y)
        self.encoder.write(frame)
        self.captures += 1

    def hold(self, seconds: float) -> None:
        """Rest: the hand trembles by a pixel now and then (drawn only; the page's mouse stays put)."""
        for _ in range(max(1, round(seconds * CAPTURE_FPS))):
            if self.rng.random() < 0.12:
                self.capture(self.x + self.rng.choice((-1, 1)), self.y + self.rng.choice((-1, 0, 1)))
            else:
                self.capture()

    def stroke(self, x: float, y: float) -> None:
        """A minimum-jerk stroke to (x, y), a little bowed; the real mouse follows, so hover styles show."""
        x0, y0 = self.x, self.y
        distance = math.hypot(x - x0, y - y0)
        if distance < 1:
            return
        seconds = (0.25 + 0.11 * math.log2(1 + distance / 24)) * self.rng.uniform(0.9, 1.2)
        steps = max(2, round(seconds * CAPTURE_FPS))
        bow = self.rng.uniform(-0.12, 0.12) * distance
        nx, ny = (y0 - y) / distance, (x - x0) / distance
        for i in range(1, steps + 1):
            s = i / steps
            e = 10 * s**3 - 15 * s**4 + 6 * s**5
            arc = math.sin(math.pi * e) * bow
            self.x, self.y = x0 + (x - x0) * e + nx * arc, y0 + (y - y0) * e + ny * arc
            self.page.mouse.move(self.x, self.y)
            self.capture()

    def approach(self, x: float, y: float) -> None:
        """Go to (x, y): past it by a few pixels on long moves, then back, as a hand aiming at a target does."""
        distance = math.hypot(x - self.x, y - self.y)
        if distance > 200 and self.rng.random() < 0.6:
            over = min(14.0, 0.05 * distance) * self.rng.uniform(0.6, 1.0)
            self.stroke(x + (x - self.x) / distance * over, y + (y - self.y) / distance * over)
        self.stroke(x, y)
        self.hold(self.rng.uniform(0.25, 0.55))

    def box(self, selector: str) -> tuple[float, float, float, float]:
        element = self.page.locator(selector).first
        if element.count() == 0:
            raise UserError(f"sealed script: {selector!r} is not on the page")
        found = element.bounding_box()
        if not found or found["y"] < 0 or found["y"] + found["height"] > HEIGHT:
            raise UserError(f"sealed script: {selector!r} is not in view (the script must scroll to it)")
        return found["x"], found["y"], found["width"], found["height"]

    def on_label(self, box) -> tuple[float, float]:
        """A spot on an element's words, a little left of the middle: the arrow covers part of them."""
        x, y, w, h = box
        return x + w * self.rng.uniform(0.25, 0.5), y + h * self.rng.uniform(0.35, 0.65)

    def in_field(self, box) -> tuple[float, float]:
        x, y, w, h = box
        return x + min(w * 0.6, self.rng.uniform(30, 170)), y + h * self.rng.uniform(0.3, 0.7)

    def press_mouse(self, real: bool = True) -> float:
        """A click whose button stays down for two pictures; returns when it went down.

        Not `real` on a native menu: a headless browser's menu pop-up is never drawn and would take the keys.
        """
        start = self.t
        if real:
            self.page.mouse.down()
        self.capture()
        self.capture()
        if real:
            self.page.mouse.up()
        return start

    def log(self, kind: str, target: str, text: str, start_s: float, end_s: float, step: int, box=None, **extra):
        self.actions.append(ActionRecord(kind, target, _ROLES.get(kind, ""), text, round(start_s, 3), round(end_s, 3),
                                         step, cursor=[round(self.x, 1), round(self.y, 1)],
                                         box=list(box) if box else None, extra=extra))  # fmt: skip


def _settle_scroll(page) -> None:
    """Wait (real time) until a wheel notch has finished moving the page, so the capture shows where it landed."""
    last = None
    for _ in range(40):
        now = page.evaluate("window.scrollY")
        if now == last:
            return
        last = now
        time.sleep(0.03)


def _record(browser, url: str, script: Script, folder: Path) -> float:
    folder.mkdir(parents=True, exist_ok=True)
    partial_file = folder / f"{script.name}.partial.mp4"
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, device_scale_factor=1)
    encoder = _Encoder(partial_file)
    try:
        page = context.new_page()
        page.clock.install(time=1_780_000_000_000)  # a fixed date: clocks on the page read the same each time
        page.goto(url)
        page.clock.pause_at(1_780_000_001_000)
        take = _Take(page, encoder, random.Random(f"sealed:{script.name}"))
        page.mouse.move(take.x, take.y)
        take.hold(1.2)
        for index, step in enumerate(script.steps):
            _play(take, step, index)
        take.hold(1.2)
        encoder.close()
    except BaseException:
        encoder.process.kill()
        raise
    finally:
        context.close()
    duration = take.captures / CAPTURE_FPS
    save_recording(
        folder, partial_file, script, style=STYLE, url=url, fps=FPS, size=(WIDTH, HEIGHT), duration_s=duration,
        actions=take.actions, fingerprint=fingerprint(script),
    )
    return duration


def _play(take: _Take, step: tuple, index: int) -> None:
    rng, page = take.rng, take.page
    kind = step[0]
    if kind == "pause":
        take.hold(step[1])
    elif kind == "wander":  # the hand drifts about while the person explains: no action
        for _ in range(rng.randint(2, 4)):
            take.stroke(take.x + rng.uniform(-260, 260), take.y + rng.uniform(-150, 150))
            take.x, take.y = min(max(take.x, 60), WIDTH - 60), min(max(take.y, 90), HEIGHT - 60)
            take.hold(rng.uniform(0.15, 0.5))
    elif kind == "hover":  # the page reacts (a tint, a tool tip, buttons shown), but nothing is done
        take.approach(*take.on_label(take.box(step[1])))
        take.hold(rng.uniform(0.8, 1.5))
    elif kind in ("click", "field"):
        _, selector, name = step
        box = take.box(selector)
        take.approach(*(take.on_label(box) if kind == "click" else take.in_field(box)))
        start = take.press_mouse()
        take.log("click", name, "", start, take.t, index, box)
        take.hold(rng.uniform(0.35, 0.9))
    elif kind == "press":
        key = step[1]
        take.hold(rng.uniform(0.25, 0.6))
        start = take.t
        page.keyboard.press(key)
        take.capture()
        take.log("press", "", key, start, take.t, index)
        take.hold(rng.uniform(0.4, 0.8))
    elif kind == "type":
        _, label, text = step
        take.hold(rng.uniform(0.15, 0.45))
        start = take.t
        for char in text:  # five to fifteen keys a second
            page.keyboard.type(char)
            for _ in range(rng.choice((1, 2, 2, 3))):
                take.capture()
        typed_s = take.t - 1 / CAPTURE_FPS
        take.log("type", label, text, start, typed_s, index, typed_s=round(typed_s, 3))
        take.hold(rng.uniform(0.35, 0.8))
    elif kind in ("menu_keys", "menu_list"):
        _, selector, name, option = step
        element = page.locator(selector).first
        box = take.box(selector)
        options = element.evaluate("el => [...el.options].map(o => o.text)")
        if option not in options:
            raise UserError(f"sealed script: {option!r} is not an option of {selector!r}: {options}")
        take.approach(*take.on_label(box))
        start = take.press_mouse(real=False)
        element.focus()  # what the press does to a native menu; its list is drawn below, not by the browser
        if kind == "menu_keys":
            take.hold(rng.uniform(0.4, 0.8))
            current = element.evaluate("el => el.selectedIndex")
            for _ in range(current, options.index(option)):
                page.keyboard.press("ArrowDown")
                take.hold(rng.uniform(0.3, 0.6))
            if element.evaluate("el => el.value") != option:
                raise UserError(f"sealed script: the arrow keys did not reach {option!r} in {selector!r}")
        else:
            element.evaluate(_OPEN_LIST)
            take.hold(rng.uniform(0.4, 0.8))
            row = page.locator("#__menu > div").nth(options.index(option))
            found = row.bounding_box()
            take.stroke(found["x"] + found["width"] * rng.uniform(0.15, 0.45), found["y"] + found["height"] / 2)
            take.hold(rng.uniform(0.2, 0.45))
            take.press_mouse(real=False)
            page.evaluate(_CLOSE_LIST)
            page.evaluate(_PICK, [element.element_handle(), options.index(option)])
        take.capture()
        take.log("select", name, option, start, take.t, index, box)
        take.hold(rng.uniform(0.4, 0.7))
    elif kind == "scroll":
        notches = step[1]
        take.stroke(take.x + rng.uniform(-80, 80), min(max(take.y + rng.uniform(-60, 60), 150), HEIGHT - 80))
        take.hold(rng.uniform(0.2, 0.4))
        start = take.t
        before = page.evaluate("window.scrollY")
        for _ in range(abs(notches)):
            page.mouse.wheel(0, NOTCH_PX if notches > 0 else -NOTCH_PX)
            _settle_scroll(page)
            take.hold(rng.choice((1, 1, 2, 3)) / CAPTURE_FPS)
        after = page.evaluate("window.scrollY")
        take.actions.append(ActionRecord("scroll", "", "", "down" if notches > 0 else "up", round(start, 3),
                                         round(take.t, 3), index, cursor=[round(take.x, 1), round(take.y, 1)],
                                         scroll_before=before, scroll_after=after))  # fmt: skip
        take.hold(rng.uniform(0.5, 0.9))
    else:
        raise UserError(f"sealed script step {step!r}: unknown kind {kind!r}")
