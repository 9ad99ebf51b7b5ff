"""What each ablation flag of `videodemo run` changes in the prompts sent, read from the SCRIPTED server's log.

All runs play sandbox task 1, whose video (the search tutorial) is in the test index.
"""

from __future__ import annotations

import json

import pytest

from cli.main import main
from tests.agent.world import (
    CONTINUATION,
    DEMONSTRATION,
    SEARCH_ACTIONS,
    NARRATION,
    POLICY,
    SEARCH_TRANSCRIPT,
    STAGE1,
    STAGE2,
    action,
    choice,
    picks,
    record,
    relevant,
    rules_for,
    steps,
)

TASK1 = "cheapest product in the Coffee & Tea category"
SELECTION_KINDS = {"continuation", "stage1", "stage2"}


def _policy_rules(*actions: str) -> list[dict]:
    return rules_for(TASK1, POLICY, [action(text) for text in actions])


def _run(run_agent, rules, *flags):
    run = run_agent(rules, "1", *flags)
    assert run.exit_code == 0, run.stdout
    return run


def _policy_requests(run):
    return [request for request in run.requests if request.kind == "policy"]


def _demonstration_section(text: str) -> str:
    return text.split("OBJECTIVE:", 1)[0]


@pytest.fixture(scope="module")
def no_videos(run_agent):
    return _run(run_agent, _policy_rules("scroll [down]", "stop [$13.49]"), "--no-videos")


@pytest.fixture(scope="module")
def whole_video(run_agent):
    return _run(run_agent, _policy_rules("scroll [down]", "scroll [up]", "stop [$13.49]"), "--no-trajectory-selection")


@pytest.fixture(scope="module")
def no_visual(run_agent):
    rules = [
        *rules_for(TASK1, STAGE1, [picks(1, 2)]),
        *rules_for(TASK1, STAGE2, [choice(2)]),
        *rules_for(TASK1, CONTINUATION, [relevant("yes")]),
        *_policy_rules("scroll [down]", "stop [$13.49]"),
    ]
    return _run(run_agent, rules, "--no-visual")


@pytest.fixture(scope="module")
def transcript_only(run_agent):
    return _run(run_agent, _policy_rules("scroll [down]", "stop [$13.49]"), "--transcript-only")


def test_no_videos_sends_no_demonstration_and_makes_no_selection_call(no_videos) -> None:
    assert [request.kind for request in no_videos.requests] == ["policy", "policy"]
    for request in no_videos.requests:
        assert DEMONSTRATION not in request.text and NARRATION not in request.text
        assert request.images == ["png"]  # the current page only
    assert no_videos.embedding_requests == 0  # the index is not even read
    task = record(no_videos.out, 1)
    assert task["status"] == "passed" and task["policy_info"]["mode"] == "none"
    first = steps(no_videos.out, 1)[0]["extra"]
    assert first["demonstration"] is None and "videos are off" in first["reason"]


def test_no_trajectory_selection_shows_every_action_of_the_video_at_every_step(whole_video) -> None:
    policy = _policy_requests(whole_video)
    # one video: nothing to choose, so no call besides the policy's
    assert [request.kind for request in whole_video.requests] == ["policy"] * 3
    sections = {_demonstration_section(request.text) for request in policy}
    assert len(sections) == 1
    for request in policy:
        shown = request.text.split(DEMONSTRATION, 1)[1]
        for number, labeled in enumerate(SEARCH_ACTIONS, 1):
            assert f"{number}. {labeled.describe()}" in shown  # the whole action sequence, in order
    for request in policy:
        assert request.images == ["jpeg"] * len(SEARCH_ACTIONS) + ["png"]  # every action's keyframe, then the page
    recorded = steps(whole_video.out, 1)
    assert {step["extra"]["demonstration"]["trajectory_id"] for step in recorded} == {"shop_search_sort/whole"}
    assert all(step["extra"]["demonstration"]["how"] == "whole_video" for step in recorded)
    choice_record = recorded[0]["extra"]["whole_video_choice"]
    assert choice_record["trajectory_id"] == "shop_search_sort/whole" and choice_record["actions"] == 5
    assert record(whole_video.out, 1)["policy_info"]["mode"] == "whole_video"


def test_no_visual_sends_no_video_image_to_the_policy_but_stage_2_still_sees_them(no_visual) -> None:
    kinds = [request.kind for request in no_visual.requests]
    assert kinds == ["stage1", "stage2", "policy", "continuation", "policy"]
    for request in no_visual.requests:
        if request.kind == "stage2":  # the page, then the starting screen of each of the two picks
            assert request.images == ["png", "jpeg", "jpeg"]
        else:  # the policy and the other selection calls: the current page only
            assert request.images == ["png"]
    policy = _policy_requests(no_visual)
    assert all(DEMONSTRATION in request.text for request in policy)  # objective and actions still shown
    shown = steps(no_visual.out, 1)[0]["extra"]["demonstration"]
    assert shown["keyframes"].startswith("not shown to the model") and shown["objective"] in policy[0].text


def test_transcript_only_shows_the_narration_and_no_trajectory(transcript_only) -> None:
    assert [request.kind for request in transcript_only.requests] == ["policy", "policy"]
    for request in transcript_only.requests:
        assert NARRATION in request.text and SEARCH_TRANSCRIPT in request.text
        assert DEMONSTRATION not in request.text and request.images == ["png"]
    recorded = steps(transcript_only.out, 1)
    assert recorded[0]["extra"]["demonstration"]["transcript"] == SEARCH_TRANSCRIPT
    assert recorded[1]["extra"]["demonstration"]["transcript"] == "(shown in full at step 1)"


def test_each_ablation_runs_in_its_own_folder_and_its_manifest_says_which(no_videos, whole_video) -> None:
    for run, flags in ((no_videos, {"use_videos": False}), (whole_video, {"trajectory_selection": False})):
        manifest = json.loads((run.out / "run.json").read_text())
        agent = manifest["sessions"][-1]["settings"]["agent"]
        assert all(agent[name] == value for name, value in flags.items())
        assert all(manifest["identity"]["agent"][name] == value for name, value in flags.items())


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--no-videos", "--transcript-only"], "--no-videos shows no video material"),
        (["--transcript-only", "--no-visual"], "--transcript-only shows no trajectories"),
    ],
)
def test_contradictory_flags_are_refused_in_one_line(flags, message, capsys) -> None:
    assert main(["run", "--ids", "1", "--no-progress", *flags]) == 2
    error = capsys.readouterr().err.strip()
    assert message in error and len(error.splitlines()) == 1
