"""The AgentOccam policy on sandbox pages, its model a SCRIPTED server; asserted from the server's request log.

- one episode driven as the runner drives it on the shop's home page: the prompt carries
  the refined whole-page tree (elements below the fold present, no decorative images,
  no raw StaticText, lone texts merged into their parent) and the reduced action space;
  `note` and `branch` each take a step without touching the page; an invalid command is
  asked again at once, with a warning, without a step; `click [id]` acts on the page;
  past steps show "the same page" or the highlighted elements without ids;
- `type` replaces what a field holds; a `<select>` is one line whose options keep their
  ids, and clicking an option's id chooses it; a task over two sites offers `go_home`;
  a browser dialog's message reaches the prompt;
- `videodemo run --policy agentoccam` on a sandbox task: planning commands, then the
  answer, scored 1; temperature is not sent, reasoning_effort "low" is;
- the method (`--policy video`) on top of AgentOccam shows its demonstration in the same prompt;
- AgentOccam's behaviours that are settings (`--harness agentoccam` sets them): names cleaned of `$` and `€`,
  re-asks without a bound (a warning at the 10th), the observation kept after a failed action.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import replace
from types import SimpleNamespace

import pytest

from agent.base.agentoccam.agent import AgentOccamAgent
from evaluation.browser_env.environment import BrowserEnv
from foundation.errors import UserError
from evaluation.running.policy import declared_episode_options
from evaluation.running.task_runner import apply_policy_step
from model_access.messages import prompt_text
from model_access.scripted_server import ScriptedServer, load_script
from tasks.loading import SANDBOX_CONFIGS_DIR, load_tasks
from tests.agent.world import DEMONSTRATION, INTERMEDIATE, record, rules_for, steps

CLOSING = "Give your response in the sections described above, with one command in ACTION."


def occam(action: str, reason: str = "This moves the task forward.", highlight: str = "") -> str:
    """A reply in AgentOccam's sections."""
    return (
        "INTERACTION HISTORY SUMMARY:\nNothing yet.\n"
        "OBSERVATION DESCRIPTION:\nThe shop's home page.\n"
        f"REASON:\n{reason}\n"
        f"ACTION:\n{action}\n"
        f"OBSERVATION HIGHLIGHT:\n{highlight}\n"
    )


def _task(task_id: int):
    return next(task for task in load_tasks(SANDBOX_CONFIGS_DIR) if task.task_id == task_id)


def _settings(test_settings, server):
    settings = replace(test_settings)
    settings.models = replace(test_settings.models, policy=replace(test_settings.models.policy))
    settings.models.policy.base_url, settings.models.policy.model = server.base_url, "scripted-policy"
    settings.models.use_cache = False
    settings.agentoccam = replace(test_settings.agentoccam)
    return settings


def _play_step(policy, env) -> None:
    """One step as the runner takes it (evaluation/running/task_runner.py)."""
    apply_policy_step(env, policy.act(env.observation))


@pytest.fixture(scope="module")
def driven(sandbox, test_settings):
    """Task 1 played as the runner plays it, for four steps; returns what the tests look at. The browser is
    closed before the tests run: one thread holds one Playwright at a time, and the CLI runs start theirs."""
    sandbox.reset()
    server = ScriptedServer({"name": "policy", "default": occam("stop [N/A]")}).start()
    settings = _settings(test_settings, server)
    env = BrowserEnv(settings)
    policy = AgentOccamAgent(settings)
    try:
        task = _task(1)
        policy.attach_environment(env)
        policy.reset(task)
        env.reset(task, declared_episode_options(policy, env.episode))
        first = env.observation
        viewport_height = first.viewport[1]
        nodes = list(first.nodes.values())
        below = [n for n in nodes if n.interactive and n.name and n.rect and n.rect[1] > viewport_height + 200]
        category = next(n for n in nodes if n.role == "link" and n.name.strip() == "Grocery & Gourmet Food")
        server.script = load_script({"name": "policy", "replies": [
            occam("note [The category link is in the menu]"),
            occam("branch [0] [Open the grocery category and sort by price]"),
            occam("click [99999999]"),  # not on the page: asked again, no step taken
            occam(f"click [{category.node_id}]", highlight=f"{category.node_id}"),
            occam("stop [$13.49] as the cheapest product listed"),
        ]})  # fmt: skip
        page_text = policy.page_text(first)
        urls = [env.page.url]
        for _ in range(4):
            _play_step(policy, env)
            urls.append(env.page.url)
        requests = [entry["body"] for entry in server.requests("/chat/completions")]
        return {
            "requests": requests,
            "below": below,
            "first": first,
            "urls": urls,
            "record": env.record,
            "category": category,
            "page_text": page_text,
        }
    finally:
        policy.close()
        env.close()
        server.stop()


def _user_text(body) -> str:
    return prompt_text([m for m in body["messages"] if m["role"] == "user"])


def _system_text(body) -> str:
    return prompt_text([m for m in body["messages"] if m["role"] == "system"])


