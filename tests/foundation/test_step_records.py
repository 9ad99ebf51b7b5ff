"""A step's record (foundation/records/step_info.py, demonstration.py) reads every step an earlier version wrote and
writes it back byte for byte, while its readers see typed fields: null told from absent, unknown keys kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from foundation.records.demonstration import (
    UNREADABLE,
    CandidateRecord,
    DemonstrationShown,
    SelectionRecord,
    StageDecision,
)
from foundation.records.step_info import StepInfo

TESTS = Path(__file__).resolve().parent.parent

# Steps as the policies wrote them before the records were typed (keys in their order, as on disk).
METHOD_STEP = {
    "reasoning": "The orders are under My Account.",
    "demonstration": {"how": "selected", "trajectory_id": "shop/0-5", "video": "shop", "objective": "Open my orders",
                      "actions": ["click 'My Account'", "click 'My Orders'"], "video_time": "0.0-12.5 s",
                      "verification": "unverified", "keyframes": ["extra/step_001_01.png", "extra/step_001_02.png"]},
    "selection": {"previous": None, "pool": {"shop": {"objectives": 6}}, "candidates": [
                      {"number": 1, "trajectory_id": "shop/0-5", "video": "shop", "objective": "Open my orders",
                       "score": 0.61, "verification": "unverified"}],
                  "stage1": {"picks": [1], "reason": "it opens the orders"},
                  "stage2": {"choice": 1, "reason": "its first screen is this page"},
                  "decision": "reselected", "chosen": "shop/0-5", "usage": {"calls": 2}},
    "images_sent": 3, "observation_description": "the home page", "command": "click [31]", "plans": "[0] root",
    "observation_tokens_cut": False,
}  # fmt: skip
NOTHING_SHOWN = {"reasoning": "", "demonstration": None, "reason": "videos are off (agent.use_videos=false)",
                 "images_sent": 1}  # fmt: skip
UNREADABLE_STEP = {"reasoning": "", "demonstration": None,
                   "selection": {"previous": None, "decision": UNREADABLE, "chosen": None, "error": "no JSON"}}
REPLAY_STEP = {
    "policy": "model-free baseline", "reference_done": True, "reference": {"position": 2},
    "selection": {"oracle": "selection oracle", "previous": "shop/0-5",
                  "continuation": {"relevant": True, "reason": "its step 2 still grounds"}, "decision": "continued",
                  "chosen": "shop/0-5", "continued": True, "reason": "its step 2 still grounds"},
    "demonstration": {"how": "continued", "trajectory_id": "shop/0-5", "video": "shop", "objective": "Open orders",
                      "actions": ["click 'My Orders'"], "video_time": "0.0-3.0 s", "verification": "verified (1/1)",
                      "keyframes": "(as at step 1)"},
    "demonstrated": {"step": 2, "action": "click 'My Orders'"},
    "replayed": {"action": "click [1383]", "grounded": {"looked_for": "My Orders", "node": "[1383] link",
                                                        "similarity": 1.0, "where": "in view", "next_best": []}},
}  # fmt: skip
TRANSCRIPT_STEP = {"reasoning": "", "demonstration": {"how": "transcript", "videos": ["a", "b"],
                                                     "transcript": "(shown in full at step 1)"}}
SCRIPTED_STEP = {"scripted": "click [link 'My Orders']", "target": "link 'My Orders' -> [12] (in view)"}
ODD_STEP = {"selection": "a policy's own words", "demonstration": {"how": "selected", "shape": "new"}, "x": [1]}
STEPS = [METHOD_STEP, NOTHING_SHOWN, UNREADABLE_STEP, REPLAY_STEP, TRANSCRIPT_STEP, SCRIPTED_STEP, ODD_STEP, {}]


@pytest.mark.parametrize("step", STEPS)
def test_a_recorded_step_reads_and_writes_back_byte_for_byte(step: dict) -> None:
    assert json.dumps(StepInfo.from_dict(step).to_dict()) == json.dumps(step)


def test_every_step_of_the_committed_episodes_writes_back_byte_for_byte() -> None:
    episodes = sorted(TESTS.rglob("episode.json"))
    assert episodes
    for path in episodes:
        for step in json.loads(path.read_text()).get("steps", []):
            extra = step.get("extra") or {}
            assert json.dumps(StepInfo.from_dict(extra).to_dict()) == json.dumps(extra), path


def test_readers_see_typed_fields() -> None:
    method = StepInfo.from_dict(METHOD_STEP)
    assert isinstance(method.demonstration, DemonstrationShown) and method.demonstration.shows_steps
    assert method.demonstration.keyframe_list == ["extra/step_001_01.png", "extra/step_001_02.png"]
    selection = method.selection
    assert isinstance(selection, SelectionRecord) and isinstance(selection.stage2, StageDecision)
    assert [(c.trajectory_id, c.score) for c in selection.candidates or []] == [("shop/0-5", 0.61)]
    assert isinstance(selection.candidates[0], CandidateRecord) and selection.extra["usage"] == {"calls": 2}
    assert method.why_chosen() == "reselected (shop/0-5): its first screen is this page"
    assert method.extra["command"] == "click [31]" and method.images_sent == 3

    nothing = StepInfo.from_dict(NOTHING_SHOWN)
    assert nothing.has("demonstration") and nothing.demonstration is None  # null: a video policy showed nothing
    assert not StepInfo.from_dict(SCRIPTED_STEP).has("demonstration")  # absent: a policy that shows none
    assert nothing.why_chosen() == "videos are off (agent.use_videos=false)"
    assert StepInfo.from_dict(UNREADABLE_STEP).selection.decision == UNREADABLE

    replay = StepInfo.from_dict(REPLAY_STEP)
    assert replay.demonstration.keyframe_list is None and replay.demonstrated.step == 2
    assert replay.replayed.grounded["similarity"] == 1.0 and replay.selection.extra == {}
    assert replay.why_chosen() == "continued (shop/0-5): its step 2 still grounds"
    transcript = StepInfo.from_dict(TRANSCRIPT_STEP).demonstration
    assert not transcript.shows_steps and transcript.videos == ["a", "b"]
    odd = StepInfo.from_dict(ODD_STEP)
    assert odd.selection == "a policy's own words" and odd.why_chosen() == ""  # kept, and no decision read into it
    assert odd.demonstration.extra == {"shape": "new"} and not odd.demonstration.shows_steps


def test_a_policy_writes_typed_fields_and_its_own_keys_in_order() -> None:
    info = StepInfo(reasoning="r", observation_description="o", images_sent=2)
    info.put("planning_commands", ["note [x]"])
    info.unparseable = "no command"
    info.demonstration = None
    assert list(info.to_dict()) == ["reasoning", "observation_description", "images_sent", "planning_commands",
                                    "unparseable", "demonstration"]  # fmt: skip
    assert info.extra == {"observation_description": "o", "planning_commands": ["note [x]"]}
    shown = DemonstrationShown(how="selected", objective="o", actions=["a"])
    shown.keyframes = ["<a picture>"]  # saved beside the record later (evaluation/browser_env/step_extras.py)
    info.demonstration = shown
    assert info.to_dict()["demonstration"] == {"how": "selected", "objective": "o", "actions": ["a"],
                                               "keyframes": ["<a picture>"]}  # fmt: skip
    with pytest.raises(TypeError, match="DemonstrationShown has no field 'objectiv'"):
        DemonstrationShown(objectiv="o")
    info.drop("demonstration")
    assert not info.has("demonstration") and info.demonstration is None


def test_a_policy_step_takes_a_plain_dict_as_before() -> None:
    from evaluation.running.policy import PolicyStep

    step = PolicyStep("stop []", {"reasoning": "done", "mine": 1})
    assert isinstance(step.info, StepInfo) and step.info.reasoning == "done" and step.info.extra == {"mine": 1}
    assert PolicyStep("stop []").info.to_dict() == {}
