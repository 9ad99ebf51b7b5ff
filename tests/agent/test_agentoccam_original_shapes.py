"""AgentOccam's own behaviour under `--harness agentoccam` (issue 58), on pages and replies written in its shapes.

Each expected output was derived by reading amazon-science/AgentOccam at c078ba6 (cited by file:line) and is written
here by hand: AgentOccam/obs_opt.py (its row nodes, its 1,000-line cut), AgentOccam/AgentOccam.py (highlights,
plan commands, prune, go_home, the same-page test). `AGENTOCCAM_CHECKOUT` pointed at a checkout also runs its
`translate_node_to_str` on the table page; skipped when unset.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from agent.base.agentoccam.agent import highlighted_ids
from agent.base.agentoccam.plan import PlanTree
from agent.base.agentoccam.refine import HIGHLIGHT_MAX_NODES, refine_tree
from settings import load_settings
from tests.agent.test_agentoccam import _act, occam

TABLE = "\n".join([
    "[1] RootWebArea 'Orders'",
    "\t[2] link ''",
    "\t\t[3] StaticText 'My Orders'",
    "\t[5] table ''",
    "\t\t[6] row ''",
    "\t\t\t[7] columnheader 'Order #'",
    "\t\t\t[8] columnheader 'Total'",
    "\t\t[9] row ''",
    "\t\t\t[10] cell ''",
    "\t\t\t\t[11] link '000000024'",
    "\t\t\t[12] cell '$106.97'",
])  # fmt: skip


def test_the_preset_sets_agentoccam_s_behaviours_and_the_method_keeps_ours() -> None:
    occam_options = load_settings(harness="agentoccam").agentoccam
    ours = load_settings().agentoccam
    names = ("table_rows", "highlight_ids", "cut_marker", "same_page_name_ids", "prune_hides")
    assert [getattr(occam_options, n) for n in names] == ["original", "original", False, True, "plans"]
    assert [getattr(ours, n) for n in names] == ["plain", "any", True, False, "subtrees"]


def test_a_table_row_keeps_its_row_role_before_the_cells() -> None:
    """obs_opt.py:187-194 makes each row a node `row` named `| a | b |` (a `| --- |` row after the header), and
    :312-330 prints a row node's role, no id (a non-interactive role), then its name's repr."""
    page = refine_tree(TABLE, table_rows="original")
    assert page.text.splitlines() == [
        "RootWebArea 'Orders'",
        "\tlink [2] 'My Orders'",
        "\ttable",
        "\t\trow '| Order # | Total |'",
        "\t\trow '| --- | --- |'",
        "\t\trow \"| link [11] '000000024' | $106.97 |\"",
    ]
    assert page.ids == {"2", "11"}
    assert "\t\t| Order # | Total |" in refine_tree(TABLE).text  # ours


@pytest.mark.skipif(not os.environ.get("AGENTOCCAM_CHECKOUT"), reason="AGENTOCCAM_CHECKOUT names no checkout")
def test_its_own_printer_gives_the_same_row_lines() -> None:  # pragma: no cover - needs the user's checkout
    checkout = Path(os.environ["AGENTOCCAM_CHECKOUT"]).expanduser()
    sys.path.insert(0, str(checkout))
    try:
        processors = pytest.importorskip("browser_env.processors")
        obs_opt = pytest.importorskip("AgentOccam.obs_opt")
    finally:
        sys.path.remove(str(checkout))
    table = processors.TreeNode(node_id=5, role="table", name="", depth=1)
    for number, name in ((6, "| Order # | Total |"), (7, "| --- | --- |")):
        table.add_child(processors.TreeNode(node_id=number, role="row", name=name, depth=2))
    theirs = obs_opt.translate_node_to_str(table).splitlines()[1:]
    assert theirs == refine_tree(TABLE, table_rows="original").text.splitlines()[3:5]


def test_highlighted_ids_are_read_as_agentoccam_reads_them() -> None:
    """AgentOccam.py:861: split at commas, a part kept only when it is all digits."""
    assert highlighted_ids("12, 15", "original") == ["12", "15"]
    assert highlighted_ids("[12], [15]", "original") == []
    assert highlighted_ids("12 15", "original") == []
    assert highlighted_ids("[12], [15]", "any") == ["12", "15"]  # ours


def test_with_no_highlighted_id_the_whole_page_is_kept_when_it_has_under_30_nodes(test_settings) -> None:
    """AgentOccam.py:861-874: no ids hide nothing; the page is kept when it has under 30 visible nodes."""
    page = refine_tree(TABLE, table_rows="original")
    whole = page.highlight([], whole_page_when_none=True)
    assert whole is not None and whole.splitlines() == [
        "RootWebArea 'Orders'",
        "\tlink 'My Orders'",
        "\ttable",
        "\t\trow '| Order # | Total |'",
        "\t\trow '| --- | --- |'",
        "\t\trow \"| link [11] '000000024' | $106.97 |\"",
    ]
    assert page.highlight([]) is None  # ours: the step's description instead
    big = "[1] RootWebArea 'Long'\n" + "\n".join(f"\t[{i}] link 'Item {i}'" for i in range(2, HIGHLIGHT_MAX_NODES + 1))
    assert refine_tree(big).highlight([], whole_page_when_none=True) is None  # 30 nodes: none kept

    # In a step: a reply highlighting nothing keeps the page as AgentOccam does.
    _, _, policy = _act_original(test_settings, [occam("click [2]", highlight="")])
    assert policy.interactions[0].highlight.splitlines()[0] == "RootWebArea 'Shop'"


def _act_original(test_settings, replies: list[str], **options):
    """The policy's steps with the agentoccam preset's observation and plan settings (its prompt stays ours)."""
    preset = load_settings(harness="agentoccam").agentoccam
    for name in ("characters", "table_rows", "highlight_ids", "cut_marker", "same_page_name_ids", "prune_hides"):
        options.setdefault(name, getattr(preset, name))
    return _act(test_settings, replies, **options)


def test_a_malformed_plan_command_beside_a_click_is_noted_and_the_click_still_runs(test_settings) -> None:
    """AgentOccam.py:682-702: the branch does not parse, a note saying so goes on the active plan, the step is
    not added to the plan's steps; :1376-1396: the whole ACTION goes to its environment, which runs the click."""
    replies = [occam("branch [x] [Search the orders]\nclick [2]"), occam("stop [done]")]
    taken, requests, policy = _act_original(test_settings, replies)
    assert len(requests) == 2 and not taken[0].error
    assert taken[0].reply == "```\nclick [2]\n```"
    assert "was not applied" in policy.plans.text() and "branch [x] [Search the orders]" in policy.plans.text()
    assert 1 not in policy.plans.active.steps and 2 in policy.plans.active.steps
    assert policy.plans.active.plan_id == 0  # no sub-plan was made
    # Ours (`parser: strict` reads a bad plan command as invalid and asks again).
    replies = [occam("branch [x] [Search]\nclick [2]"), occam("click [2]")]
    taken, requests, _ = _act_original(test_settings, replies, parser="strict")
    assert len(requests) == 2 and len(taken) == 1 and taken[0].reply == "```\nclick [2]\n```"


