"""The content check's inputs (frames, transcript) and how its replies are read."""

from __future__ import annotations

import cv2
import numpy as np
from tests.retrieval.helpers import SUBTITLES

from retrieval.verification import read_transcript, read_verdict, sample_frames


def test_ten_frames_spread_over_the_video_shrunk_and_reused(tmp_path, tutorial_video):
    folder = tmp_path / "frames"
    frames = sample_frames(tutorial_video, 10, 768, folder)

    assert [path.name for path in frames] == [f"frame_{n:02d}.jpg" for n in range(10)]
    images = [cv2.imread(str(path)) for path in frames]
    assert all(image.shape == (432, 768, 3) for image in images)
    # The recording types, changes page and scrolls: the samples cover all of it, not one moment.
    differences = [float(np.abs(a.astype(int) - b.astype(int)).mean()) for a, b in zip(images, images[1:])]
    assert sum(difference > 1.0 for difference in differences) >= 2

    stamps = [path.stat().st_mtime_ns for path in frames]
    again = sample_frames(tutorial_video, 10, 768, folder)
    assert again == frames and [path.stat().st_mtime_ns for path in again] == stamps

    fewer = sample_frames(tutorial_video, 4, 768, folder)  # another setting: sampled again
    assert len(fewer) == 4 and sorted(folder.glob("frame_*.jpg")) == fewer


def test_transcript_is_cut_to_its_budget(tmp_path):
    subtitles = tmp_path / "v.en.vtt"
    subtitles.write_text(SUBTITLES)
    full = read_transcript(subtitles, 10_000)
    assert full.startswith("In this tutorial we search the store") and "add it to the cart" in full
    cut = read_transcript(subtitles, 40)
    assert cut.endswith(" [...]") and len(cut) <= 40 + len(" [...]")
    assert "no transcript" in read_transcript(None, 100)


def test_verdicts():
    assert read_verdict('{"answer": "yes", "reason": "shows checkout"}').verified
    assert read_verdict('```json\n{"answer": "No", "reason": "slides"}\n```').reason == "slides"
    assert not read_verdict('{"answer": "no", "reason": "slides"}').verified
    assert read_verdict("Yes, the cart page is used throughout.").verified
    unreadable = read_verdict("The video is about shopping.")
    assert not unreadable.verified and "unreadable" in unreadable.reason
