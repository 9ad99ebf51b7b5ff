"""Naming what a click (or a hover) hit, from the text read around the tip and the control it is in.

In order: a button by its own text; an icon button by its mark said as a word ("▲" ->
"Upvote"), a one-letter button (a page number) by that letter; a radio button or check
box by the words beside it; other text under the tip, with the lines a wrapped link
continues on; a field or drop-down by its label, else by what it shows; else the
nearest text within reach.
"""

from __future__ import annotations

from collections.abc import Callable

from processing.ocr_labeler.frames import Box
from processing.ocr_labeler.naming import (
    ICON_WORDS,
    TICK_MARKS,
    Control,
    clean_name,
    describe_control,
    field_label,
    join,
    text_at,
    wrapped_lines,
)
from processing.ocr_labeler.observation import ClickView, Observation
from processing.ocr_labeler.ocr import TextBox

UNDER_TIP = 3  # pixels: text this close to the tip is under it
LABEL_REACH = 40  # pixels: a field with no label box is named by the nearest text this close


class Target:
    def __init__(self, click: ClickView, texts: list[TextBox], mark: Callable[[Box], str]) -> None:
        self.click = click
        self.texts = texts
        self.mark = mark  # reads the single mark inside a box (an icon button)
        self.control: Control | None = describe_control(click.control, texts) if click.control else None

    def name(self, reach: float) -> str:
        """What was clicked; `reach` bounds how far the nearest text may be."""
        control = self.control
        if control is not None and control.kind == "button" and control.texts:
            return clean_name(join(list(control.texts)))
        if control is not None and control.kind == "icon":
            mark = self.mark(control.box).strip()
            if clean_name(mark) in ICON_WORDS.values():
                return clean_name(mark)
            if mark and mark not in TICK_MARKS and any(ch.isalnum() for ch in mark):
                return mark
            return self._beside(reach)
        under = text_at(self.texts, self.click.point, UNDER_TIP)
        if under is not None and under.text in TICK_MARKS:
            return self._beside(reach)
        if under is not None:
            block = control.box[2] if control is not None and control.kind == "container" else None
            return clean_name(join(wrapped_lines(self.texts, under, block)))
        if control is not None and control.kind == "field":
            return self.field_name()
        near = text_at(self.texts, self.click.point, reach)
        return clean_name(near.text) if near is not None else ""

    def field_name(self) -> str:
        """A field or drop-down by its label, else by what it shows."""
        control = self.control
        if control is not None:
            label = field_label(self.texts, control.box)
            if label is not None:
                return clean_name(label.text)
            if control.texts:
                return clean_name(join(list(control.texts)))
        near = text_at(self.texts, self.click.point, LABEL_REACH)
        return clean_name(near.text) if near is not None else ""

    def _beside(self, reach: float) -> str:
        """A radio button or check box: the words beside it."""
        worded = [t for t in self.texts if sum(ch.isalnum() for ch in t.text) >= 2]
        near = text_at(worded, self.click.point, reach)
        return clean_name(near.text) if near is not None else ""


def target_of(click: ClickView, observation: Observation) -> Target:
    """The click with the text around it read."""
    return Target(click, observation.read(click.picture), lambda box: observation.read_mark(click.picture, box))
