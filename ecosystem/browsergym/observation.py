"""Our observation (evaluation/browser_env/observation.py) built from BrowserGym's: its accessibility tree, element
boxes and screenshot, so our policies read a BrowserGym page as they read our own environment's.

BrowserGym's tree is the CDP `Accessibility.getFullAXTree` our environment reads too, with BrowserGym's element id
(`bid`) on every DOM-backed node; the same tree builder renders it (evaluation/browser_env/ax_tree.py), each line then
carries the bid instead of Chrome's node id, so an action on `[bid]` maps straight to BrowserGym's `click("bid")`. Text
lines without an element keep no id. In-view filtering uses BrowserGym's boxes (`extra_element_properties`, viewport
coordinates). Ids must be digits in our action syntax; BrowserGym gives elements inside iframes ids with a letter
prefix (`a12`), which therefore show without an id and cannot be acted on.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from evaluation.browser_env.ax_tree import Rect, TreeNode, display_id, render_ax_nodes
from evaluation.browser_env.observation import Observation, ObservationOptions, TabInfo, tab_header, truncate_to_budget

_SELECT_ROLES = ("combobox", "listbox", "ComboBoxMenuButton")


@dataclass
class BridgedObservation:
    observation: Observation
    # option bid -> bid of its <select>: BrowserGym picks an option with select_option("select bid", "label")
    select_of: dict[str, str] = field(default_factory=dict)


def from_browsergym(obs: dict[str, Any], options: ObservationOptions) -> BridgedObservation:
    """Our observation of a BrowserGym observation dict (the env's, before any preprocessing)."""
    ax_nodes = obs["axtree_object"]["nodes"]
    extra = obs.get("extra_element_properties") or {}
    bid_of = {node["nodeId"]: str(node["browsergym_id"]) for node in ax_nodes if node.get("browsergym_id")}
    width, height = _screen_size(obs)
    rects: dict[int, Rect] = {}
    for node in ax_nodes:
        bbox = (extra.get(bid_of.get(node["nodeId"], "")) or {}).get("bbox")
        if bbox and node.get("backendDOMNodeId") is not None:
            rects[node["backendDOMNodeId"]] = (float(bbox[0]), float(bbox[1]), float(bbox[2]), float(bbox[3]))
    viewport: Rect | None = (0.0, 0.0, float(width), float(height)) if options.viewport_only else None
    tree = render_ax_nodes(ax_nodes, rects, viewport, options.states)
    by_display = {display_id(node_id): bid for node_id, bid in bid_of.items()}
    lines, nodes = _relabel(tree.lines, tree.nodes, by_display)
    tabs = [
        TabInfo(index, title, url, index == int(obs["active_page_index"][0]))
        for index, (title, url) in enumerate(zip(obs["open_pages_titles"], obs["open_pages_urls"]))
    ]
    text, truncated = truncate_to_budget(f"{tab_header(tabs)}\n\n" + "\n".join(lines), options.token_budget)
    shown = text.count("\n") - 1 - (1 if truncated else 0)
    kept_lines = {line.strip() for line in lines[: max(shown, 0)]}
    shown_nodes = {node.node_id: node for node in nodes if node.line in kept_lines}
    observation = Observation(
        text=text,
        url=obs["url"],
        tabs=tabs,
        screenshot=_png(obs.get("screenshot")) if options.screenshot else None,
        nodes=shown_nodes,
        viewport=(width, height),
        scroll=(0.0, 0.0),
        truncated=truncated,
    )
    return BridgedObservation(observation, _selects(ax_nodes, bid_of))


def _relabel(lines: list[str], nodes: list[TreeNode], bid_of: dict[str, str]) -> tuple[list[str], list[TreeNode]]:
    """Lines and nodes with BrowserGym's ids; a line whose node has no usable bid loses its id."""
    new_lines, new_nodes = [], []
    node_lines = iter(nodes)
    for line in lines:
        node = next(node_lines)
        indent = line[: len(line) - len(line.lstrip("\t"))]
        rest = line.lstrip("\t").split("] ", 1)[1]
        bid = bid_of.get(node.node_id, "")
        if bid.isdigit():
            new_line = f"[{bid}] {rest}"
            new_nodes.append(TreeNode(bid, node.backend_id, node.role, node.name, node.rect, new_line, node.own_box))
        else:
            new_line = rest
        new_lines.append(indent + new_line)
    return new_lines, new_nodes


def _selects(ax_nodes: list[dict[str, Any]], bid_of: dict[str, str]) -> dict[str, str]:
    """Each option's <select>, found up the tree (option -> MenuListPopup -> combobox)."""
    parent = {child: node["nodeId"] for node in ax_nodes for child in node.get("childIds", ())}
    role = {node["nodeId"]: (node.get("role") or {}).get("value", "") for node in ax_nodes}
    found = {}
    for node_id, bid in bid_of.items():
        if role.get(node_id) not in ("option", "MenuListOption"):
            continue
        up = parent.get(node_id)
        while up is not None and role.get(up) not in _SELECT_ROLES:
            up = parent.get(up)
        if up is not None and up in bid_of:
            found[bid] = bid_of[up]
    return found


def _screen_size(obs: dict[str, Any]) -> tuple[int, int]:
    screenshot = obs.get("screenshot")
    if screenshot is not None and getattr(screenshot, "ndim", 0) == 3:
        return int(screenshot.shape[1]), int(screenshot.shape[0])
    return 1280, 720


def _png(screenshot: Any) -> bytes | None:
    if screenshot is None:
        return None
    buffer = io.BytesIO()
    Image.fromarray(screenshot).save(buffer, format="PNG")
    return buffer.getvalue()
