"""The stages' own rules: clip layout, subsequence counts, reply parsing, merging, stage keys, plugins."""

from __future__ import annotations

import json

import pytest

from foundation.errors import UserError
from model_access.client import ModelClient
from model_access.messages import prompt_text
from model_access.replies import ReplyParseError
from processing.artifacts import VideoArtifacts, folder_name, stage_key
from processing.changed_frames import KeyFrame
from processing.plugins import Clip, create_labeler, create_objective_maker
from foundation.records.trajectory import LabeledAction
from processing.stages.action_filtering import parse_relevant
from processing.stages.labeling import clip_ranges, parse_actions
from processing.stages.merging import merge_clips
from processing.stages.trajectories import parse_objective, subsequence_count, subsequences
from processing.stages.trajectory_filtering import parse_checks
from settings import load_settings


def test_clips_of_twenty_frames_share_three():
    assert clip_ranges(40, 20, 3) == [(0, 19), (17, 36), (34, 39)]
    assert clip_ranges(20, 20, 3) == [(0, 19)]
    assert clip_ranges(21, 20, 3) == [(0, 19), (17, 20)]
    assert clip_ranges(0, 20, 3) == []
    with pytest.raises(UserError, match="processing.clip_frames"):
        clip_ranges(10, 3, 3)


@pytest.mark.parametrize("actions, longest, expected", [(20, 15, 6 * 15 + 105), (10, 15, 55), (3, 1, 3), (0, 15, 0)])
def test_subsequences_of_at_most_l_actions(actions, longest, expected):
    spans = subsequences(actions, longest)
    assert len(spans) == subsequence_count(actions, longest) == expected
    assert all(0 <= i <= j < actions and j - i + 1 <= longest for i, j in spans)
    assert len(set(spans)) == len(spans)


@pytest.mark.parametrize("actions, longest, expected", [(20, 15, 6 * 14 + 91), (10, 15, 45), (3, 1, 0), (1, 15, 0)])
def test_algorithm_1_subsequences_have_at_least_two_actions(actions, longest, expected):
    spans = subsequences(actions, longest, min_actions=2)
    assert len(spans) == subsequence_count(actions, longest, min_actions=2) == expected
    assert all(2 <= j - i + 1 <= longest for i, j in spans)
    assert set(spans) == {(i, j) for i, j in subsequences(actions, longest) if j > i}


def _keyframes(count: int) -> list[KeyFrame]:
    return [KeyFrame(i, i * 0.5, None, None) for i in range(count)]  # type: ignore[arg-type]


def test_labeling_replies_are_read_through_chatter_and_odd_spellings():
    reply = """Sure, here they are:
```json
[{"type": "Right Click", "target": "Menu", "start_frame": 2, "end_frame": 9},
 {"action": "input", "element": "Search", "value": "wireless  mouse", "start_frame": "5"},
 {"type": "click", "target": "Go", "start_frame": 1, "end_frame": 1},]
```
Hope this helps!"""
    actions = parse_actions(reply, 1, 6, _keyframes(10))
    assert [(a.kind, a.target, a.text, a.start_frame, a.end_frame) for a in actions] == [
        ("click", "Go", "", 1, 1),
        ("right_click", "Menu", "", 2, 6),  # frames kept inside the clip
        ("type", "Search", "wireless mouse", 5, 5),
    ]
    assert actions[1].start_s == 1.0 and actions[1].end_s == 3.0
    assert parse_actions("```json\n[]\n```", 0, 3, _keyframes(4)) == []
    for bad in ("I see a login page.", '[{"target": "no type"}]'):
        with pytest.raises(ReplyParseError):
            parse_actions(bad, 0, 3, _keyframes(4))


def test_objective_and_check_replies():
    assert parse_objective('```json\n{"objective": "Sort by price"}\n```') == "Sort by price"
    assert parse_objective('{"objective": null}') is None
    assert parse_objective('{"objective": "none"}') is None
    assert parse_objective("None.") is None
    with pytest.raises(ReplyParseError):
        parse_objective('{"goal": "Sort by price"}')
    reasoned = 'REASONING:\nA form is filled, never sent: {"objective": "x"}.\nOBJECTIVE:\n{"objective": null}'
    assert parse_objective(reasoned) is None
    verdicts = '"aligned": "yes", "coherent": true, "natural": true, "no_extra_steps": false, "no_backtracking": true'
    verdicts += ', "not_overly_complex": true, "reason": "x"'
    reply = 'REASONING:\nStep 2 is not needed {"aligned": false}.\nJUDGMENT:\n{' + verdicts + "}"
    checks = parse_checks(reply)
    assert checks == {"aligned": True, "coherent": True, "natural": True, "no_extra_steps": False,
                      "no_backtracking": True, "not_overly_complex": True, "reason": "x"}  # fmt: skip
    with pytest.raises(ReplyParseError):
        parse_checks('{"aligned": true}')
    assert parse_relevant('{"relevant": [3, 1, 1, 99, "x"]}', 4) == [0, 2]
    assert parse_relevant("[2]", 4) == [1]


