"""AgentOccam's observation under `--harness agentoccam` (issue 67): the tree WebArena's environment keeps, pruned by
AgentOccam's own passes, on pages in Chromium's real shapes.

The trees below are what the capture (`structure="webarena"`, `states="webarena"`) gives for small pages in
Chromium 156 (a labelled select with its popup, a description list, a row-header table, a 9-row table of links, a
table with a caption next to a layout table). Each expected observation is what AgentOccam's own code (c078ba6:
browser_env/processors.py parse_accessibility_tree, AgentOccam/obs_opt.py prune_tree and translate_node_to_str,
AgentOccam.py:855-878 for highlights) printed for the same Chromium node lists, worked out by running it; none of
its code is here. One test captures a real page to show the capture keeps the unnamed structural nodes.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from agent.base.agentoccam.refine import refine_tree
from evaluation.browser_env.ax_tree import capture_ax_tree
from evaluation.browser_env.observation import Observation, TabInfo
from settings import load_settings
from tests.agent.test_agentoccam import _act, occam

SELECT = """[1] RootWebArea 'Form' focused: True url: 'about:blank'
\t[8] main ''
\t\t[9] form ''
\t\t\t[10] group ''
\t\t\t\t[40] StaticText 'Country'
\t\t\t\t[12] combobox 'Country' hasPopup: 'menu' expanded: False
\t\t\t\t\t[15] MenuListPopup ''
\t\t\t\t\t\t[19] option 'Canada' selected: False
\t\t\t\t\t\t[22] option 'France' selected: True
\t\t\t\t[41] StaticText 'Sort By'
\t\t\t\t[26] combobox 'Sort By' hasPopup: 'menu' expanded: False
\t\t\t\t\t[29] MenuListPopup ''
\t\t\t\t\t\t[33] option 'Name' selected: True
\t\t\t\t\t\t[36] option 'Price' selected: False
\t\t\t\t[39] button 'Save'
\t\t\t\t\t[42] StaticText 'Save'"""

# The same page as our capture keeps it (`structure="compact"`): no main, group or popup.
SELECT_COMPACT = """[1] RootWebArea 'Form' focused: True url: 'about:blank'
\t[9] form ''
\t\t[40] StaticText 'Country'
\t\t[12] combobox 'Country' hasPopup: 'menu' expanded: False
\t\t\t[19] option 'Canada' selected: False
\t\t\t[22] option 'France' selected: True
\t\t[39] button 'Save'"""

DESCRIPTION_LIST = """[1] RootWebArea 'Product' focused: True url: 'about:blank'
\t[67] main ''
\t\t[68] heading 'Shirt'
\t\t\t[75] StaticText 'Shirt'
\t\t[69] DescriptionList ''
\t\t\t[70] term 'Size'
\t\t\t\t[76] StaticText 'Size'
\t\t\t[71] definition ''
\t\t\t\t[77] StaticText 'M'
\t\t\t[72] definition ''
\t\t\t\t[78] StaticText 'L'
\t\t\t[73] term 'Color'
\t\t\t\t[79] StaticText 'Color'
\t\t\t[74] definition ''
\t\t\t\t[80] StaticText 'Blue'"""

ROW_HEADERS = """[1] RootWebArea 'Order' focused: True url: 'about:blank'
\t[86] table ''
\t\t[88] row ''
\t\t\t[89] rowheader 'Order #' required: False
\t\t\t\t[97] StaticText 'Order #'
\t\t\t[90] cell '000000024'
\t\t\t\t[98] StaticText '000000024'
\t\t[91] row ''
\t\t\t[92] rowheader 'Total' required: False
\t\t\t\t[99] StaticText 'Total'
\t\t\t[93] cell '$106.97'
\t\t\t\t[100] StaticText '$106.97'
\t\t[94] row ''
\t\t\t[95] rowheader 'Status' required: False
\t\t\t\t[101] StaticText 'Status'
\t\t\t[96] cell 'Pending'
\t\t\t\t[102] StaticText 'Pending'"""


def _links_table() -> str:
    """Nine orders under a header row in its own <thead>, each order number a link (ids as Chromium gave them)."""
    lines = [
        "[1] RootWebArea 'Orders' focused: True url: 'about:blank'",
        "\t[108] table ''",
        "\t\t[109] rowgroup ''",
        "\t\t\t[110] row ''",
        "\t\t\t\t[111] columnheader 'Order #' required: False",
        "\t\t\t\t\t[150] StaticText 'Order #'",
        "\t\t\t\t[112] columnheader 'Total' required: False",
        "\t\t\t\t\t[151] StaticText 'Total'",
    ]
    for n in range(1, 10):
        row, text = 110 + 4 * n, 150 + 2 * n
        lines += [
            f"\t\t[{row}] row ''",
            f"\t\t\t[{row + 1}] cell '00{n}'",
            f"\t\t\t\t[{row + 2}] link '00{n}'",
            f"\t\t\t\t\t[{text}] StaticText '00{n}'",
            f"\t\t\t[{row + 3}] cell '${n}.00'",
            f"\t\t\t\t[{text + 1}] StaticText '${n}.00'",
        ]
    return "\n".join(lines)


MIXED_TABLES = """[1] RootWebArea 'Stats' focused: True url: 'about:blank'
\t[233] table 'Sales'
\t\t[234] caption ''
\t\t\t[248] StaticText 'Sales'
\t\t[236] row ''
\t\t\t[237] columnheader 'Month' required: False
\t\t\t\t[249] StaticText 'Month'
\t\t\t[238] columnheader 'Total | net' required: False
\t\t\t\t[250] StaticText 'Total | net'
\t\t[239] row ''
\t\t\t[240] cell 'Jan'
\t\t\t\t[251] StaticText 'Jan'
\t\t\t[241] cell 'View Edit'
\t\t\t\t[242] link 'View'
\t\t\t\t\t[253] StaticText 'View'
\t\t\t\t[243] button 'Edit'
\t\t\t\t\t[252] StaticText 'Edit'
\t[244] LayoutTable ''
\t\t[246] LayoutTableRow ''
\t\t\t[247] LayoutTableCell 'Lonely'
\t\t\t\t[255] StaticText 'Lonely'"""


def occam_page(tree: str, **overrides):
    """The page as the agentoccam preset's settings refine it (AgentOccamAgent.refine's call); `overrides` change
    refine_tree's arguments."""
    o = load_settings(harness="agentoccam").agentoccam
    arguments = dict(
        max_lines=o.observation_max_lines, drop_identical_neighbours=o.drop_identical_neighbours,
        root_line=o.root_line, states=o.states, characters=o.characters, table_rows=o.table_rows,
        cut_marker=o.cut_marker, name_ids_in_plain=o.same_page_name_ids, pruning=o.pruning,
    )  # fmt: skip
    return refine_tree(tree, **{**arguments, **overrides})


