"""What the narration says over each trajectory: the transcript's cues from the end of the action before the span to
the end of its last action.

A tutorial's narrator says what they are about to do and why ("Now the other direction: the bedding and bath products
from the most expensive down"), so the words spoken over a span tell what it achieves in a person's terms, beside
the actions' own names. The index keeps them with each trajectory (`Trajectory.narration`); the model-free
selection can match tasks against them (`replay.narration_weight`, agent/replay/embedding_selection.py). A video
without a transcript gets none, and nothing else changes.
"""

from __future__ import annotations

from pathlib import Path

from foundation.records.trajectory import LabeledAction, Trajectory
from foundation.subtitles import Cue, parse_subtitles

NARRATION_VERSION = 1  # part of the index's source key: bump when the window below changes
LEAD_S = 0.5  # a cue starting this little before the window still belongs to it (spoken as the previous step ended)


def read_cues(vtt: Path) -> list[Cue]:
    """The cues of a video's stored transcript (processing/transcripts.py); none when it has no transcript."""
    if not vtt.is_file():
        return []
    return parse_subtitles(vtt.read_text(encoding="utf-8"))


def span_narration(actions: list[LabeledAction], span: tuple[int, int], cues: list[Cue]) -> str:
    """The words spoken from the end of the action before a[i] (the video's start for the first) to the end of a[j]."""
    i, j = span
    start = actions[i - 1].end_s - LEAD_S if i > 0 else float("-inf")
    end = actions[j].end_s
    return " ".join(cue.text for cue in cues if start <= cue.start_s < end)


def narrate(trajectories: list[Trajectory], actions: list[LabeledAction], cues: list[Cue]) -> list[Trajectory]:
    """Each trajectory with the narration over its span (the same objects, changed in place)."""
    for trajectory in trajectories:
        i, j = trajectory.span
        if cues and 0 <= i <= j < len(actions):
            trajectory.narration = span_narration(actions, (i, j), cues)
    return trajectories
