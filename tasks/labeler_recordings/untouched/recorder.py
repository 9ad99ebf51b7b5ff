"""Record the untouched scripts: the screen captured at 10 fps by virtual time, encoded at 30 fps.

Each capture moves the page's own clock (Playwright's fake timers) forward by exactly one
capture interval before the screenshot, so timers, loading notes and results land on
the same frame however loaded the machine is: the recording is a function of the script
alone. Each picture is written `REPEAT` times, as a screen recorder capturing at a low
rate into a 30 fps file does; H.264 with a keyframe every `GOP` frames, no audio.
A native menu's opened list is drawn into the page by the recorder (a headless browser
shows none) in a plain look of its own.

    <cache>/labeler_untouched/<name>.mp4 / .actions.json / .fingerprint
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
from settings import Settings
from tasks.labeler_recordings.page_server import PageServer
from tasks.labeler_recordings.untouched import pointer, scripts
from tasks.labeler_recordings.untouched.scripts import Script
from tasks.labeler_recordings.saving import restore_recording, save_recording
from tasks.sandbox.tutorials.ground_truth import ActionRecord

STYLE = "untouched"  # the recordings store's name for this style, and the description it writes
CAPTURE_FPS = 10
REPEAT = 3  # each captured picture is shown this many frames
FPS = CAPTURE_FPS * REPEAT
GOP = 60
WIDTH, HEIGHT = 1280, 720
STEP_MS = 1000 // CAPTURE_FPS
_PAGES = Path(__file__).resolve().parent / "pages"
_CODE = [Path(__file__), Path(pointer.__file__), Path(scripts.__file__), *sorted(_PAGES.glob("*.html"))]

# The opened list of a native menu: rows under the menu, the current one filled until the pointer is on another.
_OPEN_LIST = """(el) => {
  const r = el.getBoundingClientRect();
  const list = document.createElement('div');
  list.id = '__menu';
  list.style.cssText = `position:fixed;left:${r.left}px;top:${r.bottom + 1}px;width:${r.width}px;z-index:99;
    background:#fff;border:1px solid #767676;box-shadow:2px 3px 6px #0003;font:15px 'Liberation Sans',Arial,sans-serif`;
  [...el.options].forEach((o, i) => {
    const row = document.createElement('div');
    row.textContent = o.text;
    row.style.cssText = 'padding:4px 8px;color:#111';
    const on = () => { for (const c of list.children) { c.style.background = '#fff'; c.style.color = '#111'; }
                       row.style.background = '#2563eb'; row.style.color = '#fff'; };
    row.addEventListener('mousemove', on);
    if (i === el.selectedIndex) on();
    list.appendChild(row);
  });
  document.body.appendChild(list);
}"""
_CLOSE_LIST = "() => document.getElementById('__menu')?.remove()"
_PICK = """([el, index]) => { el.selectedIndex = index; el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true})); }"""


@dataclass(frozen=True)
class Recording:
    name: str
    video: Path
    actions: Path


def folder_of(settings: Settings) -> Path:
    return Path(settings.paths.cache_dir) / "labeler_untouched"


def fingerprint(script: Script) -> str:
    digest = hashlib.sha256(repr(script).encode())
    for path in _CODE:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def record_all(settings: Settings, only: list[str] | None = None, report=print) -> list[Recording]:
    """Every untouched recording, recording those missing or made by older code first."""
    folder = folder_of(settings)
    chosen = [s for s in scripts.SCRIPTS if not only or s.name in only]
    if only and len(chosen) != len(set(only)):
        raise UserError(f"unknown untouched recording in {only}: choose from {', '.join(s.name for s in scripts.SCRIPTS)}")
    stale = [
        s for s in chosen if not _current(folder, s) and not restore_recording(folder, STYLE, s.name, fingerprint(s))
    ]
    if stale:
        from playwright.sync_api import sync_playwright

        from foundation.browser import launch_chromium

        with _site(folder / "site") as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright, settings.browser)
            try:
                for script in stale:
                    started = time.monotonic()
                    seconds = _record(browser, server.url(script.app), script, folder)
                    report(f"recorded {script.name}: {seconds:.1f} s of video in {time.monotonic() - started:.1f} s")
            finally:
                browser.close()
    return [Recording(s.name, folder / f"{s.name}.mp4", folder / f"{s.name}.actions.json") for s in chosen]


def _site(folder: Path) -> PageServer:
    """The apps' pages as static files on a free local port."""
    return PageServer(folder, {page.stem: page.read_text("utf-8") for page in _PAGES.glob("*.html")})