def test_the_prompt_carries_the_refined_whole_page_tree(driven) -> None:
    prompt = _user_text(driven["requests"][0])
    assert driven["below"], "the shop's home page has no link far below the fold any more"
    for node in driven["below"][:5]:  # whole page: elements far outside the viewport are shown, with their ids
        assert f"[{node.node_id}]" in prompt
    raw = driven["first"].tree_text
    assert "StaticText" in raw and "StaticText" not in prompt  # texts are merged or renamed
    assert "text 'Welcome to One Stop Market!'" in prompt and "text '$6.00'" in prompt  # no content lost
    assert "★" in raw and "★" not in prompt  # decorative glyphs (the rating stars) are gone
    assert "CURRENT OBSERVATION:" in prompt and "OBJECTIVE:\nWhat is the price of the cheapest product" in prompt
    assert "PREVIOUS PLANS:\n[0] (ACTIVE PLAN) What is the price" in prompt
    assert len(prompt.split()) < len(raw.split())  # refined: shorter than the environment's own tree text
    assert driven["page_text"] in prompt  # what other stages read through the hook is what the policy sees
    # As AgentOccam shows a page: the title's root line first, states false ones included, no field value.
    page = prompt.split("CURRENT OBSERVATION:\n")[1]
    assert page.startswith("RootWebArea 'One Stop Market'\n\t")
    assert re.search(r"\tsearchbox \[\d+\] 'Search'\n", page) and "value:" not in page


def test_the_system_prompt_lists_the_reduced_action_space(driven) -> None:
    system = _system_text(driven["requests"][0])
    for command in ("click [id]", "type [id] [content]", "go_back", "note [content]", "stop [answer]"):
        assert command in system
    assert "branch [parent_plan_id] [new_subplan_intent]" in system and "prune [resume_plan_id] [reason]" in system
    for absent in ("hover [", "scroll [", "goto [", "new_tab", "press [", "go_home"):  # one site: no go_home
        assert absent not in system
    assert "OBSERVATION HIGHLIGHT:" in system and "ACTION:" in system


def test_note_and_branch_take_a_step_each_without_touching_the_page(driven) -> None:
    requests, record = driven["requests"], driven["record"]
    assert len(requests) == 5  # note, branch, the invalid click, the click again, stop
    assert [s.action["kind"] if s.action else None for s in record.steps] == [None, None, "click", "stop"]
    assert [s.action_text for s in record.steps[:2]] == [
        "note [The category link is in the menu]",
        "branch [0] [Open the grocery category and sort by price]",
    ]
    assert all(s.ok for s in record.steps)
    assert "RESULT:\nnoted (the page did not change)" in _user_text(requests[1])  # the history says what happened
    urls = driven["urls"]
    assert urls[0] == urls[1] == urls[2] != urls[3]  # note and branch left the page; the click navigated
    # AgentOccam's stop keeps the words after the `]` (agentoccam.stop_answer: original), so the answer fails
    # an exact match as it does there.
    assert record.answer == "$13.49] as the cheapest product listed"
    second = _user_text(requests[1])  # after the note: same page, the note kept under the plan
    assert "STEP:\n2" in second and "Note: STEP 1: The category link is in the menu" in second
    assert "The same page as the CURRENT OBSERVATION" in second.split("CURRENT OBSERVATION:")[0]
    third = _user_text(requests[2])  # after the branch: the new plan is the active one
    assert "\t[1] (ACTIVE PLAN) Open the grocery category and sort by price" in third


def test_an_invalid_command_is_asked_again_at_once_without_a_step(driven) -> None:
    requests = driven["requests"]
    invalid, again = requests[2], requests[3]
    assert _system_text(invalid) == _system_text(again)  # the same rules...
    # ...and the same step, page and history, the warning last (agentoccam.reask_note: end), so a server's prompt
    # cache serves all before it: a small local server does not read the page again for each re-ask (issue 59)
    assert _user_text(again).startswith(_user_text(invalid))
    warning = _user_text(again).removeprefix(_user_text(invalid))
    assert "`click [99999999]`" in warning and "element [99999999] is not in the current observation" in warning
    assert again["messages"][-1]["content"][-1]["text"] == warning.strip()  # the request's very last part
    assert "click [99999999]" not in _user_text(requests[4])  # never part of the history


def test_agentoccam_s_place_for_the_re_ask_warning_is_the_system_prompt(test_settings) -> None:
    """`agentoccam.reask_note: system` (`--harness agentoccam`): the warning ends the system prompt, before the
    page, as AgentOccam.py:921, :923 send it; the default puts it after the page."""
    replies = [occam("click [99999999]"), occam("click [2]")]
    _, (first, again), _ = _act(test_settings, replies, reask_note="system")
    first, again = first["body"], again["body"]
    assert _user_text(first) == _user_text(again)
    assert "`click [99999999]`" in _system_text(again).removeprefix(_system_text(first))
    _, (first, again), _ = _act(test_settings, replies)
    first, again = first["body"], again["body"]
    assert _system_text(first) == _system_text(again)
    assert "`click [99999999]`" in _user_text(again).removeprefix(_user_text(first))


