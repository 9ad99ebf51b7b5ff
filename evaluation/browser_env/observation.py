"""What the agent sees after each step: tab list + accessibility tree text, screenshot, URL, tabs.

With `text_format="som"` (VideoWA's baselines) the text is the reference's Set-of-Marks
lines instead (`set_of_marks.capture_som`: ids 1..N per page, no tab header) and the
screenshot carries their boxes.

The text is `Tab 0 (current): <title> | Tab 1: <title>` (WebArena's header), a
blank line, then the tree, one `[id] role 'name' prop: value` per line indented
by tabs. It is cut to a token budget at a line boundary, with a closing line
saying how much was cut. Its ids are the page's own 1, 2, 3..., the same in every
browser session (`evaluation.element_ids`), or with `stable_ids` off Chrome's.
"""

from __future__ import annotations

import io
import re
import time
from dataclasses import dataclass, field
from typing import Callable, TypeVar

import numpy as np
from PIL import Image
from playwright.sync_api import Error as PlaywrightError

from evaluation.browser_env.ax_tree import AXTree, TreeNode, capture_ax_tree, intersects
from evaluation.browser_env.element_ids import DocumentIds, ElementIds
from evaluation.browser_env.set_of_marks import Mark, draw_marks
from evaluation.browser_env.set_of_marks import capture_som
from foundation.cdp import capture_screenshot

# Approximate tokens: words and single punctuation marks, the unit of `agent.observation_token_budget`.
_TOKEN = re.compile(r"\w+|[^\w\s]")
_RETRY_WAIT_MS = 2000
T = TypeVar("T")


@dataclass(frozen=True)
class TabInfo:
    index: int
    title: str
    url: str
    current: bool


@dataclass(frozen=True)
class ObservationOptions:
    viewport_only: bool = True
    token_budget: int | None = 3840  # None: never cut
    set_of_marks: bool = False
    screenshot: bool = True
    text_format: str = "ax_tree"  # "som": Set-of-Marks lines instead of the tree (boxes drawn too)
    marks_style: str = "ours"  # how boxes and numbers are drawn (agent.som_labels)
    marks_font: str = ""  # the font of the numbers in the "videowa" style (agent.som_font)
    # The tree's element states: "compact" (ours) or "webarena" (all Chrome reports, as WebArena's tree; AgentOccam).
    states: str = "compact"
    # Which nodes the tree keeps: "compact" (ours: empty structural nodes, text runs and repeated text go) or
    # "webarena" (what WebArena's tree keeps, `main ''` and `group ''` too: AgentOccam's pruning reads them).
    structure: str = "compact"
    # The tree's ids: the page's own numbers, the same in every browser session (agent.stable_element_ids), or
    # Chrome's node ids, as the originals show them.
    stable_ids: bool = True

    @classmethod
    def from_settings(cls, agent_settings) -> ObservationOptions:
        text_format = getattr(agent_settings, "observation_format", "ax_tree")
        options = cls(
            viewport_only=agent_settings.viewport_only,
            token_budget=agent_settings.observation_token_budget,
            set_of_marks=agent_settings.set_of_marks or text_format == "som",
            text_format=text_format,
            marks_style=getattr(agent_settings, "som_labels", "ours"),
            marks_font=getattr(agent_settings, "som_font", ""),
            stable_ids=getattr(agent_settings, "stable_element_ids", True),
        )
        if options.set_of_marks and options.marks_style == "videowa":
            from evaluation.browser_env.set_of_marks import label_font

            label_font(options.marks_font)  # a missing font stops the run here, not in every task's first step
        return options


@dataclass
class Observation:
    text: str  # tab header + tree, cut to the budget
    url: str
    tabs: list[TabInfo]
    screenshot: bytes | None  # PNG of the viewport; with Set-of-Marks boxes when that option is on
    nodes: dict[str, TreeNode]  # id -> element, for every id shown in `text`
    viewport: tuple[int, int]
    scroll: tuple[float, float]
    truncated: bool = False
    set_of_marks: bool = False
    tab_header: bool = True  # False for Set-of-Marks text, which has none (as the reference's)
    timings: dict[str, float] = field(default_factory=dict)
    document: str = ""  # with stable ids, the document they number (its loader id); "" with Chrome's ids

    @property
    def screenshot_array(self) -> np.ndarray:
        """The screenshot as an RGB array (height, width, 3)."""
        if self.screenshot is None:
            raise ValueError("this observation was taken without a screenshot")
        return np.asarray(Image.open(io.BytesIO(self.screenshot)).convert("RGB"))

    def target_box(self, element_id: str | None) -> list[float] | None:
        """[x, y, w, h] of element `element_id` in this observation's screenshot pixels (its viewport pixels
        without a screenshot), from the box the tree already read: no extra browser call, and the same
        coordinates as the screenshot taken with it. None for an unknown id or an element with no box."""
        node = self.nodes.get(element_id or "")
        if node is None or node.rect is None or node.rect[2] <= 0 or node.rect[3] <= 0:
            return None
        x, y, w, h = node.rect  # document coordinates: less the scroll, the viewport's
        # Chromium shoots at the device scale factor: scale by the image's width over the viewport's.
        shot_width = _png_width(self.screenshot) if self.screenshot else 0
        scale = shot_width / self.viewport[0] if shot_width and self.viewport[0] else 1.0
        return [round(value * scale, 1) for value in (x - self.scroll[0], y - self.scroll[1], w, h)]

    @property
    def tree_text(self) -> str:
        """The text without the tab header."""
        if not self.tab_header:
            return self.text
        return self.text.split("\n\n", 1)[1] if "\n\n" in self.text else ""


