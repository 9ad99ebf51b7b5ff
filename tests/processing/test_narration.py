"""Each trajectory keeps what the narrator says over its span (processing/narration.py), so selection can match a
task against a person's words for what the steps achieve."""

from __future__ import annotations

from foundation.records.trajectory import LabeledAction, Trajectory
from foundation.subtitles import Cue
from processing.narration import narrate, span_narration

ACTIONS = [
    LabeledAction("click", "Electronics", start_s=2.0, end_s=3.0),
    LabeledAction("click", "Headphones", start_s=6.0, end_s=7.0),
    LabeledAction("select", "Sort By", "Price", start_s=11.0, end_s=12.0),
]
CUES = [
    Cue(0.5, 2.0, "First the electronics department."),
    Cue(3.2, 5.5, "Then the headphones inside it."),
    Cue(8.0, 10.5, "Cheapest first, so sort by price."),
    Cue(12.5, 14.0, "That is all for today."),
]


def test_a_span_hears_from_the_end_of_the_step_before_it_to_the_end_of_its_last_step() -> None:
    assert span_narration(ACTIONS, (0, 0), CUES) == "First the electronics department."
    assert span_narration(ACTIONS, (1, 2), CUES) == "Then the headphones inside it. Cheapest first, so sort by price."
    assert "That is all" not in span_narration(ACTIONS, (0, 2), CUES)


def test_narration_round_trips_in_the_record_and_is_left_out_without_a_transcript() -> None:
    spans = [Trajectory.from_dict(_record((1, 2))), Trajectory.from_dict(_record((0, 0)))]
    narrate(spans, ACTIONS, CUES)
    assert Trajectory.from_dict(spans[0].to_dict()).narration.startswith("Then the headphones")
    silent = Trajectory.from_dict(_record((0, 0)))
    narrate([silent], ACTIONS, [])
    assert "narration" not in silent.to_dict()


def _record(span: tuple[int, int]) -> dict:
    i, j = span
    return {
        "trajectory_id": f"v:{i}-{j}", "video_id": "v", "objective": "sort headphones by price",
        "actions": [a.to_dict() for a in ACTIONS[i : j + 1]], "step_keyframes": [""] * (j - i + 1),
        "first_frame": "", "last_frame": "", "start_s": ACTIONS[i].start_s, "end_s": ACTIONS[j].end_s, "span": [i, j],
    }  # fmt: skip
