"""Read videos through ffprobe and ffmpeg: what a file holds, and its frames as a stream.

`iter_frames` lets ffmpeg do the work it does best in one process: decode every frame
(unavoidable for H.264), drop to the sampling rate with the `fps` filter and hand over
raw YUV 4:2:0 frames through a pipe. YUV is the decoder's own format, so no colour
conversion happens for frames that are only compared: the luma plane already is the
grey image, and only frames a caller keeps are converted to BGR (`SampledFrame.bgr`).

With `decode` other than "all", the decoder skips frames no other frame needs
(`-skip_frame`): "noref" drops non-reference frames, "bidir" every B-frame, "nokey"
all but keyframes. The sample for each moment is then the first decoded frame at or
after it (before the next moment), and it carries its own presentation time, not the
moment it stands in for. With libx264's default 3 B-frames, "bidir" lands at most 3
frames (0.1 s at 30 fps) late. These modes decode in this process through PyAV
(foundation/sparse_decode.py), which copies out only the wanted frames; a file that asks
to be rotated goes through the ffmpeg command line instead (it applies the rotation),
timed by its `showinfo` lines.
"""

from __future__ import annotations

import json
import logging
import queue
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import numpy as np

from foundation.errors import UserError
from foundation.sparse_decode import iter_sparse_frames
from foundation.video_records import FIX, SampledFrame, VideoError, VideoInfo  # also imported from here by callers

log = logging.getLogger(__name__)

VIDEO_SUFFIXES = frozenset({".mp4", ".mov", ".webm", ".mkv", ".avi", ".m4v"})  # what counts as a video file

PROBE_TIMEOUT_S = 60
DECODE_MODES = ("all", "noref", "bidir", "nokey")  # "all" decodes every frame; the rest are ffmpeg -skip_frame values
SHOWINFO_LINE = re.compile(r"\bn:\s*\d+\s+pts:\s*-?\d+\s+pts_time:(\S+)")
PIPE_BYTES = 1 << 20  # Linux lets an unprivileged pipe grow to 1 MiB; fewer stalls between ffmpeg and us


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise UserError(f"{name} not found on PATH: install ffmpeg (e.g. apt-get install ffmpeg)")
    return found


def _input_url(path: Path) -> str:
    # "file:" stops ffmpeg from reading a name with a colon or a leading dash as a protocol or option.
    return "file:" + str(path.resolve())


def check_readable(path: Path) -> None:
    """Raise a VideoError unless `path` is an existing, non-empty file we may read."""
    if not path.exists():
        raise VideoError(f"video {path} does not exist: check the path")
    if not path.is_file():
        raise VideoError(f"video {path} is not a file: pass a video file")
    try:
        size = path.stat().st_size
        with path.open("rb") as handle:
            handle.read(1)
    except OSError as exc:
        raise VideoError(f"video {path} cannot be read ({exc.strerror}): fix its permissions") from exc
    if size == 0:
        raise VideoError(f"video {path} is empty (0 bytes): {FIX}")


def probe(path: str | Path) -> VideoInfo:
    """Describe the first video stream of `path`, or raise a VideoError naming the file and the fault."""
    path = Path(path)
    report = _ffprobe(path, ["-of", "json", "-show_format", "-show_streams"])
    try:
        data = json.loads(report or "{}")
    except json.JSONDecodeError as exc:
        raise VideoError(f"video {path} is corrupt or not a video (unreadable ffprobe report): {FIX}") from exc
    streams = [
        s
        for s in data.get("streams", [])
        if s.get("codec_type") == "video" and not s.get("disposition", {}).get("attached_pic")
    ]
    if not streams:
        raise VideoError(f"video {path} has no video stream (audio only, or not a video): {FIX}")
    return _video_info(path, streams[0], data.get("format", {}))


def _video_info(path: Path, stream: dict, container: dict) -> VideoInfo:
    width, height = int(stream.get("width") or 0), int(stream.get("height") or 0)
    fps = _rate(stream.get("avg_frame_rate")) or _rate(stream.get("r_frame_rate"))
    duration = _number(stream.get("duration")) or _number(container.get("duration"))
    frames = int(_number(stream.get("nb_frames")))
    if not duration and frames and fps:
        duration = frames / fps
    if width <= 0 or height <= 0 or fps <= 0 or duration <= 0:
        raise VideoError(
            f"video {path} is corrupt or has no frames ({width}x{height}, {fps:g} fps, {duration:g} s): {FIX}"
        )
    rotation = _rotation(stream)
    if abs(rotation) % 180 == 90:
        width, height = height, width
    return VideoInfo(
        path=path,
        duration_s=duration,
        fps=fps,
        width=width,
        height=height,
        frame_count=frames or max(1, round(duration * fps)),
        codec=str(stream.get("codec_name", "unknown")),
        rotation=rotation,
    )


