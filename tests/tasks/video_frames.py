"""Frames of a test recording, grey, for the recording tests that compare pictures. Streamed: a 4-minute tutorial
is 3,800 frames of 2 MB each, so a test that held two of them whole reached 16 GB (issue 65)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import zip_longest
from pathlib import Path

import cv2
import numpy as np


def iter_grey_frames(video: Path | str) -> Iterator[np.ndarray]:
    """Every decoded frame in order, grey, as int16 so differences can go negative; one at a time."""
    capture = cv2.VideoCapture(str(video))
    try:
        while True:
            ok, frame = capture.read()
            if not ok:
                return
            yield cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.int16)
    finally:
        capture.release()


def frame_count(video: Path | str) -> int:
    """How many frames `iter_grey_frames` yields (decoded, not read from the header)."""
    capture = cv2.VideoCapture(str(video))
    try:
        count = 0
        while capture.grab():
            count += 1
        return count
    finally:
        capture.release()


def grey_frames_at(video: Path | str, indices: Iterable[int]) -> dict[int, np.ndarray]:
    """The frames at these (non-negative) indices, keeping only those."""
    wanted = set(indices)
    frames = {}
    for index, frame in enumerate(iter_grey_frames(video)):
        if index in wanted:
            frames[index] = frame
            if len(frames) == len(wanted):
                break
    return frames


def successive_changes(video: Path | str) -> list[float]:
    """The mean absolute grey difference between each frame and the next."""
    changes, previous = [], None
    for frame in iter_grey_frames(video):
        if previous is not None:
            changes.append(float(np.abs(previous - frame).mean()))
        previous = frame
    return changes


def compare_videos(first: Path | str, second: Path | str) -> tuple[int, int, float]:
    """Both videos' frame counts and the largest mean absolute grey difference between same-numbered frames,
    decoded side by side."""
    counts, largest = [0, 0], 0.0
    for a, b in zip_longest(iter_grey_frames(first), iter_grey_frames(second)):
        counts[0] += a is not None
        counts[1] += b is not None
        if a is not None and b is not None:
            largest = max(largest, float(np.abs(a - b).mean()))
    return counts[0], counts[1], largest