def test_a_labelled_select_keeps_its_group_and_popup_and_the_combobox_keeps_its_id() -> None:
    """processors.py:845-862 keeps `main`, `form`, `group` and the popup; obs_opt.py:94-110 folds the options into
    the popup's name; AgentOccam.py:522 hides an id only for a menu, combobox or listbox holding ids in its name."""
    page = occam_page(SELECT)
    assert page.text.splitlines() == [
        "RootWebArea 'Form'",
        "\tmain",
        "\t\tform [9]",
        "\t\t\tgroup [10]",
        "\t\t\t\tcombobox [12] 'Country'",
        "\t\t\t\t\tMenuListPopup [15] \"[19] 'Canada' [selected: False]; [22] 'France' [selected: True]\"",
        "\t\t\t\tcombobox [26] 'Sort By'",
        "\t\t\t\t\tMenuListPopup [29] \"[33] 'Name' [selected: True]; [36] 'Price' [selected: False]\"",
        "\t\t\t\tbutton [39] 'Save'",
    ]
    assert {"12", "19", "22", "26"} <= page.ids
    # AgentOccam.py:861-874: the highlight of [12] keeps it, its descendants, its ancestors and its named siblings.
    assert page.highlight(["12"], whole_page_when_none=True).splitlines() == [
        "RootWebArea 'Form'",
        "\tmain",
        "\t\tform",
        "\t\t\tgroup",
        "\t\t\t\tcombobox 'Country'",
        "\t\t\t\t\tMenuListPopup \"[19] 'Canada' [selected: False]; [22] 'France' [selected: True]\"",
        "\t\t\t\tcombobox 'Sort By'",
        "\t\t\t\tbutton 'Save'",
    ]
    ours = occam_page(SELECT_COMPACT, pruning="ours").text
    assert "combobox \"Country: [19] 'Canada' [selected: False]; [22] 'France' [selected: True]\"" in ours


