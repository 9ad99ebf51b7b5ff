"""The sealed style: the screen captured at 15 fps on the page's own clock, each picture written twice into a
30 fps file (H.264 at another quality, a keyframe every 60 frames, B-frames, no audio).

What else differs from the untouched style: the pointer (a black-rimmed white arrow) and how
it moves: minimum-jerk strokes that overshoot a little and correct, a one-pixel tremor now
and then while resting, a press held for two pictures, keys pressed for real (arrow keys
step a native menu), and a wheel of 120 pixels a notch turned wherever the hand happens to
be. A native menu's opened list is drawn into the page (a headless browser shows none) in a
look of its own. Every element a step names must already be in view.

    <cache>/labeler_sealed/<name>.mp4 / .actions.json / .fingerprint
"""

from __future__ import annotations

import math
from pathlib import Path

from foundation.errors import UserError
from settings import Settings
from tasks.labeler_recordings import recorder
from tasks.labeler_recordings.page_server import page_files
from tasks.labeler_recordings.sealed import scripts
from tasks.labeler_recordings.take import CLOSE_MENU_LIST, PICK_OPTION, ClockTake, settle_scroll
from tasks.recording.encoder import Codec
from tasks.recording.motion import Reach
from tasks.recording.pointer import Arrow
from tasks.recording.style import VideoStyle
from tasks.sandbox.tutorials.ground_truth import ActionRecord

_PAGES = Path(__file__).resolve().parent / "pages"
GOP = 60
NOTCH_PX = 120
# A narrow head and a long, thin tail: white in a black rim, no shadow.
POINTER = Arrow(
    outline=((0, 0), (0, 0.9), (0.22, 0.7), (0.38, 1.0), (0.48, 0.95), (0.33, 0.66), (0.6, 0.66)), height=21,
    fill=(255, 255, 255), rim=(0, 0, 0), rim_px=6, pad=3, margin=2,
)  # fmt: skip
VIDEO = VideoStyle(
    width=1280, page_height=720, capture_fps=15, repeat=2, pointer=POINTER,
    codec=Codec("bgr24", ("-an", "-c:v", "libx264", "-preset", "fast", "-g", str(GOP), "-keyint_min", str(GOP),
                          "-bf", "2", "-crf", "28", "-pix_fmt", "yuv420p")),
)  # fmt: skip
CAPTURE_FPS, REPEAT, FPS = VIDEO.capture_fps, VIDEO.repeat, VIDEO.fps
WIDTH, HEIGHT = VIDEO.width, VIDEO.page_height

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


def _approach(take: ClockTake, x: float, y: float) -> None:
    """Go to (x, y): past it by a few pixels on long moves, then back, as a hand aiming at a target does."""
    distance = math.hypot(x - take.x, y - take.y)
    if distance > 200 and take.rng.random() < 0.6:
        over = min(14.0, 0.05 * distance) * take.rng.uniform(0.6, 1.0)
        take.glide(x + (x - take.x) / distance * over, y + (y - take.y) / distance * over)
    take.glide(x, y)
    take.hold(take.rng.uniform(0.25, 0.55))


def _on_label(take: ClockTake, box) -> tuple[float, float]:
    """A spot on an element's words, a little left of the middle: the arrow covers part of them."""
    x, y, w, h = box
    return x + w * take.rng.uniform(0.25, 0.5), y + h * take.rng.uniform(0.35, 0.65)


def _in_field(take: ClockTake, box) -> tuple[float, float]:
    x, y, w, h = box
    return x + min(w * 0.6, take.rng.uniform(30, 170)), y + h * take.rng.uniform(0.3, 0.7)


def _press_mouse(take: ClockTake, real: bool = True) -> float:
    """A click whose button stays down for two pictures; returns when it went down.

    Not `real` on a native menu: a headless browser's menu pop-up is never drawn and would take the keys.
    """
    start = take.t
    if real:
        take.page.mouse.down()
    take.capture()
    take.capture()
    if real:
        take.page.mouse.up()
    return start


def _play(take: ClockTake, step: tuple, index: int) -> None:
    rng, page = take.rng, take.page
    kind = step[0]
    if kind == "pause":
        take.hold(step[1])
    elif kind == "wander":  # the hand drifts about while the person explains: no action
        for _ in range(rng.randint(2, 4)):
            take.glide(take.x + rng.uniform(-260, 260), take.y + rng.uniform(-150, 150))
            take.x, take.y = min(max(take.x, 60), WIDTH - 60), min(max(take.y, 90), HEIGHT - 60)
            take.hold(rng.uniform(0.15, 0.5))
    elif kind == "hover":  # the page reacts (a tint, a tool tip, buttons shown), but nothing is done
        _approach(take, *_on_label(take, take.box(step[1])))
        take.hold(rng.uniform(0.8, 1.5))
    elif kind in ("click", "field"):
        _, selector, name = step
        box = take.box(selector)
        _approach(take, *(_on_label(take, box) if kind == "click" else _in_field(take, box)))
        start = _press_mouse(take)
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
        _approach(take, *_on_label(take, box))
        start = _press_mouse(take, real=False)
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
            take.glide(found["x"] + found["width"] * rng.uniform(0.15, 0.45), found["y"] + found["height"] / 2)
            take.hold(rng.uniform(0.2, 0.45))
            _press_mouse(take, real=False)
            page.evaluate(CLOSE_MENU_LIST)
            page.evaluate(PICK_OPTION, [element.element_handle(), options.index(option)])
        take.capture()
        take.log("select", name, option, start, take.t, index, box)
        take.hold(rng.uniform(0.4, 0.7))
    elif kind == "scroll":
        notches = step[1]
        take.glide(take.x + rng.uniform(-80, 80), min(max(take.y + rng.uniform(-60, 60), 150), HEIGHT - 80))
        take.hold(rng.uniform(0.2, 0.4))
        start = take.t
        before = page.evaluate("window.scrollY")
        for _ in range(abs(notches)):
            page.mouse.wheel(0, NOTCH_PX if notches > 0 else -NOTCH_PX)
            settle_scroll(page)
            take.hold(rng.choice((1, 1, 2, 3)) / CAPTURE_FPS)
        after = page.evaluate("window.scrollY")
        take.actions.append(ActionRecord("scroll", "", "", "down" if notches > 0 else "up", round(start, 3),
                                         round(take.t, 3), index, cursor=[round(take.x, 1), round(take.y, 1)],
                                         scroll_before=before, scroll_after=after))  # fmt: skip
        take.hold(rng.uniform(0.5, 0.9))
    else:
        raise UserError(f"sealed script step {step!r}: unknown kind {kind!r}")


STYLE = recorder.LabelerStyle(
    key="sealed", name="sealed", video=VIDEO, scripts=scripts.SCRIPTS, pages=lambda: page_files(_PAGES),
    code=(Path(__file__), Path(scripts.__file__), *sorted(_PAGES.glob("*.html"))), take=ClockTake, play=_play,
    start_box=((380, 900), (250, 520)), edge_hold_s=1.2, page_clock_ms=1_780_000_000_000, tremor=0.12,
    scroll_to_targets=False,
    reach=Reach("fitts", base_s=0.25, scale=0.11, target_px=24, spread=(0.9, 1.2), bend=0.12, ease="minimum-jerk",
                min_steps=2),
)  # fmt: skip


def folder_of(settings: Settings) -> Path:
    return recorder.folder_of(STYLE, settings)


def record_all(settings: Settings, only: list[str] | None = None, report=print) -> list[recorder.Recording]:
    """Every sealed recording, recording those missing or made by older code first."""
    return recorder.record_all(STYLE, settings, only, report)