def test_past_steps_show_the_highlighted_elements_without_ids(driven) -> None:
    category = driven["category"]
    fourth = _user_text(driven["requests"][4])  # on the category page; the click step is under plan [1]
    history = fourth.split("CURRENT OBSERVATION:")[0]
    assert f"click [{category.node_id}]" in history and "RESULT:\ndone" in history
    assert "link 'Grocery & Gourmet Food'" in history and f"link [{category.node_id}]" not in history
    assert "The same page as the CURRENT OBSERVATION" not in history


@pytest.fixture(scope="module")
def forms(sandbox, test_settings):
    """AgentOccam on a pre-filled search box, the address form's country menu, a task over two sites, and a
    dialog; returns what the tests look at."""
    sandbox.reset()
    server = ScriptedServer({"name": "policy", "default": occam("stop [N/A]")}).start()
    settings = _settings(test_settings, server)
    env = BrowserEnv(settings)
    policy = AgentOccamAgent(settings)
    saved_home = os.environ.get("HOMEPAGE")
    out: dict = {}
    try:
        policy.attach_environment(env)

        def queue(*replies: str) -> None:  # the server keeps its place in the list: add to it
            server.script.replies.extend(load_script({"name": "policy", "replies": list(replies)}).replies)

        def start(task, url: str) -> None:
            task = replace(task, start_url=url, start_urls=[url])
            policy.reset(task)
            env.reset(task, declared_episode_options(policy, env.episode))

        def node(role: str, name: str = ""):
            return next(n for n in env.observation.nodes.values() if n.role == role and name in n.name)

        # A search box that holds "coffee": AgentOccam's type replaces it; WebArena's adds to it.
        server.script = load_script({"name": "policy", "replies": []})
        start(_task(1), f"{sandbox.shop_url}/catalogsearch/result/?q=coffee")
        box = node("searchbox")
        out["box_before"] = env.page.input_value("#search")
        queue(occam(f"type [{box.node_id}] [tea] [1]"))
        _play_step(policy, env)
        out["search_url"], out["box_after"] = env.page.url, env.page.input_value("#search")
        env.episode = replace(env.episode, type_clears_field=False)  # as WebArena and VideoWA type
        env.step(f"```\ntype [{node('searchbox').node_id}] [cake] [0]\n```")
        out["box_appended"] = env.page.input_value("#search")
        env.episode = replace(env.episode, type_clears_field=True)

        # Two page commands in one ACTION, a remark after each: both run, in order, in one step.
        start(_task(1), sandbox.shop_url)
        box, button = node("searchbox"), node("button", "Search")
        queue(occam(f"type [{box.node_id}] [green tea] [0] to fill it\nclick [{button.node_id}] (Search)"))
        _play_step(policy, env)
        out["two_commands"] = (env.record.steps, env.page.url, policy.history_text())

        # The address form's country menu: one line, each option with its id; choosing by id works.
        start(_task(5), f"{sandbox.shop_url}/customer/address/new/")
        france = node("option", "France")
        lines = policy.page_text(env.observation).splitlines()
        out["country_line"] = next(line for line in lines if "'France'" in line)
        out["france"] = france.node_id
        queue(occam(f"click [{france.node_id}]"))
        _play_step(policy, env)
        out["country_step"] = env.record.steps[-1]
        out["country"] = env.page.input_value("#address-country_id")

        # A task over two sites: go_home is offered and opens the site list ($HOMEPAGE; the forum stands in).
        os.environ["HOMEPAGE"] = sandbox.forum_url
        start(replace(_task(1), sites=["shopping", "reddit"]), sandbox.shop_url)
        queue(occam("go_home"), occam("stop [N/A]"))
        _play_step(policy, env)
        out["home_url"] = env.page.url
        env.page.evaluate("() => setTimeout(() => alert('Your session has expired'), 0)")
        env.page.wait_for_timeout(500)
        _play_step(policy, env)
        out["requests"] = [entry["body"] for entry in server.requests("/chat/completions")]
        return out
    finally:
        if saved_home is None:
            os.environ.pop("HOMEPAGE", None)
        else:
            os.environ["HOMEPAGE"] = saved_home
        policy.close()
        env.close()
        server.stop()


def test_type_replaces_what_a_search_box_holds(forms) -> None:
    assert forms["box_before"] == "coffee"
    assert forms["box_after"] == "tea" and "q=tea" in forms["search_url"]
    assert forms["box_appended"] == "teacake"  # WebArena's type, kept for the react agent


def test_every_page_command_of_an_action_runs_in_order_in_one_step(forms) -> None:
    steps, url, history = forms["two_commands"]
    assert len(steps) == 1 and steps[0].ok
    assert [command["action"].split()[0] for command in steps[0].commands] == ["type", "click"]
    assert "q=green+tea" in url  # typed without Enter, then the Search button submitted it
    assert "`click [" in history and history.count("done") == 2  # the history says how each went


def test_a_select_is_one_line_with_option_ids_and_an_option_is_chosen_by_its_id(forms) -> None:
    line = forms["country_line"]
    assert f"[{forms['france']}] 'France'" in line and "'Canada'" in line and "'Mexico'" in line
    assert "option [" not in line  # folded into the menu's line, not one line per option
    assert f"[{forms['france']}] 'France' [selected: False]" in line  # false states shown, as AgentOccam
    assert forms["country_step"].ok and forms["country"] == "FR"


