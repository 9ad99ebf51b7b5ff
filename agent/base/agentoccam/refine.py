"""Observation refinement: the whole page's accessibility tree, made short enough to read in one go.

AgentOccam shows the model the entire page (no viewport, no scrolling) and pays for
it by pruning what carries no information. Starting from the environment's tree text
(one `[id] role 'name' props` line per node, indented by tabs), this module does what
AgentOccam's pruning does (its `obs_opt.prune_tree`), in our code:

- drops images without children (and, ours, separators and icon glyphs), static text that
  repeats its parent's or a sibling's name;
- drops leaves identical (role, name, states) to the sibling next to them, outside
  table rows (`drop_identical_neighbours`: AgentOccam hides both of such a pair);
- merges a lone text child into an unnamed parent (`link ''` + text -> `link 'Home'`);
- folds an element's option or menu-item children into its own line, each option
  keeping its id (`combobox "Country: [12] 'Canada'; [13] 'France' [selected: True]"`);
  the combobox itself then shows no id: one chooses by clicking an option's id;
- merges a description list's terms with their details (`term 'Size: M; L'`);
- renders tables as markdown rows (`| Name | Price |`) with each cell's links kept as
  `link [id] 'name'` (`table_rows="original"`: each row line keeps its role, `row '| Name | Price |'`,
  as AgentOccam prints its row nodes), and a lone heading that only wraps a same-named link as the link;
- shows ids on every role but AgentOccam's non-interactive ones (texts, headings,
  lists, tables and their parts, landmarks `main`/`contentinfo`, description lists);
- heads the tree with the root line `RootWebArea 'page title'` (`root_line`, as AgentOccam);
- shows states as AgentOccam does (`states="original"`: every state the environment's
  WebArena-style tree reports, false ones too, `[required: False]`, no field value) or ours
  (`"compact"`: the environment's own short list, with a field's value);
- keeps the first `max_lines` lines (AgentOccam: 1,000, silently; ours: a marker line says how many more,
  `cut_marker`) within `token_budget` tokens;
- cleans names (`characters`): "readable" (ours) drops icon glyphs and private-use characters only,
  "original" keeps only what AgentOccam's cleaner keeps (letters, digits, spaces, a little punctuation),
  so a price loses its currency sign.

    page = refine_tree(observation.tree_text, max_lines=1000, token_budget=12000)
    page.text          # what the prompt shows
    page.ids           # ids the model can act on (folded options included)
    page.plain         # the page without ids: two pages are "the same" when this is (`name_ids_in_plain`:
                       # the ids inside names kept, as AgentOccam compares its name-only trees)
    page.highlight(ids)  # a past step's highlighted elements with their context, no ids
"""

from __future__ import annotations

import ast
import re
import unicodedata
from dataclasses import dataclass, field

from agent.base.agentoccam import original_prune
from agent.base.agentoccam.page_tree import PageNode as _Node
from agent.base.agentoccam.page_tree import walk_kept
from evaluation.browser_env.observation import truncate_to_budget

_LINE = re.compile(r"^\[(\d+)\] (\S+) ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\s*(.*)$")
_PROPERTY = re.compile(r"(\w+): ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\S+)")

