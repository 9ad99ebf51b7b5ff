"""Observation refinement: the whole page's accessibility tree, made short enough to read in one go.

AgentOccam shows the model the entire page (no viewport, no scrolling) and pays for
it by pruning what carries no information. Starting from the environment's tree text
(one `[id] role 'name' props` line per node, indented by tabs), this module:

- drops decorative nodes: images without a meaningful name, separators, empty leaves;
- drops static text that repeats its parent's or a sibling's name;
- merges a lone text child into an unnamed parent (`link ''` + text -> `link 'Home'`);
- renders tables as markdown rows (`| Name | Price |`) with each cell's links kept as
  `link [id] 'name'`, and a lone heading that only wraps a same-named link as the link;
- shows ids only on elements one can act on, drops states that do not help (focus,
  expanded), and names static text `text`;
- keeps the first `max_lines` lines within `token_budget` approximate tokens.

    page = refine_tree(observation.tree_text, max_lines=500, token_budget=12000)
    page.text          # what the prompt shows
    page.ids           # ids the model can act on
    page.lines_for(ids)  # the lines of some ids (past steps' highlighted elements)
"""

from __future__ import annotations

import ast
import re
import unicodedata
from dataclasses import dataclass, field

from evaluation.observation import truncate_to_budget

_LINE = re.compile(r"^\[(\d+)\] (\S+) ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\s*(.*)$")
_PROPERTY = re.compile(r"(\w+): ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\S+)")

TEXT_ROLES = frozenset({"StaticText", "LabelText", "caption", "text"})
# Roles whose lines carry no id: nothing to click or type into (the rest keep theirs).
_PASSIVE_ROLES = frozenset(
    {
        "text", "heading", "main", "list", "listitem", "table", "row", "rowgroup", "rowheader", "columnheader",
        "cell", "gridcell", "LayoutTable", "LayoutTableRow", "LayoutTableCell", "RootWebArea", "contentinfo",
        "banner", "navigation", "complementary", "region", "article", "section", "Section", "paragraph",
        "DescriptionList", "DescriptionListTerm", "DescriptionListDetail", "term", "definition", "time",
        "alert", "status", "group", "generic", "strong", "emphasis", "blockquote", "figure", "note", "tabpanel",
        "Legend", "Abbr", "code", "Pre", "superscript", "subscript", "log", "marquee", "timer",
    }
)  # fmt: skip
_DECORATIVE_ROLES = frozenset({"img", "image", "separator", "presentation", "none", "Canvas", "graphics-symbol"})
_DROPPED_PROPERTIES = frozenset({"focused", "expanded", "autocomplete", "hasPopup", "orientation", "controls"})
_CELL_ROLES = frozenset({"cell", "gridcell", "columnheader", "rowheader", "LayoutTableCell"})
_ROW_ROLES = frozenset({"row", "LayoutTableRow"})


@dataclass
class _Node:
    node_id: str
    role: str
    name: str
    properties: list[str]
    children: list[_Node] = field(default_factory=list)
    parent: _Node | None = None
    kept: bool = True

    def kept_children(self) -> list[_Node]:
        return [child for child in self.children if child.kept]


@dataclass
class RefinedPage:
    text: str  # the refined tree, as the prompt shows it
    ids: set[str]  # ids shown in `text`
    line_of: dict[str, str]  # id -> its line (no indentation), for past steps' highlights
    truncated: bool = False

    def lines_for(self, ids: list[str]) -> list[str]:
        return [self.line_of[i] for i in ids if i in self.line_of]


def refine_tree(tree_text: str, max_lines: int = 500, token_budget: int | None = None) -> RefinedPage:
    roots = _parse(tree_text)
    for root in roots:
        _refine(root)
    lines: list[str] = []
    line_of: dict[str, str] = {}
    for root in roots:
        _render(root, 0, lines, line_of)
    cut = len(lines) > max_lines
    if cut:
        lines = lines[:max_lines] + [f"[... {len(lines) - max_lines} more lines past the {max_lines}-line limit ...]"]
    text, over_budget = truncate_to_budget("\n".join(lines), token_budget)
    shown = {i: line for i, line in line_of.items() if f"[{i}]" in text}
    return RefinedPage(text, set(shown), shown, cut or over_budget)


# ---- parsing the environment's tree text ----


def _parse(tree_text: str) -> list[_Node]:
    roots: list[_Node] = []
    stack: list[tuple[int, _Node]] = []
    for raw in tree_text.splitlines():
        if not raw.strip():
            continue
        depth = len(raw) - len(raw.lstrip("\t"))
        match = _LINE.match(raw.strip())
        if match is None:  # a line we cannot read (a budget note): keep it as text
            node = _Node("", "text", raw.strip(), [])
        else:
            node_id, role, quoted, rest = match.groups()
            node = _Node(node_id, role, _clean(ast.literal_eval(quoted)), _properties(rest))
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if stack:
            node.parent = stack[-1][1]
            node.parent.children.append(node)
        else:
            roots.append(node)
        stack.append((depth, node))
    return roots


