"""What the per-frame facts say on their own: when pages loaded, scrolls, hovers that were real.

- A page load is a run of frames that showed a new page (`observe` decides which).
- A scroll is a run of frames whose content moved the same way, with gaps up to
  `SCROLL_GAP_S`. A one-frame jump right after a click is the page it opened landing
  elsewhere (an anchor, a kept position), not the wheel.
- A hover is real when the page changes back under the spot as the pointer leaves (a
  hover style going away); typed text, a new page or a resting hand's surroundings stay.
"""

from __future__ import annotations

from dataclasses import dataclass

from processing.ocr_labeler.frames import box_around, grow, overlaps
from processing.ocr_labeler.observation import ClickView, FrameFacts, Observation

SCROLL_GAP_S = 0.6  # wheel notches further apart than this are separate scrolls
PAGE_GAP_S = 0.6  # page-change frames closer than this are one page load
CLICK_EFFECT_S = 1.5  # a page change or a jump this soon after a click is its effect
HOVER_REVERT_S = 0.3  # a hover style goes away this soon after the pointer leaves
HOVER_REVERT_REACH = 40  # pixels from where the pointer rested


@dataclass
class Step:
    """An action found, in seconds of video."""

    kind: str
    target: str
    text: str
    start_s: float
    end_s: float
    point: tuple[float, float] | None = None  # the pointer's tip at the click (frame pixels); None for keys, scrolls


def page_changes(facts: list[FrameFacts]) -> list[float]:
    """Times a new page appeared (the first frame of each load)."""
    times: list[float] = []
    last = -1e9
    for fact in facts:
        if fact.page:
            if fact.time_s - last > PAGE_GAP_S:
                times.append(fact.time_s)
            last = fact.time_s
    return times


def effect_end(time_s: float, pages: list[float], before_s: float) -> float:
    """When an action at `time_s` shows its effect: the page it opened, if one came soon (and before `before_s`)."""
    page = next((p for p in pages if time_s <= p <= min(time_s + CLICK_EFFECT_S, before_s)), None)
    return page if page is not None else time_s


def scrolls(facts: list[FrameFacts], click_times: list[float]) -> list[Step]:
    steps: list[Step] = []
    for fact in facts:
        if fact.shift is None:
            continue
        direction = "down" if fact.shift > 0 else "up"
        last = steps[-1] if steps else None
        if last is not None and last.text == direction and fact.time_s - last.end_s <= SCROLL_GAP_S:
            last.end_s = fact.time_s
        else:
            steps.append(Step("scroll", "", direction, fact.time_s, fact.time_s))
    return [step for step in steps if not _click_effect(step, click_times)]


def _click_effect(scroll: Step, click_times: list[float]) -> bool:
    # `0 <=`: a click seen from the page's response (no ring) is timed at that very frame.
    return scroll.start_s == scroll.end_s and any(0 <= scroll.start_s - t <= CLICK_EFFECT_S for t in click_times)


def hover_reverts(hover: ClickView, observation: Observation) -> bool:
    near = grow(box_around(hover.point, 0, 0, 1, 1), int(HOVER_REVERT_REACH * observation.scale))
    return any(
        overlaps(box, near)
        for fact in observation.facts
        if hover.until_s <= fact.time_s <= hover.until_s + HOVER_REVERT_S
        for box in fact.content
    )
