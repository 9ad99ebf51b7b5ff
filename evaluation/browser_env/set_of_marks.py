"""Set-of-Marks, in one module: numbered boxes drawn on the screenshot around the elements one can act on,
drawn our way or VisualWebArena's, and VideoWA's Set-of-Marks observation that numbers a page's elements.

The number on each box is the element's id in the observation text (the accessibility tree's id, or the
Set-of-Marks number of `capture_som`), so a model can read an id off the picture and use it in an action as it is.

VisualWebArena's drawing (`agent.som_labels: videowa`, `draw_marks_like_videowa`):
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

VideoWA's observation (`agent.observation_format: som`, `capture_som`):
  A page script (`set_of_marks.js`) lists, in document order, the elements one can act on and the text
  holders outside them. Then, as VisualWebArena's ImageObservationProcessor does:
    - elements whose box misses the viewport, or covers more than 80% of it, are dropped;
    - the actionable ones that remain are numbered 1..N in document order, so an element keeps its
      number after a reload or on the next page of the same layout;
    - each numbered element at least 8x8 pixels gets a box on the screenshot and a line
      `[N] [TAG] [alt + text]`; a smaller one keeps its number (it can still be clicked) but gets neither;
    - other text becomes `[] [StaticText] [text]`, once per distinct text, skipping text that a
      numbered element already showed and text that looks like CSS;
    - text is the element's textContent with line breaks and tabs removed, cut to 200 characters
      (an image's alt text goes before it, uncut).
  There is no tab header. The reference passes the rows through a CSV and pandas, which reads a
  field that is exactly "NA", "N/A", "null", "None", "nan" (and a few more) as missing: kept here.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont
from playwright.sync_api import Error as PlaywrightError

from evaluation.browser_env.ax_tree import Rect, TreeNode
from foundation.cdp import send_json
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
    above each box, drawn with it) or "videowa" (the reference's, `draw_marks_like_videowa` below)."""
    if style == "videowa":
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


# ---- VisualWebArena's drawing ----------------------------------------------------------------------------------------


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


# ---- VideoWA's observation -------------------------------------------------------------------------------------------


_SCRIPT = (Path(__file__).resolve().parent / "set_of_marks.js").read_text()
_OBJECT_GROUP = "videodemo-som"
MAX_VIEWPORT_SHARE = 0.8  # boxes larger than this share of the viewport are page furniture
MIN_MARK_SIDE = 8  # pixels: smaller elements are numbered but not drawn or listed
TEXT_CHARS = 200
# pandas.read_csv's default missing-value strings, which the reference's CSV round trip turns into "".
_PANDAS_MISSING = frozenset(
    {"", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>",
     "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"}
)  # fmt: skip


@dataclass
class SomPage:
    lines: list[str]
    nodes: dict[str, TreeNode]  # every number -> its element (listed or not)
    marks: list[Mark]  # boxes to draw, in viewport coordinates
    scroll: tuple[float, float]


def capture_som(cdp, viewport_width: int, viewport_height: int) -> SomPage:
    """Run the page script through `cdp` (the tab's CDP session) and apply the reference's rules."""
    try:
        found = send_json(
            cdp,
            "Runtime.evaluate", {"expression": _SCRIPT, "objectGroup": _OBJECT_GROUP, "returnByValue": False}
        )
        if "exceptionDetails" in found:  # e.g. a browser too old for `:has()` in its selectors
            text = found["exceptionDetails"].get("exception", {}).get("description", "").splitlines()[:1]
            raise UserError(f"the Set-of-Marks page script failed ({' '.join(text)}); use a Chromium from 2023 on")
        array_id = found["result"]["objectId"]
        data = send_json(
            cdp,
            "Runtime.callFunctionOn",
            {
                "objectId": array_id,
                "functionDeclaration": "function() { return {rows: this.rows, scroll: this.scroll}; }",
                "returnByValue": True,
            },
        )["result"]["value"]
        return _apply_rules(cdp, array_id, data, viewport_width, viewport_height)
    finally:
        try:
            send_json(cdp, "Runtime.releaseObjectGroup", {"objectGroup": _OBJECT_GROUP})
        except PlaywrightError:
            pass  # the page is gone with its objects


def _apply_rules(cdp, array_id: str, data: dict[str, Any], width: int, height: int) -> SomPage:
    scroll_x, scroll_y = (float(v) for v in data["scroll"])
    lines: list[str] = []
    seen: set[str] = set()
    numbered: list[tuple[int, dict[str, Any], str, str]] = []  # (row index, row, number, line)
    marks: list[Mark] = []
    for index, row in enumerate(data["rows"]):
        if not _in_view(row, scroll_x, scroll_y, width, height):
            continue
        content = _content(row)
        if not row["actionable"]:
            if content and not (content.startswith(".") and "{" in content) and content not in seen:
                lines.append(f"[] [StaticText] [{content}]")
                seen.add(content)
            continue
        number = str(len(numbered) + 1)
        line = ""
        if row["width"] >= MIN_MARK_SIDE and row["height"] >= MIN_MARK_SIDE:
            line = f"[{number}] [{row['tag']}] [{content}]"
            lines.append(line)
            seen.add(content)
            rect = (row["left"] - scroll_x, row["top"] - scroll_y, row["width"], row["height"])
            marks.append(Mark(number, rect))
        numbered.append((index, row, number, line))
    backend_ids = _backend_ids(cdp, array_id, {index for index, *_ in numbered})
    nodes = {
        number: TreeNode(
            node_id=number,
            backend_id=backend_ids.get(index),
            role=row["tag"].lower(),
            name=_content(row),
            rect=(row["left"], row["top"], row["width"], row["height"]),
            line=line,
        )
        for index, row, number, line in numbered
    }
    return SomPage(lines, nodes, marks, (scroll_x, scroll_y))


def _in_view(row: dict[str, Any], scroll_x: float, scroll_y: float, width: int, height: int) -> bool:
    touches = (
        row["bottom"] - scroll_y >= 0
        and row["top"] - scroll_y <= height
        and row["right"] - scroll_x >= 0
        and row["left"] - scroll_x <= width
    )
    return touches and row["width"] * row["height"] <= MAX_VIEWPORT_SHARE * width * height


def _content(row: dict[str, Any]) -> str:
    alt = row["alt"] if row["tag"] == "IMG" and row["alt"] not in _PANDAS_MISSING else ""
    text = row["text"] if row["text"] not in _PANDAS_MISSING else ""
    return alt + text.strip().replace("\n", "").replace("\t", "")[:TEXT_CHARS]


def _backend_ids(cdp, array_id: str, wanted: set[int]) -> dict[int, int]:
    """Row index -> the element's backend node id (what actions act on), for the numbered rows."""
    properties = send_json(cdp, "Runtime.getProperties", {"objectId": array_id, "ownProperties": True})["result"]
    ids: dict[int, int] = {}
    for prop in properties:
        name, value = prop.get("name", ""), prop.get("value") or {}
        if name.isdigit() and int(name) in wanted and "objectId" in value:
            described = send_json(cdp, "DOM.describeNode", {"objectId": value["objectId"]})
            ids[int(name)] = described["node"]["backendNodeId"]
    return ids
