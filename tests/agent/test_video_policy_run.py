"""`videodemo run --policy video` on sandbox tasks, the model being a SCRIPTED server.

One run plays four tasks, each with its own scripted story:
- task 1 (skill): selection picks a trajectory; the continuation check keeps it (stages
  1-2 skipped); then drops it and stage 1 picks nothing; then a fresh selection where
  stage 1 picks more than 3 from one video; the agent answers correctly;
- task 6 (factual): an unreadable stage-1 reply (no demonstration that step), then a
  selection, then the intermediate question, asked once and scored;
- task 20: its video was never processed: no selection, and the records say why;
- task 37: stage 2 chooses none, and the policy never gives an action: three
  unparseable replies end the episode (`agent.early_stop: consecutive`, ours; the
  method's default, as AgentOccam's runner, stops only at the step limit).
The policy role's `structured_output` is `auto`: selection calls carry their reply schemas.
"""

from __future__ import annotations

import json
import os

import pytest

from tests.agent.world import (
    CONTINUATION,
    DEMONSTRATION,
    INTERMEDIATE,
    POLICY,
    SEARCH_ACTIONS,
    SEARCH_SPANS,
    STAGE1,
    STAGE2,
    about,
    action,
    choice,
    picks,
    record,
    relevant,
    rules_for,
    stage1_listing,
    steps,
    task_folder,
)

TASK1 = "cheapest product in the Coffee & Tea category"
TASK6 = "Search the store for 'earbuds'"
TASK20 = "grand total of my order 000000024"
TASK37 = "Which forum has the most subscribers?"
POOL = 4  # stage-1 bound per video in this run; the search video has 7 trajectories


def _rules() -> list[dict]:
    shop = os.environ["SHOPPING"]
    return [
        *rules_for(TASK6, INTERMEDIATE, ["The tutorial sorted its results by price.\n```\nPrice\n```"]),
        # task 1
        *rules_for(TASK1, CONTINUATION, [relevant("yes"), relevant("no")]),
        *rules_for(TASK1, STAGE1, [picks(1, 2), picks(), picks(4, 3, 2, 1)]),
        *rules_for(TASK1, STAGE2, [choice(2), choice(4)]),
        *rules_for(TASK1, POLICY, [
            action("scroll [down]", "I should look for the category menu."),
            action("scroll [up]"),
            action("scroll [down]"),
            action("stop [$13.49]", "The cheapest coffee costs $13.49."),
        ]),  # fmt: skip
        # task 6
        *rules_for(TASK6, STAGE1, ["I would go with the third one, it looks closest.", picks(1)]),
        *rules_for(TASK6, STAGE2, [choice(1)]),
        *rules_for(TASK6, POLICY, [
            action(f"goto [{shop}/catalogsearch/result/?q=earbuds&product_list_order=price]"),
            action("stop []", "The results are sorted by price, as in the tutorial."),
        ]),  # fmt: skip
        # task 20: only the policy is asked
        *rules_for(TASK20, POLICY, [action("stop [$106.97]")]),
        # task 37
        *rules_for(TASK37, STAGE1, [picks(1), picks(2)]),
        *rules_for(TASK37, STAGE2, [choice(None), choice(2)]),
        *rules_for(TASK37, CONTINUATION, [relevant("yes")]),
        *rules_for(TASK37, POLICY, ["I am not sure what to do here."] * 3),
    ]


@pytest.fixture(scope="module")
def method_run(run_agent, sandbox):
    sandbox.reset()
    run = run_agent(_rules(), "1,6,20,37", "--max-steps", "4", "--set", f"selection.stage1_pool_per_video={POOL}",
                    "--set", "selection.stage1_precut=true", "--set", "agent.early_stop=consecutive",
                    # selection's replies held to their schemas (the scripted server takes any form; it says "scripted")
                    "--set", "models.policy.structured_output=auto")  # fmt: skip
    assert run.exit_code == 0, run.stdout
    return run


def _kinds(requests) -> list[str]:
    return [request.kind for request in requests]


def test_the_run_completes_and_each_task_gets_its_verdict(method_run) -> None:
    records = {task_id: record(method_run.out, task_id) for task_id in (1, 6, 20, 37)}
    statuses = {task_id: r["status"] for task_id, r in records.items()}
    assert statuses == {1: "passed", 6: "passed", 20: "passed", 37: "failed"}
    assert all(r["policy"] == "video" for r in records.values())
    assert records[1]["stop_reason"] == "stop" and records[1]["steps"] == 4


