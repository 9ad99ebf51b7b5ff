"""Set-of-Marks drawn as VisualWebArena's ImageObservationProcessor draws them (`agent.som_labels: videowa`).

What the reference does, and this module with it:
  - each mark's box: a 2 px outline at the element's edges, not clipped to the image;
  - its colour: matplotlib's default 10-colour cycle, by the element's number (small elements that
    get no box still take their turn in the cycle);
  - its number: 16 px text on a filled tag of that colour, 2 px of padding around the text's advance
    width and the font size as its height; the tag goes to the first of 9 candidate places round the
    box (above the top-left corner, above the left edge, above the right corner, above and left of
    it, then below the box) that lies inside the image and clears every tag placed so far by 4 px;
    when none does, the last candidate is used anyway;
  - all tags are drawn after all boxes, so no box crosses a number.
The reference's font is SourceCodePro-SemiBold.ttf from its checkout (`media/`); `agent.som_font`
may name it. Without it, Liberation Mono Bold is used: its advance width at 16 px (9.61 px a digit)
matches Source Code Pro's (9.6 px), so tags have the same widths and land in the same places.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw, ImageFont

from foundation.errors import UserError

if TYPE_CHECKING:
    from evaluation.set_of_marks import Mark

# matplotlib's default property cycle ("tab10"), which the reference takes its colours from.
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")
FONT_SIZE = 16
PADDING = 2
BORDER = 2
BUNDLED_FONT = "/usr/share/fonts/truetype/liberation/LiberationMono-Bold.ttf"


def label_font(path: str) -> ImageFont.FreeTypeFont:
    chosen = Path(path or BUNDLED_FONT).expanduser()
    try:
        return ImageFont.truetype(str(chosen), FONT_SIZE)
    except OSError:
        fix = "point it at media/SourceCodePro-SemiBold.ttf in your VideoWA checkout"
        if path:
            raise UserError(f"agent.som_font: {chosen} is not a readable font file; {fix}") from None
        raise UserError(f"{chosen} is missing: install fonts-liberation (scripts/bootstrap.sh) or set agent.som_font; "
                        f"{fix}") from None  # fmt: skip


def _candidates(left: float, top: float, right: float, bottom: float) -> list[tuple[float, float]]:
    """The reference's places for a tag's text origin, in its order (two are listed twice there)."""
    size, step_in = FONT_SIZE, FONT_SIZE + 2 * PADDING
    return [
        (left - size, top - size), (left, top - size), (right, top - size), (right - step_in, top - size),
        (left - size, bottom), (left, bottom), (right - step_in, bottom), (left, bottom), (right - step_in, bottom),
    ]  # fmt: skip


def _clash(new: list[float], old: list[float]) -> bool:
    """Two tags closer than twice the padding count as overlapping."""
    gap = 2 * PADDING
    return not (new[2] < old[0] + gap or new[0] > old[2] - gap or new[1] > old[3] - gap or new[3] < old[1] + gap)


def place_tag(box: tuple[float, float, float, float], text_width: float, size: tuple[int, int],
              placed: list[list[float]]) -> tuple[tuple[float, float], list[float]]:  # fmt: skip
    """(text origin, tag rectangle) of a number for `box` (left, top, right, bottom), given the tags `placed`."""
    width, height = size
    for x, y in _candidates(*box):
        tag = [x - PADDING, y - PADDING, x + text_width + PADDING, y + FONT_SIZE + PADDING]
        inside = tag[0] >= 0 and tag[1] >= 0 and tag[2] <= width and tag[3] <= height
        if inside and not any(_clash(tag, other) for other in placed):
            return (x, y), tag
    return (x, y), tag  # every place taken or outside: the reference keeps the last one it tried


def draw_marks_like_videowa(png: bytes, marks: list[Mark], font_path: str = "") -> bytes:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    draw = ImageDraw.Draw(image)
    font = label_font(font_path)
    placed: list[list[float]] = []
    tags: list[tuple[list[float], tuple[float, float], str, str]] = []
    for index, mark in enumerate(marks):
        number = int(mark.label) - 1 if mark.label.isdigit() else index
        colour = PALETTE[number % len(PALETTE)]
        x, y, w, h = mark.rect
        box = (x, y, x + w, y + h)
        draw.rectangle(box, outline=colour, width=BORDER)
        origin, tag = place_tag(box, draw.textlength(mark.label, font=font), image.size, placed)
        placed.append(tag)
        tags.append((tag, origin, mark.label, colour))
    for tag, origin, label, colour in tags:  # numbers last, over every box
        draw.rectangle(tag, fill=colour)
        draw.text(origin, label, font=font, fill="white")
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()