def test_a_1001_line_page_is_cut_silently_at_1000_lines() -> None:
    """obs_opt.py:370: `"\\n".join(tree_buffer[:1000])`, nothing more."""
    tree = "[1] RootWebArea 'Long'\n" + "\n".join(f"\t[{i}] link 'Item {i}'" for i in range(2, 1002))
    silent = refine_tree(tree, cut_marker=False)
    assert len(silent.text.splitlines()) == 1000 and silent.text.splitlines()[-1] == "\tlink [1000] 'Item 1000'"
    assert silent.truncated
    assert refine_tree(tree).text.splitlines()[-1].startswith("[... 1 more lines past the 1000-line limit")  # ours


def test_prune_hides_the_later_plans_but_not_their_sub_plans() -> None:
    """AgentOccam.py:658-665 hides each later sibling alone; its sub-plans keep `visible`, so get_previous_plans
    (:429-445) still lists them and search_node_by_id (:227-234) still finds them."""
    plans = PlanTree("Find the order total", "http://shop/", prune_hides="plans")
    first = plans.branch(0, "Open My Orders", "http://shop/account", 2)
    plans.branch(first.plan_id, "Open page 2", "http://shop/orders", 3)
    later = plans.branch(0, "Search the orders", "http://shop/search", 4)
    sub = plans.branch(later.plan_id, "Type the order number", "http://shop/search", 5)
    plans.prune(first.plan_id, "the order is not listed")
    lines = plans.text().splitlines()
    assert lines == [
        "[0] Find the order total",
        "\t[1] (ACTIVE PLAN) Open My Orders # resumed here because: the order is not listed",
        "\t\t[4] Type the order number",
    ]
    assert plans.find(sub.plan_id) is sub
    ours = PlanTree("Find the order total", "http://shop/")
    first = ours.branch(0, "Open My Orders", "http://shop/account", 2)
    ours.branch(ours.branch(0, "Search", "http://shop/search", 3).plan_id, "Type", "http://shop/search", 4)
    ours.prune(first.plan_id, "not listed")
    assert "Type" not in ours.text()


def test_prune_with_go_home_in_one_reply_lets_go_home_win(test_settings, monkeypatch) -> None:
    """AgentOccam.py:1002-1013: the prune's goto is set first, then go_home's replaces it; the plan is pruned."""
    monkeypatch.setenv("HOMEPAGE", "http://home.test:4399")
    actions = ["click", "type", "stop", "note", "go_back", "go_home"]
    reply = occam("prune [0] [start again from the site list]\ngo_home")
    taken, _, policy = _act_original(test_settings, [occam("click [2]"), reply], actions=actions)
    assert taken[1].reply == "```\ngoto [http://home.test:4399]\n```"
    assert "resumed here because: start again from the site list" in policy.plans.text()


def test_the_same_page_test_keeps_the_ids_inside_names() -> None:
    """AgentOccam.py:186, :454 compare name-only trees (obs_opt.py:320-321: no role ids), whose names still hold
    the ids of folded options and table cells; ours drops those too."""
    page = refine_tree(TABLE, name_ids_in_plain=True)
    assert "| link [11] '000000024' |" in page.plain and "link [2]" not in page.plain
    assert "| link '000000024' |" in refine_tree(TABLE).plain
    renumbered = refine_tree(TABLE.replace("[11] link", "[31] link"), name_ids_in_plain=True)
    assert renumbered.plain != page.plain  # AgentOccam: another page
    assert refine_tree(TABLE.replace("[11] link", "[31] link")).plain == refine_tree(TABLE).plain