TEXT_ROLES = frozenset({"StaticText", "LabelText", "caption", "text"})
# Roles whose lines carry no id: AgentOccam's non-interactive roles, plus `text` and the names newer
# Chromium gives some of them (`cell` for gridcell, `term`/`definition` for description-list parts).
_PASSIVE_ROLES = frozenset(
    {
        "text", "StaticText", "LabelText", "caption", "main", "heading", "LayoutTable", "tabpanel",
        "LayoutTableRow", "LayoutTableCell", "time", "list", "contentinfo", "table", "row", "rowheader",
        "columnheader", "gridcell", "cell", "DescriptionList", "DescriptionListTerm", "DescriptionListDetail",
        "term", "definition", "RootWebArea", "rowgroup", "alert",
    }
)  # fmt: skip
# A menu whose name holds its folded options shows no id of its own (AgentOccam's atomic combobox).
_FOLDING_ROLES = frozenset({"combobox", "listbox", "menu", "MenuListPopup"})
_OPTION_ROLES = frozenset({"option", "MenuListOption"})
_IMAGE_ROLES = frozenset({"img", "image"})
_DECORATIVE_ROLES = frozenset({"separator", "presentation", "none", "Canvas", "graphics-symbol"})
_DROPPED_PROPERTIES = frozenset(
    {"focused", "expanded", "autocomplete", "hasPopup", "orientation", "controls", "multiselectable"}
)
# Also gone with AgentOccam's states: a field's value (WebArena's tree never shows it) and the `url` newer
# Chromium reports on the root and links (the trees AgentOccam's code shows carry none).
_ORIGINAL_DROPPED = _DROPPED_PROPERTIES | {"value", "url"}
_CELL_ROLES = frozenset({"cell", "gridcell", "columnheader", "rowheader", "LayoutTableCell"})
_ROW_ROLES = frozenset({"row", "LayoutTableRow"})
_TERM_ROLES = frozenset({"DescriptionListTerm", "term"})
_DETAIL_ROLES = frozenset({"DescriptionListDetail", "definition"})
# A past step's highlight with this many elements or more is replaced by its description (AgentOccam's 30).
HIGHLIGHT_MAX_NODES = 30


@dataclass
class RefinedPage:
    text: str  # the refined tree, as the prompt shows it
    ids: set[str]  # ids shown in `text` (options folded into a menu's line included)
    line_of: dict[str, str]  # id -> its line (no indentation), for the ids shown
    truncated: bool = False
    plain: str = ""  # the refined tree without ids: what "the page did not change" compares
    roots: list[_Node] = field(default_factory=list, repr=False)
    root_line: bool = False  # the root line `RootWebArea 'title'` is shown
    row_role: bool = False  # table rows shown as `row '| a | b |'` (AgentOccam's)
    original: bool = False  # pruned and printed by AgentOccam's passes (`pruning="original"`)

    def highlight(self, ids: list[str], whole_page_when_none: bool = False) -> str | None:
        """The highlighted elements with their ancestors, descendants and named siblings, without ids
        (as AgentOccam keeps a past page); None when nothing is found or the excerpt is too big.
        `whole_page_when_none`: no ids at all leave the whole page, as AgentOccam hides nothing then
        (AgentOccam.py:861-874), so a page of under 30 elements is kept whole."""
        if not ids and whole_page_when_none:
            return self._excerpt({id(n) for root in self.roots for n in walk_kept(root)})
        chosen: set[int] = set()
        for node_id in ids:
            node = self._find(node_id)
            if node is None:
                continue
            chosen.update(id(n) for n in walk_kept(node))  # a folded cell's hidden links are not counted
            ancestor = node.parent
            while ancestor is not None:
                chosen.add(id(ancestor))
                ancestor = ancestor.parent
            if node.parent is not None:
                chosen.update(id(s) for s in node.parent.children if s.kept and s.name)
        return self._excerpt(chosen)

    def _excerpt(self, chosen: set[int]) -> str | None:
        if not chosen or len(chosen) >= HIGHLIGHT_MAX_NODES:
            return None
        lines: list[str] = []
        for root in self.roots:
            if self.original:
                _render_original(root, lines, {}, with_ids=False, only=chosen, root_line=self.root_line)
            else:
                _render(root, 0, lines, {}, False, chosen, root_line=self.root_line, row_role=self.row_role)
        return "\n".join(lines) or None

    def _find(self, node_id: str) -> _Node | None:
        for root in self.roots:
            for node in walk_kept(root):
                if node.node_id == node_id or f"[{node_id}]" in node.name:
                    return node
        return None