def test_a_task_over_two_sites_offers_go_home_and_a_dialog_reaches_the_prompt(forms, sandbox) -> None:
    go_home, after = forms["requests"][-2:]
    assert "go_home: open the home page" in _system_text(go_home)
    assert forms["home_url"].startswith(sandbox.forum_url)
    assert "Your session has expired" in _user_text(after).split("CURRENT OBSERVATION:")[1]


def test_requests_send_no_temperature_and_reasoning_effort_low(driven) -> None:
    for body in driven["requests"]:
        assert "temperature" not in body
        assert body["reasoning_effort"] == "low"


def test_a_run_with_policy_agentoccam_scores_the_task(run_agent) -> None:
    intent = "grand total of my order 000000024"
    rules = [
        {"regex": intent + ".*" + CLOSING, "reply": reply, "times": 1}
        for reply in (
            occam("note [Order 000000024 must be found in My Orders]"),
            occam("stop [$106.97]", "The grand total of order 000000024 is $106.97."),
        )
    ]
    run = run_agent(rules, "20", "--policy", "agentoccam")
    assert run.exit_code == 0, run.stdout
    result = record(run.out, 20)
    assert (result["policy"], result["status"], result["score"]) == ("agentoccam", "passed", 1.0), result["verdicts"]
    assert result["steps"] == 2  # the note took a step, as in AgentOccam
    assert steps(run.out, 20)[0]["extra"]["planning_commands"] == ["note [Order 000000024 must be found in My Orders]"]
    bodies = [request.messages for request in run.requests]
    assert len(bodies) == 2
    assert "Note: STEP 1: Order 000000024 must be found in My Orders" in run.requests[1].text


def test_agentoccam_answers_the_intermediate_question_from_its_refined_last_page(run_agent, sandbox) -> None:
    rules = [
        {"regex": "Search the store for 'earbuds'.*" + CLOSING, "reply": occam("stop [N/A]"), "times": 1},
        *rules_for("Search the store for 'earbuds'", INTERMEDIATE, ["No tutorial was shown.\n```\nPrice\n```"]),
    ]
    run = run_agent(rules, "6", "--policy", "agentoccam")
    assert run.exit_code == 0, run.stdout
    asked = [request for request in run.requests if request.kind == "intermediate"]
    assert len(asked) == 1
    assert "No material from a tutorial video was shown" in asked[0].text
    assert "StaticText" not in asked[0].text and "link [" in asked[0].text  # the refined tree of the last page
    result = record(run.out, 6)
    assert (result["intermediate_answer"], result["intermediate_score"]) == ("Price", 1.0)


def test_the_method_on_agentoccam_shows_the_demonstration_in_its_prompt(run_agent, sandbox) -> None:
    sandbox.reset()
    rules = [
        {"regex": "Which forum has the most subscribers.*" + CLOSING, "reply": occam("stop [N/A]"), "times": 1},
    ]
    run = run_agent(rules, "37", "--set", "agent.base_agent=agentoccam", "--set", "agent.trajectory_selection=false")
    assert run.exit_code == 0, run.stdout
    policy = [request for request in run.requests if CLOSING in request.text]
    assert len(policy) == 1
    text = _user_text({"messages": policy[0].messages})
    assert text.index(DEMONSTRATION) < text.index("OBJECTIVE:") < text.index("CURRENT OBSERVATION:")


def test_refinement_merges_lone_texts_and_writes_tables_as_rows() -> None:
    from agent.base.agentoccam.refine import refine_tree

    tree = "\n".join([
        "[1] RootWebArea 'Orders'",
        "\t[2] link ''",
        "\t\t[3] StaticText 'My Orders'",
        "\t[4] img ''",
        "\t[5] table ''",
        "\t\t[6] row ''",
        "\t\t\t[7] columnheader 'Order #'",
        "\t\t\t[8] columnheader 'Total'",
        "\t\t[9] row ''",
        "\t\t\t[10] cell ''",
        "\t\t\t\t[11] link '000000024'",
        "\t\t\t[12] cell '$106.97'",
    ])  # fmt: skip
    page = refine_tree(tree, max_lines=500)
    assert page.text.splitlines() == [
        "RootWebArea 'Orders'",  # the page title heads the tree, as AgentOccam shows it (agentoccam.root_line)
        "\tlink [2] 'My Orders'",
        "\ttable",
        "\t\t| Order # | Total |",
        "\t\t| --- | --- |",
        "\t\t| link [11] '000000024' | $106.97 |",
    ]
    assert page.ids == {"2", "11"}
    assert refine_tree(tree, max_lines=2).text.splitlines()[-1].startswith("[... 4 more lines")
    assert refine_tree(tree, root_line=False).text.splitlines()[0] == "link [2] 'My Orders'"  # ours