def test_every_step_records_its_selection_and_continuation_skips_stages_1_and_2(method_run) -> None:
    assert _kinds(about(method_run.requests, TASK1)) == [
        "stage1", "stage2", "policy",  # step 1: a fresh selection
        "continuation", "policy",  # step 2: kept, stages 1-2 skipped
        "continuation", "stage1", "policy",  # step 3: dropped, stage 1 picks none, so no stage 2
        "stage1", "stage2", "policy",  # step 4: nothing to continue, a fresh selection
    ]  # fmt: skip
    selections = [step["extra"]["selection"] for step in steps(method_run.out, 1)]
    assert [s["decision"] for s in selections] == ["reselected", "continued", "none", "reselected"]
    first, kept, dropped, last = selections
    by_number = {c["number"]: c for c in first["candidates"]}
    assert first["stage1"] == {"picks": [1, 2], "reason": "these objectives match the next step"}
    assert first["stage2"]["choice"] == 2 and first["chosen"] == by_number[2]["trajectory_id"]
    assert first["stage2"]["reason"] == "its first screen looks like this page"
    assert kept["previous"] == kept["chosen"] == first["chosen"] and kept["continuation"]["relevant"] is True
    assert "candidates" not in kept and "stage1" not in kept
    assert dropped["continuation"]["relevant"] is False
    assert dropped["stage1"]["picks"] == [] and dropped["chosen"] is None
    assert last["previous"] is None  # nothing was shown at step 3, so there was nothing to continue
    assert last["stage1"]["picks"] == [4, 3, 2]
    assert last["stage1"]["ignored"] == ["1: more than 3 from video shop_search_sort"]
    assert last["chosen"] == {c["number"]: c for c in last["candidates"]}[4]["trajectory_id"]
    # what each step's selection cost: 2 calls, each with the current screenshot, and the first screens of the
    # two picks; then one call with the screenshot
    assert first["usage"]["calls"] == 2 and first["usage"]["images"] == 4 and first["usage"]["embedded_texts"] == 1
    assert kept["usage"]["calls"] == 1 and kept["usage"]["images"] == 1


def test_with_the_precut_on_stage_1_lists_a_bounded_pool_ranked_by_stage_1(method_run) -> None:
    stage1 = [request for request in method_run.requests if request.kind == "stage1"]
    assert stage1
    for request in stage1:
        listed = stage1_listing(request)
        assert all(len(objectives) <= POOL for objectives in listed.values()), listed
    for request in about(stage1, TASK1):
        assert [len(objectives) for objectives in stage1_listing(request).values()] == [POOL]
    first = steps(method_run.out, 1)[0]["extra"]["selection"]
    assert first["pool"] == {"shop_search_sort": {"trajectories": 7, "listed": POOL, "ranked": True}}
    said = f"on: at most {POOL} objectives per video, ranked by stage 1's ranking (replay)"  # selection.precut_ranking
    assert first["precut"] == said and record(method_run.out, 1)["policy_info"]["stage1_precut"] == said
    assert all(isinstance(c["score"], float) for c in first["candidates"])


def test_the_chosen_demonstration_is_in_the_policy_prompt_with_its_keyframes(method_run) -> None:
    policy = [r for r in about(method_run.requests, TASK1) if r.kind == "policy"]
    step1 = steps(method_run.out, 1)[0]["extra"]
    shown = step1["demonstration"]
    assert shown["objective"] in policy[0].text and DEMONSTRATION in policy[0].text
    assert policy[0].images == ["jpeg"] * len(shown["actions"]) + ["png"]  # keyframes, then the page
    assert shown["actions"][0] in [a.describe() for a in SEARCH_ACTIONS]
    assert DEMONSTRATION not in policy[2].text and policy[2].images == ["png"]  # step 3 had none
    assert steps(method_run.out, 1)[2]["extra"]["demonstration"] is None
    # The report shows the keyframes beside the step's screenshot, from files in the task's folder.
    page = (task_folder(method_run.out, 1) / "report.html").read_text()
    for name in shown["keyframes"]:
        assert (task_folder(method_run.out, 1) / name).is_file() and f'src="{name}"' in page
    assert shown["objective"] in page and "reselected" in page
    assert steps(method_run.out, 1)[1]["extra"]["demonstration"]["keyframes"] == "(as at step 1)"


def test_an_unreadable_selection_reply_means_no_demonstration_that_step(method_run) -> None:
    first, second = (step["extra"] for step in steps(method_run.out, 6))
    assert first["selection"]["decision"] == "unreadable_reply" and first["demonstration"] is None
    assert "I would go with the third one" in first["selection"]["error"]
    assert second["selection"]["decision"] == "reselected" and second["demonstration"] is not None
    policy = [r for r in about(method_run.requests, TASK6) if r.kind == "policy"]
    assert DEMONSTRATION not in policy[0].text and DEMONSTRATION in policy[1].text


def test_the_intermediate_question_is_asked_once_from_the_same_context_and_scored(method_run) -> None:
    factual = record(method_run.out, 6)
    asked = [r for r in method_run.requests if r.kind == "intermediate"]
    assert len(asked) == 1 and factual["intermediate_intent"] in asked[0].text
    shown = steps(method_run.out, 6)[1]["extra"]["demonstration"]
    assert shown["objective"] in asked[0].text and asked[0].images[-1] == "png"  # the demonstration and the last page
    assert factual["intermediate_answer"] == "Price" and factual["intermediate_score"] == 1.0
    assert factual["policy_info"]["intermediate_context"] == [shown["trajectory_id"]]