def test_clicking_the_combobox_is_a_valid_step_under_the_preset(test_settings) -> None:
    """`click [12]` on the select's combobox runs in AgentOccam (its id is shown); ours folds the popup into the
    combobox's line without an id and asks again."""
    def observation(tree: str) -> Observation:
        tabs = [TabInfo(0, "Form", "http://shop.test/", True)]
        return Observation(f"Tab 0 (current): Form\n\n{tree}", "http://shop.test/", tabs, None, {}, (1280, 720), (0, 0))

    preset = load_settings(harness="agentoccam").agentoccam
    options = {n: getattr(preset, n) for n in ("pruning", "characters", "table_rows", "highlight_ids", "cut_marker")}
    taken, requests, _ = _act(test_settings, [occam("click [12]")], page=observation(SELECT), **options)
    assert len(requests) == 1 and taken[0].reply == "```\nclick [12]\n```"
    replies = [occam("click [12]"), occam("click [19]")]
    ours = {**options, "pruning": "ours"}
    taken, requests, _ = _act(test_settings, replies, page=observation(SELECT_COMPACT), **ours)
    assert len(requests) == 2 and len(taken) == 1 and taken[0].reply == "```\nclick [19]\n```"


def test_a_description_list_merges_as_its_loop_merges() -> None:
    """obs_opt.py:112-141: each detail is named by its lone text (:85-92), then the merge at the end of every turn
    of the loop (:141) adds the details again at each one after the first and at the next term."""
    assert occam_page(DESCRIPTION_LIST).text.splitlines() == [
        "RootWebArea 'Product'",
        "\tmain",
        "\t\theading 'Shirt'",
        "\t\tDescriptionList",
        "\t\t\tterm 'Size: M: M; L: M; L'",
        "\t\t\tterm 'Color: Blue'",
    ]
    assert "\t\t\tterm 'Size: M; L'" in occam_page(DESCRIPTION_LIST, pruning="ours").text.splitlines()  # ours


def test_a_row_header_table_is_transposed() -> None:
    """obs_opt.py:195-202: row headers become the header row, their cells the one row of values."""
    assert occam_page(ROW_HEADERS).text.splitlines() == [
        "RootWebArea 'Order'",
        "\ttable",
        "\t\trow '| Order | Total | Status |'",
        "\t\trow '| --- | --- | --- |'",
        "\t\trow '| 000000024 | 106.97 | Pending |'",
    ]


def test_a_nine_row_table_of_links_tabs_its_cells_and_is_kept_whole_in_the_history() -> None:
    """obs_opt.py:162-175 joins a cell's elements to its name by tabs; :193: a header row alone in its row group
    has no `| --- |` line; :204-205: an empty row parts the groups. AgentOccam.py:873: 14 nodes, under 30, so a
    step that highlights nothing keeps the page; highlighting [120] keeps the named rows beside it."""
    page = occam_page(_links_table())
    rows = [f"\t\trow \"| 00{n}\\tlink [{112 + 4 * n}] '00{n}' | {n}.00 |\"" for n in range(1, 10)]
    assert page.text.splitlines() == [
        "RootWebArea 'Orders'", "\ttable", "\t\trowgroup", "\t\t\trow '| Order | Total |'", "\t\trow", *rows
    ]  # fmt: skip
    assert {str(112 + 4 * n) for n in range(1, 10)} <= page.ids
    assert page.highlight([], whole_page_when_none=True) == page.text  # no role here shows an id
    assert page.highlight(["120"], whole_page_when_none=True).splitlines() == ["RootWebArea 'Orders'", "\ttable", *rows]
    # Ours counts only what its rendering shows too: 13 nodes, not 31 with the 18 links of the folded cells.
    two_links = re.sub(r"StaticText '(\$\d\.00)'", r"link '\1'", _links_table())
    assert occam_page(two_links, pruning="ours").highlight([], whole_page_when_none=True) is not None