def test_policy_names_and_the_base_agent_setting(tmp_path) -> None:
    from argparse import Namespace

    from agent.base.react import BasePolicy
    from foundation.errors import UserError
    from evaluation.running.policies import build_policy
    from settings import load_settings

    settings = load_settings(overrides=["models.policy.base_url=http://127.0.0.1:9/v1", "models.policy.model=m"])
    settings.paths.cache_dir = tmp_path
    built = [build_policy(name, settings, Namespace()) for name in ("agentoccam", "react", "base")]
    try:
        assert [p.name for p in built] == ["agentoccam", "react", "base"]
        assert isinstance(built[2], AgentOccamAgent)  # the default base agent
        settings.agent.base_agent = "react"
        react_base = build_policy("base", settings, Namespace())
        assert isinstance(react_base, BasePolicy) and react_base.name == "base"
        react_base.close()
        settings.agent.base_agent = "occam"
        with pytest.raises(UserError, match="agent.base_agent is 'occam'; set it to one of: agentoccam, react"):
            build_policy("video", settings, Namespace())
    finally:
        for policy in built:
            policy.close()


def test_reply_sections_are_read_in_the_forms_models_write_them() -> None:
    from agent.base.agentoccam.agent import read_sections

    plain = read_sections(occam("type [15] [coffee] [1]", "Search for it.", "15, 3"))
    assert plain["ACTION"] == "type [15] [coffee] [1]"
    assert (plain["REASON"], plain["OBSERVATION HIGHLIGHT"]) == ("Search for it.", "15, 3")
    markdown = read_sections("**Reason:** the link is there\n**ACTION:**\n```\nclick [7]\n```\nThis opens the page.")
    assert (markdown["ACTION"], markdown["REASON"]) == ("click [7]", "the link is there")
    assert read_sections("I will click it.\n```\nclick [7]\n```")["ACTION"] == "click [7]"
    assert read_sections("ACTION:\nnote [Total is $5\nand tax $1]")["ACTION"] == "note [Total is $5\nand tax $1]"


def test_an_action_holds_several_commands_and_stop_tolerates_trailing_words() -> None:
    from agent.base.agentoccam.commands import parse_commands
    from evaluation.browser_env.actions import ActionParseError

    allowed = ["click", "type", "stop", "note", "go_back", "branch", "prune"]
    both = parse_commands("note [Order 24 cost $106.97]\nclick [12]", allowed)
    assert [(c.kind, c.text) for c in both] == [("note", "note [Order 24 cost $106.97]"), ("click", "click [12]")]
    assert [c.text for c in parse_commands("click [7]\nThis opens the page.", allowed)] == ["click [7]"]
    assert parse_commands("stop [N/A] because the page has no such order", allowed)[0].argument == "N/A"
    for invalid in ("I will click [7]", "hover [7]", "scroll [down]", "branch [x] [y]", ""):
        with pytest.raises(ActionParseError):
            parse_commands(invalid, allowed)


def test_refinement_folds_options_drops_images_and_repeats_and_keeps_ids_as_agentoccam() -> None:
    from agent.base.agentoccam.refine import refine_tree, unrefined_page

    tree = "\n".join([
        "[1] RootWebArea 'Shop'",
        "\t[2] img 'Kestrel earbuds'",
        "\t[3] generic ''",
        "\t\t[4] combobox 'Country' value: 'Canada'",
        "\t\t\t[5] option 'Canada' selected: True",
        "\t\t\t[6] option 'France'",
        "\t[7] list ''",
        "\t\t[8] listitem ''",
        "\t\t\t[9] link 'Next'",
        "\t\t\t[10] link 'Next'",
        "\t\t\t[11] link 'Page 2'",
        "\t[12] DescriptionList ''",
        "\t\t[13] DescriptionListTerm 'Size'",
        "\t\t[14] DescriptionListDetail 'M'",
        "\t\t[15] DescriptionListDetail 'L'",
        "\t[16] paragraph ''",
        "\t\t[17] StaticText 'Free shipping'",
    ])  # fmt: skip
    page = refine_tree(tree, root_line=False, states="compact")  # ours: no root line, a field's value shown
    assert page.text.splitlines() == [
        "generic [3]",
        "\tcombobox \"Country: [5] 'Canada' [selected: True]; [6] 'France'\" [value: 'Canada']",
        "list",
        "\tlistitem [8]",
        "\t\tlink [11] 'Page 2'",
        "DescriptionList",
        "\tDescriptionListTerm 'Size: M; L'",
        "paragraph [16] 'Free shipping'",
    ]
    assert {"5", "6", "8", "16"} <= page.ids and "4" not in page.ids  # one chooses an option by its id
    assert page.highlight(["6"]) == (
        "generic\n\tcombobox \"Country: [5] 'Canada' [selected: True]; [6] 'France'\" [value: 'Canada']"
    )
    original = refine_tree(tree)  # AgentOccam's: the root line, no value, every level one tab in
    assert original.text.splitlines()[:2] == [
        "RootWebArea 'Shop'",
        "\tgeneric [3]",
    ] and "value:" not in original.text
    assert original.highlight(["6"]).splitlines()[0] == "RootWebArea 'Shop'"  # the root is an ancestor
    long_tree = "[1] RootWebArea 'Long'\n" + "\n".join(f"\t[{i}] link 'Item {i}'" for i in range(2, 1302))
    assert len(refine_tree(long_tree).text.splitlines()) == 1001  # AgentOccam's 1,000 lines, then the note
    assert len(unrefined_page(long_tree).text.splitlines()) == 501  # pruning off: 500 rows of the tree


