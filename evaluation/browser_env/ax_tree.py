"""The accessibility tree of a page as indented text lines, with the node behind each id.

Two CDP calls per observation and no per-node round trips:
`Accessibility.getFullAXTree` gives roles, names and states, and
`DOMSnapshot.captureSnapshot` gives every laid-out node's box in document
coordinates. Ids are Chrome's accessibility node ids, which for DOM-backed nodes
equal the backend DOM node id, so an id stays the same across observations as
long as its element lives, and actions find the element through it. Given a
numbering (`evaluation.element_ids`), ids are instead the page's own 1, 2, 3...,
the same in every browser session; the element behind each is found the same way.

Pruning keeps the text compact the way the WebArena family does: ignored nodes
vanish (their children move up), empty structural nodes vanish, and static text
that repeats its parent's name or value is dropped. With `structure="webarena"` the
tree keeps what WebArena's structured tree keeps (browser_env/processors.py:815-891 in
its lineage): only nodes without a name or a DOM node, and unnamed ones of its short
role list, vanish, so `main ''`, `group ''` and a select's `MenuListPopup ''` stay.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from evaluation.browser_env.element_ids import DocumentIds
from foundation.cdp import send_json

Rect = tuple[float, float, float, float]  # x, y, width, height in CSS pixels

# Subtrees that never help: text-run fragments and line breaks.
_DROP_SUBTREE_ROLES = frozenset({"InlineTextBox", "LineBreak", "ListMarker"})
# Structural roles that say nothing without a name or a state.
_PRUNE_WHEN_EMPTY = frozenset(
    {
        "generic",
        "none",
        "presentation",
        "group",
        "list",
        "listitem",
        "paragraph",
        "strong",
        "emphasis",
        "Section",
        "section",
        "LabelText",
        "Legend",
        "banner",
        "navigation",
        "contentinfo",
        "main",
        "complementary",
        "img",
        "image",
        "Abbr",
        "superscript",
        "subscript",
        "DescriptionList",
        "DescriptionListTerm",
        "DescriptionListDetail",
        "term",
        "definition",
        "blockquote",
        "code",
        "time",
        "Pre",
        "MenuListPopup",
        "Canvas",
        "caption",
    }
)
# The unnamed roles WebArena's tree leaves out when they have no state (processors.py:845-862); `listitem` even
# with states. Everything else stays, named or not.
_WEBARENA_PRUNED_WHEN_EMPTY = frozenset(
    {"generic", "img", "list", "strong", "paragraph", "banner", "navigation", "Section", "LabelText", "Legend"}
)
# Roles whose current value is shown as `value: '...'`.
_VALUE_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton", "slider", "ComboBoxMenuButton"})
# Roles a user acts on: these get Set-of-Marks boxes.
INTERACTIVE_ROLES = frozenset(
    {
        "link",
        "button",
        "textbox",
        "searchbox",
        "combobox",
        "ComboBoxMenuButton",
        "checkbox",
        "radio",
        "switch",
        "slider",
        "spinbutton",
        "menuitem",
        "menuitemcheckbox",
        "menuitemradio",
        "option",
        "tab",
        "listbox",
        "treeitem",
        "PopUpButton",
    }
)


@dataclass(frozen=True)
class TreeNode:
    """One line of the tree and the element behind it."""

    node_id: str
    backend_id: int | None  # DOM node to act on (the nearest DOM-backed ancestor's when the node has none)
    role: str
    name: str
    rect: Rect | None  # document coordinates; nodes without a box borrow their nearest ancestor's
    line: str  # the line without indentation
    own_box: bool = True  # False when `rect` is borrowed (an <option> of a closed <select>)

    @property
    def interactive(self) -> bool:
        return self.role in INTERACTIVE_ROLES


@dataclass
class AXTree:
    lines: list[str]  # indented with tabs, one node per line
    nodes: list[TreeNode]  # in line order
    scroll_x: float
    scroll_y: float
    tags: dict[int, str] = field(default_factory=dict)  # backend node id -> DOM tag name ("A", "BUTTON")


def capture_ax_tree(
    cdp,
    viewport_width: int,
    viewport_height: int,
    viewport_only: bool,
    states: str = "compact",
    numbering: DocumentIds | None = None,
    structure: str = "compact",
) -> AXTree:
    """Read the page through `cdp` (a Playwright CDPSession) and render its tree; `states`: "compact"
    (`format_properties`) or "webarena" (`webarena_properties`); `numbering`: the document's stable ids
    (None: Chrome's); `structure`: "compact" (ours: empty structural nodes and repeated text go) or "webarena"
    (the nodes WebArena's tree keeps)."""
    ax_nodes = send_json(cdp, "Accessibility.getFullAXTree")["nodes"]
    snapshot = send_json(cdp, "DOMSnapshot.captureSnapshot", {"computedStyles": []})
    document = snapshot["documents"][0]
    scroll_x = float(document.get("scrollOffsetX", 0.0))
    scroll_y = float(document.get("scrollOffsetY", 0.0))
    viewport = (scroll_x, scroll_y, float(viewport_width), float(viewport_height))
    rects = _layout_rects(document)
    builder = _TreeBuilder(ax_nodes, rects, viewport if viewport_only else None, states, numbering, structure)
    builder.build()
    return AXTree(builder.lines, builder.nodes, scroll_x, scroll_y, _tag_names(snapshot, document))


def render_ax_nodes(
    ax_nodes: list[dict[str, Any]], rects: dict[int, Rect], viewport: Rect | None, states: str = "compact"
) -> AXTree:
    """Render CDP accessibility nodes read elsewhere (BrowserGym's observation: ecosystem/browsergym/observation.py)
    with boxes by backend node id; `viewport` None keeps the whole page."""
    builder = _TreeBuilder(ax_nodes, rects, viewport, states)
    builder.build()
    return AXTree(builder.lines, builder.nodes, 0.0, 0.0)


def _tag_names(snapshot: dict[str, Any], document: dict[str, Any]) -> dict[int, str]:
    """Backend node id -> tag name, for the Set-of-Marks text (which names elements by tag, as VWA's does)."""
    strings = snapshot.get("strings", [])
    names = document["nodes"].get("nodeName", [])
    return {
        backend_id: strings[name].upper()
        for backend_id, name in zip(document["nodes"]["backendNodeId"], names)
        if 0 <= name < len(strings)
    }


def _layout_rects(document: dict[str, Any]) -> dict[int, Rect]:
    """Backend node id -> box, merging a node's several layout boxes (wrapped text) into one."""
    backend_ids = document["nodes"]["backendNodeId"]
    layout = document["layout"]
    rects: dict[int, Rect] = {}
    for node_index, bounds in zip(layout["nodeIndex"], layout["bounds"]):
        backend_id = backend_ids[node_index]
        rect = (float(bounds[0]), float(bounds[1]), float(bounds[2]), float(bounds[3]))
        known = rects.get(backend_id)
        rects[backend_id] = rect if known is None else _union(known, rect)
    return rects


def _union(a: Rect, b: Rect) -> Rect:
    if a[2] <= 0 or a[3] <= 0:
        return b
    if b[2] <= 0 or b[3] <= 0:
        return a
    left, top = min(a[0], b[0]), min(a[1], b[1])
    right, bottom = max(a[0] + a[2], b[0] + b[2]), max(a[1] + a[3], b[1] + b[3])
    return (left, top, right - left, bottom - top)


def intersects(rect: Rect | None, area: Rect) -> bool:
    """True when `rect` has an area and overlaps `area`."""
    if rect is None or rect[2] <= 0 or rect[3] <= 0:
        return False
    x, y, width, height = rect
    return x < area[0] + area[2] and x + width > area[0] and y < area[1] + area[3] and y + height > area[1]


def display_id(node_id: str) -> str:
    """Chrome numbers nodes without a DOM element (CSS generated text) below zero; ids in actions are digits."""
    return node_id.lstrip("-")


def _value(field: dict[str, Any] | None) -> Any:
    return None if not field else field.get("value")


def format_properties(role: str, value: Any, properties: dict[str, Any]) -> list[str]:
    """The states worth a model's attention, as `name: value` strings."""
    shown = []
    if properties.get("focused") is True:
        shown.append("focused: True")
    if "checked" in properties:
        shown.append(f"checked: {properties['checked']}")
    if "pressed" in properties:
        shown.append(f"pressed: {properties['pressed']}")
    if properties.get("selected") is True:
        shown.append("selected: True")
    if "expanded" in properties:
        shown.append(f"expanded: {properties['expanded']}")
    for flag in ("required", "disabled", "readonly"):
        if properties.get(flag) is True:
            shown.append(f"{flag}: True")
    if role in _VALUE_ROLES and value not in (None, ""):
        shown.append(f"value: {str(value)!r}")
    return shown


# States WebArena's tree leaves out (its IGNORED_ACTREE_PROPERTIES); AgentOccam reads the rest.
_WEBARENA_IGNORED = frozenset({"focusable", "editable", "readonly", "level", "settable", "multiline", "invalid"})


def webarena_properties(properties: list[dict[str, Any]]) -> list[str]:
    """Every state Chrome reports as WebArena's tree shows them (false ones too, no field value), but with
    string values quoted so that they read back: `required: False`, `checked: 'false'`."""
    shown = []
    for prop in properties:
        value = prop.get("value") or {}
        if prop.get("name") in _WEBARENA_IGNORED or "value" not in value:
            continue  # relations (controls, labelledby) carry node lists, no value: WebArena skips them too
        shown.append(f"{prop['name']}: {value['value']!r}")
    return shown


class _TreeBuilder:
    def __init__(
        self,
        ax_nodes: list[dict[str, Any]],
        rects: dict[int, Rect],
        viewport: Rect | None,
        states: str = "compact",
        numbering: DocumentIds | None = None,
        structure: str = "compact",
    ):
        if structure not in ("compact", "webarena"):
            raise ValueError(f"tree structure {structure!r}: use compact or webarena")
        self.structure = structure
        self.states = states
        self.numbering = numbering
        self._keys: dict[str, int] = {}  # element keys given an id in this tree -> how many times
        self.by_id: dict[str, dict[str, Any]] = {}
        for node in ax_nodes:
            self.by_id.setdefault(node["nodeId"], node)
        roots = [node for node in ax_nodes if not node.get("parentId")]
        self.root = roots[0] if roots else (ax_nodes[0] if ax_nodes else None)
        self.rects = rects
        self.viewport = viewport
        self.visible: dict[str, bool] = {}
        self.lines: list[str] = []
        self.nodes: list[TreeNode] = []

    def build(self) -> None:
        if self.root is None:
            return
        if self.viewport is not None:
            self._mark_visible(self.root, None, set())
        self._render(self.root, depth=0, context=(), backend_id=None, rect=None, seen=set())

    def _children(self, node: dict[str, Any]) -> list[dict[str, Any]]:
        return [self.by_id[child] for child in node.get("childIds", ()) if child in self.by_id]

    def _own_rect(self, node: dict[str, Any], inherited: Rect | None) -> Rect | None:
        backend_id = node.get("backendDOMNodeId")
        if backend_id is not None and backend_id in self.rects:
            return self.rects[backend_id]
        return inherited  # no layout box (an <option> of a closed <select>): use the ancestor's

    def _mark_visible(self, node: dict[str, Any], inherited: Rect | None, seen: set[str]) -> bool:
        """A node is in view when its own box or any descendant's box overlaps the viewport."""
        node_id = node["nodeId"]
        if node_id in seen:
            return False
        seen.add(node_id)
        rect = self._own_rect(node, inherited)
        visible = intersects(rect, self.viewport)  # type: ignore[arg-type]
        for child in self._children(node):
            visible = self._mark_visible(child, rect, seen) or visible
        self.visible[node_id] = visible
        return visible

    def _render(
        self,
        node: dict[str, Any],
        depth: int,
        context: tuple[str, ...],
        backend_id: int | None,
        rect: Rect | None,
        seen: set[str],
    ) -> None:
        node_id = node["nodeId"]
        if node_id in seen or (self.viewport is not None and not self.visible.get(node_id, False)):
            return
        seen.add(node_id)
        role = str(_value(node.get("role")) or "")
        webarena = self.structure == "webarena"
        if role in _DROP_SUBTREE_ROLES and not webarena:
            return
        own_box = node.get("backendDOMNodeId") in self.rects
        backend_id = node.get("backendDOMNodeId", backend_id)
        rect = self._own_rect(node, rect)
        child_depth, child_context = depth, context
        if self._shown(node):
            body = self._webarena_line(node, role) if webarena else self._line(node, role, context)
            if body is not None:
                name = str(_value(node.get("name")) or "")
                shown_id = self._shown_id(node, role, name, backend_id)
                line = f"[{shown_id}] {body}"
                self.lines.append("\t" * depth + line)
                self.nodes.append(TreeNode(shown_id, backend_id, role, name, rect, line, own_box))
                value = _value(node.get("value"))
                child_depth = depth + 1
                # The page title is no parent text: text under the root must not vanish for matching it.
                if role != "RootWebArea":
                    child_context = tuple(text.strip() for text in (name, str(value or "")) if text.strip())
        for child in self._children(node):
            self._render(child, child_depth, child_context, backend_id, rect, seen)

    def _shown(self, node: dict[str, Any]) -> bool:
        """Ignored nodes never have a line. WebArena's tree also skips a node without a name field or a DOM node
        (its parse raises a KeyError for them: processors.py:822, :867): text runs and CSS-generated text."""
        if node.get("ignored", False):
            return False
        return self.structure != "webarena" or ("name" in node and "backendDOMNodeId" in node)

    def _shown_id(self, node: dict[str, Any], role: str, name: str, backend_id: int | None) -> str:
        """Chrome's id, or with a numbering the element's number in its document. An element is known by its
        DOM node; a node with none (CSS generated text) by its place under the nearest element that has one."""
        if self.numbering is None:
            return display_id(node["nodeId"])
        own = node.get("backendDOMNodeId")
        key = str(own) if own is not None else f"{backend_id}/{role}/{name}"
        seen = self._keys[key] = self._keys.get(key, 0) + 1
        if seen > 1:  # a second line for one key (two generated texts alike, or two nodes on one DOM node)
            key = f"{key}#{seen}"
        return self.numbering.number(key)

    def _line(self, node: dict[str, Any], role: str, context: tuple[str, ...]) -> str | None:
        """The node's line after its id, or None when it shows nothing worth a line."""
        name = str(_value(node.get("name")) or "")
        if role == "StaticText":
            text = name.strip()
            if not text or any(text in shown for shown in context):
                return None
            return f"StaticText {name!r}"
        if self.states == "webarena":
            shown = webarena_properties(list(node.get("properties") or ()))
        else:
            properties = {prop["name"]: _value(prop.get("value")) for prop in node.get("properties") or ()}
            shown = format_properties(role, _value(node.get("value")), properties)
        if not name.strip() and not shown and role in _PRUNE_WHEN_EMPTY:
            return None
        return " ".join([f"{role} {name!r}", *shown])

    def _webarena_line(self, node: dict[str, Any], role: str) -> str | None:
        """The line WebArena's tree has for the node (processors.py:845-862), None when it has none; its text
        is kept even when it repeats its parent (the structured tree AgentOccam prunes keeps it)."""
        name = str(_value(node.get("name")) or "")
        properties = list(node.get("properties") or ())
        shown = webarena_properties(properties) if self.states == "webarena" else self._compact(node, role)
        if not name.strip() and (role == "listitem" or (not shown and role in _WEBARENA_PRUNED_WHEN_EMPTY)):
            return None
        return " ".join([f"{role} {name!r}", *shown])

    def _compact(self, node: dict[str, Any], role: str) -> list[str]:
        properties = {prop["name"]: _value(prop.get("value")) for prop in node.get("properties") or ()}
        return format_properties(role, _value(node.get("value")), properties)
