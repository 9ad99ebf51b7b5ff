"""The untouched tutorial style: its video is what the issue describes and its ground truth is what the page did.

The labeler is deliberately not run here: this style is kept apart from tuning, and is
scored only by `benchmarks/labeler_accuracy.py --style untouched` and the demo.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from foundation.video_io import probe
from tasks import recording_store
from tasks.labeler_recordings.untouched.recorder import CAPTURE_FPS, FPS, REPEAT, record_all
from tests.tasks.video_frames import grey_frames

NAME = "inbox-search"  # a field clicked and typed into, Enter, a revealed button, a menu chosen by keys


@pytest.fixture(scope="module")
def recording(test_settings):
    (recording,) = record_all(test_settings, only=[NAME], report=lambda line: None)
    return recording


def test_the_video_repeats_each_captured_picture_at_30_fps(recording) -> None:
    info = probe(recording.video)
    assert (info.width, info.height) == (1280, 720) and round(info.fps) == FPS == CAPTURE_FPS * REPEAT
    frames = grey_frames(recording.video)
    changes = [float(np.abs(a - b).mean()) for a, b in zip(frames, frames[1:])]
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
    frames = grey_frames(recording.video)
    for action in log["actions"]:
        if action["type"] in ("press", "type"):
            continue
        before = frames[int((action["start_s"] - 0.1) * FPS)]
        after = frames[min(len(frames) - 1, int((action["end_s"] + 0.6) * FPS))]
        assert (np.abs(after - before) > 40).sum() > 50, f"{action['type']} {action['target']!r}: nothing changed"
        x, y, w, h = action["box"]
        cx, cy = action["cursor"]
        assert x <= cx <= x + w and y <= cy <= y + h, f"{action['target']!r}: the pointer was not on it"


def test_recording_is_the_same_under_any_load(recording, test_settings, monkeypatch) -> None:
    """Frames are made by virtual time, so a second recording gives the same log and the same pictures."""
    monkeypatch.setenv(recording_store.ENV_VAR, "off")  # recorded again, not copied from the store
    first_log = json.loads(recording.actions.read_text())["actions"]
    first = grey_frames(recording.video)
    recording.actions.with_suffix("").with_suffix(".fingerprint").unlink()
    (again,) = record_all(test_settings, only=[NAME], report=lambda line: None)
    assert json.loads(again.actions.read_text())["actions"] == first_log  # the server's port may differ
    second = grey_frames(again.video)
    assert len(second) == len(first)
    assert max(float(np.abs(a - b).mean()) for a, b in zip(first, second)) < 0.5