def test_prune_resumes_a_plan_with_its_notes_and_steps_reset_as_agentoccam() -> None:
    from agent.base.agentoccam.plan import PlanTree

    plans = PlanTree("Find the order total", "http://shop/")
    plans.record_step(1)
    first = plans.branch(0, "Open My Orders", "http://shop/account", 2)
    plans.record_step(3)
    plans.note("order 24 is on page 2", 3)
    plans.branch(first.plan_id, "Open page 2", "http://shop/orders", 4)  # a sub-plan of it
    plans.record_step(5)
    plans.branch(0, "Search the orders", "http://shop/search", 6)  # a later plan at its level
    plans.record_step(7)
    resumed = plans.prune(first.plan_id, "the order is not listed")
    # The step that made it and its sub-plan's steps; its own steps and notes are cleared, as AgentOccam does.
    assert plans.active is resumed and resumed.notes == [] and resumed.steps == [2, 4, 5]
    assert resumed.url == "http://shop/account"
    text = plans.text()
    assert "Search the orders" not in text and "Open page 2" not in text and "page 2" not in text
    assert "(ACTIVE PLAN) Open My Orders # resumed here because: the order is not listed" in text


def _page_observation():
    from evaluation.browser_env.observation import Observation, TabInfo

    tree = "[1] RootWebArea 'Shop'\n\t[2] link 'My Orders'\n\t[3] searchbox 'Search'"
    url = "http://shop.test/"
    tabs = [TabInfo(0, "Shop", url, True)]
    return Observation(f"Tab 0 (current): Shop\n\n{tree}", url, tabs, None, {}, (1280, 720), (0, 0))


def _act(test_settings, replies: list[str], page=None, **options) -> tuple[list, list]:
    """The policy's steps for `replies` on `page` (default `_page_observation()`; one act per step until the
    replies run out), and the requests; `options` set agentoccam settings."""
    page = page or _page_observation()
    with ScriptedServer({"name": "policy", "replies": replies}) as server:
        settings = _settings(test_settings, server)
        for name, value in options.items():
            setattr(settings.agentoccam, name, value)
        policy = AgentOccamAgent(settings)
        taken = []
        try:
            policy.reset(_task(1))
            while len(server.requests("/chat/completions")) < len(replies):
                taken.append(policy.act(page))
        finally:
            policy.close()
        return taken, server.requests("/chat/completions"), policy


def test_the_original_parser_passes_what_agentoccam_passes(test_settings) -> None:
    """`agentoccam.parser: original` (the default): words after `click [id]` and after a note's `]` pass, and
    a `goto [url]` that is not offered runs; no re-ask for any of them."""
    from evaluation.browser_env.actions import parse_actions

    replies = [
        occam("click [2] (My Orders)"),
        occam("note [Order 24 is on page 2] because the list is sorted by date"),
        occam("goto [http://shop.test/sales/order/history/]"),
        occam("type [3] [order 24] [1] to search\npress [Enter]"),  # press is no command, its environment runs it
    ]
    taken, requests, policy = _act(test_settings, replies)
    assert len(requests) == 4 and not any(step.error for step in taken)
    assert [parse_actions(step.reply)[0].element_id for step in taken[:1]] == ["2"]
    assert taken[1].memory_only and "Note: STEP 2: Order 24 is on page 2] because the list" in policy.plans.text()
    assert parse_actions(taken[2].reply)[0].url == "http://shop.test/sales/order/history/"
    assert [a.kind.value for a in parse_actions(taken[3].reply)] == ["type", "press"]
    # Ours (`strict`) asks again for each of the first three.
    taken, requests, _ = _act(test_settings, [replies[0], occam("click [2]")], parser="strict")
    assert len(requests) == 2 and len(taken) == 1 and "cannot be carried out" in _user_text(requests[1]["body"])


def test_stop_keeps_its_trailing_words_as_agentoccam_and_bracketed_cuts_them(test_settings) -> None:
    from evaluation.browser_env.actions import parse_actions

    reply = occam("stop [N/A] because the order is missing")
    (step,), _, _ = _act(test_settings, [reply])
    assert parse_actions(step.reply)[0].answer == "N/A] because the order is missing"  # fails an exact match
    (step,), _, _ = _act(test_settings, [reply], stop_answer="bracketed")
    assert parse_actions(step.reply)[0].answer == "N/A"


def test_the_observation_has_no_token_budget_unless_one_is_set(test_settings) -> None:
    """AgentOccam cuts its tree by lines only (`agentoccam.observation_token_budget` 0); ours cuts by tokens."""
    from evaluation.browser_env.observation import Observation, TabInfo

    names = " ".join(["word"] * 20)
    tree = "[1] RootWebArea 'Shop'\n" + "\n".join(f"\t[{i}] link '{names} {i}'" for i in range(2, 900))
    url = "http://shop.test/"
    tabs = [TabInfo(0, "Shop", url, True)]
    observation = Observation(f"Tab 0 (current): Shop\n\n{tree}", url, tabs, None, {}, (1280, 720), (0, 0))
    no_server = SimpleNamespace(base_url="http://127.0.0.1:9")  # refining asks no model
    policy = AgentOccamAgent(_settings(test_settings, no_server))
    try:
        whole = policy.refine(observation)
        assert not whole.truncated and "link [899]" in whole.text  # ~19,000 tokens, all shown
        policy.options.observation_token_budget = 12000
        cut = policy.refine(observation)
        assert cut.truncated and "link [899]" not in cut.text
    finally:
        policy.close()
    settings = _settings(test_settings, no_server)
    settings.agentoccam.parser = "loose"
    with pytest.raises(UserError, match="agentoccam.parser is 'loose'; use one of original, strict"):
        AgentOccamAgent(settings)


