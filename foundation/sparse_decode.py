"""Sampled frames from a decoder that skips frames, in this process (PyAV), for `iter_frames`.

When the decoder skips B-frames ("bidir") it still has to decode every reference frame, but
only one frame in each sampling interval is wanted. Decoding in-process lets us look at each
decoded frame's time and copy out only the wanted ones (a memcpy of their planes), instead of
having an ffmpeg child write every wanted frame through a pipe and a thread parse its timing
line: on a 5-minute 720p recording that pipe and its reading cost about as much CPU as the
picture copies and comparisons of change detection together (docs/benchmarks.md).

The frames handed over are the same ones the ffmpeg command line decodes (H.264 decoding is
bit-exact; a test compares them) with the same times: each decoded frame's own presentation
time, counted from the start of the file.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from foundation.video_records import FIX, SampledFrame, VideoError, VideoInfo

log = logging.getLogger(__name__)

SKIP_VALUES = {"noref": "NONREF", "bidir": "BIDIR", "nokey": "NONKEY"}  # our modes -> libavcodec's AVDiscard
TIME_EPSILON = 1e-6  # a frame exactly on a sampling boundary belongs to the interval it starts


def iter_sparse_frames(
    path: Path, fps: float, info: VideoInfo, threads: int, decode: str, reuse_buffers: bool
) -> Iterator[SampledFrame]:
    """The first decoded frame in each sampling interval [k/fps, (k+1)/fps), at its own time."""
    import av  # imported here: only the skipping modes need it

    width, height = info.width - info.width % 2, info.height - info.height % 2
    try:
        container = av.open(str(path))
    except av.FFmpegError as exc:
        raise VideoError(f"video {path} could not be opened ({_reason(exc)}): {FIX}") from exc
    index, problem = 0, ""
    pool = [np.empty((height * 3 // 2, width), np.uint8) for _ in range(3)] if reuse_buffers else []
    try:
        stream = container.streams.video[0]
        context = stream.codec_context
        context.skip_frame = SKIP_VALUES[decode]
        if threads == 1:
            context.thread_type, context.thread_count = "NONE", 1
        else:  # 0 lets libavcodec pick the count; frame threads as the ffmpeg command line uses
            context.thread_type, context.thread_count = "AUTO", threads
        start_s = container.start_time / av.time_base if container.start_time is not None else 0.0
        previous_interval: int | None = None
        decoded = _decoded_frames(container, stream)
        while True:
            try:
                frame = next(decoded)
            except StopIteration:
                break
            except av.FFmpegError as exc:  # a cut or damaged file: keep what decoded before the damage
                problem = _reason(exc)
                break
            if frame.time is None:
                continue  # no timestamp: cannot place it on the timeline
            time_s = frame.time - start_s
            interval = int(np.floor(time_s * fps + TIME_EPSILON))
            if previous_interval is not None and interval <= previous_interval:
                continue
            previous_interval = interval
            yuv = pool[index % 3] if pool else np.empty((height * 3 // 2, width), np.uint8)
            _copy_i420(frame, yuv, width, height)
            yield SampledFrame(index, time_s, yuv)
            index += 1
    finally:
        container.close()
    if index == 0:
        raise VideoError(f"video {path} could not be decoded ({problem or 'no frame could be decoded'}): {FIX}")
    if problem:
        log.warning("video %s decoded with errors (%s); using the %d frames that decoded", path, problem, index)


def _decoded_frames(container, stream) -> Iterator:
    for packet in container.demux(stream):
        yield from packet.decode()  # the final empty packet flushes the decoder's delayed frames


def _copy_i420(frame, out: np.ndarray, width: int, height: int) -> None:
    """Copy `frame`'s planes (cropped to even sides) into `out`, laid out as the command line's rawvideo."""
    if frame.format.name != "yuv420p":  # 10-bit, 4:4:4, full range: convert as `-pix_fmt yuv420p` would
        frame = frame.reformat(format="yuv420p")
    flat = out.reshape(-1)
    luma_size, chroma_size = width * height, (width // 2) * (height // 2)
    targets = (
        flat[:luma_size].reshape(height, width),
        flat[luma_size : luma_size + chroma_size].reshape(height // 2, width // 2),
        flat[luma_size + chroma_size :].reshape(height // 2, width // 2),
    )
    for plane, target in zip(frame.planes, targets):
        rows, columns = target.shape
        data = np.frombuffer(plane, np.uint8, count=plane.line_size * plane.height)
        np.copyto(target, data.reshape(plane.height, plane.line_size)[:rows, :columns])


def _reason(exc: Exception) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__
