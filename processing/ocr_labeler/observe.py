"""The labeler's one streaming pass over a video: what happened in each frame, and views of key moments.

Per analysed frame it records where the pointer is, what changed apart from the
pointer and click highlights, whether the page scrolled, and whether a click
highlight appeared (`FrameFacts`). While the frames are still in the short buffer it
keeps pointer-free pictures of the moments that matter:
- a click (a highlight ring, or without highlights a change near a resting pointer):
  the screen around the tip just before it (`ClickView`);
- edits after a click, typing above all (`edits.EditWatch`);
- hovers (`rests.RestWatch`);
- the browser's address, found once by reading the top of the screen: a new page changes
  it, so a new page in the same layout as the last (search results, a re-sorted list)
  is told from a change within a page.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from processing.ocr_labeler.changes import CELL, Change, frame_change
from processing.ocr_labeler.edits import EditWatch, KeyboardFocus
from processing.ocr_labeler.events import KEY_CHANGE_AREA
from processing.ocr_labeler.frames import Box, Frame, FrameBuffer, box_around, clip_box, grow, overlaps, stream, union
from processing.ocr_labeler.naming import find_control
from processing.ocr_labeler.observation import ClickView, FrameFacts, Observation, Picture
from processing.ocr_labeler.ocr import TextReader
from processing.ocr_labeler.pointer import PointerHit, PointerTracker, sprite_box, sprite_mask
from processing.ocr_labeler.rests import STILL_PX, RestWatch
from processing.ocr_labeler.ring import MAX_RADIUS, ring_appeared
from processing.ocr_labeler.scroll import vertical_shift
from processing.ocr_labeler.typed_text import url_in
from processing.ocr_labeler.unpointed import pointer_free
from foundation.video_io import probe
from settings.schema import OcrLabelerSettings

RING_LIFE_S = 0.6  # a click highlight is gone by then; its pixels are not page changes
DWELL_S = 0.15  # resting this long before the screen changes near it reads as a click (no highlights)
# Where a change counts as caused by a click at the tip (left, up, right, down): fields are wide, and
# the caret or the first letter shows at a field's left end, wherever in it the click was.
DWELL_REACH = (320, 60, 320, 60)
NEAR_ANSWER_S = 2.0  # a change within that reach is a click's answer this soon after the pointer came to rest
FAR_ANSWER_S = 1.0  # a change beyond that reach is a click's answer only this soon after the pointer came to rest
SAME_CLICK_S, SAME_SPOT_PX = 1.5, 24  # a change this soon after a click this near it is that click's answer
FAR_ANSWER_MIN_PX = 12  # and only when it is at least this tall and wide (a line of text, not a speck)
SCROLL_MIN_FRACTION = 0.05  # a change smaller than this share of the frame is not tested for scrolling
# Around a click: the rows kept (up, down), tall enough for a wrapped link, and the area whose
# lines are read (left, up, right, down), wide enough for the nearest text beside a radio button.
CLICK_BAND = (70, 80)
CLICK_FOCUS = (300, 40, 300, 70)
LABEL_ROOM = (200, 36)  # left of and above a control, where its label would be
TOP_BAND = 0.12  # the top share of the frame, where a browser's address field would be
ADDRESS_TRIES = 4  # frames read to find the address (the first, then at the first clicks)
ADDRESS_PAGE_FRACTION = 0.02  # with the address changed, this share of the frame changing is a new page
# A caret is a bar one or two change cells wide and several times as tall; a typed letter moves it, so a
# letter's change is wider than this.
CARET_MAX_W, CARET_TALL = 8, 2.5
CARET_COLUMNS = 3  # pixel columns a caret's change spans at most


class Observer:
    def __init__(self, settings: OcrLabelerSettings, width: int, height: int) -> None:
        self.settings = settings
        self.width, self.height = width, height
        self.scale = width / 1280  # pixel distances are tuned at 1280 wide
        self.tracker = PointerTracker(settings.cursor_min_score)
        self.buffer = FrameBuffer(settings.buffer_s, settings.analysis_fps)
        self.facts: list[FrameFacts] = []
        self.clicks: list[ClickView] = []
        self.reader = TextReader(settings.ocr_min_score)
        self.address: Box | None = None
        self._address_tries = 0
        self.edits = EditWatch(settings, (width, height), self.buffer.get, self._unpointed)
        self.rests = RestWatch(settings, self.scale, lambda frame, hit: self._view(self._unpointed(frame, hit), hit))
        self._hits: dict[int, PointerHit | None] = {}  # pointer per buffered frame
        self._previous: Frame | None = None
        self._rest_since: float | None = None  # when the pointer last came to rest (dwell clicks)
        self._dwell_used = False  # the current rest already produced a dwell click

    def _px(self, values: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(int(v * self.scale) for v in values)

    # ---- the pass ----

    def feed(self, frame: Frame) -> None:
        self.buffer.push(frame)
        previous, self._previous = self._previous, frame
        if previous is None:
            self._find_address(frame.bgr())
            hit = self.tracker.update(frame.luma, [], first=True)
            self._record(FrameFacts(frame.index, frame.time_s, hit and hit.point, None, (), 0.0, None, False), hit)
            return
        change = frame_change(frame, previous, self.settings.change_noise)
        hit = self.tracker.update(frame.luma, list(change.boxes))
        before = self._hits.get(previous.index)
        ignored = [sprite_box(h, margin=3) for h in (hit, before) if h is not None] + self._highlights(frame.time_s)
        content = tuple(box for box in change.outside(ignored) if not self._caret(box, frame, previous))
        fraction = _fraction_outside(change, ignored) if content else 0.0
        shift = vertical_shift(frame.luma, previous.luma, change) if fraction >= SCROLL_MIN_FRACTION else None
        moved = math.dist(hit.point, before.point) if hit is not None and before is not None else None
        ring = hit is not None and before is not None and self._ring(frame, previous, change, hit, before)
        page = shift is None and self._new_page(fraction, content)
        facts = FrameFacts(frame.index, frame.time_s, hit and hit.point, moved, content, fraction, shift, ring, page)
        self._record(facts, hit)
        if ring:
            self._dwell_used = True  # this rest's click is found: what the page does next is its response
            self._click(frame.index, frame.time_s, previous, hit, "ring")
        elif self._dwell_click(facts, page):
            self._click(frame.index, frame.time_s, previous, hit, "dwell")
        self.edits.follow(facts, page)  # what a click shows at once (an opened list) is already its edit
        focus = self.edits.keyboard_focus(facts)
        if focus is not None:
            self._keys(focus)
        if not ring:
            self.rests.follow(frame, facts, self.facts[-2], hit)

    def finish(self) -> Observation:
        self.edits.close("end")
        if self.facts:
            self.rests.finish(self.facts[-1].time_s)
        duration = self.facts[-1].time_s if self.facts else 0.0
        return Observation(
            self.width, self.height, duration, self.facts, self.clicks, self.edits.edits, self.rests.hovers,
            self.address, self.reader,
        )  # fmt: skip

    # ---- clicks ----

    def _ring(self, frame: Frame, previous: Frame, change: Change, hit: PointerHit, before: PointerHit) -> bool:
        """A click highlight appeared around a pointer that stayed put."""
        if self.settings.click_evidence == "dwell" or math.dist(hit.point, before.point) > 2:
            return False
        if self._highlights(frame.time_s):
            return False  # the last click's highlight is still spreading out there
        if not change.near(grow(box_around(hit.point, 0, 0, 1, 1), MAX_RADIUS + 6)):
            return False
        shape = (frame.height, frame.width)
        return ring_appeared(frame, previous, hit.point, sprite_mask(hit, shape) | sprite_mask(before, shape)) is not None

    def _dwell_click(self, facts: FrameFacts, page: bool) -> bool:
        """A change at or near a resting pointer, the first since it came to rest (only without highlights)."""
        mode = self.settings.click_evidence
        if mode == "ring":
            return False
        if facts.pointer is None or facts.moved is None or facts.moved > STILL_PX:
            self._rest_since, self._dwell_used = None, False
            return False
        if self._rest_since is None:
            self._rest_since = facts.time_s
        # A new page needs no rest first: the hand that clicked stopped only for the press, and at a low
        # capture rate that may be a single frame.
        rested = facts.time_s - self._rest_since >= DWELL_S or page
        if self._dwell_used or not rested or facts.shift is not None:
            return False
        reach = box_around(facts.pointer, *self._px(DWELL_REACH))
        answers = [box for box in facts.content if not self.edits.typing_in_field(box)]  # keys typed are no click
        # After a long rest, a change beside the hand is the keyboard's (Tab moving the focus to the next
        # field), and so is a large one under it (Escape closing the dialog it rests on); a click then
        # shows under the tip.
        if facts.time_s - self._rest_since > NEAR_ANSWER_S:
            tip = box_around(facts.pointer, 0, 0, 1, 1)
            near = any(overlaps(box, tip) and not self._large(box) for box in answers)
        else:
            near = any(overlaps(box, reach) for box in answers)
        # A click's answer may show far from the button (a status line, a list filled in): right after the
        # hand came to rest, a change anywhere that is more than a speck counts too.
        far = facts.time_s - self._rest_since <= FAR_ANSWER_S and any(self._sizeable(box) for box in answers)
        if not (page or near or far):
            return False
        self._dwell_used = True
        # The page still answering the click just made here (a loading page filled in, the pointer redrawn
        # as an arrow over it) is no second click.
        last = self.clicks[-1] if self.clicks else None
        if last is None:
            return True
        same_spot = math.dist(last.point, facts.pointer) <= SAME_SPOT_PX * self.scale
        return not (facts.time_s - last.time_s <= SAME_CLICK_S and same_spot)

    def _large(self, box: Box) -> bool:
        return (box[2] - box[0]) * (box[3] - box[1]) >= KEY_CHANGE_AREA * self.width * self.height

    def _sizeable(self, box: Box) -> bool:
        return min(box[2] - box[0], box[3] - box[1]) >= FAR_ANSWER_MIN_PX * self.scale

    def _click(self, index: int, time_s: float, previous: Frame, hit: PointerHit | None, evidence: str) -> None:
        assert hit is not None
        self.rests.clicked()
        image = self._unpointed(previous, self._hits.get(previous.index) or hit)
        picture, control = self._view(image, hit)
        if self.address is None:  # the first frames may have been a title card
            self._find_address(image)
        click = ClickView(index, time_s, hit.point, evidence, picture, control)
        self.clicks.append(click)
        self.edits.clicked(len(self.clicks) - 1, click, image)

    def _keys(self, focus: KeyboardFocus) -> None:
        """Typing moved to another field by the keyboard: a click-like view of that field, from before its letters."""
        before = self.buffer.get(focus.first_index - 1)
        if before is None:
            return
        spot = PointerHit(focus.point[0], focus.point[1], 0.0, -1)
        image = self._unpointed(before)
        picture, control = self._view(image, spot)
        click = ClickView(focus.first_index, focus.first_s, spot.point, "keys", picture, control)
        self.clicks.append(click)
        self.edits.clicked(len(self.clicks) - 1, click, image, focus)

    def _view(self, image: np.ndarray, hit: PointerHit) -> tuple[Picture, Box | None]:
        """The picture kept around the tip (rows around it, lines near it to be read), and the control it is in."""
        patch = grow(sprite_box(hit), 3) if hit.template >= 0 or hit.sprite is not None else None
        control = find_control(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), hit.point, (0, 0), patch)
        up, down = self._px(CLICK_BAND)
        crop = (0, int(hit.y) - up, self.width, int(hit.y) + down)  # whole rows: long lines are read whole
        focus = box_around(hit.point, *self._px(CLICK_FOCUS))
        if control is not None:  # the whole control, and where its label would be
            room_x, room_y = self._px(LABEL_ROOM)
            crop = union(crop, (0, control[1] - room_y, self.width, control[3]))
            focus = union(focus, (control[0] - room_x, control[1] - room_y, control[2], control[3]))
        return Picture.of(image, clip_box(crop, self.width, self.height), focus), control

    def _highlights(self, time_s: float) -> list[Box]:
        """Where recent click highlights are still drawn."""
        areas = []
        for click in reversed(self.clicks):
            if time_s - click.time_s > RING_LIFE_S:
                break
            if click.evidence == "ring":
                areas.append(grow(box_around(click.point, 0, 0, 1, 1), MAX_RADIUS + 6))
        return areas

    # ---- helpers ----

    def _caret(self, box: Box, frame: Frame, previous: Frame) -> bool:
        """A thin upright bar: a text caret blinking, which is no change of the page (a letter typed is wider)."""
        width, height = box[2] - box[0], box[3] - box[1]
        if width > CARET_MAX_W * self.scale or height < CARET_TALL * width:
            return False
        x0, y0, x1, y1 = box
        diff = cv2.absdiff(frame.luma[y0:y1, x0:x1], previous.luma[y0:y1, x0:x1]) > 2 * self.settings.change_noise
        return int(diff.any(axis=0).sum()) <= CARET_COLUMNS

    def _unpointed(self, frame: Frame, hit: PointerHit | None = None) -> np.ndarray:
        return pointer_free(frame, hit or self._hits.get(frame.index), self.buffer, self._hits.get)

    # ---- pages ----

    def _new_page(self, fraction: float, content: tuple[Box, ...]) -> bool:
        if fraction >= self.settings.page_change_fraction:
            return True
        address = self.address
        return address is not None and fraction >= ADDRESS_PAGE_FRACTION and any(overlaps(b, address) for b in content)

    def _find_address(self, image: np.ndarray) -> None:
        """The rows of the longest URL-like text at the top of the screen (tried on a few frames at most)."""
        if self._address_tries >= ADDRESS_TRIES:
            return
        self._address_tries += 1
        band = Picture.of(image, (0, 0, self.width, int(TOP_BAND * self.height)))
        texts = [t for t in self.reader.read_picture(band.png, band.image, band.box, None) if url_in([t])]
        if texts:
            line = max(texts, key=lambda t: len(t.text))
            self.address = (0, line.box[1], self.width, line.box[3])

    def _record(self, facts: FrameFacts, hit: PointerHit | None) -> None:
        self.facts.append(facts)
        self._hits[facts.index] = hit
        self._hits.pop(facts.index - len(self.buffer.recent()) - 2, None)


def _fraction_outside(change: Change, ignored: list[Box]) -> float:
    if not ignored:
        return change.fraction
    cells = change.cells.copy()
    for x0, y0, x1, y1 in ignored:
        cells[max(0, y0 // CELL) : max(0, y1 // CELL + 1), max(0, x0 // CELL) : max(0, x1 // CELL + 1)] = False
    return float(cells.mean())


def observe(path: str | Path, settings: OcrLabelerSettings) -> Observation:
    """Run the streaming pass over the video at `path`."""
    info = probe(path)
    observer = Observer(settings, info.width - info.width % 2, info.height - info.height % 2)
    for frame in stream(path, settings.analysis_fps, info):
        observer.feed(frame)
    observation = observer.finish()
    observation.duration_s = info.duration_s
    return observation