def _current(folder: Path, script: Script) -> bool:
    mark = folder / f"{script.name}.fingerprint"
    needed = [folder / f"{script.name}{suffix}" for suffix in (".mp4", ".actions.json")]
    return mark.exists() and all(p.exists() for p in needed) and mark.read_text().strip() == fingerprint(script)


class _Encoder:
    def __init__(self, path: Path) -> None:
        self.path = path
        command = ["ffmpeg", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "bgr24",
                   "-s", f"{WIDTH}x{HEIGHT}", "-r", str(FPS), "-i", "-", "-an", "-c:v", "libx264", "-preset", "veryfast",
                   "-g", str(GOP), "-keyint_min", str(GOP), "-crf", "25", "-pix_fmt", "yuv420p", "-f", "mp4", str(path)]  # fmt: skip
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
        self.x, self.y = rng.uniform(520, 760), rng.uniform(330, 480)
        self.actions: list[ActionRecord] = []

    @property
    def t(self) -> float:
        """Video time of the next capture."""
        return self.captures / CAPTURE_FPS

    def capture(self) -> None:
        """One interval of page time, then one picture with the pointer drawn on it."""
        self.page.clock.run_for(STEP_MS)
        png = self.page.screenshot(type="png", animations="disabled", caret="initial")
        frame = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
        pointer.paste(frame, self.x, self.y)
        self.encoder.write(frame)
        self.captures += 1

    def hold(self, seconds: float) -> None:
        for _ in range(max(1, round(seconds * CAPTURE_FPS))):
            self.capture()

    def glide(self, x: float, y: float) -> None:
        """A smooth, slightly curved, eased path; the real mouse follows, so hover styles show on the way."""
        x0, y0 = self.x, self.y
        distance = math.hypot(x - x0, y - y0)
        if distance < 1:
            return
        steps = max(2, round(min(1.1, 0.3 + distance / 1100) * self.rng.uniform(0.9, 1.15) * CAPTURE_FPS))
        bend = self.rng.uniform(-0.2, 0.2) * distance
        nx, ny = (y0 - y) / distance, (x - x0) / distance
        for i in range(1, steps + 1):
            s = i / steps
            e = s * s * (3 - 2 * s)
            arc = math.sin(math.pi * e) * bend
            self.x, self.y = x0 + (x - x0) * e + nx * arc, y0 + (y - y0) * e + ny * arc
            self.page.mouse.move(self.x, self.y)
            self.capture()

    def approach(self, x: float, y: float) -> None:
        """Go to (x, y), sometimes by way of a detour, as a hand does between actions."""
        if self.rng.random() < 0.35:
            self.glide(self.x + self.rng.uniform(-160, 160), self.y + self.rng.uniform(-90, 90))
        self.glide(x, y)
        self.hold(self.rng.uniform(0.3, 0.6))

    def box(self, selector: str) -> tuple[float, float, float, float]:
        element = self.page.locator(selector).first
        if element.count() == 0:
            raise UserError(f"untouched script: {selector!r} is not on the page")
        element.scroll_into_view_if_needed()
        found = element.bounding_box()
        if not found:
            raise UserError(f"untouched script: {selector!r} is not shown")
        return found["x"], found["y"], found["width"], found["height"]

    def on_label(self, box) -> tuple[float, float]:
        """A spot on an element's words: the arrow then covers some of them."""
        x, y, w, h = box
        return x + w * self.rng.uniform(0.3, 0.55), y + h * self.rng.uniform(0.4, 0.6)

    def in_field(self, box) -> tuple[float, float]:
        x, y, w, h = box
        return x + min(w * 0.5, self.rng.uniform(40, 140)), y + h * self.rng.uniform(0.35, 0.65)

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


_ROLES = {"click": "button", "type": "textbox", "select": "combobox"}