def refine_tree(
    tree_text: str,
    max_lines: int = 1000,
    token_budget: int | None = None,
    drop_identical_neighbours: bool = True,
    root_line: bool = True,
    states: str = "original",
    characters: str = "readable",
    *,
    table_rows: str = "plain",
    cut_marker: bool = True,
    name_ids_in_plain: bool = False,
    pruning: str = "ours",
) -> RefinedPage:
    """`table_rows`: "plain" (ours, `| a | b |`) or "original" (`row '| a | b |'`); `cut_marker`: a line saying
    how many lines the cut left out (ours; AgentOccam cuts silently); `name_ids_in_plain`: the page compared
    between steps keeps the ids inside names (folded options, table cells), as AgentOccam's comparison does;
    `pruning`: "ours" (the passes below) or "original" (AgentOccam's own, original_prune.py, on WebArena's tree:
    tables, rows and states then print as its code prints them, whatever `table_rows` and
    `drop_identical_neighbours` say)."""
    if pruning not in ("ours", "original"):
        raise ValueError(f"agentoccam.pruning {pruning!r}: use ours or original")
    original = pruning == "original"
    row_role = table_rows == "original"
    roots = _parse(tree_text, states, characters)
    for root in roots:
        if original:
            original_prune.prune(root)
        else:
            _refine(root, drop_identical_neighbours)
    lines: list[str] = []
    line_of: dict[str, str] = {}
    plain: list[str] = []
    for root in roots:
        if original:
            _render_original(root, lines, line_of, root_line=root_line)
            _render_original(root, plain, {}, with_ids=False, root_line=root_line)
        else:
            _render(root, 0, lines, line_of, root_line=root_line, row_role=row_role)
            _render(root, 0, plain, {}, with_ids=False, root_line=root_line, row_role=row_role)
    text, cut = _cut(lines, max_lines, token_budget, cut_marker)
    shown = {i: line for i, line in line_of.items() if f"[{i}]" in text}
    compared = "\n".join(plain)
    if not name_ids_in_plain:  # ours: ids inside names go too: a reload renumbers them, the page is the same
        compared = re.sub(r" ?\[\d+\]", "", compared)
    return RefinedPage(text, set(shown), shown, cut, compared, roots, root_line, row_role, original)


def unrefined_page(
    tree_text: str, max_lines: int = 500, token_budget: int | None = None, cut_marker: bool = True
) -> RefinedPage:
    """The environment's tree as it is, cut at `max_lines` (AgentOccam without pruning: 500 rows)."""
    lines = [line for line in tree_text.splitlines() if line.strip()]
    text, cut = _cut(lines, max_lines, token_budget, cut_marker)
    line_of = {m[1]: m[0].strip() for m in re.finditer(r"^\s*\[(\d+)\] .*$", text, re.M)}
    plain = re.sub(r"^(\s*)\[\d+\] ", r"\1", tree_text, flags=re.M)
    return RefinedPage(text, set(line_of), line_of, cut, plain)


def _cut(lines: list[str], max_lines: int, token_budget: int | None, marker: bool = True) -> tuple[str, bool]:
    """The first `max_lines` lines (AgentOccam's obs_opt.py:370 and env.py:68-69 keep them silently; ours adds a
    marker line), then the token budget."""
    cut = len(lines) > max_lines
    if cut:
        more = [f"[... {len(lines) - max_lines} more lines past the {max_lines}-line limit ...]"] if marker else []
        lines = lines[:max_lines] + more
    text, over_budget = truncate_to_budget("\n".join(lines), token_budget)
    return text, cut or over_budget


# ---- parsing the environment's tree text ----


def _parse(tree_text: str, states: str = "compact", characters: str = "readable") -> list[_Node]:
    roots: list[_Node] = []
    stack: list[tuple[int, _Node]] = []
    for raw in tree_text.splitlines():
        if not raw.strip():
            continue
        depth = len(raw) - len(raw.lstrip("\t"))
        match = _LINE.match(raw.strip())
        if match is None:  # a line we cannot read (a budget note): keep it as text
            node = _Node("", "text", raw.strip(), [], depth=depth)
        else:
            node_id, role, quoted, rest = match.groups()
            name = ast.literal_eval(quoted)
            name = _clean_original(name) if characters == "original" else _clean(name)
            node = _Node(node_id, role, name, _properties(rest, states))
        node.depth = depth
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if stack:
            node.parent = stack[-1][1]
            node.parent.children.append(node)
            if states == "original" and node.parent.role in _ROW_ROLES:  # as AgentOccam: no `required: False` in rows
                node.properties = [p for p in node.properties if p != "required: False"]
        else:
            roots.append(node)
        stack.append((depth, node))
    return roots


