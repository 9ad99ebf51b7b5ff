"""The held-out tutorial style: its ground truth is what the page did, and the labeler reads it."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from processing.labeling_accuracy import ground_truth_actions, score_actions
from processing.ocr_labeler.labeler import OcrLabeler
from tasks.labeler_recordings.heldout.recorder import FPS, record_all
from tasks.reference.names import names_agree

NAME = "settings-profile"  # two fields typed (I-beam pointer), a save with a spinner and a toast


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
        ("type", "City", "Lisbon"), ("type", "About you", "I bake bread"), ("click", "Save changes", ""),
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


def test_labeler_finds_the_clicks_and_typing_with_their_targets(recording, test_settings) -> None:
    knobs = test_settings.processing.ocr_labeler
    actions = OcrLabeler().label(recording.video, [], knobs)
    truth = ground_truth_actions(recording.actions)
    report = score_actions(actions, truth, knobs.score_tolerance_s)
    assert report.type.f1 >= 0.75, f"kind F1 {report.type.f1:.2f}: {[(a.kind, a.target) for a in actions]}"
    assert report.type_target.f1 >= 0.6, f"kind + target F1 {report.type_target.f1:.2f}"
    save = [a for a in actions if a.kind == "click" and abs(a.start_s - truth[2].start_s) <= 1.0]
    assert save and names_agree(save[0].target, "Save changes"), f"the save click read as {save}"
    typed = [a.text for a in actions if a.kind == "type"]
    assert any("Lisbon" in text for text in typed), f"typed texts read: {typed}"
