"""The browser window's top bar, drawn above each page screenshot.

Real screen recordings show the tab title and the address bar, and people type
URLs into it; headless screenshots hold only the page. This draws a plain,
generic browser bar (tab strip + toolbar with the address field) from a small
state, and caches each look, so frames cost a copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

HEIGHT = 80  # pixels above the page
TAB_STRIP = 38
ADDRESS_BOX = (112, 45, 1088, 28)  # x, y, width, height of the address field
_FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
)
_STRIP_BG = (222, 225, 230)
_TOOLBAR_BG = (255, 255, 255)
_FIELD_BG = (237, 240, 243)
_TEXT = (32, 33, 36)
_MUTED = (95, 99, 104)
_FOCUS = (26, 115, 232)
_SELECTED = (187, 214, 251)


@dataclass(frozen=True)
class ChromeState:
    title: str = ""
    url: str = ""  # shown in the address field when not editing
    loading: bool = False
    editing: bool = False  # the address field has focus
    typed: str = ""  # text in the field while editing
    all_selected: bool = False  # the whole URL is highlighted (first click into the field)


@lru_cache(maxsize=4)
def ui_font(size: int) -> ImageFont.ImageFont:
    for file in _FONT_FILES:
        if Path(file).exists():
            return ImageFont.truetype(file, size)
    return ImageFont.load_default(size=size)


def display_url(url: str) -> str:
    """The URL as the address field shows it: without the scheme."""
    for scheme in ("http://", "https://"):
        if url.startswith(scheme):
            return url[len(scheme) :]
    return url


@lru_cache(maxsize=256)
def render(state: ChromeState, width: int) -> np.ndarray:
    """The bar as an RGB array (HEIGHT, width, 3)."""
    image = Image.new("RGB", (width, HEIGHT), _TOOLBAR_BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, TAB_STRIP), fill=_STRIP_BG)
    _tab(draw, state)
    _toolbar(draw, state, width)
    draw.line((0, HEIGHT - 1, width, HEIGHT - 1), fill=(218, 220, 224))
    return np.asarray(image).copy()


def _tab(draw: ImageDraw.ImageDraw, state: ChromeState) -> None:
    left, right = 8, 258
    draw.rounded_rectangle((left, 6, right, TAB_STRIP + 6), radius=8, fill=_TOOLBAR_BG)
    if state.loading:  # a spinner stands in for the site icon while a page loads
        draw.arc((20, 14, 36, 30), start=200, end=470, fill=_FOCUS, width=2)
    else:
        draw.ellipse((21, 15, 35, 29), fill=(120, 144, 156))
    font = ui_font(13)
    draw.text((44, 22), _fit(state.title or "New Tab", font, right - 80), font=font, fill=_TEXT, anchor="lm")
    draw.text((right - 22, 22), "×", font=ui_font(15), fill=_MUTED, anchor="mm")
    draw.text((right + 20, 22), "+", font=ui_font(18), fill=_MUTED, anchor="mm")


def _toolbar(draw: ImageDraw.ImageDraw, state: ChromeState, width: int) -> None:
    middle = ADDRESS_BOX[1] + ADDRESS_BOX[3] // 2
    glyphs = ui_font(17)
    draw.text((24, middle), "←", font=glyphs, fill=_MUTED, anchor="mm")
    draw.text((56, middle), "→", font=glyphs, fill=(180, 184, 188), anchor="mm")
    draw.text((88, middle), "×" if state.loading else "↻", font=glyphs, fill=_MUTED, anchor="mm")
    x, y, w, h = ADDRESS_BOX
    if state.editing:
        draw.rounded_rectangle((x, y, x + w, y + h), radius=h // 2, fill=_TOOLBAR_BG, outline=_FOCUS, width=2)
    else:
        draw.rounded_rectangle((x, y, x + w, y + h), radius=h // 2, fill=_FIELD_BG)
    font = ui_font(14)
    text_x = x + 16
    if not state.editing:
        # The site-information button: a small circled "i".
        draw.ellipse((text_x, middle - 8, text_x + 16, middle + 8), outline=_MUTED, width=1)
        draw.text((text_x + 8, middle), "i", font=ui_font(12), fill=_MUTED, anchor="mm")
        text_x += 26
    text = state.typed if state.editing else display_url(state.url)
    text = _fit(text, font, w - 60)
    if state.editing and state.all_selected and text:
        left, top, right, bottom = draw.textbbox((text_x, middle), text, font=font, anchor="lm")
        draw.rectangle((left - 1, y + 5, right + 1, y + h - 5), fill=_SELECTED)
    draw.text((text_x, middle), text, font=font, fill=_TEXT, anchor="lm")
    if state.editing and not state.all_selected:
        caret_x = text_x + draw.textlength(text, font=font) + 1
        draw.line((caret_x, y + 6, caret_x, y + h - 6), fill=_TEXT, width=1)
    draw.text((x + w - 18, middle), "☆", font=ui_font(15), fill=_MUTED, anchor="mm")
    # A profile button and the menu at the far right, as in most browsers.
    draw.ellipse((width - 66, middle - 11, width - 44, middle + 11), fill=(129, 201, 149))
    draw.text((width - 20, middle), "⋮", font=ui_font(17), fill=_MUTED, anchor="mm")


def _fit(text: str, font: ImageFont.ImageFont, max_width: float) -> str:
    """Cut `text` with an ellipsis so it fits `max_width` pixels."""
    if font.getlength(text) <= max_width:
        return text
    while text and font.getlength(text + "…") > max_width:
        text = text[:-1]
    return text + "…"