def _rate(text: str | None) -> float:
    try:
        rate = Fraction(text or "0")
    except (ValueError, ZeroDivisionError):
        return 0.0
    return float(rate)


def _number(text: object) -> float:
    try:
        return float(text)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 0.0


def _rotation(stream: dict) -> int:
    for side_data in stream.get("side_data_list", []):
        if "rotation" in side_data:
            return int(_number(side_data["rotation"]))
    return int(_number(stream.get("tags", {}).get("rotate")))


def _first_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else "ffprobe gave no reason"


def iter_frames(
    path: str | Path,
    fps: float,
    info: VideoInfo | None = None,
    threads: int = 0,
    decode: str = "all",
    reuse_buffers: bool = False,
) -> Iterator[SampledFrame]:
    """Yield the frames of `path` at `fps`, one at a time, while ffmpeg decodes ahead.

    With `decode` = "all", frame i shows the video at i / fps seconds (the last decoded frame
    at or before that moment). With a skipping mode (see DECODE_MODES) frame i is the first
    decoded frame at or after a sampling moment and before the next, and `time_s` is its
    own presentation time; moments with no decoded frame in their interval yield nothing. Only the
    frame being yielded and a pipe's worth of bytes are in memory, whatever the video's
    length. Stopping early (break, an exception) kills ffmpeg. `threads` = 0 lets ffmpeg's
    decoder pick. With `reuse_buffers` a frame's array is overwritten two frames later (no
    fresh memory per frame, fewer page faults): only for callers that copy what they keep.
    """
    if fps <= 0:
        raise UserError(f"sampling rate {fps} must be above 0: set processing.sample_fps to e.g. 2")
    if decode not in DECODE_MODES:
        raise UserError(f"frame decoding mode {decode!r} is unknown: set processing.decode_frames to one of "
                        f"{', '.join(DECODE_MODES)}")  # fmt: skip
    path = Path(path)
    info = info or probe(path)
    if decode != "all" and info.rotation % 360 == 0:
        yield from iter_sparse_frames(path, fps, info, threads, decode, reuse_buffers)
        return
    # 4:2:0 needs even sides; cropping a stray pixel costs nothing, scaling would.
    width, height = info.width - info.width % 2, info.height - info.height % 2
    crop = f"crop={width}:{height}:0:0"
    if decode == "all":
        skip: list[str] = []
        filters = f"fps={fps:g}:round=up,{crop}"
        timing = ["-v", "error"]
        passthrough: list[str] = []
    else:
        # Keep the first decoded frame in each new sampling interval [k/fps, (k+1)/fps); the
        # epsilon keeps a frame exactly on a boundary in its own interval. showinfo reports its pts.
        number = f"floor(t*{fps:g}+0.000001)"
        previous = f"floor(prev_selected_t*{fps:g}+0.000001)"
        skip = ["-skip_frame", decode]
        passthrough = ["-fps_mode", "passthrough"]  # one output frame per selected frame, never duplicated
        filters = f"select='if(isnan(prev_selected_t),1,gt({number},{previous}))',{crop},showinfo=checksum=0"
        timing = ["-v", "level+info", "-nostats"]
    command = [
        _tool("ffmpeg"), "-nostdin", "-hide_banner", *timing, "-threads", str(threads), *skip,
        "-i", _input_url(path), "-map", "0:v:0", "-an", "-sn", "-dn", *passthrough,
        "-vf", filters, "-pix_fmt", "yuv420p", "-f", "rawvideo", "pipe:1",
    ]  # fmt: skip
    frame_bytes = width * height * 3 // 2
    with tempfile.TemporaryFile() as stderr_file:
        stderr = subprocess.PIPE if decode != "all" else stderr_file
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, bufsize=0)
        assert process.stdout is not None
        _widen_pipe(process.stdout.fileno())
        times: queue.Queue[float | None] | None = None
        problems: list[str] = []
        reader = None
        if decode != "all":
            times = queue.Queue()
            reader = threading.Thread(target=_read_showinfo, args=(process.stderr, times, problems), daemon=True)
            reader.start()
        index = 0
        pool = [np.empty((height * 3 // 2, width), np.uint8) for _ in range(3)] if reuse_buffers else []
        try:
            while True:
                yuv = pool[index % 3] if pool else np.empty((height * 3 // 2, width), np.uint8)
                got = _read_into(process.stdout, memoryview(yuv).cast("B"))
                if got < frame_bytes:
                    break
                time_s = index / fps if times is None else times.get()
                if time_s is None:  # ffmpeg's report ended before this frame's line: cannot time it
                    break
                yield SampledFrame(index, time_s, yuv)
                index += 1
            returncode = process.wait()
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            process.stdout.close()
            if reader is not None:
                reader.join(timeout=5)
                assert process.stderr is not None
                process.stderr.close()
        stderr_file.seek(0)
        report = stderr_file.read().decode(errors="replace") if reader is None else "\n".join(problems)
    if returncode != 0 or index == 0:
        reason = _first_line(report) if report.strip() else "no frame could be decoded"
        raise VideoError(f"video {path} could not be decoded ({reason}): {FIX}")
    if report.strip():
        log.warning("video %s decoded with errors (%s); using the %d frames that decoded", path, _first_line(report),
                    index)  # fmt: skip


def _read_showinfo(stream, times: "queue.Queue[float | None]", problems: list[str]) -> None:
    """Pass each frame's pts (from showinfo lines) to `times`, and keep error lines; None at the end."""
    try:
        for raw in stream:
            line = raw.decode(errors="replace").rstrip()
            if "[error]" in line or "[fatal]" in line or "[panic]" in line:
                problems.append(line.replace("[error] ", "").replace("[fatal] ", ""))
            elif "showinfo" in line:
                found = SHOWINFO_LINE.search(line)
                if found:
                    times.put(float(found.group(1)))
    finally:
        times.put(None)


def _read_into(stream, view: memoryview) -> int:
    """Fill `view` from a pipe; fewer bytes than its size only at the end of the stream."""
    total = 0
    while total < len(view):
        got = stream.readinto(view[total:])
        if not got:
            break
        total += got
    return total


def _widen_pipe(fd: int) -> None:
    try:
        import fcntl

        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), PIPE_BYTES)
    except (OSError, ImportError):
        pass  # a smaller pipe only costs a few more context switches


def has_audio(path: str | Path) -> bool:
    """Whether `path` holds an audio stream (a narrated tutorial does; a silent screen capture does not)."""
    return bool(_ffprobe(Path(path), ["-select_streams", "a", "-show_entries", "stream=index", "-of", "csv=p=0"]).strip())


def _ffprobe(path: Path, options: list[str]) -> str:
    """ffprobe's report on `path` with `options`, or a VideoError naming the file and the fault."""
    check_readable(path)
    command = [_tool("ffprobe"), "-v", "error", *options, _input_url(path)]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S)
    except subprocess.TimeoutExpired as exc:
        raise VideoError(f"video {path} could not be probed within {PROBE_TIMEOUT_S} s: {FIX}") from exc
    if result.returncode != 0:
        raise VideoError(f"video {path} is corrupt or not a video ({_first_line(result.stderr)}): {FIX}")
    return result.stdout


def probe_duration(path: str | Path) -> float:
    """How long the file plays (its container's duration, audio included), in seconds; 0 when it does not say."""
    return _number(_ffprobe(Path(path), ["-show_entries", "format=duration", "-of", "csv=p=0"]).strip())


def extract_audio(path: str | Path, out_path: str | Path, sample_rate: int = 16000) -> Path:
    """The first audio track of `path` as a mono 16-bit WAV at `sample_rate` (what speech models read).

    WAV, because its loudness is read and it is cut into pieces (foundation/audio.py) that go up
    compressed: as one upload it would pass 25 MB at 13 minutes."""
    path, out_path = Path(path), Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    command = [_tool("ffmpeg"), "-nostdin", "-hide_banner", "-v", "error", "-y", "-i", _input_url(path),
               "-map", "0:a:0", "-vn", "-ac", "1", "-ar", str(sample_rate), "-c:a", "pcm_s16le", str(out_path)]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0 or not out_path.is_file():
        out_path.unlink(missing_ok=True)
        raise VideoError(f"the audio of video {path} could not be extracted ({_first_line(result.stderr)}): {FIX}")
    return out_path