def test_a_table_with_a_caption_and_a_layout_table() -> None:
    """obs_opt.py:162-193 (cells with elements, no `|` replaced: the cleaner drops it, :47-51) and :247-287 (a
    layout row as one `| a |` name)."""
    assert occam_page(MIXED_TABLES).text.splitlines() == [
        "RootWebArea 'Stats'",
        "\ttable 'Sales'",
        "\t\trow '| Month | Total net |'",
        "\t\trow '| --- | --- |'",
        "\t\trow \"| Jan | View Edit\\tlink [242] 'View'\\tbutton [243] 'Edit' |\"",
        "\tLayoutTable",
        "\t\tLayoutTableRow '| Lonely |'",
    ]
    readable = occam_page(MIXED_TABLES, characters="readable").text
    assert "row '| Month | Total | net |'" in readable  # a `|` in a name stays a `|`, as AgentOccam's rows do


def test_the_capture_keeps_what_webarena_s_tree_keeps(page) -> None:
    """A real page in Chromium: `structure="webarena"` keeps the unnamed main, form, group and popup; ours drops
    them."""
    page.set_content(
        "<title>Form</title><main><form><fieldset><label for=c>Country</label>"
        "<select id=c><option>Canada</option><option selected>France</option></select></fieldset></form></main>"
    )
    cdp = page.context.new_cdp_session(page)

    def roles(structure: str) -> list[str]:
        tree = capture_ax_tree(cdp, 1280, 720, False, "webarena", structure=structure)
        return [re.sub(r"^\t*\[\d+\] ", "", line).split(" ")[0] for line in tree.lines]

    kept = roles("webarena")
    assert kept[:4] == ["RootWebArea", "main", "form", "group"] and "MenuListPopup" in kept
    assert "main" not in roles("compact") and "MenuListPopup" not in roles("compact")
    with pytest.raises(ValueError, match="tree structure 'loose'"):
        roles("loose")


# Sandbox pages of each kind (lists, menus, forms, tables) and the small pages above, for the checkout's test.
_SANDBOX_PAGES = (
    ("shop", "/"), ("shop", "/catalogsearch/result/?q=shirt"), ("shop", "/customer/account/login/"),
    ("forum", "/"), ("forum", "/forums"), ("forum", "/login"),
)  # fmt: skip
_ALIASES = {"cell": "gridcell", "term": "DescriptionListTerm", "definition": "DescriptionListDetail", "image": "img"}


def _their_observation(processors, obs_opt, nodes: list[dict]) -> str:
    """AgentOccam's observation of a Chromium node list: WebArena's parse (the whole page, as its config), its
    prune_tree and its prompt's printing (AgentOccam.py:522); Chromium's newer role names read as its code names
    them, and no `url` state, as the Chromium it ran on (original_prune.py's one liberty)."""
    nodes = [
        {**node, "union_bound": [0.0, 0.0, 10.0, 10.0], "properties": [
            p for p in node.get("properties", []) if p["name"] != "url"
        ], "role": {**node["role"], "value": _ALIASES.get(node["role"]["value"], node["role"]["value"])}}
        for node in nodes
    ]  # fmt: skip
    _, _, root = processors.TextObervationProcessor.parse_accessibility_tree(nodes)
    pruned = obs_opt.prune_tree(objective="", root_node=root, mode="node")
    text = obs_opt.translate_node_to_str(pruned, mode="concise", hidden_roles=["menu", "combobox", "listbox"])
    back = {v: k for k, v in _ALIASES.items()}
    return re.sub(r"(?m)^(\t*)(\w+)", lambda m: m[1] + back.get(m[2], m[2]), text)


@pytest.mark.skipif(not os.environ.get("AGENTOCCAM_CHECKOUT"), reason="AGENTOCCAM_CHECKOUT names no checkout")
def test_its_own_code_gives_the_same_observation_of_sandbox_pages(sandbox, page) -> None:  # pragma: no cover
    checkout = Path(os.environ["AGENTOCCAM_CHECKOUT"]).expanduser()
    sys.path.insert(0, str(checkout))
    try:
        processors = pytest.importorskip("browser_env.processors")
        obs_opt = pytest.importorskip("AgentOccam.obs_opt")
    finally:
        sys.path.remove(str(checkout))
    bases = {"shop": sandbox.shop_url, "forum": sandbox.forum_url}
    differ = []
    for site, path in _SANDBOX_PAGES:
        page.goto(bases[site] + path)
        page.wait_for_load_state("load")
        cdp = page.context.new_cdp_session(page)
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
        tree = capture_ax_tree(cdp, 1280, 720, False, "webarena", structure="webarena")
        if occam_page("\n".join(tree.lines)).text != _their_observation(processors, obs_opt, nodes):
            differ.append(site + path)
        cdp.detach()
    assert not differ
