"""VideoWA's Set-of-Marks observation (`agent.observation_format: som`), read by the reference's rules.

A page script (`som_page.js`) lists, in document order, the elements one can act on and the text
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

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError

from evaluation.ax_tree import TreeNode
from evaluation.set_of_marks import Mark
from foundation.cdp import send_json
from foundation.errors import UserError

_SCRIPT = (Path(__file__).resolve().parent / "som_page.js").read_text()
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
        found = cdp.send(
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
            cdp.send("Runtime.releaseObjectGroup", {"objectGroup": _OBJECT_GROUP})
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
            described = cdp.send("DOM.describeNode", {"objectId": value["objectId"]})
            ids[int(name)] = described["node"]["backendNodeId"]
    return ids