def _properties(rest: str) -> list[str]:
    return [f"{key}: {value}" for key, value in _PROPERTY.findall(rest) if key not in _DROPPED_PROPERTIES]


def _clean(name: str) -> str:
    """Icon-font glyphs and private-use characters say nothing to a model; runs of spaces neither."""
    kept = "".join(ch for ch in name if unicodedata.category(ch) not in ("Co", "So", "Cn", "Cc"))
    return " ".join(kept.split())


# ---- the refinement passes, children first ----


def _refine(node: _Node) -> None:
    for child in node.children:
        _refine(child)
    if node.role in _DECORATIVE_ROLES and not node.kept_children():
        if node.role in ("img", "image") and node.name and node.name.lower() not in ("image", "img", "icon", "logo"):
            pass  # a named image is content (a product photo's caption)
        else:
            node.kept = False
            return
    if node.role in TEXT_ROLES:
        node.role = "text"
        if not node.name or _repeats_relative(node):
            node.kept = False
            return
    kept = node.kept_children()
    if len(kept) == 1 and kept[0].role == "text" and not kept[0].kept_children() and not node.name:
        node.name, kept[0].kept = kept[0].name, False  # the lone text becomes the parent's name
    if node.role == "heading":
        _fold_heading(node)
    if node.role in ("table", "grid", "LayoutTable", "treegrid"):
        _table_rows(node)


def _repeats_relative(node: _Node) -> bool:
    """The text says nothing its parent or a longer sibling does not (the page title is no parent text)."""
    parent = node.parent
    if parent is not None and parent.role != "RootWebArea" and _contains(parent.name, node.name):
        return True
    siblings = [s for s in (parent.children if parent else []) if s is not node and s.kept]
    return any(len(s.name) > len(node.name) and _contains(s.name, node.name) for s in siblings)


def _contains(text: str, part: str) -> bool:
    """`part` in `text` as whole words: a price "5" is not repeated by "15 Reviews"."""
    return re.search(rf"(?<!\w){re.escape(part)}(?!\w)", text) is not None


def _fold_heading(node: _Node) -> None:
    """A heading that only wraps a link of the same name is shown as that link."""
    kept = node.kept_children()
    if len(kept) == 1 and kept[0].name == node.name and kept[0].role not in _PASSIVE_ROLES:
        child = kept[0]
        node.node_id, node.role, node.properties = child.node_id, child.role, child.properties
        node.children = child.children


def _table_rows(table: _Node) -> None:
    """Each row becomes one `| a | b |` line; a separator follows a header row."""
    rows = [n for n in _walk(table) if n.kept and n.role in _ROW_ROLES]
    for row in rows:
        cells = [c for c in row.kept_children() if c.role in _CELL_ROLES]
        if not cells:
            continue
        header = all(c.role == "columnheader" for c in cells)
        row.name = "| " + " | ".join(_cell_text(c) for c in cells) + " |"
        if header:
            row.name += "\n| " + " | ".join("---" for _ in cells) + " |"
        row.role = "row"
        row.properties = []
        for cell in cells:
            cell.kept = False


def _cell_text(cell: _Node) -> str:
    parts = [cell.name] if cell.name else []
    for node in _walk(cell):
        if node is cell or not node.kept:
            continue
        if node.role in _PASSIVE_ROLES:
            if node.name and node.name not in " ".join(parts):
                parts.append(node.name)
        else:
            parts.append(f"{node.role} [{node.node_id}] {node.name!r}")
    return " ".join(parts).replace("|", "/")


def _walk(node: _Node):
    yield node
    for child in node.children:
        yield from _walk(child)


# ---- rendering ----


def _render(node: _Node, depth: int, lines: list[str], line_of: dict[str, str]) -> None:
    if not node.kept:
        return
    passive = node.role in _PASSIVE_ROLES or not node.node_id
    if node.role == "row" and node.name.startswith("|"):
        rendered = [node.name.split("\n")[0], *node.name.split("\n")[1:]]
        lines.extend("\t" * depth + line for line in rendered)
        for cell_line in re.findall(r"(\w+) \[(\d+)\] ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")", node.name):
            line_of[cell_line[1]] = f"{cell_line[0]} [{cell_line[1]}] {cell_line[2]}"
        line_of.setdefault(node.node_id, rendered[0])
        return
    head = node.role if passive else f"{node.role} [{node.node_id}]"
    line = " ".join([head, *([repr(node.name)] if node.name else []), *(f"[{p}]" for p in node.properties)])
    skip_self = node.role == "RootWebArea"
    if not skip_self:
        lines.append("\t" * depth + line)
        if node.node_id:
            line_of[node.node_id] = line
    for child in node.children:
        _render(child, depth if skip_self else depth + 1, lines, line_of)
