"""Probing videos and streaming their frames through ffmpeg."""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from foundation.errors import UserError
from foundation.video_io import VideoError, iter_frames, probe


def ffmpeg_children() -> list[int]:
    """Ids of ffmpeg processes whose parent is this test process."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        parent = int(stat[stat.rindex(")") + 2 :].split()[1])
        if parent == os.getpid() and name == "ffmpeg":
            found.append(int(entry.name))
    return found


def test_probe_describes_a_screen_recording(tutorial):
    info = probe(tutorial.path)
    assert (info.width, info.height, info.codec) == (1280, 720, "h264")
    assert info.fps == pytest.approx(30.0)
    assert info.duration_s == pytest.approx(tutorial.duration_s, abs=0.05)
    assert abs(info.frame_count - len(tutorial.frames)) <= 1


def leave_missing(path: Path) -> None:
    pass


def write_empty(path: Path) -> None:
    path.write_bytes(b"")


def write_noise(path: Path) -> None:
    path.write_bytes(np.random.default_rng(3).bytes(200_000))


def write_text(path: Path) -> None:
    path.write_text("these are my notes, not a video\n")


def write_audio_only(path: Path) -> None:
    command = ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac", str(path)]
    subprocess.run(command, check=True)


@pytest.mark.parametrize(
    "name, make, reason",
    [
        ("missing.mp4", leave_missing, "does not exist"),
        ("empty.mp4", write_empty, "is empty"),
        ("noise.mp4", write_noise, "corrupt or not a video"),
        ("notes.mp4", write_text, "corrupt or not a video"),
        ("voice.mp4", write_audio_only, "no video stream"),
    ],
)
def test_probe_names_the_file_and_the_fault(tmp_path, name, make, reason):
    path = tmp_path / name
    make(path)
    with pytest.raises(VideoError, match=reason) as caught:
        probe(path)
    message = str(caught.value)
    assert str(path) in message and "\n" not in message


def test_a_folder_is_not_a_video(tmp_path):
    with pytest.raises(VideoError, match="is not a file"):
        probe(tmp_path)


def test_frames_stream_at_the_sampling_rate(tutorial):
    frames = iter_frames(tutorial.path, 2.0)
    assert inspect.isgenerator(frames)
    count = 0
    for frame in frames:
        assert frame.index == count and frame.time_s == count / 2
        assert frame.luma.shape == (720, 1280)
        count += 1
    # One frame per half second of video, the first at 0 s.
    assert count == int(tutorial.duration_s * 2)


def counter_video(path: Path, frames: int, fps: int = 30) -> Path:
    """A lossless clip whose frame n is flat grey with luma 16 + n, so each frame says its number."""
    width, height = 64, 48
    encoder = subprocess.Popen(
        ["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", f"{width}x{height}",
         "-r", str(fps), "-i", "-", "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p", str(path)],
        stdin=subprocess.PIPE,
    )  # fmt: skip
    chroma = bytes([128]) * (width * height // 2)
    for n in range(frames):
        encoder.stdin.write(bytes([16 + n]) * (width * height) + chroma)
    encoder.stdin.close()
    assert encoder.wait() == 0
    return path


def test_frame_i_shows_the_video_at_i_over_fps(tmp_path):
    video = counter_video(tmp_path / "counter.mp4", frames=120)
    shown = [int(frame.luma[24, 32]) - 16 for frame in iter_frames(video, 2.0)]
    # At 2 fps from 30 fps: source frames 0, 15, 30, ... (the one on screen at 0 s, 0.5 s, 1 s ...).
    assert shown == list(range(0, 120, 15))


def test_stopping_early_ends_ffmpeg(tutorial):
    frames = iter_frames(tutorial.path, 2.0)
    next(frames)
    assert ffmpeg_children(), "ffmpeg should be decoding ahead"
    frames.close()
    assert ffmpeg_children() == []


def test_memory_stays_at_a_few_frames(tutorial):
    """Holding the sampled video would take 45 frames x 1.4 MB; streaming needs about one."""
    tracemalloc.start()
    try:
        count = sum(1 for _ in iter_frames(tutorial.path, 2.0))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count >= 40
    assert peak < 5 * 1280 * 720 * 3 // 2


def test_a_truncated_download_gives_the_frames_before_the_cut(tutorial, tmp_path):
    cut = tmp_path / "cut.mp4"
    data = tutorial.path.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    frames = list(iter_frames(cut, 2.0))
    assert 5 <= len(frames) < int(tutorial.duration_s * 2)


def test_bad_sampling_rate_is_refused(tutorial):
    with pytest.raises(UserError, match="sample_fps"):
        next(iter_frames(tutorial.path, 0))


def frame_types_and_times(path: Path) -> list[tuple[str, float]]:
    """(picture type, presentation time) of every frame, from ffprobe: the ground truth the modes must match."""
    result = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pict_type,pts_time",
         "-of", "csv=p=0", str(path)], capture_output=True, text=True, check=True,
    )  # fmt: skip
    rows = [line.split(",") for line in result.stdout.split() if line]
    return [(kind, float(time)) for time, kind in ((row[0], row[1]) for row in rows)]


@pytest.mark.parametrize("mode", ["bidir", "nokey"])
def test_skipping_modes_hand_over_real_frames_at_their_own_times(tutorial_b_frames, mode):
    tutorial = tutorial_b_frames
    frames_of_video = frame_types_and_times(tutorial.path)
    assert any(kind == "B" for kind, _ in frames_of_video), "the test video must have B-frames"
    allowed = {round(t, 3) for kind, t in frames_of_video if kind != "B" and (mode != "nokey" or kind == "I")}
    sampled = list(iter_frames(tutorial.path, 2.0, decode=mode))
    intervals = [int(f.time_s * 2 + 1e-6) for f in sampled]
    assert intervals == sorted(set(intervals)), "at most one frame per sampling interval, in order"
    by_time = {round(f.time_s, 3): f for f in sampled}
    for time in by_time:
        assert time in allowed, f"{time} is not a decoded {mode} frame's time"
    # Each is the very frame a full decode shows at that moment, not a neighbour.
    compared = 0
    for full in iter_frames(tutorial.path, 30):
        match = by_time.get(round(full.time_s, 3))
        if match is not None:
            assert np.array_equal(match.luma, full.luma), f"frame at {full.time_s} differs"
            compared += 1
    assert compared == len(sampled)
    if mode == "bidir":  # reference frames come every few frames: every interval has one, close to its start
        assert len(sampled) == int(tutorial.duration_s * 2)
        assert all(f.time_s - i / 2 < 0.2 for f, i in zip(sampled, intervals))
    else:  # keyframes alone are sparse
        assert 0 < len(sampled) < tutorial.duration_s


def test_an_unknown_decode_mode_is_refused(tutorial):
    with pytest.raises(UserError, match="decode_frames"):
        next(iter_frames(tutorial.path, 2.0, decode="some"))


def test_a_truncated_download_gives_the_frames_before_the_cut_when_skipping_frames(tutorial_b_frames, tmp_path):
    streamable, cut = tmp_path / "streamable.mp4", tmp_path / "cut.mp4"  # index first, as web videos are
    subprocess.run(["ffmpeg", "-nostdin", "-y", "-v", "error", "-i", str(tutorial_b_frames.path), "-c", "copy",
                    "-movflags", "+faststart", str(streamable)], check=True)  # fmt: skip
    data = streamable.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    whole = list(iter_frames(streamable, 2.0, decode="bidir"))
    frames = list(iter_frames(cut, 2.0, decode="bidir"))
    assert 5 <= len(frames) < len(whole)
    assert [f.time_s for f in frames] == [f.time_s for f in whole[: len(frames)]]


def test_a_video_that_cannot_be_decoded_is_named_when_skipping_frames(tutorial_b_frames, tmp_path):
    broken = tmp_path / "broken.mp4"
    data = bytearray(tutorial_b_frames.path.read_bytes())
    info = probe(tutorial_b_frames.path)
    broken.write_bytes(bytes(data[:64]) + bytes(len(data) - 64))  # the header's start, then zeros
    with pytest.raises(VideoError, match="broken.mp4"):
        list(iter_frames(broken, 2.0, info, decode="bidir"))


def test_a_rotated_phone_video_is_sampled_upright_when_skipping_frames(tutorial_b_frames, tmp_path):
    """A file that asks to be turned 90 degrees is handed over as displayed, in every mode."""
    rotated = tmp_path / "rotated.mp4"
    subprocess.run(
        ["ffmpeg", "-nostdin", "-y", "-v", "error", "-i", str(tutorial_b_frames.path), "-t", "3", "-c", "copy",
         "-metadata:s:v:0", "rotate=90", str(rotated)], check=True,
    )  # fmt: skip
    info = probe(rotated)
    assert (info.width, info.height) == (720, 1280) and info.rotation % 360 != 0
    for mode in ("all", "bidir"):
        frames = list(iter_frames(rotated, 2.0, info, decode=mode))
        assert len(frames) >= 5 and all(f.luma.shape == (1280, 720) for f in frames), mode


def test_skipping_modes_time_frames_as_ffmpeg_does(tutorial_b_frames):
    """The in-process decoder picks the same frames at the same times as ffmpeg's select filter."""
    command = [
        "ffmpeg", "-nostdin", "-hide_banner", "-nostats", "-v", "level+info", "-threads", "1", "-skip_frame", "bidir",
        "-i", str(tutorial_b_frames.path), "-fps_mode", "passthrough", "-vf",
        "select='if(isnan(prev_selected_t),1,gt(floor(t*2+0.000001),floor(prev_selected_t*2+0.000001)))',showinfo",
        "-f", "null", "-",
    ]  # fmt: skip
    report = subprocess.run(command, capture_output=True, text=True, check=True).stderr
    expected = [round(float(t), 3) for t in re.findall(r"pts_time:(\S+)", report)]
    sampled = [round(f.time_s, 3) for f in iter_frames(tutorial_b_frames.path, 2.0, decode="bidir", threads=1)]
    assert sampled == expected and len(sampled) > 20