def test_the_earlier_step_rules_and_the_re_ask_bound_are_settings(test_settings) -> None:
    """`planning_takes_step` off: a note is answered on the same page within one step; `max_invalid_reasks`
    bounds the re-asks, after which the step fails with the reason."""
    script = {"name": "policy", "replies": [occam("note [Orders are under My Orders]"), occam("click [2]")]}
    with ScriptedServer(script) as server:
        settings = _settings(test_settings, server)
        settings.agentoccam.planning_takes_step = False
        policy = AgentOccamAgent(settings)
        try:
            policy.reset(_task(1))
            step = policy.act(_page_observation())
        finally:
            policy.close()
        assert step.reply == "```\nclick [2]\n```" and not step.memory_only
        assert step.info.extra["planning_commands"] == ["note [Orders are under My Orders]"]
        assert len(server.requests("/chat/completions")) == 2
    with ScriptedServer({"name": "policy", "default": occam("click [77]")}) as server:
        settings = _settings(test_settings, server)
        settings.agentoccam.max_invalid_reasks = 2
        policy = AgentOccamAgent(settings)
        try:
            policy.reset(_task(1))
            step = policy.act(_page_observation())
        finally:
            policy.close()
        assert len(server.requests("/chat/completions")) == 3  # the reply, then two re-asks
        assert step.error and "element [77] is not in the current observation" in step.error


def test_a_note_and_a_click_in_one_action_are_one_step_and_a_repeated_note_is_asked_again(test_settings) -> None:
    replies = [
        occam("note [Orders are under My Orders]\nclick [2]"),
        occam("note [Orders are under My Orders]"),  # the same note again: refused, asked again
        occam("type [3] [order 24] [1]"),
    ]
    with ScriptedServer({"name": "policy", "replies": replies}) as server:
        policy = AgentOccamAgent(_settings(test_settings, server))
        try:
            policy.reset(_task(1))
            first = policy.act(_page_observation())
            second = policy.act(_page_observation())
        finally:
            policy.close()
        requests = [entry["body"] for entry in server.requests("/chat/completions")]
    assert first.reply == "```\nclick [2]\n```" and first.info.extra["planning_commands"] == [
        "note [Orders are under My Orders]"
    ]
    assert "Note: STEP 1: Orders are under My Orders" in _user_text(requests[1])
    after_page = _user_text(requests[2]).split("CURRENT OBSERVATION")[-1]  # the warning ends the prompt
    assert "You already wrote down `note [Orders are under My Orders]`" in after_page
    assert second.reply == "```\ntype [3] [order 24] [1]\n```" and len(requests) == 3


def test_with_reply_grammar_each_policy_call_holds_the_sections_and_only_the_pages_ids(test_settings) -> None:
    """`agentoccam.reply_grammar` (off by default: AgentOccam sends no constraint)."""
    (step,), requests, _ = _act(test_settings, [occam("click [2]")])
    assert "grammar" not in requests[0]["body"]
    (step,), requests, _ = _act(test_settings, [occam("click [2]")], reply_grammar=True)
    grammar = requests[0]["body"]["grammar"]  # the scripted server's kind takes llama.cpp's field
    rules = dict(line.split(" ::= ", 1) for line in grammar.splitlines())
    page_ids = ("1", "2", "3")  # the tree's; AgentOccam shows the root line without its id
    shown = [i for i in page_ids if f"[{i}] " in _user_text(requests[0]["body"])]
    assert shown and rules["id"] == " | ".join(f'"{i}"' for i in shown)  # the ids of the page shown, no other
    assert rules["root"].index('"REASON:\\n"') < rules["root"].index('"ACTION:\\n" command')
    assert '"click [" id "]"' in rules["command"] and '"go_back"' in rules["command"]
    assert not step.error


