"""Every frame of a test recording, for the labeler-recording tests that compare pictures."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


def grey_frames(video: Path | str) -> list[np.ndarray]:
    """Every decoded frame in order, grey, as int16 so differences can go negative."""
    capture = cv2.VideoCapture(str(video))
    frames = []
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        frames.append(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.int16))
    capture.release()
    return frames
