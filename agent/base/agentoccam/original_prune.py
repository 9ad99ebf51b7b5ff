"""AgentOccam's pruning pass by pass (`agentoccam.pruning: original`), on the tree WebArena's environment builds.

amazon-science/AgentOccam c078ba6, AgentOccam/obs_opt.py:387-407 (prune_tree) runs these passes in this order over
the structured tree of browser_env/processors.py; each function below names the lines it follows. Its quirks are
kept, as a parity run needs them: a description list's term repeats its details (:141 merges inside the loop), a
header row alone in its row group gets no `| --- |` line (:193), rows after a row-header table are read as a
transposed table, a table of an unknown shape is left as its cells were merged so far (:288-289). The one
liberty: Chromium's newer role names are read as the ones its code names (`cell` as `gridcell`, `term` and
`definition` as the description-list parts, `image` as `img`), as the Chromium it ran on reported them.
"""

from __future__ import annotations

import copy

from agent.base.agentoccam.page_tree import PageNode, walk

# obs_opt.py:7: roles printed without an id (the prompt's text role besides, :311).
UNINTERACTIVE_ROLES = frozenset(
    {
        "StaticText", "LabelText", "main", "heading", "LayoutTable", "tabpanel", "LayoutTableRow", "LayoutTableCell",
        "time", "list", "contentinfo", "table", "row", "rowheader", "columnheader", "gridcell", "caption",
        "DescriptionList", "DescriptionListTerm", "DescriptionListDetail", "RootWebArea", "rowgroup", "alert",
    }
)  # fmt: skip
HIDDEN_ID_ROLES = UNINTERACTIVE_ROLES | {"text"}
_ALIASES = {"cell": "gridcell", "term": "DescriptionListTerm", "definition": "DescriptionListDetail", "image": "img"}
_TEXTS = ("StaticText", "LabelText", "caption")
_CELLS = ("gridcell", "columnheader", "rowheader", "LayoutTableCell")
_TEXTISH = ("LayoutTableCell", "StaticText", "generic", "text")  # :256 (its replacement role `text` included)


def kind(node: PageNode) -> str:
    """The role AgentOccam's code would have seen for the node."""
    return _ALIASES.get(node.role, node.role)


def hides_id(role: str) -> bool:
    return _ALIASES.get(role, role) in HIDDEN_ID_ROLES


def line(node: PageNode, with_ids: bool = True) -> str:
    """obs_opt.py:306-332 (concise; `with_ids` False: name_only): role, id, quoted name, `[state: value]`s."""
    head = node.role if not with_ids or hides_id(node.role) else f"{node.role} [{node.node_id}]"
    return " ".join([head, *([repr(node.name)] if node.name else []), *(f"[{p}]" for p in node.properties)])


def prune(root: PageNode) -> None:
    """obs_opt.py:389-401 on `root`, in place; hidden nodes get `kept` False. Names are cleaned and unwanted states
    dropped when the tree is read (refine._parse)."""
    _each(root, _remove_redundant_text)
    _each(root, _remove_image)
    _prune_fuzzy(root)
    _each(root, _remove_image)
    _each(root, _merge_text_into_parent)
    _each(root, _remove_redundant_text)
    for node in walk(root):
        if node.role in ("StaticText", "LabelText"):
            node.role = "text"  # :8-13, :397
    _each(root, _merge_options)
    _each(root, _merge_description_list)
    _each(root, _reformat_table)
    _each(root, _merge_duplicated_heading)


def _each(node: PageNode, action) -> None:
    """parse_node_descendants (:347-352): the node, then each child's subtree, hidden ones included."""
    action(node)
    for child in list(node.children):
        _each(child, action)


def _no_kept_children(node: PageNode) -> bool:
    return not any(child.kept for child in node.children)


def _siblings(node: PageNode) -> list[PageNode]:
    return [n for n in node.parent.children if n is not node] if node.parent else []


def _remove_redundant_text(node: PageNode) -> None:
    """:77-83: a text says nothing its parent's or any sibling's name holds (as substrings)."""
    if not node.kept or not (_no_kept_children(node) and node.role in _TEXTS):
        return
    parent = node.parent
    if not node.name or (parent and node.name in parent.name) or any(node.name in s.name for s in _siblings(node)):
        node.kept = False


def _remove_image(node: PageNode) -> None:
    """:143-147."""
    if node.kept and _no_kept_children(node) and (kind(node) == "img" or node.name == "Image"):
        node.kept = False


