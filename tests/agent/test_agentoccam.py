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
from model_access.scripted_server import load_script
from tasks.loading import SANDBOX_CONFIGS_DIR, load_tasks
from tests.agent.world import DEMONSTRATION, record, steps

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
def driven(sandbox, test_settings, scripted_server):
    """Task 1 played by hand for two environment steps; returns what the test needs to look at."""
    sandbox.reset()
    server = scripted_server({"name": "policy", "default": occam("stop [N/A]")})
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
        below = [n for n in first.nodes.values() if n.interactive and n.name and n.rect and n.rect[1] > viewport_height + 200]
        category = next(n for n in first.nodes.values() if n.role == "link" and n.name.strip() == "Coffee & Tea")
        server.script = load_script({"name": "policy", "replies": [
            occam("note [The category link is in the menu]"),
            occam("branch [0] [Open the Coffee & Tea category and sort by price]"),
            occam(f"click [{category.node_id}]", highlight=f"{category.node_id}"),
            occam("stop [$13.49]"),
        ]})  # fmt: skip
        step1 = policy.act(first)
        url_before = env.page.url
        env.step(step1.reply)
        url_after = env.page.url
        step2 = policy.act(env.observation)
        env.step(step2.reply)
        requests = [entry["body"] for entry in server.requests("/chat/completions")]
        yield {
            "requests": requests,
            "below": below,
            "first": first,
            "steps": (step1, step2),
            "urls": (url_before, url_after),
            "record": env.record,
            "category": category,
        }
    finally:
        policy.close()
        env.close()


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
    assert "img ''" not in prompt  # no decorative images
    # a lone text under an unnamed element became that element's name (the ReAct tree keeps two lines)
    assert "CURRENT OBSERVATION:" in prompt and "OBJECTIVE:\nWhat is the price of the cheapest product" in prompt
    assert "PREVIOUS PLANS:\n[0] (ACTIVE PLAN) What is the price" in prompt
    assert len(prompt.split()) < len(raw.split())  # refined: shorter than the environment's own tree text


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
        "branch [0] [Open the Coffee & Tea category and sort by price]",
    ]
    assert step1.reply == f"```\nclick [{driven['category'].node_id}]\n```"
    record = driven["record"]
    assert [s.action["kind"] for s in record.steps] == ["click", "stop"] and record.steps[0].ok
    before, after = driven["urls"]
    assert before != after  # the click navigated to the category
    second = _user_text(requests[1])  # after the note: same page, the note kept under the plan
    assert "Note: STEP 1: The category link is in the menu" in second
    third = _user_text(requests[2])  # after the branch: the new plan is the active one
    assert "\t[1] (ACTIVE PLAN) Open the Coffee & Tea category and sort by price" in third
    fourth = _user_text(requests[3])  # history of the active plan: the click with the highlighted element's line
    assert f"click [{driven['category'].node_id}]" in fourth and "RESULT:\ndone" in fourth
    assert f"link [{driven['category'].node_id}] 'Coffee & Tea'" in fourth.split("CURRENT OBSERVATION:")[0]


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
    assert (result["policy"], result["status"], result["score"]) == ("agentoccam", "passed", 1.0)
    assert result["steps"] == 1  # the note took no environment step
    assert steps(run.out, 20)[0]["extra"]["planning_commands"] == ["note [Order 000000024 must be found in My Orders]"]
    bodies = [request.messages for request in run.requests]
    assert len(bodies) == 2
    assert "Note: STEP 1: Order 000000024 must be found in My Orders" in run.requests[1].text


def test_the_method_on_agentoccam_shows_the_demonstration_in_its_prompt(run_agent, sandbox) -> None:
    sandbox.reset()
    rules = [
        {"regex": "Which forum has the most subscribers.*" + CLOSING, "reply": occam("stop [N/A]"), "times": 1},
    ]
    run = run_agent(rules, "37", "--set", "agent.base_agent=agentoccam", "--set", "agent.trajectory_selection=false")
    assert run.exit_code == 0, run.stdout
    policy = [request for request in run.requests if CLOSING in request.text]
    assert len(policy) == 1
    text = policy[0].text
    assert text.index(DEMONSTRATION) < text.index("OBJECTIVE:") < text.index("CURRENT OBSERVATION:")
