"""The sealed tutorial style: its video is what the issue describes and its ground truth is what the page did.

The labeler is deliberately not run here: this style is kept apart from tuning, and is
scored only by `benchmarks/labeler_accuracy.py --style sealed` and the demo.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from foundation.video_io import probe
from tasks import recording_store
from tasks.labeler_recordings.sealed.recorder import CAPTURE_FPS, FPS, GOP, REPEAT, record_all
from tests.tasks.video_frames import compare_videos, frame_count, grey_frames_at, successive_changes

NAME = "clinic-details"  # a tab clicked, a pre-filled field retyped after Control+A, Tab, a menu stepped by keys


@pytest.fixture(scope="module")
def recording(test_settings):
    (recording,) = record_all(test_settings, only=[NAME], report=lambda line: None)
    return recording


def test_the_video_shows_each_picture_twice_at_30_fps_with_keyframes_every_60(recording) -> None:
    info = probe(recording.video)
    assert (info.width, info.height) == (1280, 720) and round(info.fps) == FPS == CAPTURE_FPS * REPEAT == 30
    changes = successive_changes(recording.video)
    # Within a picture's two frames only compression noise differs; the pointer moves between pictures.
    within = [c for i, c in enumerate(changes) if (i + 1) % REPEAT]
    between = [c for i, c in enumerate(changes) if (i + 1) % REPEAT == 0]
    assert max(within) < 0.5 < max(between), (max(within), max(between))
    keyframes = _keyframe_numbers(recording.video)
    assert keyframes[:3] == [0, GOP, 2 * GOP], keyframes[:3]


def _keyframe_numbers(video) -> list[int]:
    import subprocess

    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pict_type",
                          "-of", "csv=p=0", str(video)], capture_output=True, text=True, check=True).stdout  # fmt: skip
    return [number for number, kind in enumerate(out.split()) if kind.strip(",") == "I"]


def test_ground_truth_lists_clicks_keys_typing_and_the_menu_as_actions_of_their_own(recording) -> None:
    log = json.loads(recording.actions.read_text())
    assert [(a["type"], a["target"], a["text"]) for a in log["actions"]] == [
        ("click", "My details", ""), ("click", "Phone number", ""), ("press", "", "Control+A"),
        ("type", "Phone number", "0161 555 0199"), ("press", "", "Tab"), ("type", "Email", "sam.whitfield@example.net"),
        ("select", "Reminders by", "Email"), ("click", "Save details", ""),
    ]  # fmt: skip
    count = frame_count(recording.video)  # the frames a viewer sees just before and after each action
    spots = [(int((a["start_s"] - 0.1) * FPS) % count, min(count - 1, int((a["end_s"] + 0.6) * FPS)))
             for a in log["actions"]]  # fmt: skip
    frames = grey_frames_at(recording.video, {index for spot in spots for index in spot})
    for action, (before_at, after_at) in zip(log["actions"], spots):
        before, after = frames[before_at], frames[after_at]
        assert (np.abs(after - before) > 40).sum() > 50, f"{action['type']} {action['target']!r}: nothing changed"
        if action["type"] in ("click", "select"):
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