def _prune_fuzzy(node: PageNode) -> None:
    """:354-365: leaves alike to the sibling before or after them go (processors.py:121-181), out of table rows."""
    fuzzy = []
    for child in reversed(node.children):
        _prune_fuzzy(child)
        if _no_kept_children(child) and not _differentiable(child):
            fuzzy.append(child)
    for child in fuzzy:
        child.kept = False


def _differentiable(node: PageNode) -> bool:
    parent = node.parent
    if parent is not None and parent.role == "row":
        return True
    if parent is None:
        return True
    children = parent.children
    at = children.index(node)
    before = children[at - 1] if at > 0 else None
    # processors.py:134 reads `children[:at:-1]`: the siblings after it, from the last one, so its "last visible
    # sibling" is the last visible child after it.
    last_visible = next((s for s in children[:at:-1] if s.kept), None) if at > 0 else None
    after = children[at + 1] if at + 1 < len(children) else None
    next_visible = next((s for s in children[at + 1 :] if s.kept), None)
    return not any(other is not None and _identical(node, other) for other in (before, last_visible, after, next_visible))


def _identical(node: PageNode, other: PageNode) -> bool:
    """processors.py:111-124."""
    return not other.children and node.role == other.role and node.name == other.name and (
        node.properties == other.properties
    )


def _merge_text_into_parent(node: PageNode) -> None:
    """:85-92: a lone text child names its unnamed parent (alone among all its children, hidden ones counted)."""
    if not node.kept or not (_no_kept_children(node) and node.role in _TEXTS):
        return
    parent = node.parent
    if parent is not None and not parent.name and len(parent.children) == 1:
        parent.name, node.kept = node.name, False


def _merge_options(node: PageNode) -> None:
    """:94-110: all-option (or all-menuitem) children go into the name, each as its line after the role."""
    kept = node.kept_children()
    if not node.kept or not kept or not (all(c.role == "menuitem" for c in kept) or all(c.role == "option" for c in kept)):
        return
    prefix = kept[0].role
    folded = "; ".join(line(c)[len(prefix) + 1 :] for c in kept)
    node.name = f"{node.name}: {folded}" if node.name.strip() else folded
    node.folded = [(c.node_id, f"{prefix} [{c.node_id}] {c.name!r}") for c in kept]
    for child in kept:
        child.kept = False


def _merge_description_list(node: PageNode) -> None:
    """:112-141, with its merge at the end of every turn of the loop (:141): `Size: M: M; L: M; L`."""
    if not node.kept or kind(node) != "DescriptionList":
        return
    for child in node.kept_children():
        inner = child.kept_children()
        if kind(child) == "DescriptionListDetail" and not child.name and len(inner) == 1:
            child.name, inner[0].kept = line(inner[0]), False
    buffer: list[PageNode] = []

    def merge() -> None:
        if len(buffer) > 1:
            for detail in buffer[1:]:
                detail.kept = False
            buffer[0].name += ": " + "; ".join(detail.name for detail in buffer[1:])

    for child in node.kept_children():
        role, leaf = kind(child), _no_kept_children(child)
        if role == "DescriptionListTerm" and leaf:
            merge()
            buffer = [child]
        elif role == "DescriptionListDetail" and leaf and buffer:
            buffer.append(child)
        elif role == "DescriptionListDetail" and not leaf:
            buffer = []
        else:
            merge()
            buffer = []
        merge()


def _merge_cell(cell: PageNode) -> None:
    """:162-175: a cell's shown descendants join its name, tab-separated, and are hidden."""
    if kind(cell) not in _CELLS or not cell.kept:
        return
    shown = [line(n) for n in walk(cell) if n.kept]  # hidden parents' shown children too, as :166 walks them all
    if len(shown) == 1:
        return
    cell.name = cell.name + "\t" + "\t".join(shown[1:]) if cell.name else "\t".join(shown[1:])
    for n in walk(cell):
        n.kept = False
    cell.kept = True


def _row(template: PageNode, name: str) -> PageNode:
    return PageNode(template.node_id, "row", name, [], depth=_depth(template))


def _depth(node: PageNode) -> int:
    if node.depth >= 0:
        return node.depth
    depth, up = 0, node.parent
    while up is not None:
        depth, up = depth + 1, up.parent
    return depth