def _png_width(png: bytes) -> int:
    """A PNG's width from its header (bytes 16-19 of the IHDR chunk), without decoding the image."""
    return int.from_bytes(png[16:20], "big") if png[:8] == b"\x89PNG\r\n\x1a\n" else 0


def count_tokens(text: str) -> int:
    return len(_TOKEN.findall(text))


def truncate_to_budget(text: str, budget: int | None) -> tuple[str, bool]:
    """Keep the head of `text` within `budget` approximate tokens, cutting at a line boundary."""
    if budget is None or count_tokens(text) <= budget:
        return text, False
    lines = text.split("\n")
    kept: list[str] = []
    used = 0
    for line in lines:
        cost = count_tokens(line)
        if used + cost > budget:
            if not kept:  # a single huge first line: keep what fits of it
                tokens = list(_TOKEN.finditer(line))
                kept.append(line[: tokens[budget].start()] if budget < len(tokens) else line)
            break
        kept.append(line)
        used += cost
    cut = len(lines) - len(kept)
    kept.append(f"[... {cut} more lines cut to fit the observation budget of {budget} tokens ...]")
    return "\n".join(kept), True


def tab_header(tabs: list[TabInfo]) -> str:
    return " | ".join(f"Tab {tab.index}{' (current)' if tab.current else ''}: {tab.title}" for tab in tabs)


def capture_observation(
    page, cdp, tabs: list[TabInfo], options: ObservationOptions, element_ids: ElementIds | None = None
) -> Observation:
    """Observe `page` (the current tab) through its CDP session; the tree's ids are numbered by `element_ids`
    (the episode's stable ids) when given and `options.stable_ids` is on, else they are Chrome's."""
    started = time.perf_counter()
    viewport = page.viewport_size or {"width": 1280, "height": 720}
    width, height = int(viewport["width"]), int(viewport["height"])
    try:
        # A navigation that committed after the action settled (a slow machine) has an empty document
        # until it is parsed; wait for that (at once when it is), so the tree is never read half-built.
        page.wait_for_load_state("domcontentloaded", timeout=_RETRY_WAIT_MS)
    except PlaywrightError:
        pass  # a page still loading after that is observed as it is
    document = ""
    if options.text_format == "som":
        # VideoWA's own page script and rules, numbering elements 1..N (set_of_marks.capture_som); no tab header.
        som = _read_after_load(page, lambda: capture_som(cdp, width, height))
        text, truncated = truncate_to_budget("\n".join(som.lines), options.token_budget)
        nodes, marks, (scroll_x, scroll_y) = som.nodes, som.marks, som.scroll
    else:
        def read(numbering: DocumentIds | None = None) -> AXTree:
            return capture_ax_tree(
                cdp, width, height, options.viewport_only, options.states, numbering, options.structure
            )

        if element_ids is not None and options.stable_ids:
            tree, document = _read_after_load(page, lambda: element_ids.read(cdp, read))
        else:
            tree = _read_after_load(page, read)
        text, truncated = truncate_to_budget(f"{tab_header(tabs)}\n\n" + "\n".join(tree.lines), options.token_budget)
        shown_lines = text.count("\n") - 1 - (1 if truncated else 0)  # lines that survived the cut
        nodes = {node.node_id: node for node in tree.nodes[: max(shown_lines, 0)]}
        scroll_x, scroll_y = tree.scroll_x, tree.scroll_y
        marks = _marks(nodes, scroll_x, scroll_y, width, height) if options.set_of_marks else []
    tree_done = time.perf_counter()

    screenshot = None
    if options.screenshot or options.set_of_marks:
        # optimizeForSpeed: Chrome compresses the PNG less, several times faster on a small CPU.
        # A request that crossed a navigation's commit can go unanswered: asked again once the page has loaded.
        screenshot = capture_screenshot(
            cdp, {"format": "png", "optimizeForSpeed": True}, on_retry=lambda: _wait_for_load(page)
        )
        if options.set_of_marks:
            screenshot = draw_marks(screenshot, marks, options.marks_style, options.marks_font)
    shot_done = time.perf_counter()

    return Observation(
        text=text,
        url=page.url,
        tabs=tabs,
        screenshot=screenshot,
        nodes=nodes,
        viewport=(width, height),
        scroll=(scroll_x, scroll_y),
        truncated=truncated,
        tab_header=options.text_format != "som",
        set_of_marks=options.set_of_marks,
        timings={"tree_s": tree_done - started, "screenshot_s": shot_done - tree_done},
        document=document,
    )


def _read_after_load(page, read: Callable[[], T]) -> T:
    try:
        return read()
    except PlaywrightError:
        # A document being replaced cannot be read; the next one can once it has loaded.
        _wait_for_load(page)
        return read()


def _wait_for_load(page) -> None:
    try:
        page.wait_for_load_state("load", timeout=_RETRY_WAIT_MS)
    except PlaywrightError:
        pass  # read what is there


def _marks(nodes: dict[str, TreeNode], scroll_x: float, scroll_y: float, width: int, height: int) -> list[Mark]:
    """Boxes, in viewport coordinates, of the interactive elements in view."""
    viewport = (scroll_x, scroll_y, float(width), float(height))
    marks = []
    for node in nodes.values():
        if node.interactive and node.own_box and intersects(node.rect, viewport):
            x, y, w, h = node.rect  # type: ignore[misc]
            marks.append(Mark(node.node_id, (x - scroll_x, y - scroll_y, w, h)))
    return marks
