"""Labels spoiled on purpose (`processing.spoil_share`), to measure whether verification catches wrong labels.

A seeded share of a video's merged actions gets, half the time, the target of another
of its actions (a different name) and otherwise another kind (a click becomes a
typing, anything else a click). Off by default; never for an index an agent uses.
"""

from __future__ import annotations

import random
from dataclasses import replace

from foundation.records.trajectory import LabeledAction

OTHER_KIND = {"click": "type", "type": "click", "select": "click", "press": "click", "goto": "click"}


def spoil_actions(
    actions: list[LabeledAction], share: float, seed: int, video_id: str
) -> tuple[list[LabeledAction], list[int]]:
    """The actions with a `share` of them spoiled, and the positions spoiled."""
    if share <= 0 or not actions:
        return actions, []
    draw = random.Random(f"{seed}:{video_id}")
    spoiled = list(actions)
    changed: list[int] = []
    for n, action in enumerate(actions):
        if draw.random() >= share:
            continue
        others = sorted({a.target for a in actions if a.target and a.target != action.target})
        if others and draw.random() < 0.5:
            spoiled[n] = replace(action, target=draw.choice(others))
        else:
            spoiled[n] = replace(action, kind=OTHER_KIND.get(action.kind, "click"))
        changed.append(n)
    return spoiled, changed
