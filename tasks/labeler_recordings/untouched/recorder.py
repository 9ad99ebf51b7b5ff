"""The untouched style: the screen captured at 10 fps on the page's own clock, each picture written three times
into a 30 fps H.264 file (a keyframe every 60 frames, no audio), a slate-blue arrow that glides along an eased
curve, sometimes by way of a detour; a native menu's opened list drawn into the page in a plain look of its own.

    <cache>/labeler_untouched/<name>.mp4 / .actions.json / .fingerprint
"""

from __future__ import annotations

from pathlib import Path

from foundation.errors import UserError
from settings import Settings
from tasks.labeler_recordings import recorder
from tasks.labeler_recordings.page_server import page_files
from tasks.labeler_recordings.take import CLOSE_MENU_LIST, PICK_OPTION, ClockTake, settle_scroll
from tasks.labeler_recordings.untouched import scripts
from tasks.recording.encoder import Codec
from tasks.recording.motion import Reach
from tasks.recording.pointer import Arrow
from tasks.recording.style import VideoStyle
from tasks.sandbox.tutorials.ground_truth import ActionRecord

_PAGES = Path(__file__).resolve().parent / "pages"
GOP = 60
# A broad head and a short, thick tail, slate blue (BGR) in a white rim, a soft shadow down and right.
POINTER = Arrow(
    outline=((0, 0), (0, 0.78), (0.2, 0.62), (0.36, 0.95), (0.5, 0.88), (0.35, 0.56), (0.62, 0.54)), height=26,
    fill=(150, 80, 45), rim=(255, 255, 255), rim_px=12, rim_under=True, shadow=(2, 70),
)  # fmt: skip
VIDEO = VideoStyle(
    width=1280, page_height=720, capture_fps=10, repeat=3, pointer=POINTER,
    codec=Codec("bgr24", ("-an", "-c:v", "libx264", "-preset", "veryfast", "-g", str(GOP), "-keyint_min", str(GOP),
                          "-crf", "25", "-pix_fmt", "yuv420p")),
)  # fmt: skip
CAPTURE_FPS, REPEAT, FPS = VIDEO.capture_fps, VIDEO.repeat, VIDEO.fps

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


def _approach(take: ClockTake, x: float, y: float) -> None:
    """Go to (x, y), sometimes by way of a detour, as a hand does between actions."""
    if take.rng.random() < 0.35:
        take.glide(take.x + take.rng.uniform(-160, 160), take.y + take.rng.uniform(-90, 90))
    take.glide(x, y)
    take.hold(take.rng.uniform(0.3, 0.6))


def _on_label(take: ClockTake, box) -> tuple[float, float]:
    """A spot on an element's words: the arrow then covers some of them."""
    x, y, w, h = box
    return x + w * take.rng.uniform(0.3, 0.55), y + h * take.rng.uniform(0.4, 0.6)


def _in_field(take: ClockTake, box) -> tuple[float, float]:
    x, y, w, h = box
    return x + min(w * 0.5, take.rng.uniform(40, 140)), y + h * take.rng.uniform(0.35, 0.65)


def _play(take: ClockTake, step: tuple, index: int) -> None:
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
        _approach(take, *_on_label(take, box))
        take.hold(rng.uniform(0.9, 1.6))
    elif kind in ("click", "field"):
        _, selector, name = step
        box = take.box(selector)
        _approach(take, *(_on_label(take, box) if kind == "click" else _in_field(take, box)))
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
        _approach(take, *_on_label(take, box))
        start = take.t
        element.focus()  # what the press does to a native menu; its list is drawn below, not by the browser
        if kind == "menu_keys":
            take.hold(rng.uniform(0.5, 0.9))
            current = element.evaluate("el => el.selectedIndex")
            for position in range(current + 1, options.index(option) + 1):
                page.evaluate(PICK_OPTION, [element.element_handle(), position])
                take.hold(rng.uniform(0.4, 0.7))
        else:
            element.evaluate(_OPEN_LIST)
            take.hold(rng.uniform(0.5, 0.9))
            row = page.locator("#__menu > div").nth(options.index(option))
            found = row.bounding_box()
            take.glide(found["x"] + found["width"] * rng.uniform(0.2, 0.5), found["y"] + found["height"] / 2)
            take.hold(rng.uniform(0.3, 0.6))
            page.evaluate(CLOSE_MENU_LIST)
            page.evaluate(PICK_OPTION, [element.element_handle(), options.index(option)])
        take.hold(0.2)
        take.log("select", name, option, start, take.t, index, box)
        take.hold(rng.uniform(0.3, 0.6))
    elif kind == "scroll":
        notches = step[1]
        _approach(take, rng.uniform(500, 950), rng.uniform(260, 520))
        start = take.t
        before = page.evaluate("window.scrollY")
        for _ in range(abs(notches)):
            page.mouse.wheel(0, 100 if notches > 0 else -100)
            settle_scroll(page)
            take.hold(rng.choice((0.1, 0.2)))
        take.actions.append(ActionRecord("scroll", "", "", "down" if notches > 0 else "up", round(start, 3),
                                         round(take.t, 3), index, cursor=[take.x, take.y], scroll_before=before,
                                         scroll_after=page.evaluate("window.scrollY")))  # fmt: skip
        take.hold(rng.uniform(0.4, 0.8))
    else:
        raise UserError(f"untouched script step {step!r}: unknown kind {kind!r}")


STYLE = recorder.LabelerStyle(
    key="untouched", name="untouched", video=VIDEO, scripts=scripts.SCRIPTS, pages=lambda: page_files(_PAGES),
    code=(Path(__file__), Path(scripts.__file__), *sorted(_PAGES.glob("*.html"))), take=ClockTake, play=_play,
    start_box=((520, 760), (330, 480)), page_clock_ms=1_767_225_600_000,
    reach=Reach("linear", base_s=0.3, scale=1100, cap_s=1.1, spread=(0.9, 1.15), bend=0.2, ease="smoothstep",
                min_steps=2),
)  # fmt: skip


def folder_of(settings: Settings) -> Path:
    return recorder.folder_of(STYLE, settings)


def record_all(settings: Settings, only: list[str] | None = None, report=print) -> list[recorder.Recording]:
    """Every untouched recording, recording those missing or made by older code first."""
    return recorder.record_all(STYLE, settings, only, report)
