"""The OCR labeler (no model) on two short clips recorded from the sandbox, whose actions are known."""

from __future__ import annotations

from dataclasses import replace

import pytest

from foundation.errors import UserError
from processing.labeling_accuracy import ground_truth_actions, score_actions
from processing.ocr_labeler.labeler import OcrLabeler
from processing.plugins import create_labeler
from tasks.reference.names import names_agree
from tests.processing.ocr_clips import CLIPS, record_clip


@pytest.fixture(scope="module")
def clips(sandbox, chromium, tmp_path_factory):
    """name -> (labeled actions, ground-truth actions) for each clip of tests.processing.ocr_clips."""
    folder = tmp_path_factory.mktemp("ocr-clips")
    knobs = sandbox.settings.processing.ocr_labeler
    found = {}
    for name in CLIPS:
        files = record_clip(sandbox.settings, chromium, folder, name)
        found[name] = (OcrLabeler().label(files.video, [], knobs), ground_truth_actions(files.actions))
    return found


def _pair_up(labeled, truth, tolerance_s):
    """(truth action, labeled action or None) for each ground-truth action, matched by time and kind."""
    report = score_actions(labeled, truth, tolerance_s)
    by_truth = {j: labeled[i] for i, j in report.pairs}
    return [(action, by_truth.get(j)) for j, action in enumerate(truth)]


def test_every_known_action_is_found_with_its_kind(clips, sandbox):
    tolerance = sandbox.settings.processing.ocr_labeler.score_tolerance_s
    for name, (labeled, truth) in clips.items():
        missed = [t.describe() for t, found in _pair_up(labeled, truth, tolerance) if found is None]
        assert not missed, f"{name}: not found {missed}; labeled {[a.describe() for a in labeled]}"


def test_the_labeler_invents_at_most_one_extra_action_per_clip(clips, sandbox):
    tolerance = sandbox.settings.processing.ocr_labeler.score_tolerance_s
    for name, (labeled, truth) in clips.items():
        report = score_actions(labeled, truth, tolerance)
        assert report.type.predicted - report.type.matched <= 1, [a.describe() for a in labeled]


def test_targets_typed_text_and_addresses_are_read_from_the_screen(clips, sandbox):
    tolerance = sandbox.settings.processing.ocr_labeler.score_tolerance_s
    labeled, truth = clips["ocr_shop_clip"]
    pairs = {t.kind: found for t, found in _pair_up(labeled, truth, tolerance)}
    assert names_agree(pairs["click"].target, "Electronics"), pairs["click"]
    assert pairs["type"].text.lower().startswith("headphones"), pairs["type"]
    assert pairs["select"].text == "Price" or "price" in pairs["select"].text.lower(), pairs["select"]

    labeled, truth = clips["ocr_forum_clip"]
    pairs = {t.kind: found for t, found in _pair_up(labeled, truth, tolerance)}
    assert names_agree(pairs["click"].target, "Forums"), pairs["click"]
    assert pairs["type"].text.lower() == "bread", pairs["type"]
    assert pairs["press"].text.lower() == "enter", pairs["press"]
    assert pairs["goto"].text.rstrip("/").endswith("/forums"), pairs["goto"]


def test_scrolling_down_is_told_apart_from_clicks(clips, sandbox):
    tolerance = sandbox.settings.processing.ocr_labeler.score_tolerance_s
    labeled, truth = clips["ocr_shop_clip"]
    scroll = dict((t.kind, found) for t, found in _pair_up(labeled, truth, tolerance))["scroll"]
    assert "down" in (scroll.text + scroll.target).lower(), scroll


def test_actions_come_in_time_order_and_carry_the_ocr_label(clips):
    for labeled, _ in clips.values():
        starts = [action.start_s for action in labeled]
        assert starts == sorted(starts)
        assert {action.labeler for action in labeled} == {"ocr"}
        assert all(action.end_s >= action.start_s for action in labeled)


def test_the_labeler_is_offered_to_process_videos_as_ocr(test_settings):
    settings = replace(test_settings, processing=replace(test_settings.processing, labeler="ocr"))
    labeler = create_labeler(settings)
    assert labeler.name == "ocr"
    assert labeler.roles == ()  # needs no model endpoint
    assert labeler.estimate_calls(500) == 0


def test_a_bad_setting_is_refused_with_its_name(test_settings, tmp_path):
    knobs = replace(test_settings.processing.ocr_labeler, click_evidence="telepathy")
    with pytest.raises(UserError, match="click_evidence"):
        OcrLabeler().label(tmp_path / "none.mp4", [], knobs)


def test_a_click_keeps_the_spot_the_pointer_clicked(clips, sandbox):
    import math

    tolerance = sandbox.settings.processing.ocr_labeler.score_tolerance_s
    for name, (labeled, truth) in clips.items():
        for real, found in _pair_up(labeled, truth, tolerance):
            if real.kind == "click" and found is not None:
                assert found.point is not None and real.point is not None, (name, found)
                assert math.dist(found.point, real.point) <= 15, (name, found.point, real.point)
        assert all(a.point is None for a in labeled if a.kind in ("scroll", "press")), name
