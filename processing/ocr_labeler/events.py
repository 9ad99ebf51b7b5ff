"""From what the streaming pass saw to the actions a person would list.

Each click (a highlight ring or, in videos without highlights, a change at a resting
pointer) becomes one action or a few, classified by what followed it before the next click:
- select: a list opened at the click and the next click picked from it (the two clicks
  are one action, its text the option under the second); or the click was on a menu (a
  field with a drop mark at its right end) and its shown value then changed, as arrow
  keys do: one action, its text the value shown last;
- type: typing-sized ink kept appearing in the clicked field and the text read there
  grew or was replaced (or bullets appeared: a password); named by a form's label set
  over the field, else its placeholder, else its label; its text what was typed. A pause
  of `click_before_typing_s` between the click and the first key makes the click an
  action of its own; a value
  that was there before and is gone after was selected first (`press` Control+A);
- goto: the same in the browser's address bar (a URL-like text at the top);
- click otherwise, named by what is at the tip (`targets`).
Enter is a new page (or a jump of the page) after typing with no click in between:
within `enter_pause_s` of the last key it belongs to the typing (a person says "search
for X"); after a longer pause it is its own `press Enter`. Scrolls come from `timeline`;
hovers only when what they opened is a layer (`hover_layer_px` tall), as the labeling
rules say.
"""

from __future__ import annotations

import cv2
import numpy as np

from processing.ocr_labeler.frames import Box, box_around, grow, overlaps
from processing.ocr_labeler.naming import clean_name, join, text_at
from processing.ocr_labeler.observation import ClickView, Edit, FrameFacts, Observation
from processing.ocr_labeler.ocr import TextBox
from processing.ocr_labeler.rests import REACTION_REACH, STILL_PX
from processing.ocr_labeler.targets import Target, target_of
from processing.ocr_labeler.timeline import Step, effect_end, hover_reverts, page_changes, scrolls
from processing.ocr_labeler.typed_text import typed_from_lines, url_in
from settings.schema import OcrLabelerSettings

LIST_OPENS_S = 0.8  # a list shows this soon after the click that opens it
OPTION_WITHIN_S = 8.0  # and its option is picked within this long
LIST_CLOSES_S = 0.5  # and it is gone this soon after the pick
ADDRESS_BAR_SHARE = 0.12  # the browser's address bar sits in this top share of the frame
PLACEHOLDER_CONTRAST = 0.8  # a placeholder's ink is at most this share as strong as typed text's
BULLET = "•"  # what a masked entry shows, one per character typed
MIN_TYPING_INK = 2  # frames with typed ink in the field (one change is a focus ring or a button's new state)
RING_MISSED_S = 1.0  # a click seen from the page's response with no ring this near in time: the ring was missed
KEY_EFFECT_S = 2.5  # a new screen this long after an action may still be its doing (a slow load)
KEY_REST_S = 0.5  # a large change under a hand resting this long is no hover's doing
KEY_CHANGE_AREA = 0.04  # share of the frame: a dialog or a panel, not a line of text
ENTER_WITHIN_S = 3.0  # a new page or a jump this long after the last key, with no click between, is Enter's
MENU_MARK = (34, 16, 14)
DROP_MARKS = frozenset("Vv∨⌄▼▾﹀")  # what OCR reads a menu's drop mark as
MENU_HEIGHT = 52  # pixels: a menu is one line tall  # a menu's drop mark: in this many pixels at its right end, at most this wide and tall


