"""The untouched tutorial style: its video is what the issue describes and its ground truth is what the page did.

The labeler is deliberately not run here: this style is kept apart from tuning, and is
scored only by `benchmarks/labeler_accuracy.py --style untouched` and the demo.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from foundation.video_io import probe
from tasks import recording_store
from tasks.labeler_recordings.untouched.recorder import CAPTURE_FPS, FPS, REPEAT, record_all
from tests.tasks.video_frames import compare_videos, frame_count, grey_frames_at, successive_changes

NAME = "inbox-search"  # a field clicked and typed into, Enter, a revealed button, a menu chosen by keys


@pytest.fixture(scope="module")
def recording(test_settings):
    (recording,) = record_all(test_settings, only=[NAME], report=lambda line: None)
    return recording


def test_the_video_repeats_each_captured_picture_at_30_fps(recording) -> None:
    info = probe(recording.video)
    assert (info.width, info.height) == (1280, 720) and round(info.fps) == FPS == CAPTURE_FPS * REPEAT
    changes = successive_changes(recording.video)
    # Within a picture's three frames only compression noise differs; the pointer moves between pictures.
    within = [c for i, c in enumerate(changes) if (i + 1) % REPEAT]
    between = [c for i, c in enumerate(changes) if (i + 1) % REPEAT == 0]
    assert max(within) < 0.5 < max(between), (max(within), max(between))


def test_ground_truth_lists_click_key_and_menu_actions_of_their_own(recording) -> None:
    log = json.loads(recording.actions.read_text())
    assert [(a["type"], a["target"], a["text"]) for a in log["actions"]] == [
        ("click", "Search mail", ""), ("type", "Search mail", "invoice"), ("press", "", "Enter"),
        ("click", "Archive", ""), ("select", "Move selected to", "Receipts"), ("click", "Move", ""),
    ]  # fmt: skip
    count = frame_count(recording.video)  # the frames a viewer sees just before and after each action
    spots = [(int((a["start_s"] - 0.1) * FPS) % count, min(count - 1, int((a["end_s"] + 0.6) * FPS)))
             for a in log["actions"]]  # fmt: skip
    frames = grey_frames_at(recording.video, {index for spot in spots for index in spot})
    for action, (before_at, after_at) in zip(log["actions"], spots):
        if action["type"] in ("press", "type"):
            continue
        before, after = frames[before_at], frames[after_at]
        assert (np.abs(after - before) > 40).sum() > 50, f"{action['type']} {action['target']!r}: nothing changed"
        x, y, w, h = action["box"]
        cx, cy = action["cursor"]
        assert x <= cx <= x + w and y <= cy <= y + h, f"{action['target']!r}: the pointer was not on it"


def test_recording_is_the_same_under_any_load(recording, test_settings, monkeypatch, tmp_path) -> None:
    """Frames are made by virtual time, so a second recording gives the same log and the same pictures."""
    monkeypatch.setenv(recording_store.ENV_VAR, "off")  # recorded again, not copied from the store
    first_log = json.loads(recording.actions.read_text())["actions"]
    first_video = shutil.copyfile(recording.video, tmp_path / recording.video.name)  # the second overwrites it
    recording.actions.with_suffix("").with_suffix(".fingerprint").unlink()
    (again,) = record_all(test_settings, only=[NAME], report=lambda line: None)
    assert json.loads(again.actions.read_text())["actions"] == first_log  # the server's port may differ
    first_count, second_count, largest = compare_videos(first_video, again.video)
    assert second_count == first_count
    assert largest < 0.5
