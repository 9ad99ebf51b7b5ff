"""Product pictures drawn as SVG (no image files, nothing fetched from elsewhere).

Each picture is a tinted tile with a simple shape and the product's brand and
kind written on it, so that products are told apart at a glance and in OCR.
"""

from __future__ import annotations

import sqlite3
from html import escape

# One shape per top category position, picked by hashing the category name.
_SHAPES = (
    '<circle cx="200" cy="130" r="78" fill="{strong}"/>',
    '<rect x="125" y="55" width="150" height="150" rx="26" fill="{strong}"/>',
    '<polygon points="200,45 290,205 110,205" fill="{strong}"/>',
    '<ellipse cx="200" cy="130" rx="110" ry="70" fill="{strong}"/>',
    '<path d="M130 205 L130 100 Q200 25 270 100 L270 205 Z" fill="{strong}"/>',
)


def _lines(text: str, width: int = 22, max_lines: int = 3) -> list[str]:
    words, lines, current = text.split(), [], ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1].rstrip(".,") + "..."
    return lines


def product_svg(product: sqlite3.Row, top_category: str) -> str:
    hue = product["image_hue"]
    kind = product["name"].split(",")[0]
    if kind.startswith(product["brand"]):
        kind = kind[len(product["brand"]) :].strip()
    shape = _SHAPES[sum(map(ord, top_category)) % len(_SHAPES)].format(strong=f"hsl({hue},45%,52%)")
    text_rows = "".join(
        f'<text x="200" y="{298 + 30 * i}" font-size="26" text-anchor="middle" fill="#1d2733">{escape(line)}</text>'
        for i, line in enumerate(_lines(kind, width=24))
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" role="img" '
        f'aria-label="{escape(product["name"])}">'
        f'<rect width="400" height="400" fill="hsl({hue},40%,92%)"/>'
        f"{shape}"
        f'<text x="200" y="256" font-size="32" font-weight="700" text-anchor="middle" fill="hsl({hue},50%,28%)" '
        f'font-family="sans-serif">{escape(product["brand"])}</text>'
        f'<g font-family="sans-serif">{text_rows}</g>'
        "</svg>"
    )
