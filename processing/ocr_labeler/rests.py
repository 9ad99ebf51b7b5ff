"""Hovers: the pointer moved somewhere, the page reacted under it, and it stayed there without clicking.

The pointer arrives when it comes to rest at least `HOVER_TRAVEL_PX` from where it last
rested (smaller moves are a hand adjusting). The page reacted when something changed
near the tip within `HOVER_REACTION_S` of the arrival (an underline, a tint). A rest
that lasts `hover_dwell_s` is kept (the view of the spot is taken then, while the frames
from before the arrival are still buffered) and becomes a hover when the pointer moves
on; a click during the rest makes it a click instead. Whether the reaction went away as
the pointer left is checked when the actions are assembled.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from processing.ocr_labeler.frames import Box, Frame, box_around, grow, overlaps
from processing.ocr_labeler.observation import ClickView, FrameFacts, Picture
from processing.ocr_labeler.pointer import PointerHit
from settings.schema import OcrLabelerSettings

STILL_PX = 3.0  # the pointer moved less than this between frames: it is resting
HOVER_STAY_PX = 14  # a resting hand drifts this far and still rests
HOVER_TRAVEL_PX = 40  # a move shorter than this is an adjustment, not a visit somewhere new
HOVER_REACTION_S = 0.4  # the page reacts to the pointer within this long of its arrival
REACTION_REACH = 50  # pixels from the tip where a change counts as the page reacting


@dataclass
class _Rest:
    index: int
    time_s: float
    point: tuple[float, float]
    reacted: bool
    picture: Picture | None = None  # taken once it has rested long enough
    control: Box | None = None


class RestWatch:
    def __init__(
        self, settings: OcrLabelerSettings, scale: float, view: Callable[[Frame, PointerHit], tuple[Picture, Box | None]]
    ) -> None:
        self.settings = settings
        self.scale = scale
        self.view = view  # the kept picture around the tip, and the control it is in
        self.hovers: list[ClickView] = []
        self._rest: _Rest | None = None
        self._settled: tuple[float, float] | None = None  # where the pointer last came to rest

    def follow(self, frame: Frame, facts: FrameFacts, previous: FrameFacts, hit: PointerHit | None) -> None:
        if hit is None or facts.pointer is None:
            self.finish(facts.time_s)
            return
        rest = self._rest
        if rest is not None and math.dist(facts.pointer, rest.point) > HOVER_STAY_PX * self.scale:
            self.finish(facts.time_s)
            rest = None
        if rest is not None:
            if facts.time_s - rest.time_s <= HOVER_REACTION_S and self._reacted(facts, rest.point):
                rest.reacted = True
            if rest.reacted and rest.picture is None and facts.time_s - rest.time_s >= self.settings.hover_dwell_s:
                rest.picture, rest.control = self.view(frame, hit)
            return
        if facts.moved is None or facts.moved > STILL_PX:
            return
        if self._settled is not None and math.dist(facts.pointer, self._settled) < HOVER_TRAVEL_PX * self.scale:
            return  # still where it settled last, or a small adjustment
        arrived = self._settled is not None
        self._settled = facts.pointer
        if arrived:
            reacted = self._reacted(facts, facts.pointer) or self._reacted(previous, facts.pointer)
            self._rest = _Rest(frame.index, facts.time_s, facts.pointer, reacted)

    def clicked(self) -> None:
        """A rest that ends in a click is no hover."""
        self._rest = None

    def finish(self, time_s: float) -> None:
        """The pointer moved on (or the video ended) at `time_s`."""
        rest, self._rest = self._rest, None
        if rest is not None and rest.picture is not None:
            self.hovers.append(ClickView(rest.index, rest.time_s, rest.point, "hover", rest.picture, rest.control, time_s))

    def _reacted(self, facts: FrameFacts, point: tuple[float, float]) -> bool:
        """Something changed near the tip, and not the whole page (a new page is a click's doing)."""
        if facts.page or facts.shift is not None:
            return False
        near = grow(box_around(point, 0, 0, 1, 1), int(REACTION_REACH * self.scale))
        return any(overlaps(box, near) for box in facts.content)