def assemble(observation: Observation, settings: OcrLabelerSettings) -> list[Step]:
    """The video's actions, in time order."""
    clicks = [(i, c) for i, c in enumerate(observation.clicks) if _usable(c, observation, settings)]
    edits: dict[int, list[Edit]] = {}
    for edit in observation.edits:
        edits.setdefault(edit.click, []).append(edit)
    pages = page_changes(observation.facts)
    reach = settings.target_radius_px * observation.scale
    steps: list[Step] = []
    position = 0
    while position < len(clicks):
        number, click = clicks[position]
        following = clicks[position + 1][1] if position + 1 < len(clicks) else None
        next_click_s = following.time_s if following else observation.duration_s + 1
        mine = edits.get(number, [])
        target = target_of(click, observation)
        if following is not None and _opens_list(click, mine, following, observation.facts):
            option = text_at(observation.read(following.picture), following.point, reach)  # the row under the tip
            end = effect_end(following.time_s, pages, next_click_s)
            steps.append(Step("select", target.field_name(), clean_name(option.text) if option else "",
                              click.time_s, end, click.point))  # fmt: skip
            position += 2
            continue
        typing = [e for e in mine if e.field_frames and e.after is not None]
        if click.evidence == "keys":  # the keyboard moved to a field (Tab) and typed there
            typed = _typed(target, typing, observation)
            if typed:
                tab = _focus_moved(click, observation.facts)
                steps += [Step("press", "", "Tab", tab, tab)]
                steps += _typing(target, typing, typed, pages, next_click_s, observation, settings, keyboard=True)
            position += 1
            continue
        if typing and _is_menu(target, observation):
            steps.append(_menu_by_keys(target, typing, observation))
            position += 1
            continue
        typed = _typed(target, typing, observation)
        if typed:
            steps += _typing(target, typing, typed, pages, next_click_s, observation, settings)
        else:
            steps.append(Step("click", target.name(reach), "", click.time_s,
                              effect_end(click.time_s, pages, next_click_s), click.point))  # fmt: skip
        position += 1
    steps += _unexplained_keys(pages, steps, observation)
    steps += _hovers(observation, reach, settings)
    keys = [step.start_s for step in steps if step.kind == "press"]
    steps += scrolls(observation.facts, [c.time_s for _, c in clicks] + keys)
    steps.sort(key=lambda s: (s.start_s, s.end_s))
    return steps


def _unexplained_keys(pages: list[float], steps: list[Step], observation: Observation) -> list[Step]:
    """A new screen, or a large change under a hand at rest, that no click, typing or key seen before it
    explains came from a key (Escape closing a dialog).

    The mouse's doings are clicks, found separately; what changes the screen without them is the keyboard.
    """
    found = []
    for time_s in sorted(pages + _still_changes(observation)):
        if not any(step.start_s - 0.2 <= time_s <= step.end_s + KEY_EFFECT_S for step in steps + found):
            found.append(Step("press", "", "Escape", time_s, time_s))
    return found


def _still_changes(observation: Observation) -> list[float]:
    """Times a large area changed (a dialog closing) while the pointer had rested for a while."""
    times, rest_since = [], None
    large = KEY_CHANGE_AREA * observation.width * observation.height
    for fact in observation.facts:
        if fact.pointer is None or fact.moved is None or fact.moved > STILL_PX:
            rest_since = None
            continue
        rest_since = fact.time_s if rest_since is None else rest_since
        if fact.shift is None and not fact.page and fact.time_s - rest_since >= KEY_REST_S:
            if sum((b[2] - b[0]) * (b[3] - b[1]) for b in fact.content) >= large:
                times.append(fact.time_s)
    return times


def _usable(click: ClickView, observation: Observation, settings: OcrLabelerSettings) -> bool:
    mode = settings.click_evidence
    if click.evidence == "keys":
        return True  # no pointer evidence at all: the keyboard's
    if mode == "auto":
        if not observation.rings_seen:
            return click.evidence == "dwell"
        # A video that draws click rings: a ring may still be missed (drawn faint, half off a button), so
        # a click seen from the page's response counts where no ring was seen near it in time.
        return click.evidence == "ring" or (
            click.evidence == "dwell"
            and not any(o.evidence == "ring" and abs(o.time_s - click.time_s) <= RING_MISSED_S for o in observation.clicks)
        )
    return click.evidence == mode


def _opens_list(click: ClickView, edits: list[Edit], following: ClickView, facts: list[FrameFacts]) -> bool:
    """The click opened a list and the next click picked from it.

    A list hangs from the clicked control (touching it, reaching away from it) as soon
    as the control is clicked, the next click lands in it, and it goes away right then.
    """
    control = click.control
    if control is None or following.time_s - click.time_s > OPTION_WITHIN_S:
        return False
    for edit in edits:
        if edit.first_s - click.time_s > LIST_OPENS_S:
            continue
        # Each area that changed as the list opened on its own: something else may have changed in that frame.
        for part in _parts(edit.first_box, edit.first_s, facts):
            x0, y0, x1, y1 = grow(part, 4)
            touches = y0 <= control[3] + 12 and y1 >= control[1] - 12 and x0 < control[2] and x1 > control[0]
            reaches = y1 >= control[3] + 30 or y0 <= control[1] - 30  # below the control or above it
            inside = x0 <= following.point[0] <= x1 and y0 <= following.point[1] <= y1
            if touches and reaches and inside and _closes(part, following.time_s, facts):
                return True
    return False


def _parts(box: Box, time_s: float, facts: list[FrameFacts]) -> list[Box]:
    """The changed areas inside `box` in the frame at `time_s`, and `box` itself."""
    frame = next((fact for fact in facts if abs(fact.time_s - time_s) < 1e-6), None)
    inner = [part for part in frame.content if overlaps(part, box)] if frame is not None else []
    return inner + [box]


