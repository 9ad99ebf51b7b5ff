"""VideoWA's frame sampling quirk (`video_context.reference_quirks: [fps_frame_step]`, video_processor.py:24-34):
a video of at most max_frames seconds steps by its frame rate, so a non-integer rate keeps frame 0 alone."""

from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from agent.videos.context import FPS_FRAME_STEP, TaskVideo, VideoFrames, videowa_frame_step, videowa_keeps
from foundation.errors import UserError
from settings.schema import VideoContextSettings

N = 5  # frames asked: run.py's --max_frame_num default (run_videowa.sh asks 60)
NTSC = "30000/1001"  # 29.97 fps


@pytest.fixture(scope="module")
def make_video(tmp_path_factory):
    folder = tmp_path_factory.mktemp("frame-sampling")

    def make(rate: str, seconds: float) -> TaskVideo:
        path = folder / f"{rate.replace('/', '_')}-{seconds}.mp4"
        if not path.exists():  # tiny and fast: these tests count frames, not pixels
            subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                            f"testsrc=size=64x48:rate={rate}:duration={seconds}", "-c:v", "libx264", "-preset",
                            "ultrafast", str(path)], check=True)  # fmt: skip
        return TaskVideo(path.stem, path, path.stem, "")

    return make


def _frames(quirks: list[str]) -> VideoFrames:
    return VideoFrames(replace(VideoContextSettings(), max_frames=N, image_max_side=64, reference_quirks=quirks))


def _times(frames: VideoFrames, video: TaskVideo) -> list[float]:
    return [time_s for time_s, _ in frames.sample(video)]


def test_the_step_is_the_rate_for_a_video_of_at_most_max_frames_seconds() -> None:
    ntsc = 30000 / 1001
    assert videowa_frame_step(150, ntsc, N) == ntsc  # 5.005 s: 150 // 29.97 is 5.0, not above 5
    assert [i for i in range(1001 * 30) if videowa_keeps(i, ntsc)] == [0]  # none again within 1001 s
    assert [i for i in range(150) if videowa_keeps(i, 30.0)] == [0, 30, 60, 90, 120]
    assert [i for i in range(150) if videowa_keeps(i, 12.5)] == [0, 25, 50, 75, 100, 125]  # 12.5 fps: every 2 s
    assert videowa_frame_step(240, 30.0, N) == 48  # 8 s: ceil(240 / 5), an integer step, N frames


def test_a_29_97_fps_video_of_n_seconds_gives_one_frame_under_the_quirk_and_n_without(make_video) -> None:
    video = make_video(NTSC, N)
    quirked = _frames([FPS_FRAME_STEP])
    assert _times(quirked, video) == [0.0]
    record = quirked.quirk_record([video])
    assert record["quirks"] == [FPS_FRAME_STEP]
    note = record["frame_sampling"][video.video_id]
    assert note["frames"] == 1 and note["step"] == pytest.approx(29.97, abs=0.001) and note["frame_count"] >= 149
    ours = _frames([])
    assert len(_times(ours, video)) == N and ours.quirk_record([video]) == {}
    shorter = make_video(NTSC, 2.5)
    assert _times(quirked, shorter) == [0.0] and _times(ours, shorter) == [0.0, 1.0, 2.0]  # ours: one a second


def test_an_integer_rate_gives_one_frame_a_second_under_the_quirk(make_video) -> None:
    quirked = _frames([FPS_FRAME_STEP])
    assert _times(quirked, make_video("30", N)) == [0.0, 1.0, 2.0, 3.0, 4.0]
    # Up to N + 1 frames: 5.9 s is 5 whole seconds, and the reference keeps every frame it steps on.
    assert _times(quirked, make_video("30", 5.9)) == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    longer = _times(quirked, make_video("30", 8))  # 8 s > N: every 48th frame, N of them
    assert longer == [0.0, 1.6, 3.2, 4.8, 6.4]


def test_an_unknown_quirk_is_refused() -> None:
    with pytest.raises(UserError, match="fps_frame_step"):
        _frames(["fps_step"])


def test_the_videowa_preset_turns_the_quirk_on_with_sixty_frames() -> None:
    text = (Path(__file__).parents[2] / "settings" / "presets" / "videowa.yaml").read_text()
    assert "- fps_frame_step" in text and "max_frames: 60" in text
