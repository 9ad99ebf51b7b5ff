"""Set-of-Marks: numbered boxes drawn on the screenshot around the elements one can act on.

The number on each box is the element's id in the observation text (the accessibility
tree's id, or the Set-of-Marks number of `evaluation.som_page`), so a model can read an
id off the picture and use it in an action as it is.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from evaluation.ax_tree import Rect
from foundation.errors import UserError

# A bold face reads better at label size than Pillow's built-in font; that one is the fallback.
_FONT_FILE = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
_FONT_SIZE = 15
# Distinct, saturated colours that stay readable on white and dark pages.
_COLOURS = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#008080", "#9a6324", "#800000", "#000075")


@dataclass(frozen=True)
class Mark:
    label: str
    rect: Rect  # viewport coordinates


def draw_marks(png: bytes, marks: list[Mark], style: str = "ours", font_path: str = "") -> bytes:
    """Return a PNG with a box and a label tag for every mark, drawn as `agent.som_labels` says: "ours" (a tag
    above each box, drawn with it) or "videowa" (the reference's, evaluation/set_of_marks_videowa.py)."""
    if style == "videowa":
        from evaluation.set_of_marks_videowa import draw_marks_like_videowa

        return draw_marks_like_videowa(png, marks, font_path)
    if style != "ours":
        raise UserError(f"agent.som_labels is {style!r}; use 'ours' or 'videowa'")
    image = Image.open(io.BytesIO(png)).convert("RGB")
    draw = ImageDraw.Draw(image)
    font = _font()
    width, height = image.size
    for index, mark in enumerate(marks):
        colour = _COLOURS[index % len(_COLOURS)]
        x, y, w, h = mark.rect
        left, top = max(0.0, x), max(0.0, y)
        right, bottom = min(width - 1.0, x + w), min(height - 1.0, y + h)
        if right <= left or bottom <= top:
            continue
        draw.rectangle((left, top, right, bottom), outline=colour, width=2)
        text_left, text_top, text_right, text_bottom = draw.textbbox((0, 0), mark.label, font=font)
        tag_w, tag_h = text_right - text_left + 4, text_bottom - text_top + 4
        # The tag sits above the box when there is room, else inside its top-left corner.
        tag_top = top - tag_h if top - tag_h >= 0 else top
        tag_left = min(left, width - tag_w)
        draw.rectangle((tag_left, tag_top, tag_left + tag_w, tag_top + tag_h), fill=colour)
        draw.text((tag_left + 2 - text_left, tag_top + 2 - text_top), mark.label, fill="white", font=font)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()


def _font() -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype(_FONT_FILE, _FONT_SIZE)
    except OSError:
        return ImageFont.load_default(size=_FONT_SIZE)