def _closes(box: Box, time_s: float, facts: list[FrameFacts]) -> bool:
    """Most of `box` changes within a moment of `time_s` (an open list that goes away)."""
    area = max(1, (box[2] - box[0]) * (box[3] - box[1]))
    for fact in facts:
        if time_s - 0.05 <= fact.time_s <= time_s + LIST_CLOSES_S:
            if sum(_overlap(box, other) for other in fact.content) >= 0.6 * area:
                return True
    return False


def _overlap(a: Box, b: Box) -> int:
    return max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))


def _typed(target: Target, typing: list[Edit], observation: Observation) -> str:
    """What was typed after the click, "" if it was no typing.

    Only into a field (not a button, an icon or a card); with no box found around the
    tip, one more frame of ink is asked for.
    """
    control = target.control
    needed = MIN_TYPING_INK if control is not None else MIN_TYPING_INK + 1
    if (control is not None and control.kind != "field") or sum(e.field_frames for e in typing) < needed:
        return ""
    parts = (typed_from_lines(observation.read(e.before), observation.read(e.after)) for e in typing)
    typed = " ".join(part for part in parts if part)
    if not any(ch.isalnum() for ch in typed) and control is not None:
        typed = BULLET * observation.masked_length(typing[-1].after)  # a password field
    return typed.strip()


def _focus_moved(click: ClickView, facts: list[FrameFacts]) -> float:
    """When the keyboard focus came to the field typed into: its focus ring, a moment before the letters."""
    field = click.field
    for fact in facts:
        if click.time_s - 1.5 <= fact.time_s < click.time_s and not fact.page and fact.shift is None:
            if any(overlaps(box, field) and box[2] - box[0] > 0.5 * (field[2] - field[0]) for box in fact.content):
                return fact.time_s
    return click.time_s - 0.4


def _typing(
    target: Target, edits: list[Edit], typed: str, pages: list[float], next_click_s: float,
    observation: Observation, settings: OcrLabelerSettings, keyboard: bool = False,
) -> list[Step]:  # fmt: skip
    click = target.click
    last_key = max(e.typed_s for e in edits)
    page = next((p for p in pages if last_key < p < next_click_s), None)
    url = url_in(observation.read(edits[-1].after)) or url_in(observation.read(edits[0].before))
    if click.point[1] < ADDRESS_BAR_SHARE * observation.height and url:
        return [Step("goto", "address bar", url, click.time_s, page if page is not None else last_key, click.point)]
    before, after = observation.read(edits[0].before), observation.read(edits[-1].after)
    placeholder = _placeholder(before, after)
    # A form's label set over the field names it as a person does ("the Going to field"); else its
    # placeholder, else whatever labels it.
    name = target.stacked_label() or (clean_name(placeholder) if placeholder else target.field_name())
    first_key = min((e.first_typed_s for e in edits if e.first_typed_s is not None), default=click.time_s)
    steps = []
    if keyboard:
        pass  # no click: the letters came after a key moved the focus here
    elif not placeholder and _replaced(target, before, after):
        # The value shown was selected before typing over it (Control+A, as a person does).
        steps += [Step("click", name, "", click.time_s, click.time_s, click.point),
                  Step("press", "", "Control+A", first_key, first_key)]
        first_key = min(first_key + 0.3, last_key)
    elif first_key - click.time_s >= settings.click_before_typing_s:
        steps.append(Step("click", name, "", click.time_s, click.time_s, click.point))
    else:
        first_key = click.time_s  # clicked and typed at once: one action, as a person says it
    step = Step("type", name, typed, first_key, last_key, None if keyboard else click.point)
    steps.append(step)
    if page is None:
        page = _jump_after(observation.facts, last_key, next_click_s)
    if page is None:  # results shown in place: a large change under the resting hand, with no click between
        until = min(next_click_s, last_key + ENTER_WITHIN_S)
        page = next((t for t in _still_changes(observation) if last_key < t < until), None)
    if page is None:
        return steps
    if page - last_key <= settings.enter_pause_s:
        step.end_s = page
        return steps
    return steps + [Step("press", "", "Enter", page, page)]


def _jump_after(facts: list[FrameFacts], last_key: float, next_click_s: float) -> float | None:
    """A jump of the page soon after the last key, with no click between (Enter finding something in the page)."""
    for fact in facts:
        if last_key < fact.time_s < min(next_click_s, last_key + ENTER_WITHIN_S) and fact.shift is not None:
            return fact.time_s
    return None


