"""`videodemo demo --labelers`: the labeler's accuracy on the other apps' recordings, one figure per group.

The default demo no longer records these styles (28 real-time videos); this checks the path `--labelers` takes on
the one recording per style that the style tests make (copied from the recordings store when one was kept).
"""

from __future__ import annotations

import re

from cli import demo_scores
from cli.demo_scores import GROUPS, TITLES, accuracy_lines, recordings_accuracy

ONE_PER_STYLE = {"heldout": ("settings-profile",), "untouched": ("inbox-search",), "sealed": ("clinic-details",)}


def test_each_group_is_scored_on_its_own_recordings_and_named_for_them(test_settings, monkeypatch) -> None:
    monkeypatch.setattr(demo_scores, "QUICK", ONE_PER_STYLE)
    for group, styles in GROUPS.items():
        accuracy = recordings_accuracy(test_settings, group, quick=True)
        assert accuracy.videos == len(styles) and accuracy.measured_on == TITLES[group]
        text = "\n".join(accuracy_lines(accuracy))
        assert f"({len(styles)} videos," in text and TITLES[group] in text
        # Only the figures' form is checked: the sealed style is never tuned on, so no test reads its score.
        assert re.search(r"action kind\s+F1 \d\.\d\d", text) and re.search(r"kind \+ target name\s+F1 \d\.\d\d", text)
