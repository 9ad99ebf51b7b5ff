"""The `dir` source: finding videos in a folder and setting bad ones aside by name."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from foundation.errors import UserError
from processing.changed_frames import detect_changed_frames
from processing.sources import check_videos, videos_in_dir


@pytest.fixture
def mixed_folder(tmp_path, quiet):
    folder = tmp_path / "videos"
    (folder / "more").mkdir(parents=True)
    shutil.copy(quiet.path, folder / "good.mp4")
    (folder / "broken.mp4").write_bytes(np.random.default_rng(5).bytes(300_000))
    (folder / "empty.mp4").write_bytes(b"")
    (folder / "notes.txt").write_text("not a video")
    (folder / ".hidden.mp4").write_bytes(b"")
    shutil.copy(quiet.path, folder / "more" / "Second.MKV")
    return folder


def test_videos_are_listed_by_extension_and_sorted(mixed_folder):
    names = [p.name for p in videos_in_dir(mixed_folder)]
    assert names == ["broken.mp4", "empty.mp4", "good.mp4"]
    nested = [p.relative_to(mixed_folder).as_posix() for p in videos_in_dir(mixed_folder, recursive=True)]
    assert nested == ["broken.mp4", "empty.mp4", "good.mp4", "more/Second.MKV"]


def test_the_good_video_is_processed_and_the_bad_ones_are_named(mixed_folder, processing_settings, tmp_path):
    good, problems = check_videos(videos_in_dir(mixed_folder))
    assert [info.path.name for info in good] == ["good.mp4"]
    assert len(problems) == 2
    broken, empty = problems
    assert str(mixed_folder / "broken.mp4") in broken and "corrupt" in broken
    assert str(mixed_folder / "empty.mp4") in empty and "empty" in empty
    for info in good:
        keyframes = detect_changed_frames(info.path, processing_settings, tmp_path / info.path.stem)
        assert keyframes and all(k.path.is_file() for k in keyframes)


def test_a_missing_folder_says_so(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        videos_in_dir(tmp_path / "nowhere")