def _subtable(rows: list[PageNode], done: list[PageNode]) -> list[PageNode]:
    """reformat_subtable (:180-210): a group of rows as `| a | b |` rows, after an empty row when some came before."""
    done = copy.deepcopy(done)
    if not rows:
        return done
    first = rows[0]
    separate = bool(done) and any(n.kept for n in done)
    if any(kind(c) == "columnheader" for c in first.children):
        if separate:
            done.append(_row(first, ""))
        for i, row in enumerate(rows):
            names = [c.name for c in row.children]
            done.append(_row(row, "| " + " | ".join(names) + " |"))
            if i == 0 and len(rows) > 1:
                done.append(_row(row, "| " + " | ".join(["---"] * len(names)) + " |"))
    elif kind(first.children[0]) == "rowheader":  # a row-header table is transposed (:195-202)
        if separate:
            done.append(_row(first, ""))
        titles = [r.children[0].name for r in rows]
        values = [r.children[1].name for r in rows]
        done.append(_row(first, "| " + " | ".join(titles) + " |"))
        done.append(_row(first, "| " + " | ".join(["---"] * len(titles)) + " |"))
        done.append(_row(first, "| " + " | ".join(values) + " |"))
    elif kind(first.children[0]) == "gridcell":
        if separate:
            done.append(_row(first, ""))
        for row in rows:
            done.append(_row(row, "| " + " | ".join(c.name for c in row.children) + " |"))
    else:
        raise ValueError("unrecognised table format")
    return done


def _reformat_table(node: PageNode) -> None:
    """:159-289; an error leaves the table as far as it got, as AgentOccam prints the error and goes on."""
    if not node.kept:
        return
    try:
        if node.role == "table":
            _reformat_data_table(node)
        elif node.role == "LayoutTable":
            _merge_layout_text(node)
    except (ValueError, IndexError):
        pass


def _reformat_data_table(table: PageNode) -> None:
    done: list[PageNode] = []
    rows: list[PageNode] = []
    row_mode = False
    for child in table.children:
        if child.role == "row":
            for cell in child.kept_children():
                _merge_cell(cell)
        if child.role == "row" and any(kind(c) == "columnheader" for c in child.children):
            rows, row_mode = [child], False  # rows gathered so far are dropped (:221-223)
        elif child.role == "row" and kind(child.children[0]) == "rowheader":
            if row_mode:
                rows.append(child)
            else:
                done, rows = _subtable(rows, done), [child]
            row_mode = True
        elif child.role == "row" and kind(child.children[0]) == "gridcell":
            rows.append(child)
            row_mode = False
        elif child.role != "row":
            done = _subtable(rows, done)
            if child.role == "rowgroup":
                for row in child.kept_children():
                    for cell in row.kept_children():
                        _merge_cell(cell)
                grouped = _subtable(child.children, [])
                child.children = []
                for row in grouped:
                    child.add(row)
            done.append(child)
            rows = []
        else:
            raise ValueError("unrecognised table row")
    done = _subtable(rows, done)
    table.children = []
    for child in done:
        table.add(child)


def _merge_layout_text(table: PageNode) -> None:
    """:247-287: adjacent text-like nodes merge; each layout row becomes one `| a | b |` name."""

    def merge_adjacent(nodes: list[PageNode]) -> list[PageNode]:
        if not nodes:
            return []
        merged, current = [], nodes[0]
        for other in nodes[1:]:
            if current.kept and current.role in _TEXTISH and other.kept and other.role in _TEXTISH:
                current.role = "text"
                current.name += " " + other.name
                other.kept = False
            else:
                merged.append(current)
                current = other
        merged.append(current)
        return merged

    def visit(n: PageNode) -> None:
        if not n.children:
            return
        for c in n.children:
            visit(c)
        n.children = merge_adjacent(n.children)
        kept = n.kept_children()
        if len(kept) == 1 and kept[0].role in _TEXTISH and n.role in _TEXTISH:
            n.name += "\t" + kept[0].name
            kept[0].kept = False
        if n.role == "LayoutTableRow":
            for cell in n.children:
                if cell.kept and cell.children:
                    for sub in cell.children:
                        if sub.kept:
                            cell.name += "\t" + line(sub)
                    cell.children = []
            n.name = "| " + " | ".join(c.name for c in n.children if c.kept) + " |"
            for cell in n.children:
                cell.kept = False

    visit(table)


def _merge_duplicated_heading(node: PageNode) -> None:
    """:291-301: a heading and its lone same-named element become one line, the element's."""
    parent = node.parent
    if not node.kept or not _no_kept_children(node) or parent is None or any(s.kept for s in _siblings(node)):
        return
    if node.role == "heading" and parent.role not in UNINTERACTIVE_ROLES and node.name == parent.name:
        node.kept = False
    if parent.role == "heading" and node.role not in UNINTERACTIVE_ROLES and node.name == parent.name:
        parent.node_id, parent.role, parent.properties = node.node_id, node.role, node.properties
        parent.children = node.children  # printed one level deeper than their place: :332 prints each node's depth
        for child in parent.children:
            child.parent = parent
        node.kept = False