def _inside(texts: list[TextBox], box: Box) -> str:
    inner = [t for t in texts if box[0] <= t.center[0] <= box[2] and box[1] <= t.center[1] <= box[3]]
    return " ".join(join(inner).split()).lower()


def _replaced(target: Target, before: list[TextBox], after: list[TextBox]) -> bool:
    """The field showed a value before the click, and after typing that value is gone (typed over)."""
    if target.control is None:
        return False
    old, new = _inside(before, target.control.box), _inside(after, target.control.box)
    return sum(ch.isalnum() for ch in old) >= 2 and bool(new) and not new.startswith(old)


def _is_menu(target: Target, observation: Observation) -> bool:
    """The clicked control is a menu: a field with a small drop mark (a chevron, a triangle) at its right end."""
    control = target.control
    if control is None or control.kind not in ("field", "button"):
        return False  # a menu drawn grey looks like a button, with a mark at its right end all the same
    x0, y0, x1, y1 = control.box
    width, mark_w, mark_h = (int(v * observation.scale) for v in MENU_MARK)
    if y1 - y0 > MENU_HEIGHT * observation.scale:
        return False  # a menu shows one line; a text area is taller (its resize grip is no drop mark)
    strip = (x1 - width, y0 + 3, x1 - 3, y1 - 3)
    if any(t.box[2] > strip[0] and t.text.strip() not in DROP_MARKS for t in control.texts):
        return False  # text runs into the right end: no room for a mark (OCR may read the mark itself as a "V")
    part = target.click.picture.part(strip)
    if part.size == 0:
        return False
    grey = cv2.cvtColor(part, cv2.COLOR_BGR2GRAY).astype(np.int16)
    ink = np.abs(grey - int(np.median(grey))) > 60
    if ink.sum() < 6:
        return False
    ys, xs = np.nonzero(ink)
    middle = abs((ys.max() + ys.min()) / 2 - grey.shape[0] / 2) <= grey.shape[0] / 4  # centred on the line
    return middle and xs.max() - xs.min() + 1 <= mark_w and ys.max() - ys.min() + 1 <= mark_h


def _menu_by_keys(target: Target, edits: list[Edit], observation: Observation) -> Step:
    """A menu whose shown value changed after the click: one select, its option the value shown last."""
    box = target.control.box if target.control is not None else target.click.field
    shown = [t for t in observation.read(edits[-1].after) if box[0] <= t.center[0] <= box[2] and box[1] <= t.center[1] <= box[3]]
    option = clean_name(join(shown)) if shown else ""
    return Step("select", target.field_name(), option, target.click.time_s, max(e.typed_s for e in edits),
                target.click.point)


def _placeholder(before: list[TextBox], after: list[TextBox]) -> str:
    """The field's placeholder, which names it: text shown before typing, gone after, paler than what was typed."""
    if not before or not after:
        return ""
    gone = [t for t in before if not any(t.text in a.text for a in after)]
    typed_contrast = max(a.contrast for a in after)
    worded = any(sum(ch.isalpha() for ch in word) >= 3 for t in gone for word in t.text.split())  # not a caret's trace
    if worded and len(gone) == len(before) and all(t.contrast < PLACEHOLDER_CONTRAST * typed_contrast for t in gone):
        return join(gone)
    return ""


def _hovers(observation: Observation, reach: float, settings: OcrLabelerSettings) -> list[Step]:
    steps = []
    for hover in observation.hovers:
        typing = any(e.field_frames and e.first_s < hover.until_s and e.typed_s > hover.time_s for e in observation.edits)
        if typing or not hover_reverts(hover, observation):
            continue  # a hand resting while it types, or on something that did not react to it
        if _opened_height(hover, observation) < settings.hover_layer_px * observation.scale:
            continue  # a tint, an underline, a row's buttons shown: the page changed, nothing opened
        steps.append(Step("hover", target_of(hover, observation).name(reach), "", hover.time_s, hover.until_s,
                          hover.point))
    return steps


def _opened_height(hover: ClickView, observation: Observation) -> float:
    """How tall the change around the resting pointer grew while it rested (a menu, a pop-up: tall)."""
    near = grow(box_around(hover.point, 0, 0, 1, 1), int(REACTION_REACH * observation.scale))
    boxes = [
        box
        for fact in observation.facts
        if hover.time_s - 0.2 <= fact.time_s <= hover.until_s and not fact.page and fact.shift is None
        for box in fact.content
        if overlaps(box, near)
    ]
    return max(b[3] for b in boxes) - min(b[1] for b in boxes) if boxes else 0.0