def _properties(rest: str, states: str = "compact") -> list[str]:
    if states != "original":
        return [f"{key}: {value}" for key, value in _PROPERTY.findall(rest) if key not in _DROPPED_PROPERTIES]
    # AgentOccam prints a state's value as it is: `[checked: false]`, `[valuetext: 3 of 5]`.
    return [f"{key}: {_unquoted(value)}" for key, value in _PROPERTY.findall(rest) if key not in _ORIGINAL_DROPPED]


def _unquoted(value: str) -> str:
    if value[:1] in ("'", '"'):
        try:
            return str(ast.literal_eval(value))
        except (ValueError, SyntaxError):
            return value
    return value


def _clean(name: str) -> str:
    """Icon-font glyphs and private-use characters say nothing to a model; runs of spaces neither."""
    kept = "".join(ch for ch in name if unicodedata.category(ch) not in ("Co", "So", "Cn", "Cc"))
    return " ".join(kept.split())


# Besides letters, digits, `_` and spaces, the only characters AgentOccam's cleaner leaves in a name.
_ORIGINAL_PUNCTUATION = frozenset(",.!?;:-'\"()&/\u2019@")


def _clean_original(name: str) -> str:
    """AgentOccam's cleaning: every other character goes (`$`, `€`, `%`, `+`, `#`, `*`, brackets, glyphs)."""
    kept = "".join(ch for ch in name if ch.isalnum() or ch == "_" or ch.isspace() or ch in _ORIGINAL_PUNCTUATION)
    return " ".join(kept.split())


# ---- the refinement passes, children first ----


def _refine(node: _Node, drop_identical_neighbours: bool = True) -> None:
    for child in node.children:
        _refine(child, drop_identical_neighbours)
    if drop_identical_neighbours:
        _drop_identical_neighbours(node)
    if node.role in _IMAGE_ROLES and not node.kept_children():  # AgentOccam drops childless images, named or not
        node.kept = False
        return
    if node.role in _DECORATIVE_ROLES and not node.kept_children():
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
    _fold_options(node)
    _merge_description_list(node)
    if node.role == "heading":
        _fold_heading(node)
    if node.role in ("table", "grid", "LayoutTable", "treegrid"):
        _table_rows(node)


def _drop_identical_neighbours(node: _Node) -> None:
    """Leaves equal (role, name, states) to the sibling just before or after them say nothing the
    other does not; AgentOccam hides all of them (both of a pair). Cells of a table row stay."""
    if node.role in _ROW_ROLES:
        return
    children = node.children
    signature = [(c.role, c.name, tuple(c.properties)) if not c.children else None for c in children]
    repeated = [
        i
        for i, sig in enumerate(signature)
        if sig is not None and children[i].kept and sig[1]
        and ((i > 0 and signature[i - 1] == sig) or (i + 1 < len(children) and signature[i + 1] == sig))
    ]  # fmt: skip
    for i in repeated:
        children[i].kept = False


def _fold_options(node: _Node) -> None:
    """Option (or menu-item) children become part of the parent's name, each with its id."""
    kept = node.kept_children()
    if not kept or node.role in _OPTION_ROLES:
        return
    if all(c.role in _OPTION_ROLES for c in kept):
        prefix = "option"
    elif all(c.role == "menuitem" for c in kept):
        prefix = "menuitem"
    else:
        return
    folded = "; ".join(_line(c, with_ids=True)[len(c.role) + 1 :] for c in kept)
    node.name = f"{node.name}: {folded}" if node.name.strip() else folded
    node.folded = [(c.node_id, f"{prefix} [{c.node_id}] {c.name!r}") for c in kept]
    for child in kept:
        child.kept = False


def _merge_description_list(node: _Node) -> None:
    """A term followed by its details becomes one line, `term 'Term: detail; detail'`."""
    kept = node.kept_children()
    if not any(c.role in _TERM_ROLES for c in kept):
        return
    for child in kept:  # a detail with one element inside: that element's line is the detail
        inner = child.kept_children()
        if child.role in _DETAIL_ROLES and not child.name and len(inner) == 1 and not inner[0].kept_children():
            child.name, inner[0].kept = _line(inner[0], with_ids=True), False
    term: _Node | None = None
    details: list[_Node] = []
    for child in kept + [None]:  # type: ignore[list-item]
        if child is not None and child.role in _DETAIL_ROLES and not child.kept_children() and term is not None:
            details.append(child)
            continue
        if term is not None and details:
            term.name = f"{term.name}: " + "; ".join(d.name for d in details)
            for detail in details:
                detail.kept = False
        starts = child is not None and child.role in _TERM_ROLES and not child.kept_children()
        term, details = (child, []) if starts else (None, [])


