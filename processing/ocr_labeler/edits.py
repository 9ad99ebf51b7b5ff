"""Ink after a click: typed letters, an opened list, a button's new state.

After each click, new ink in a zone around it (an opened list hangs below or above the
control; typed text stays in the field) is gathered into an `Edit` until the screen is
quiet for `typing_quiet_s`, a new page or a scroll comes, or the next click. Ink that
is typing-sized (a few letters of one line) and inside the clicked field counts as
typing; for those edits the field is kept as it looked before the click and after the
last keystroke, to be read and compared later.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from processing.ocr_labeler.frames import Box, Frame, box_around, clip_box, grow, inside, overlaps, union
from processing.ocr_labeler.observation import ClickView, Edit, FrameFacts, Picture
from processing.ocr_labeler.ring import MAX_RADIUS
from settings.schema import OcrLabelerSettings

EDIT_ZONE = (700, 330, 900, 460)  # left, up, right, down of the click's tip (pixels at 1280 wide)
TYPED_INK = (90, 44)  # most a frame's typed ink spans (pixels): a few letters of one line
HOVER_REACH = 50  # changes this close to a pointer that left the click spot are hover effects
LEFT_SPOT = 30  # pixels: the pointer is this far from the click spot, so it has moved on
RING_LIFE_S = 0.6  # a click highlight is gone by then


class _Open:
    def __init__(self, click: int, box: Box, facts: FrameFacts, typed: bool) -> None:
        self.click, self.box, self.first_box = click, box, box
        self.first_s = self.last_s = self.typed_s = facts.time_s
        self.first_typed_s = facts.time_s if typed else None
        self.frames, self.field_frames = 1, int(typed)
        self.last_typed_index = facts.index

    @classmethod
    def typed_before(cls, click: int, focus: KeyboardFocus) -> _Open:
        """An edit whose first letters were seen before its field was known (typing after Tab)."""
        opened = cls.__new__(cls)
        opened.click, opened.box, opened.first_box = click, focus.boxes[0], focus.boxes[0]
        for box in focus.boxes[1:]:
            opened.box = union(opened.box, box)
        opened.first_s, opened.first_typed_s = focus.first_s, focus.first_s
        opened.last_s = opened.typed_s = focus.last_s
        opened.frames = opened.field_frames = len(focus.boxes)
        opened.last_typed_index = focus.last_index
        return opened


KEYS_ROW_PX = 14  # typed letters in another field: the ink's rows agree this closely from frame to frame
KEYS_STEP_S = 0.7  # and each frame's new letters come this soon after the last


@dataclass
class KeyboardFocus:
    """Letters appearing, one frame after another, in a field the last click did not touch (Tab moved there)."""

    first_index: int  # the frame of the first letters
    first_s: float
    point: tuple[float, float]  # where the first letters appeared
    boxes: list[Box]
    last_s: float
    last_index: int


class EditWatch:
    def __init__(
        self,
        settings: OcrLabelerSettings,
        size: tuple[int, int],
        frame_at: Callable[[int], Frame | None],
        unpointed: Callable[[Frame], np.ndarray],
    ) -> None:
        self.settings = settings
        self.width, self.height = size
        self.scale = self.width / 1280
        self.frame_at = frame_at  # a recent frame by index, while it is in the buffer
        self.unpointed = unpointed  # a frame's pixels without the pointer
        self.edits: list[Edit] = []
        self._click: ClickView | None = None
        self._click_number = -1
        self._click_image: np.ndarray | None = None  # the pointer-free screen before the click
        self._open: _Open | None = None
        self._stray: KeyboardFocus | None = None

    def clicked(self, number: int, click: ClickView, image: np.ndarray, focus: KeyboardFocus | None = None) -> None:
        """A new click: what was being edited is over. With `focus`, the letters already seen are its first edit."""
        self.close("click")
        self._click, self._click_number, self._click_image = click, number, image
        self._stray = None
        if focus is not None:
            self._open = _Open.typed_before(number, focus)

    def keyboard_focus(self, facts: FrameFacts) -> KeyboardFocus | None:
        """Typed letters somewhere the last click's field is not, far from the pointer, growing to the right.

        Three frames of typing-sized ink on one row, each reaching further right than the
        last, each within `KEYS_STEP_S` of the one before: text typed after the keyboard
        moved the focus (Tab). A spinner turns in place and a toast shows at once, so
        neither grows like this.
        """
        if facts.page or facts.shift is not None:
            self._stray = None
            return None
        s = self.scale
        field = grow(self._click.field, 4) if self._click is not None else None
        candidates = []
        for box in facts.content:
            small = box[2] - box[0] <= TYPED_INK[0] * s and box[3] - box[1] <= TYPED_INK[1] * s
            if not small or (field is not None and overlaps(box, field)):
                continue
            if facts.pointer is not None and overlaps(box, grow(box_around(facts.pointer, 0, 0, 1, 1), int(HOVER_REACH * s))):
                continue
            candidates.append(box)
        stray = self._stray
        if stray is not None and facts.time_s - stray.last_s > KEYS_STEP_S:
            stray = self._stray = None
        for box in candidates:
            if stray is None:
                centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
                self._stray = KeyboardFocus(facts.index, facts.time_s, centre, [box], facts.time_s, facts.index)
                return None
            last = stray.boxes[-1]
            if abs((box[1] + box[3]) / 2 - (last[1] + last[3]) / 2) <= KEYS_ROW_PX * s and box[2] > last[2] + 2:
                stray.boxes.append(box)
                stray.last_s, stray.last_index = facts.time_s, facts.index
                if len(stray.boxes) >= 3:
                    self._stray = None
                    return stray
                return None
        return None

    def typing_in_field(self, box: Box) -> bool:
        """`box` is typing-sized ink inside the field the last click went into (a key's doing, not a click's)."""
        click = self._click
        if click is None:
            return False
        s = self.scale
        small = box[2] - box[0] <= TYPED_INK[0] * s and box[3] - box[1] <= TYPED_INK[1] * s
        return small and inside(box, grow(click.field, 4))

    def follow(self, facts: FrameFacts, page: bool) -> None:
        if page or facts.shift is not None:
            self.close("page" if page else "scroll")
            if page:
                self._click = None  # ink on the new page is no answer to a click on the old one
            return
        ink, typed = self._ink(facts)
        current = self._open
        if ink is not None:
            if current is None:
                self._open = _Open(self._click_number, ink, facts, typed)
            else:
                current.box = union(current.box, ink)
                current.last_s = facts.time_s
                current.frames += 1
                if typed:
                    if current.first_typed_s is None:
                        current.first_typed_s = facts.time_s
                    current.field_frames += 1
                    current.typed_s, current.last_typed_index = facts.time_s, facts.index
        elif current is not None and facts.time_s - current.last_s >= self.settings.typing_quiet_s:
            self.close("quiet")

    def close(self, reason: str) -> None:
        current, self._open = self._open, None
        if current is None:
            return
        edit = Edit(current.click, current.box, current.first_box, current.first_s, current.last_s, current.frames,
                    current.field_frames, current.typed_s, reason, first_typed_s=current.first_typed_s)  # fmt: skip
        self.edits.append(edit)
        last = self.frame_at(current.last_typed_index)
        if edit.field_frames and self._click is not None and self._click_image is not None and last is not None:
            region = clip_box(grow(self._click.field, 4), self.width, self.height)
            edit.before = Picture.of(self._click_image, region)
            edit.after = Picture.of(self.unpointed(last), region)

    def _ink(self, facts: FrameFacts) -> tuple[Box | None, bool]:
        """New ink in the click's zone this frame, and whether some of it is typing-sized ink in its field.

        Left out: hover effects around a pointer that moved on, and the click's own highlight.
        """
        click = self._click
        if click is None or not facts.content:
            return None, False
        s = self.scale
        zone = box_around(click.point, *(int(v * s) for v in EDIT_ZONE))
        field = grow(click.field, 4)
        away = facts.pointer is not None and math.dist(facts.pointer, click.point) > LEFT_SPOT * s
        hover = grow(box_around(facts.pointer, 0, 0, 1, 1), int(HOVER_REACH * s)) if away and facts.pointer else None
        highlight = grow(box_around(click.point, 0, 0, 1, 1), MAX_RADIUS + 6)
        fresh = click.evidence == "ring" and facts.time_s - click.time_s <= RING_LIFE_S
        found: Box | None = None
        typed = False
        for box in facts.content:
            if not overlaps(box, zone) or (hover is not None and overlaps(box, hover)):
                continue
            if fresh and inside(box, highlight):
                continue
            found = union(found, box)
            small = box[2] - box[0] <= TYPED_INK[0] * s and box[3] - box[1] <= TYPED_INK[1] * s
            typed = typed or (small and inside(box, field))
        return found, typed