def test_a_task_whose_video_was_never_processed_runs_without_demonstrations_and_says_so(method_run) -> None:
    task = record(method_run.out, 20)
    assert _kinds(about(method_run.requests, TASK20)) == ["policy"]
    assert DEMONSTRATION not in about(method_run.requests, TASK20)[0].text
    reason = task["policy_info"]["reason"]
    assert reason.startswith("video shop_order_history not processed") and "process-videos" in reason
    assert task["policy_info"]["demonstration"] is None
    first = steps(method_run.out, 20)[0]["extra"]
    assert first["demonstration"] is None and first["reason"] == reason and "selection" not in first


def test_unparseable_policy_replies_are_failed_steps_and_three_end_the_episode(method_run) -> None:
    task = record(method_run.out, 37)
    assert task["stop_reason"] == "parse_failures" and task["steps"] == 3 and task["answer"] is None
    recorded = steps(method_run.out, 37)
    assert all(not step["ok"] and step["error"].startswith("unparseable reply") for step in recorded)
    assert all("unparseable" in step["extra"] for step in recorded)
    decisions = [step["extra"]["selection"]["decision"] for step in recorded]
    assert decisions == ["none", "reselected", "continued"]  # stage 2 chose none at step 1
    assert recorded[0]["extra"]["selection"]["stage2"]["choice"] is None
    # The policy is told its last reply held no action.
    last_policy = [r for r in about(method_run.requests, TASK37) if r.kind == "policy"][-1]
    assert "no valid action" in last_policy.text


def test_the_summary_reports_selection_cost_per_step_beside_the_policys(method_run) -> None:
    summary = json.loads((method_run.out / "summary.json").read_text())
    assert summary["steps"] == 4 + 2 + 1 + 3
    rows = {row["stage"]: row for row in summary["policy_cost_per_step"]}
    selection_calls = sum(r.kind in ("continuation", "stage1", "stage2") for r in method_run.requests)
    assert rows["policy"]["calls"] == pytest.approx(10 / 10)
    assert rows["selection (all)"]["calls"] == pytest.approx(selection_calls / 10)
    assert rows["selection_stage2"]["images"] > 0 and rows["policy"]["images"] > 1  # keyframes plus screenshots
    assert "policy model cost per step (10 steps)" in method_run.stdout
    assert "selection (all)" in method_run.stdout


def test_each_selection_call_carries_its_reply_schema_and_a_prose_reply_is_counted(method_run) -> None:
    schema_of = {"continuation": "select_continuation", "stage1": "select_stage1", "stage2": "select_stage2_question"}
    for request in method_run.requests:
        response_format = request.body.get("response_format")
        if request.kind in schema_of:
            assert response_format["type"] == "json_schema", request.kind
            assert response_format["json_schema"]["name"] == schema_of[request.kind]
        else:  # the policy's own reply is free text (its grammar is a separate, off-by-default setting)
            assert response_format is None, request.kind
    rows = [row for path in sorted((method_run.out / "tasks").glob("*/record.json"))
            for row in json.loads(path.read_text())["usage"]["policy"]["rows"]]  # fmt: skip
    constrained = sum(row.get("constrained", 0) for row in rows)
    assert constrained == sum(request.kind in schema_of for request in method_run.requests)
    assert sum(row.get("schema_violations", 0) for row in rows) == 1  # task 6's "I would go with the third one"


@pytest.fixture(scope="module")
def sighted_run(run_agent, sandbox):
    """Task 1, one step, default settings: no pre-cut, so stage 1 lists every objective."""
    sandbox.reset()
    rules = [
        *rules_for(TASK1, STAGE1, [picks(1, 7)]),
        *rules_for(TASK1, STAGE2, [choice(7)]),
        *rules_for(TASK1, POLICY, [action("stop [$13.49]")]),
    ]
    run = run_agent(rules, "1", "--max-steps", "1")
    assert run.exit_code == 0, run.stdout
    return run


def _tree(policy_text: str) -> str:
    return policy_text.split("ACCESSIBILITY TREE OF THE PAGE IN VIEW:\n", 1)[1].split("\n\nYOUR PREVIOUS STEPS", 1)[0]


def test_selection_reads_the_policys_page_text_its_screenshot_and_every_objective(sighted_run) -> None:
    assert _kinds(sighted_run.requests) == ["stage1", "stage2", "policy"]
    stage1, stage2, policy = sighted_run.requests
    tree = _tree(policy.text)
    assert len(tree.splitlines()) > 30  # more than the old 30-line summary, the policy's whole page text
    for request in (stage1, stage2):
        assert tree in request.text and "URL: http" in request.text
        assert request.images[0] == "png"  # the current screenshot, before any video image
    assert stage2.images == ["png", "jpeg", "jpeg"]  # the page, then the starting screens of the two picks
    listed = stage1_listing(stage1)
    assert [len(objectives) for objectives in listed.values()] == [len(SEARCH_SPANS)]  # every objective, no pre-cut
    selection = steps(sighted_run.out, 1)[0]["extra"]["selection"]
    assert selection["pool"] == {"shop_search_sort": {"trajectories": 7, "listed": 7, "ranked": False}}
    assert "precut" not in selection
    assert record(sighted_run.out, 1)["policy_info"]["stage1_precut"] == "off: stage 1 reads every objective"