def _repeats_relative(node: _Node) -> bool:
    """The text says nothing its parent or a sibling does not (the page title is no parent text)."""
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


# Names holding other elements' lines (folded options, merged cells): `link [11] '000000024'`.
_INNER_LINE = re.compile(r"(\w+) \[(\d+)\] ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")


# ---- rendering ----


def _line(node: _Node, with_ids: bool = True) -> str:
    passive = node.role in _PASSIVE_ROLES or not node.node_id or (node.role in _FOLDING_ROLES and node.folded)
    head = node.role if passive or not with_ids else f"{node.role} [{node.node_id}]"
    return " ".join([head, *([repr(node.name)] if node.name else []), *(f"[{p}]" for p in node.properties)])


def _render(
    node: _Node,
    depth: int,
    lines: list[str],
    line_of: dict[str, str],
    with_ids: bool = True,
    only: set[int] | None = None,
    root_line: bool = False,
    row_role: bool = False,
) -> None:
    """Append the node's lines; `only`: the ids (Python's) of the nodes to show, their order kept;
    `root_line`: the root `RootWebArea` has a line of its own, its children one level in; `row_role`: a table
    row is printed as AgentOccam prints its row nodes, the role then the quoted row (obs_opt.py:192-194, :326-330)."""
    if not node.kept:
        return
    shown = only is None or id(node) in only
    if shown and node.role == "row" and node.name.startswith("|"):
        rows = node.name.split("\n")
        lines.extend("\t" * depth + (f"row {row!r}" if row_role else row) for row in rows)
        for cell_line in re.findall(r"(\w+) \[(\d+)\] ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")", node.name):
            line_of[cell_line[1]] = f"{cell_line[0]} [{cell_line[1]}] {cell_line[2]}"
        line_of.setdefault(node.node_id, node.name.split("\n")[0])
        return
    skip_self = (node.role == "RootWebArea" and not root_line) or not shown
    if not skip_self:
        line = _line(node, with_ids)
        lines.append("\t" * depth + line)
        if node.node_id:
            line_of[node.node_id] = line
        for option_id, option_line in node.folded:
            line_of[option_id] = option_line
    for child in node.children:
        _render(child, depth if skip_self else depth + 1, lines, line_of, with_ids, only, root_line, row_role)


# The roles whose id AgentOccam's prompt hides when their name holds other elements' ids (AgentOccam.py:522).
_ORIGINAL_FOLDING_ROLES = ("menu", "combobox", "listbox")


def _render_original(
    node: _Node,
    lines: list[str],
    line_of: dict[str, str],
    with_ids: bool = True,
    only: set[int] | None = None,
    root_line: bool = True,
) -> None:
    """Lines as AgentOccam prints its pruned tree (obs_opt.py:306-332, :367-370): each node at its own depth, its id
    unless its role hides it, or, with `with_ids` off, as its name-only trees (no ids at all)."""
    if not node.kept:
        return
    shown = only is None or id(node) in only
    skip = not shown or (node.role == "RootWebArea" and not root_line)
    if not skip:
        text = original_prune.line(node, with_ids)
        if with_ids and node.role in _ORIGINAL_FOLDING_ROLES and "[" in node.name:
            text = original_prune.line(node, with_ids=False)
        depth = max(node.depth - (0 if root_line else 1), 0)
        lines.append("\t" * depth + text)
        if node.node_id and text.startswith(f"{node.role} [{node.node_id}]"):
            line_of[node.node_id] = text
        for option_id, option_line in node.folded:
            line_of[option_id] = option_line
        for role, inner_id, quoted in _INNER_LINE.findall(node.name):
            line_of.setdefault(inner_id, f"{role} [{inner_id}] {quoted}")
    for child in node.children:
        _render_original(child, lines, line_of, with_ids, only, root_line)
