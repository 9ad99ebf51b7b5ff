"""VideoGUI's action measures (processing/action_measures.py) on hand-made cases."""

from __future__ import annotations

import json
import math

import pytest

from foundation.records.trajectory import LabeledAction
from processing.action_measures import (
    ActionMeasures,
    Geometry,
    farthest_corner,
    inside,
    measure_actions,
    normalise_text,
    normalised_distance,
)
from processing.labeling_accuracy import score_against_log

W, H = 1280, 720
TRUTH = (300, 200)  # the true click point
BOX = (250, 180, 100, 40)  # the clicked element: x 250-350, y 180-220


def test_the_farthest_corner_normalises_the_miss():
    # Worked by hand: from (300, 200) on a 1280 x 720 frame the farthest corner is (1280, 720), 980 across and
    # 520 down: sqrt(980^2 + 520^2) = sqrt(960400 + 270400) = sqrt(1230800) = 1109.414 px (the frame's
    # diagonal, 1468.6 px, would be the wrong normaliser). A miss of (30, 40) is 50 px: 50 / 1109.414 = 0.04507.
    assert farthest_corner(TRUTH, W, H) == pytest.approx(1109.414, abs=1e-3)
    assert normalised_distance((330, 240), TRUTH, W, H) == pytest.approx(0.04507, abs=1e-5)
    assert normalised_distance((330, 240), TRUTH, W, H) != pytest.approx(50 / math.hypot(W, H), abs=1e-3)


@pytest.mark.parametrize(
    ("point", "distance", "in_box"),
    [
        ((300, 200), 0.0, True),  # on the target
        ((340, 215), math.hypot(40, 15) / 1109.414, True),  # elsewhere on it
        ((330, 240), 0.04507, False),  # beside it
        ((1280, 720), 1.0, False),  # across the screen: the farthest corner itself
    ],
)
def test_click_distance_and_recall(point, distance, in_box):
    assert normalised_distance(point, TRUTH, W, H) == pytest.approx(distance, abs=1e-5)
    assert inside(point, BOX) is in_box


def _measured(predicted: list[LabeledAction], truth: list[LabeledAction], boxes) -> ActionMeasures:
    return measure_actions(predicted, truth, [(i, i) for i in range(len(truth))], Geometry(W, H, boxes))


def test_the_means_are_over_the_matched_clicks_with_a_point():
    truth = [LabeledAction("click", "Go", point=TRUTH)] * 3
    predicted = [LabeledAction("click", "Go", point=(300, 200)), LabeledAction("click", "Go", point=(330, 240)),
                 LabeledAction("click", "Go")]  # fmt: skip
    found = _measured(predicted, truth, [BOX] * 3)
    assert (found.clicks, found.pointed, found.boxed, found.hits) == (3, 2, 2, 1)
    assert found.click_distance == pytest.approx(0.04507 / 2, abs=1e-5)
    assert found.click_recall == 0.5
    assert "2 of 3 matched clicks with a point; mean miss 25.0 px" in found.lines()[0]


def test_a_labeler_that_gives_no_point_shows_n_a_not_zero():
    found = _measured([LabeledAction("click", "Go")], [LabeledAction("click", "Go", point=TRUTH)], [BOX])
    assert found.click_distance is None and found.click_recall is None
    lines = "\n".join(found.lines())
    assert "click distance" in lines and "n/a" in lines and "0.000" not in lines
    assert "0 of 1 matched clicks with a point" in lines


def test_typed_text_matches_after_normalisation():
    assert normalise_text("type", "  Headphones  Pro ") == normalise_text("type", "headphones pro")
    assert normalise_text("press", "Ctrl + A") == normalise_text("press", "Control+A") == "control+a"
    assert normalise_text("press", "Return") == "enter"
    assert normalise_text("goto", "https://www.shop.test/forums/") == normalise_text("goto", "shop.test/forums")
    truth = [LabeledAction("type", "Search", "headphones"), LabeledAction("select", "Sort", "Price"),
             LabeledAction("press", "", "Enter"), LabeledAction("goto", "", "http://x.test/a")]  # fmt: skip
    predicted = [LabeledAction("type", "Search", "Headphones"), LabeledAction("select", "Sort", "Name"),
                 LabeledAction("press", "", "return"), LabeledAction("goto", "address bar", "x.test/a/")]  # fmt: skip
    found = _measured(predicted, truth, [None] * 4)
    assert found.text_match == 0.75
    assert found.texts_equal["select"] == 0 and found.texts["select"] == 1
    assert found.clicks == 0 and found.click_distance is None


def test_scroll_direction_accuracy():
    truth = [LabeledAction("scroll", "", "down"), LabeledAction("scroll", "", "up")]
    predicted = [LabeledAction("scroll", "page down", ""), LabeledAction("scroll", "", "down")]
    assert _measured(predicted, truth, [None, None]).scroll_accuracy == 0.5


def test_measures_add_up_and_come_from_the_log(tmp_path):
    log = tmp_path / "t.actions.json"
    log.write_text(json.dumps({"width": W, "height": H, "actions": [
        {"type": "click", "target": "Go", "text": "", "start_s": 1.0, "end_s": 1.5, "cursor": list(TRUTH),
         "box": list(BOX)},
        {"type": "type", "target": "Search", "text": "bread", "start_s": 3.0, "end_s": 4.0, "cursor": [0, 0],
         "box": None},
    ]}))  # fmt: skip
    predicted = [LabeledAction("click", "Go", start_s=1.1, end_s=1.2, point=(330, 240)),
                 LabeledAction("type", "Search", "bread", start_s=3.1, end_s=3.9)]  # fmt: skip
    report = score_against_log(predicted, log, 1.0)
    assert report.type.f1 == 1.0
    assert report.measures.click_distance == pytest.approx(0.04507, abs=1e-5)
    assert report.measures.click_recall == 0.0 and report.measures.text_match == 1.0
    both = report.add(report)
    assert both.measures.pointed == 2 and both.measures.click_distance == pytest.approx(0.04507, abs=1e-5)
