"""The held-out tutorial style: its ground truth is what the page did, and the labeler reads it."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from processing.labeler_heldout.recorder import FPS, record_all

NAME = "tracker-new-task"  # a click opening a form, two fields typed, a save with spinner and toast


@pytest.fixture(scope="module")
def recording(test_settings):
    (recording,) = record_all(test_settings, only=[NAME], report=lambda line: None)
    return recording


def _frame_at(video, time_s: float) -> np.ndarray:
    capture = cv2.VideoCapture(str(video))
    capture.set(cv2.CAP_PROP_POS_FRAMES, int(round(time_s * FPS)))
    ok, frame = capture.read()
    capture.release()
    assert ok, f"no frame at {time_s} s"
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.int16)


def test_ground_truth_logs_every_action_where_the_page_responded(recording) -> None:
    log = json.loads(recording.actions.read_text())
    assert [(a["type"], a["target"], a["text"]) for a in log["actions"]] == [
        ("click", "New task", ""), ("type", "Task title", "Book the venue"), ("type", "Assignee", "Maya"),
        ("click", "Create task", ""),
    ]  # fmt: skip
    for action in log["actions"]:
        before, after = _frame_at(recording.video, action["start_s"] - 0.1), _frame_at(recording.video, action["end_s"])
        x, y, w, h = (int(v) for v in action["box"])
        # The element the log names is where the page changed (a form opened, text appeared, a spinner).
        region = (slice(max(0, y - 150), y + h + 400), slice(0, x + w + 200))
        changed = np.abs(after[region] - before[region]) > 40
        assert changed.sum() > 50, f"{action['type']} {action['target']!r}: nothing changed on screen"
        cx, cy = action["cursor"]
        assert x - 2 <= cx <= x + w + 2 and y - 2 <= cy <= y + h + 2, "the pointer was not on the element"
