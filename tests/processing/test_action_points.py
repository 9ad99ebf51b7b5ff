"""Where each labeled action happened (`LabeledAction.point`): records, the VLM's reply, the ground-truth log."""

from __future__ import annotations

import json
from pathlib import Path

from foundation.records.trajectory import LabeledAction, Trajectory
from processing.changed_frames import KeyFrame
from processing.stages.labeling import parse_actions
from processing.stages.merging import Group, merge_group
from tasks.reference.logs import read_log


def test_a_point_round_trips_through_json_and_old_records_read_without_one():
    action = LabeledAction("click", "Search", point=(412, 88))
    data = json.loads(json.dumps(action.to_dict()))
    assert data["point"] == [412, 88]
    assert LabeledAction.from_dict(data) == action
    old = {"kind": "click", "target": "Search", "text": "", "start_s": 1.0}  # written before points existed
    assert LabeledAction.from_dict(old).point is None
    assert "point" not in LabeledAction.from_dict(old).to_dict()  # and written back as it was
    assert LabeledAction("click", "x", point=[10.6, "20"]).point == (11, 20)
    for bad in ([1], [1, 2, 3], ["a", 2], [True, 2], "12,3", float("nan")):
        assert LabeledAction("click", "x", point=bad).point is None


def test_a_trajectory_keeps_its_actions_points():
    steps = [LabeledAction("click", "A", point=(1, 2)), LabeledAction("press", "", "Enter")]
    trajectory = Trajectory("v/0-1", "v", "do it", steps, ["a.jpg", "b.jpg"], "a.jpg", "c.jpg", 0.0, 1.0, (0, 1))
    again = Trajectory.from_dict(json.loads(json.dumps(trajectory.to_dict())))
    assert [a.point for a in again.actions] == [(1, 2), None]


def _keyframes(count: int) -> list[KeyFrame]:
    return [KeyFrame(i, float(i), Path(f"t{i}.jpg"), None) for i in range(count)]


def test_the_vlm_point_is_scaled_from_the_frame_it_saw_to_frame_pixels():
    items = [
        {"type": "click", "target": "Go", "text": "", "start_frame": 0, "end_frame": 1, "point": [640, 100]},
        {"type": "press", "target": "", "text": "Enter", "start_frame": 1, "end_frame": 1},  # no point at all
        {"type": "click", "target": "Off", "start_frame": 1, "point": [2000, 5]},
    ]
    reply = f"ACTIONS:\n```json\n{json.dumps(items)}\n```"
    sizes = ((1920, 1080), (1280, 720))  # recorded at 1920 wide, sent shrunk to 1280
    actions = parse_actions(reply, 0, 1, _keyframes(2), sizes)
    assert [a.point for a in actions] == [(960, 150), None, None]  # a reply without one is valid; off-frame: none
    assert parse_actions(reply, 0, 1, _keyframes(2))[0].point is None  # sizes unknown: no point rather than a wrong one


def test_merging_keeps_the_point_of_the_first_piece_that_has_one():
    pieces = [LabeledAction("type", "Search", "hea"), LabeledAction("type", "Search", "headphones", point=(5, 6))]
    assert merge_group(pieces, Group([0, 1])).point == (5, 6)


def test_the_ground_truth_log_gives_the_pointer_of_actions_on_an_element(tmp_path):
    log = tmp_path / "t.actions.json"
    log.write_text(json.dumps({"actions": [
        {"type": "click", "target": "Go", "text": "", "start_s": 1, "end_s": 2, "cursor": [10.4, 20.6],
         "box": [0, 0, 50, 30]},
        {"type": "scroll", "target": "", "text": "down", "start_s": 3, "end_s": 4, "cursor": [10, 20], "box": None},
    ]}))  # fmt: skip
    assert [a.point for a in read_log(log)] == [(10, 21), None]
