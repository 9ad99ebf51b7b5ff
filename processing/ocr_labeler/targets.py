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
    between_words,
    clean_name,
    colour_run,
    describe_control,
    field_label,
    join,
    stacked_label,
    text_at,
    wrapped_lines,
)
from processing.ocr_labeler.observation import ClickView, Observation
from processing.ocr_labeler.ocr import TextBox

UNDER_TIP = 3  # pixels: text this close to the tip is under it
LABEL_REACH = 40  # pixels: a field with no label box is named by the nearest text this close


class Target:
    def __init__(
        self, click: ClickView, texts: list[TextBox], mark: Callable[[Box], str], read_span: Callable[[Box], str]
    ) -> None:
        self.click = click
        self.texts = texts
        self.mark = mark  # reads the single mark inside a box (an icon button)
        self.read_span = read_span  # reads a part of a line as one item
        self.control: Control | None = describe_control(click.control, texts) if click.control else None

    def name(self, reach: float) -> str:
        """What was clicked; `reach` bounds how far the nearest text may be."""
        control = self.control
        if control is not None and control.kind == "button" and control.texts:
            return clean_name(" ".join(self._within(text, control.box) for text in control.texts))
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
            link = self._link_in(under)
            if link:
                return clean_name(link)
            if control is not None and control.kind != "container" and _holds(control.box, under):
                return clean_name(join([t for t in self.texts if _holds(control.box, t)]))  # one item of a list
            block = control.box[2] if control is not None and control.kind == "container" else None
            return clean_name(join(wrapped_lines(self.texts, under, block)))
        if control is not None and control.kind == "field":
            return self.field_name()
        near = text_at(self.texts, self.click.point, reach)
        return clean_name(near.text) if near is not None else ""

    def stacked_label(self) -> str:
        """The label set right over the field clicked, flush with it (a form's), or ""."""
        found = stacked_label(self.texts, self.control.box) if self.control is not None else None
        return clean_name(found.text) if found is not None else ""

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

    def _within(self, line: TextBox, box: Box) -> str:
        """A line's words inside `box`: a line read through a button's edges (a tinted link in a sentence)
        is read again inside the button only."""
        x0, x1 = max(line.box[0], box[0]), min(line.box[2], box[2])
        if line.box[0] >= box[0] - line.height / 2 and line.box[2] <= box[2] + line.height / 2 or x1 - x0 < line.height:
            return line.text
        crop = self.click.picture.part(line.box)
        if crop.size == 0 or not between_words(crop, x0 - line.box[0], x1 - line.box[0]):
            return line.text  # the box cuts through words: not the element the line belongs to
        return self.read_span((x0, line.box[1], x1, line.box[3])).strip() or line.text

    def _link_in(self, line: TextBox) -> str:
        """The words at the tip when they are written in a colour of their own in the line (a link in a sentence)."""
        crop = self.click.picture.part(line.box)
        if crop.size == 0:
            return ""
        run = colour_run(crop, int(round(self.click.point[0])) - line.box[0])
        if run is None:
            return ""
        x0, _, _, _ = line.box
        return self.read_span((x0 + run[0], line.box[1], x0 + run[1], line.box[3])).strip()

    def _beside(self, reach: float) -> str:
        """A radio button or check box: the words beside it."""
        worded = [t for t in self.texts if sum(ch.isalnum() for ch in t.text) >= 2]
        near = text_at(worded, self.click.point, reach)
        return clean_name(near.text) if near is not None else ""


def _holds(box: Box, text: TextBox) -> bool:
    x, y = text.center
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def target_of(click: ClickView, observation: Observation) -> Target:
    """The click with the text around it read."""
    picture = click.picture
    return Target(
        click, observation.read(picture), lambda box: observation.read_mark(picture, box),
        lambda box: observation.reader.read_mark(picture.png, picture.part(box), box),
    )  # fmt: skip