def _record(browser, url: str, script: Script, folder: Path) -> float:
    folder.mkdir(parents=True, exist_ok=True)
    partial_file = folder / f"{script.name}.partial.mp4"
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, device_scale_factor=1)
    encoder = _Encoder(partial_file)
    try:
        page = context.new_page()
        page.clock.install(time=1_767_225_600_000)  # a fixed date: clocks on the page read the same each time
        page.goto(url)
        page.clock.pause_at(1_767_225_601_000)
        take = _Take(page, encoder, random.Random(f"untouched:{script.name}"))
        page.mouse.move(take.x, take.y)
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
    elif kind == "wander":  # the hand drifts while the person explains: no action
        for _ in range(rng.randint(2, 3)):
            take.glide(rng.uniform(180, 1100), rng.uniform(140, 640))
            take.hold(rng.uniform(0.2, 0.6))
    elif kind == "hover":  # the page reacts (a tint, hidden buttons shown), but nothing is done
        box = take.box(step[1])
        take.approach(*take.on_label(box))
        take.hold(rng.uniform(0.9, 1.6))
    elif kind in ("click", "field"):
        _, selector, name = step
        box = take.box(selector)
        take.approach(*(take.on_label(box) if kind == "click" else take.in_field(box)))
        start = take.t
        page.mouse.click(take.x, take.y)
        take.hold(0.3)
        take.log("click", name, "", start, start + 0.3, index, box)
        take.hold(rng.uniform(0.3, 0.8))
    elif kind == "press":
        key = step[1]
        take.hold(rng.uniform(0.3, 0.7))
        start = take.t
        page.keyboard.press(key)
        take.hold(0.3)
        take.log("press", "", key, start, start + 0.3, index)
        take.hold(rng.uniform(0.3, 0.6))
    elif kind == "type":
        _, label, text = step
        if rng.random() < 0.5:  # the hand moves off the field before typing, as many do
            take.glide(take.x + rng.uniform(60, 160), take.y + rng.uniform(30, 110))
        take.hold(rng.uniform(0.2, 0.5))
        start = take.t
        for char in text:
            page.keyboard.type(char)
            take.hold(rng.choice((0.1, 0.1, 0.2, 0.2, 0.3)))
        take.log("type", label, text, start, take.t - 0.1, index, typed_s=round(take.t - 0.1, 3))
        take.hold(rng.uniform(0.3, 0.7))
    elif kind in ("menu_keys", "menu_list"):
        _, selector, name, option = step
        element = page.locator(selector).first
        box = take.box(selector)
        options = element.evaluate("el => [...el.options].map(o => o.text)")
        if option not in options:
            raise UserError(f"untouched script: {option!r} is not an option of {selector!r}: {options}")
        take.approach(*take.on_label(box))
        start = take.t
        element.focus()  # what the press does to a native menu; its list is drawn below, not by the browser
        if kind == "menu_keys":
            take.hold(rng.uniform(0.5, 0.9))
            current = element.evaluate("el => el.selectedIndex")
            for position in range(current + 1, options.index(option) + 1):
                page.evaluate(_PICK, [element.element_handle(), position])
                take.hold(rng.uniform(0.4, 0.7))
        else:
            element.evaluate(_OPEN_LIST)
            take.hold(rng.uniform(0.5, 0.9))
            row = page.locator("#__menu > div").nth(options.index(option))
            found = row.bounding_box()
            take.glide(found["x"] + found["width"] * rng.uniform(0.2, 0.5), found["y"] + found["height"] / 2)
            take.hold(rng.uniform(0.3, 0.6))
            page.evaluate(_CLOSE_LIST)
            page.evaluate(_PICK, [element.element_handle(), options.index(option)])
        take.hold(0.2)
        take.log("select", name, option, start, take.t, index, box)
        take.hold(rng.uniform(0.3, 0.6))
    elif kind == "scroll":
        notches = step[1]
        take.approach(rng.uniform(500, 950), rng.uniform(260, 520))
        start = take.t
        before = page.evaluate("window.scrollY")
        for _ in range(abs(notches)):
            page.mouse.wheel(0, 100 if notches > 0 else -100)
            _settle_scroll(page)
            take.hold(rng.choice((0.1, 0.2)))
        take.actions.append(ActionRecord("scroll", "", "", "down" if notches > 0 else "up", round(start, 3),
                                         round(take.t, 3), index, cursor=[take.x, take.y], scroll_before=before,
                                         scroll_after=page.evaluate("window.scrollY")))  # fmt: skip
        take.hold(rng.uniform(0.4, 0.8))
    else:
        raise UserError(f"untouched script step {step!r}: unknown kind {kind!r}")