def test_prices_keep_their_currency_unless_characters_is_original(test_settings) -> None:
    """`agentoccam.characters`: ours ("readable") keeps `$` and `€`; "original" (`--harness agentoccam`) drops
    every character AgentOccam's cleaner drops (obs_opt.py remove_unwanted_characters), currency signs included."""
    from evaluation.browser_env.observation import Observation, TabInfo

    tree = (
        "[1] RootWebArea 'Shop'\n\t[2] link 'Green tea $6.00'\n\t[3] link 'Kaffee 4,50 €'\n"
        "\t[4] link '50% off + #1 pick *new* \u2605 Tom\u2019s (C&A) a@b.c/d'"
    )
    url = "http://shop.test/"
    page = Observation(f"Tab 0 (current): Shop\n\n{tree}", url, [TabInfo(0, "Shop", url, True)], None, {},
                       (1280, 720), (0, 0))  # fmt: skip

    def shown(**options) -> str:
        _, requests, _ = _act(test_settings, [occam("stop [N/A]")], page=page, **options)
        return _user_text(requests[0]["body"]).split("CURRENT OBSERVATION:\n")[1]

    ours, original = shown(), shown(characters="original")
    assert "link [2] 'Green tea $6.00'" in ours and "link [3] 'Kaffee 4,50 €'" in ours
    assert "link [2] 'Green tea 6.00'" in original and "link [3] 'Kaffee 4,50'" in original
    assert "$" not in original and "€" not in original
    assert "link [4] '50 off 1 pick new Tom\u2019s (C&A) a@b.c/d'" in original  # AgentOccam's kept punctuation
    assert "50% off + #1 pick *new* Tom" in ours  # ours drops the star glyph only


def test_with_no_bound_an_invalid_reply_is_asked_again_past_ten_and_a_warning_says_so(test_settings, caplog) -> None:
    """`agentoccam.max_invalid_reasks: 0` (`--harness agentoccam`): asked again until a reply is valid, as
    AgentOccam does; the 10th re-ask of a step logs a warning. Ours (10) fails the step at the 11th reply."""
    replies = [occam("click [77]")] * 12 + [occam("click [2]")]
    with caplog.at_level(logging.WARNING, logger="agent.base.agentoccam.agent"):
        taken, requests, _ = _act(test_settings, replies, max_invalid_reasks=0)
    assert len(taken) == 1 and len(requests) == 13  # one step: twelve refused replies, then the valid one
    assert taken[0].reply == "```\nclick [2]\n```" and not taken[0].error
    assert len(taken[0].info.extra["model_replies"]) == 13
    warnings = [r.getMessage() for r in caplog.records if "invalid replies in a row" in r.getMessage()]
    assert len(warnings) == 1 and "10 invalid replies in a row" in warnings[0] and "no bound" in warnings[0]
    taken, _, _ = _act(test_settings, replies, max_invalid_reasks=10)
    assert taken[0].error and "(11 replies; agentoccam.max_invalid_reasks)" in taken[0].error
    settings = _settings(test_settings, SimpleNamespace(base_url="http://127.0.0.1:9"))
    settings.agentoccam.max_invalid_reasks = -1
    with pytest.raises(UserError, match="agentoccam.max_invalid_reasks is -1; use 0 \\(no bound\\) or more"):
        AgentOccamAgent(settings)


# The page changes on its own after it was observed: the grocery link goes, a heading comes.
_CHANGE_PAGE = """() => {
    for (const a of [...document.querySelectorAll('a')])
        if (a.textContent.trim() === 'Grocery & Gourmet Food') a.remove();
    const heading = document.createElement('h1');
    heading.textContent = 'Changed after the observation';
    document.body.prepend(heading);
}"""


def test_after_a_failed_action_the_original_keeps_the_previous_observation(sandbox, test_settings) -> None:
    """`agentoccam.observe_after_failed_action`: ours observes the page again after a click that fails; off
    (`--harness agentoccam`, as AgentOccam's env.py) the next prompt shows the page from before the click."""
    seen: dict[bool, tuple] = {}
    with ScriptedServer({"name": "policy", "replies": []}) as server:  # the server keeps its place: add to it
        settings = _settings(test_settings, server)
        env = BrowserEnv(settings)
        try:
            for observe in (True, False):
                settings.agentoccam.observe_after_failed_action = observe
                policy = AgentOccamAgent(settings)
                try:
                    policy.attach_environment(env)
                    policy.reset(_task(1))
                    env.reset(_task(1), declared_episode_options(policy, env.episode))
                    link = next(
                        n for n in env.observation.nodes.values()
                        if n.role == "link" and n.name.strip() == "Grocery & Gourmet Food"
                    )  # fmt: skip
                    env.page.evaluate(_CHANGE_PAGE)
                    replies = [occam(f"click [{link.node_id}]"), occam("stop [N/A]")]
                    server.script.replies.extend(load_script({"name": "policy", "replies": replies}).replies)
                    _play_step(policy, env)
                    _play_step(policy, env)
                finally:
                    policy.close()
                bodies = [entry["body"] for entry in server.requests("/chat/completions")][-2:]
                pages = [_user_text(body).split("CURRENT OBSERVATION:\n")[1] for body in bodies]
                seen[observe] = (env.record.steps[0], pages, link.node_id)
        finally:
            env.close()
    for observe, (failed, _, node_id) in seen.items():
        assert not failed.ok and "'Grocery & Gourmet Food')" in failed.error, (observe, failed.error)
    _, (before, after), node_id = seen[True]  # ours: the page seen again, changed
    assert "Changed after the observation" in after and "Changed after the observation" not in before
    assert f"link [{node_id}] 'Grocery & Gourmet Food'" in before and "'Grocery & Gourmet Food'" not in after
    _, (before, after), node_id = seen[False]  # AgentOccam's: the same page as before the click
    assert after == before and "Changed after the observation" not in after
    assert f"link [{node_id}] 'Grocery & Gourmet Food'" in after
