"""The AgentOccam policy on sandbox pages, its model a SCRIPTED server; asserted from the server's request log.

- one step driven by hand on the shop's home page: the prompt carries the refined
  whole-page tree (elements below the fold present, no decorative images, no raw
  StaticText, lone texts merged into their parent) and the reduced action space;
  `note` and `branch` are answered without touching the page; `click [id]` acts on it;
- `videodemo run --policy agentoccam` on a sandbox task: planning commands, then the
  answer, scored 1; temperature is not sent, reasoning_effort "low" is;
- the method (`--policy video`) on top of AgentOccam shows its demonstration in the same prompt.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from agent.agentoccam.agent import AgentOccamAgent
from evaluation.environment import BrowserEnv
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


@pytest.fixture(scope="module")
def driven(sandbox, test_settings):
    """Task 1 played by hand for two environment steps; returns what the tests look at. The browser is
    closed before the tests run: one thread holds one Playwright at a time, and the CLI runs start theirs."""
    sandbox.reset()
    server = ScriptedServer({"name": "policy", "default": occam("stop [N/A]")}).start()
    settings = replace(test_settings)
    settings.models = replace(test_settings.models, policy=replace(test_settings.models.policy))
    settings.models.policy.base_url, settings.models.policy.model = server.base_url, "scripted-policy"
    settings.models.use_cache = False
    env = BrowserEnv(settings)
    policy = AgentOccamAgent(settings)
    try:
        task = _task(1)
        policy.attach_environment(env)
        policy.reset(task)
        env.reset(task)
        first = env.observation
        viewport_height = first.viewport[1]
        nodes = list(first.nodes.values())
        below = [n for n in nodes if n.interactive and n.name and n.rect and n.rect[1] > viewport_height + 200]
        category = next(n for n in nodes if n.role == "link" and n.name.strip() == "Grocery & Gourmet Food")
        server.script = load_script({"name": "policy", "replies": [
            occam("note [The category link is in the menu]"),
            occam("branch [0] [Open the grocery category and sort by price]"),
            occam(f"click [{category.node_id}]", highlight=f"{category.node_id}"),
            occam("stop [$13.49]"),
        ]})  # fmt: skip
        page_text = policy.page_text(first)
        step1 = policy.act(first)
        url_before = env.page.url
        env.step(step1.reply)
        url_after = env.page.url
        step2 = policy.act(env.observation)
        env.step(step2.reply)
        requests = [entry["body"] for entry in server.requests("/chat/completions")]
        return {
            "requests": requests,
            "below": below,
            "first": first,
            "steps": (step1, step2),
            "urls": (url_before, url_after),
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


def test_the_system_prompt_lists_the_reduced_action_space(driven) -> None:
    system = _system_text(driven["requests"][0])
    for command in ("click [id]", "type [id] [content]", "go_back", "note [content]", "stop [answer]"):
        assert command in system
    assert "branch [parent_plan_id] [new_subplan_intent]" in system and "prune [resume_plan_id] [reason]" in system
    for absent in ("hover [", "scroll [", "goto [", "new_tab", "press ["):
        assert absent not in system
    assert "OBSERVATION HIGHLIGHT:" in system and "ACTION:" in system


def test_note_and_branch_do_not_touch_the_page_and_click_does(driven) -> None:
    step1, step2 = driven["steps"]
    requests = driven["requests"]
    assert len(requests) == 4  # note, branch, click: three calls for one environment step; then stop
    assert step1.info["planning_commands"] == [
        "note [The category link is in the menu]",
        "branch [0] [Open the grocery category and sort by price]",
    ]
    assert step1.reply == f"```\nclick [{driven['category'].node_id}]\n```"
    record = driven["record"]
    assert [s.action["kind"] for s in record.steps] == ["click", "stop"] and record.steps[0].ok
    before, after = driven["urls"]
    assert before != after  # the click navigated to the category
    second = _user_text(requests[1])  # after the note: same page, the note kept under the plan
    assert "Note: STEP 1: The category link is in the menu" in second
    third = _user_text(requests[2])  # after the branch: the new plan is the active one
    assert "\t[1] (ACTIVE PLAN) Open the grocery category and sort by price" in third
    fourth = _user_text(requests[3])  # history of the active plan: the click with the highlighted element's line
    assert f"click [{driven['category'].node_id}]" in fourth and "RESULT:\ndone" in fourth
    assert f"link [{driven['category'].node_id}] 'Grocery & Gourmet Food'" in fourth.split("CURRENT OBSERVATION:")[0]


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
    assert result["steps"] == 1  # the note took no environment step
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
    from agent.agentoccam.refine import refine_tree

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
        "link [2] 'My Orders'",
        "table",
        "\t| Order # | Total |",
        "\t| --- | --- |",
        "\t| link [11] '000000024' | $106.97 |",
    ]
    assert page.ids == {"2", "11"}
    assert refine_tree(tree, max_lines=2).text.splitlines()[-1].startswith("[... 3 more lines")


def test_policy_names_and_the_base_agent_setting(tmp_path) -> None:
    from argparse import Namespace

    from agent.base_policy import BasePolicy
    from foundation.errors import UserError
    from evaluation.policies import build_policy
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
    from agent.agentoccam.agent import read_sections

    plain = read_sections(occam("type [15] [coffee] [1]", "Search for it.", "15, 3"))
    assert plain["ACTION"] == "type [15] [coffee] [1]"
    assert (plain["REASON"], plain["OBSERVATION HIGHLIGHT"]) == ("Search for it.", "15, 3")
    markdown = read_sections("**Reason:** the link is there\n**ACTION:**\n```\nclick [7]\n```\nThis opens the page.")
    assert (markdown["ACTION"], markdown["REASON"]) == ("click [7]", "the link is there")
    assert read_sections("I will click it.\n```\nclick [7]\n```")["ACTION"] == "click [7]"
    assert read_sections("ACTION:\nnote [Total is $5\nand tax $1]")["ACTION"] == "note [Total is $5\nand tax $1]"
