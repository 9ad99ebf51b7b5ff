"""Plays a tutorial script in a real browser page and films it like a person doing it.

Every action really happens in Chromium (real mouse clicks at the drawn
pointer's position, real key presses, real navigations); the film only decides
how long each moment lasts on screen. A screenshot is taken whenever the page
may have changed: after the pointer arrives (hover styles), after each typed
character, after each wheel notch, after a click or a load.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page

from foundation.cdp import capture_screenshot
from foundation.errors import UserError
from foundation.page_settle import PageWatcher, SettleLimits
from tasks.sandbox.tutorials import chrome, pacing
from tasks.sandbox.tutorials.cursor import Point, aim_point, hand_path
from tasks.sandbox.tutorials.dropdown import open_list
from tasks.sandbox.tutorials.film import BrowserFilm
from tasks.sandbox.tutorials.ground_truth import ActionRecord, Cue
from tasks.sandbox.tutorials.script import Step, Target, TutorialScript

# Quick to take and to decode; quality 90 is indistinguishable once the video is encoded.
_SCREENSHOT = {"format": "jpeg", "quality": 90, "optimizeForSpeed": True}
_SETTLE = SettleLimits(grace_ms=60, quiet_timeout_ms=1500, navigation_timeout_ms=30000)

# What a person reads as an element's name on screen, and where it is written: a field's
# visible label, else its placeholder or value; any other element's text that is really drawn
# (text in visually-hidden helpers, such as the word beside an icon-only button, is left out).
_DESCRIBE_JS = """(el, point) => {
  const rect = (r) => [r.x, r.y, r.width, r.height];
  const hidden = (node, stop) => {
    for (let a = node; a && a !== stop.parentElement; a = a.parentElement) {
      const style = getComputedStyle(a);
      const r = a.getBoundingClientRect();
      if (style.visibility === 'hidden' || style.display === 'none' || style.opacity === '0') return true;
      if (style.clip !== 'auto' || (style.overflow === 'hidden' && (r.width <= 1 || r.height <= 1))) return true;
    }
    return false;
  };
  const drawnText = (root) => {
    const parts = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.textContent.trim() && !hidden(node.parentElement, root)) parts.push(node.textContent.trim());
    }
    return parts.join(' ');
  };
  const own = el.getBoundingClientRect();
  let label = '', nameBox = rect(own);
  if (el.matches('input, textarea, select')) {
    const labels = [...(el.labels || [])].filter((l) => !hidden(l, l) && drawnText(l));
    if (labels.length) {
      label = drawnText(labels[0]);
      nameBox = rect(labels[0].getBoundingClientRect());
    } else if (el.tagName === 'SELECT') {
      label = el.selectedIndex >= 0 ? el.options[el.selectedIndex].text.trim() : '';
    } else {
      label = (el.value || el.placeholder || '').trim();
    }
  } else {
    label = drawnText(el);
  }
  const hit = document.elementFromPoint(point[0], point[1]);
  const masked = el.matches('input[type=password]');
  return {box: rect(own), nameBox, label, masked, hit: !!hit && (el === hit || el.contains(hit))};
}"""


class Performer:
    def __init__(
        self, page: Page, film: BrowserFilm, script: TutorialScript, base_url: str, rng: random.Random,
        speech_s: Sequence[float], shown_base: str | None = None,
    ) -> None:
        if len(speech_s) != len(script.steps):
            raise ValueError(f"{len(speech_s)} spoken lengths for {len(script.steps)} steps")
        self.page = page
        self.film = film
        self.script = script
        self.base_url = base_url.rstrip("/")
        # The address the video and its log show for the site (its usual one), whatever port it runs on now, so
        # a recording made on other ports is the same video (tasks/recording_store.py keys it so).
        self.shown_base = (shown_base or base_url).rstrip("/")
        self.rng = rng
        # How long each step's line is heard (voice.py): the step lasts at least that, and its cue is that interval.
        self.speech_s = list(speech_s)
        self.cdp = page.context.new_cdp_session(page)
        self.watcher = PageWatcher(page)
        self.navigations = 0
        page.on("framenavigated", self._on_navigated)
        self.actions: list[ActionRecord] = []
        self.cues: list[Cue] = []
        self.viewport = page.viewport_size or {"width": 1280, "height": 720}
        self._step: Step | None = None

    def _shown(self, url: str | None = None) -> str:
        """`url` (default: the page's) as the video shows it: the site's usual address in place of where it runs."""
        url = self.page.url if url is None else url
        return self.shown_base + url[len(self.base_url) :] if url.startswith(self.base_url) else url

    # ---- the whole script ----

    def play(self) -> None:
        self._open(self.base_url + self.script.start_url)
        self.film.hold(0.6)
        for step in self.script.steps:
            self._step = step
            self._play_step(step)
        self.film.hold(1.0)

    def _play_step(self, step: Step) -> None:
        speech = self.speech_s[step.index]
        started = self.film.t
        self.film.hold(pacing.action_lead(speech))
        getattr(self, f"_do_{step.kind}")(step)
        self.film.hold(max(started + speech + pacing.SENTENCE_GAP_S - self.film.t, pacing.AFTER_ACTION_S))
        self.cues.append(Cue(started, started + speech, step.say))

    # ---- actions ----

    def _do_click(self, step: Step) -> None:
        element, box = self._find(step.target)
        point, info = self._reach(element, box)
        self.film.hold(pacing.uniform(self.rng, pacing.SETTLE_BEFORE_CLICK_S))
        record = self._record("click", step, element, point, info)
        self.film.click()
        before = self._mark()
        self.page.mouse.click(*self._page_point(point))
        self._after(before)
        self._finish(record)

    def _do_hover(self, step: Step) -> None:
        element, box = self._find(step.target)
        point, info = self._reach(element, box)
        record = self._record("hover", step, element, point, info)
        self.film.hold(0.5)
        self._snap()  # hover effects that take a moment (menus, transitions)
        self._finish(record)

    def _do_type(self, step: Step) -> None:
        element, box = self._find(step.target)
        point, info = self._reach(element, box, text_start=True)
        self.film.hold(pacing.uniform(self.rng, pacing.SETTLE_BEFORE_CLICK_S))
        record = self._record("type", step, element, point, info, text=step.text)
        self.film.click()
        self.page.mouse.click(*self._page_point(point))
        self.film.hold(0.15)
        self._snap()
        if step.clear:
            self.page.keyboard.press("Control+A")
            self.film.hold(0.25)
            self._snap()
        previous = ""
        for char in step.text:
            self.film.hold(pacing.key_interval(self.rng, previous))
            self.page.keyboard.type(char)
            self._snap()
            previous = char
        record.extra = {"typed_s": round(self.film.t, 3), "masked": info["masked"]}
        if step.enter:
            self.film.hold(0.3)
            before = self._mark()
            self.page.keyboard.press("Enter")
            self._after(before)
        self._finish(record)

    def _do_select(self, step: Step) -> None:
        element, box = self._find(step.target)
        point, info = self._reach(element, box)
        options = element.evaluate("el => [...el.options].map(o => o.text.trim())")
        if step.text not in options:
            raise self._error(f"the drop-down has no option {step.text!r} (it has {', '.join(options)})")
        self.film.hold(pacing.uniform(self.rng, pacing.SETTLE_BEFORE_CLICK_S))
        record = self._record("select", step, element, point, info, text=step.text)
        self.film.click()
        frame_box = self._frame_box(info["box"])
        listing = open_list(
            frame_box, options, element.evaluate("el => el.selectedIndex"),
            (self.film.width, self.film.height), chrome.HEIGHT,
        )  # fmt: skip
        self.film.show_list(listing)
        self.film.hold(self.rng.uniform(0.35, 0.6))
        row = listing.row_box(options.index(step.text))
        option_point = aim_point(row, self.rng)
        self._move_pointer(option_point, min(row[2], row[3]))
        # The pointer rests on the highlighted option from here until the click.
        record.extra = {
            "option_s": round(self.film.t, 3), "option_box": _rounded(row), "option_cursor": _rounded(option_point)
        }
        self.film.hold(pacing.uniform(self.rng, pacing.SETTLE_BEFORE_CLICK_S))
        self.film.click()
        self.film.show_list(None)
        before = self._mark()
        element.select_option(label=step.text)
        self._after(before)
        self._finish(record)

    def _do_scroll(self, step: Step) -> None:
        self._wheel(step.amount if step.direction == "down" else -step.amount, step)

    def _do_press(self, step: Step) -> None:
        record = ActionRecord(
            "press", "", "", step.text, self.film.t, self.film.t, step.index,
            cursor=_rounded(self.film.cursor), url_before=self._shown(),
        )  # fmt: skip
        before = self._mark()
        self.page.keyboard.press(step.text)
        self._after(before)
        self._finish(record)

    def _do_goto(self, step: Step) -> None:
        url = self.base_url + step.text
        field = chrome.ADDRESS_BOX
        point = aim_point(field, self.rng, text_start=True)
        self._move_pointer(point, field[3])
        self.film.hold(pacing.uniform(self.rng, pacing.SETTLE_BEFORE_CLICK_S))
        record = ActionRecord(
            "goto", "address bar", "textbox", self._shown(url), self.film.t, self.film.t, step.index,
            cursor=_rounded(point), box=[float(v) for v in field], name_box=None,
            label=chrome.display_url(self._shown()), url_before=self._shown(),
        )  # fmt: skip
        self.film.click()
        bar = self.film.bar
        self.film.show_bar(replace(bar, editing=True, typed=chrome.display_url(bar.url), all_selected=True))
        self.film.hold(0.35)
        typed, previous = "", ""
        for char in chrome.display_url(self._shown(url)):
            self.film.hold(0.75 * pacing.key_interval(self.rng, previous))
            typed += char
            self.film.show_bar(replace(self.film.bar, typed=typed, all_selected=False))
            previous = char
        self.film.hold(0.3)
        before = self._mark()
        try:
            self.page.goto(url, wait_until="load")
        except PlaywrightError as exc:
            raise self._error(f"{url} did not open ({str(exc).splitlines()[0]})") from None
        record.extra = {"typed_s": round(self.film.t, 3)}
        self.film.show_bar(replace(self.film.bar, editing=False, typed="", url=self._shown(url)))
        self._after(before, navigated=True)
        self._finish(record)

    def _do_wait(self, step: Step) -> None:
        self.film.hold(step.seconds)

    def _do_idle(self, step: Step) -> None:
        """Small restless movements around where the hand rests."""
        end = self.film.t + step.seconds
        home = self.film.cursor
        while end - self.film.t > 0.3:
            target = (home[0] + self.rng.uniform(-9, 9), home[1] + self.rng.uniform(-7, 7))
            seconds = min(self.rng.uniform(0.3, 0.6), end - self.film.t)
            self.film.move(target, seconds, hand_path(self.film.cursor, target, self.rng))
            self.film.hold(min(self.rng.uniform(0.2, 0.7), max(end - self.film.t, 0)))
        self.film.hold(end - self.film.t)

    def _do_wander(self, step: Step) -> None:
        """Aimless sweeps across the page, as people do while talking; hover effects show where they pass."""
        end = self.film.t + step.seconds
        width, height = self.viewport["width"], self.viewport["height"]
        while end - self.film.t > 0.5:
            target = (self.rng.uniform(60, width - 60), chrome.HEIGHT + self.rng.uniform(60, height - 40))
            distance = math.dist(self.film.cursor, target)
            seconds = min(1.3 * pacing.move_seconds(distance, 40, self.rng), end - self.film.t)
            self.film.move(target, seconds, hand_path(self.film.cursor, target, self.rng))
            self.page.mouse.move(*self._page_point(target))
            self._snap()
            self.film.hold(min(self.rng.uniform(0.2, 0.6), max(end - self.film.t, 0)))
        self.film.hold(end - self.film.t)

    # ---- pieces ----

    def _open(self, url: str) -> None:
        try:
            self.page.goto(url, wait_until="load")
        except PlaywrightError as exc:
            raise UserError(
                f"tutorial {self.script.name}: the start page {url} did not open ({str(exc).splitlines()[0]}); "
                "check that the sandbox site runs"
            ) from None
        self.watcher.settle(_SETTLE)
        self.film.show_bar(chrome.ChromeState(title=self.page.title(), url=self._shown()))
        self._snap()
        self.page.mouse.move(*self._page_point(self.film.cursor))

    def _find(self, target: Target) -> tuple[Locator, dict]:
        """The element, scrolled into view the way a person would (recorded as a scroll)."""
        element = self._locate(target)
        box = element.bounding_box()
        if box is None:
            raise self._error(f"{target.describe()} is not visible on {self.page.url}")
        height = self.viewport["height"]
        if box["y"] < 8 or box["y"] + box["height"] > height - 8:
            reachable = self.page.evaluate(
                "() => [window.scrollY, document.documentElement.scrollHeight - window.innerHeight - window.scrollY]"
            )
            delta = min(max(box["y"] - 0.35 * height, -reachable[0]), reachable[1])
            if abs(delta) >= 20:  # at the very end of a page there is nothing left to scroll
                self._wheel(delta, self._step)
                box = element.bounding_box()
        return element, box

    def _locate(self, target: Target) -> Locator:
        page = self.page
        if target.role:
            by_name = {"name": target.name, "exact": True} if target.name else {}
            found = page.get_by_role(target.role, **by_name)
        elif target.text is not None:
            found = page.get_by_text(target.text, exact=True)
        else:
            found = page.get_by_label(target.label, exact=True)
        found = found.filter(visible=True)
        count = found.count()
        if count <= target.nth:
            raise self._error(f"found {count} of {target.describe()} on {self.page.url}, needed match {target.nth}")
        return found.nth(target.nth)

    def _reach(self, element: Locator, box: dict, text_start: bool = False) -> tuple[Point, dict]:
        """Move the pointer onto the element; returns the point and what the element shows."""
        page_box = (box["x"], box["y"], box["width"], box["height"])
        point = self._frame_point(aim_point(page_box, self.rng, text_start))
        info = element.evaluate(_DESCRIBE_JS, list(self._page_point(point)))
        if not info["hit"]:  # covered there (a border, an overlapping badge): aim at the middle instead
            point = self._frame_point((page_box[0] + page_box[2] / 2, page_box[1] + page_box[3] / 2))
            info = element.evaluate(_DESCRIBE_JS, list(self._page_point(point)))
            if not info["hit"]:
                raise self._error(f"{self._step.target.describe()} is covered by another element")
        self._move_pointer(point, min(page_box[2], page_box[3]))
        self.page.mouse.move(*self._page_point(point))
        self._snap()  # hover style
        return point, info

    def _move_pointer(self, point: Point, target_size: float) -> None:
        distance = math.dist(self.film.cursor, point)
        seconds = pacing.move_seconds(distance, target_size, self.rng)
        self.film.move(point, seconds, hand_path(self.film.cursor, point, self.rng))

    def _wheel(self, delta: float, step: Step | None) -> None:
        """Scroll by `delta` pixels in wheel notches, one screenshot per notch; recorded as a scroll."""
        if self.film.cursor[1] < chrome.HEIGHT + 30:  # the wheel works where the pointer is: over the page
            spot = (self.rng.uniform(400, 900), chrome.HEIGHT + self.rng.uniform(250, 450))
            self._move_pointer(spot, 200)
        before_y = self._scroll_y()
        record = ActionRecord(
            "scroll", "", "", "down" if delta > 0 else "up", self.film.t, self.film.t,
            step.index if step else -1, cursor=_rounded(self.film.cursor), url_before=self._shown(),
            scroll_before=before_y,
        )  # fmt: skip
        notches = max(1, round(abs(delta) / pacing.WHEEL_NOTCH_PX))
        for _ in range(notches):
            self.film.hold(pacing.uniform(self.rng, pacing.WHEEL_INTERVAL_S))
            self.page.evaluate("dy => window.scrollBy(0, dy)", delta / notches)
            self._snap()
        record.scroll_after = self._scroll_y()
        self.page.mouse.move(*self._page_point(self.film.cursor))
        self._snap()  # whatever scrolled under the pointer shows its hover style
        self._finish(record)

    def _record(
        self, kind: str, step: Step, element: Locator, point: Point, info: dict, text: str = ""
    ) -> ActionRecord:
        role = step.target.role or _role_of(element)
        return ActionRecord(
            kind, step.target.spoken_name, role, text, self.film.t, self.film.t, step.index,
            cursor=_rounded(point), box=_rounded(self._frame_box(info["box"])),
            name_box=_rounded(self._frame_box(info["nameBox"])), label=" ".join(info["label"].split()),
            url_before=self._shown(),
        )  # fmt: skip

    def _finish(self, record: ActionRecord) -> None:
        record.end_s = self.film.t
        record.url_after = self._shown()
        self.actions.append(record)

    def _mark(self) -> int:
        self.watcher.mark()
        return self.navigations

    def _after(self, navigations_before: int, navigated: bool = False) -> None:
        """Wait for what the action started; a new page appears after a loading moment, as in a browser."""
        self.watcher.settle(_SETTLE)
        if navigated or self.navigations != navigations_before:
            self.film.show_bar(replace(self.film.bar, loading=True))
            self.film.hold(pacing.uniform(self.rng, pacing.PAGE_LOAD_S))
            self._snap()
            self.film.show_bar(chrome.ChromeState(title=self.page.title(), url=self._shown()))
        else:
            self.film.hold(0.12)
            self._snap()

    def _snap(self) -> None:
        # A request that crossed a navigation's commit can go unanswered: ask again once the page has loaded.
        shot = capture_screenshot(self.cdp, _SCREENSHOT, on_retry=lambda: self.page.wait_for_load_state("load"))
        image = cv2.imdecode(np.frombuffer(shot, np.uint8), cv2.IMREAD_COLOR)
        self.film.show_page(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))

    def _scroll_y(self) -> float:
        return float(self.page.evaluate("() => window.scrollY"))

    def _on_navigated(self, frame) -> None:
        if frame == self.page.main_frame:
            self.navigations += 1

    def _frame_point(self, point: tuple[float, float]) -> Point:
        return (point[0], point[1] + chrome.HEIGHT)

    def _page_point(self, point: Point) -> tuple[float, float]:
        return (point[0], point[1] - chrome.HEIGHT)

    def _frame_box(self, box) -> tuple[float, float, float, float]:
        x, y, w, h = box
        return (x, y + chrome.HEIGHT, w, h)

    def _error(self, problem: str) -> UserError:
        step = f", step {self._step.index + 1}" if self._step else ""
        return UserError(f"tutorial {self.script.path.name}{step}: {problem}; fix the script or the site")


def _role_of(element: Locator) -> str:
    return element.evaluate(
        "el => el.getAttribute('role') || ({A: 'link', BUTTON: 'button', SELECT: 'combobox', TEXTAREA: 'textbox'}"
        "[el.tagName] || (el.tagName === 'INPUT' ? 'textbox' : ''))"
    )


def _rounded(values) -> list[float]:
    return [round(float(v), 1) for v in values]