def _action(kind: str, target: str, start: int, end: int, text: str = "") -> LabeledAction:
    return LabeledAction(kind, target, text, start, end, start * 0.5, end * 0.5)


def test_merging_reads_the_whole_list_and_joins_groups_of_one_kind(tmp_path, scripted_model):
    groups = [
        {"original_action_ids": [1, 2, 4], "type": "type", "text": "wireless mouse"},  # a typing in three pieces
        {"original_action_ids": [0, 3]},  # a click and a press: different kinds, ignored and reported
    ]
    reply = {"contains": "may have been written down twice", "reply": "MERGED ACTIONS:\n" + json.dumps(groups)}
    server = scripted_model([reply])
    settings = load_settings()
    settings.paths.cache_dir = tmp_path / "cache"
    settings.models.llm.base_url, settings.models.llm.model = server.base_url, "scripted-llm"
    clips = [
        Clip(0, 19, [_action("click", "Search", 2, 3), _action("type", "Search", 18, 19, "wirel")]),
        Clip(17, 36, [_action("type", "Search", 19, 20, "wireless m"), _action("press", "", 25, 25, "Enter")]),
        Clip(34, 39, [_action("type", "Search", 35, 36, "ouse")]),
    ]
    with ModelClient(settings) as client:
        actions, stats = merge_clips(clips, settings, client, "video")
        unmerged, none = merge_clips(clips, settings, client, "video", use_model=False)
    assert stats.calls == 1 and len(server.requests()) == 1  # one call for the whole video
    asked = prompt_text(server.requests()[0]["body"]["messages"])
    assert "There are 5 actions (ids 0 to 4)" in asked and '3. press Enter (frame 25)' in asked
    assert [(a.kind, a.text, a.start_frame, a.end_frame) for a in actions] == [
        ("click", "", 2, 3),
        ("type", "wireless mouse", 18, 36),
        ("press", "Enter", 25, 25),
    ]
    assert any("different kinds" in line for line in stats.problems)
    # A model-free labeler's actions pass through, in time order, with no call.
    assert none.calls == 0 and len(unmerged) == 5 and len(server.requests()) == 1


def test_stage_keys_change_with_inputs_and_identity_and_stored_stages_match_their_key(tmp_path):
    key = stage_key("labeling", {"keyframes": "abc"}, {"model": "m1"})
    assert key == stage_key("labeling", {"keyframes": "abc"}, {"model": "m1"})
    assert key != stage_key("labeling", {"keyframes": "abd"}, {"model": "m1"})
    assert key != stage_key("labeling", {"keyframes": "abc"}, {"model": "m2"})
    files = VideoArtifacts(tmp_path, "a/b video")
    assert files.folder.name == folder_name("a/b video") != folder_name("a_b video")
    files.save("labeling", key, [1, 2], {"calls": 2})
    assert files.load("labeling", key)["data"] == [1, 2]
    assert files.load("labeling", "another key") is None
    assert [p.name for p in files.folder.iterdir()] == ["labeling.json"]  # no temporary file left


def test_an_unknown_labeler_or_objective_maker_names_the_registered_ones():
    settings = load_settings()
    settings.processing.labeler = "gpt-eyes"
    with pytest.raises(UserError, match="unknown labeler 'gpt-eyes': registered ones are ocr, vlm"):
        create_labeler(settings)
    settings.processing.labeler = "vlm"
    assert create_labeler(settings).roles == ("vlm",)
    settings.processing.labeler = "ocr"
    assert create_labeler(settings).roles == ()  # the model-free baseline needs no endpoint
    settings.processing.objectives = "gut-feeling"
    with pytest.raises(UserError, match="unknown objectives 'gut-feeling': registered ones are derived, vlm"):
        create_objective_maker(settings)
