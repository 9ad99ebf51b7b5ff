"""From what the streaming pass saw to the actions a person would list.

Each click (a highlight ring or, in videos without highlights, a change at a resting
pointer) becomes one action, classified by what followed it before the next click:
- select: a list opened at the click and the next click picked from it; the two clicks
  are one action, named by the control's label, its text the option under the second;
- type: typing-sized ink kept appearing in the clicked field and the text read there
  grew (or bullets appeared: a password); named by the field's placeholder or label,
  its text what was added;
- goto: the same in the browser's address bar (a URL-like text at the top);
- click otherwise, named by what is at the tip (`targets`).
Enter is a new page after typing with no click in between: within `enter_pause_s` of
the last key it belongs to the typing (a person says "search for X"); after a longer
pause it is its own `press Enter`. Scrolls and hovers come from `timeline`.
"""

from __future__ import annotations

from processing.ocr_labeler.frames import Box, grow
from processing.ocr_labeler.naming import clean_name, join, text_at
from processing.ocr_labeler.observation import ClickView, Edit, FrameFacts, Observation
from processing.ocr_labeler.ocr import TextBox
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
            steps.append(Step("select", target.field_name(), clean_name(option.text) if option else "",
                              click.time_s, effect_end(following.time_s, pages, next_click_s)))  # fmt: skip
            position += 2
            continue
        typing = [e for e in mine if e.field_frames and e.after is not None]
        typed = _typed(target, typing, observation)
        if typed:
            steps += _typing(target, typing, typed, pages, next_click_s, observation, settings)
        else:
            steps.append(Step("click", target.name(reach), "", click.time_s,
                              effect_end(click.time_s, pages, next_click_s)))  # fmt: skip
        position += 1
    steps += _hovers(observation, reach)
    steps += scrolls(observation.facts, [c.time_s for _, c in clicks])
    steps.sort(key=lambda s: (s.start_s, s.end_s))
    return steps


def _usable(click: ClickView, observation: Observation, settings: OcrLabelerSettings) -> bool:
    mode = settings.click_evidence
    if mode == "auto":
        mode = "ring" if observation.rings_seen else "dwell"
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
        x0, y0, x1, y1 = grow(edit.first_box, 4)
        touches = y0 <= control[3] + 12 and y1 >= control[1] - 12 and x0 < control[2] and x1 > control[0]
        reaches = y1 >= control[3] + 30 or y0 <= control[1] - 30  # below the control or above it
        inside = x0 <= following.point[0] <= x1 and y0 <= following.point[1] <= y1
        if touches and reaches and inside and _closes(edit.first_box, following.time_s, facts):
            return True
    return False


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


def _typing(
    target: Target, edits: list[Edit], typed: str, pages: list[float], next_click_s: float,
    observation: Observation, settings: OcrLabelerSettings,
) -> list[Step]:  # fmt: skip
    click = target.click
    last_key = max(e.typed_s for e in edits)
    page = next((p for p in pages if last_key < p < next_click_s), None)
    url = url_in(observation.read(edits[-1].after)) or url_in(observation.read(edits[0].before))
    if click.point[1] < ADDRESS_BAR_SHARE * observation.height and url:
        return [Step("goto", "address bar", url, click.time_s, page if page is not None else last_key)]
    placeholder = _placeholder(observation.read(edits[0].before), observation.read(edits[-1].after))
    step = Step("type", clean_name(placeholder) if placeholder else target.field_name(), typed, click.time_s, last_key)
    if page is None:
        return [step]
    if page - last_key <= settings.enter_pause_s:
        step.end_s = page
        return [step]
    return [step, Step("press", "", "Enter", page, page)]


def _placeholder(before: list[TextBox], after: list[TextBox]) -> str:
    """The field's placeholder, which names it: text shown before typing, gone after, paler than what was typed."""
    if not before or not after:
        return ""
    gone = [t for t in before if not any(t.text in a.text for a in after)]
    typed_contrast = max(a.contrast for a in after)
    if len(gone) == len(before) and all(t.contrast < PLACEHOLDER_CONTRAST * typed_contrast for t in gone):
        return join(gone)
    return ""


def _hovers(observation: Observation, reach: float) -> list[Step]:
    steps = []
    for hover in observation.hovers:
        typing = any(e.field_frames and e.first_s < hover.until_s and e.typed_s > hover.time_s for e in observation.edits)
        if typing or not hover_reverts(hover, observation):
            continue  # a hand resting while it types, or on something that did not react to it
        steps.append(Step("hover", target_of(hover, observation).name(reach), "", hover.time_s, hover.until_s))
    return steps
