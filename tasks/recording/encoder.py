"""One ffmpeg process per video: raw frames in through a pipe, an H.264 mp4 out, as a style's `Codec` says.

A codec names the pixel format frames travel in and ffmpeg's output options. The sandbox
tutorials send YUV 4:2:0 already converted by OpenCV (BT.601, limited range), so ffmpeg
spends no time converting colours; the labeler recordings send the screenshots' BGR as
they are. A style that captures fewer pictures than its file's frame rate writes each
picture `repeat` times, as a screen recorder capturing at a low rate does.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from foundation.errors import UserError

_BYTES_PER_PIXEL = {"yuv420p": 1.5, "bgr24": 3}


@dataclass(frozen=True)
class Codec:
    pixel_format: str  # of the frames in the pipe: "yuv420p" or "bgr24"
    options: tuple[str, ...]  # ffmpeg's output options: encoder, quality, keyframes, colour tags
    conversion: int | None = None  # OpenCV's code turning a film's frame into `pixel_format`; None: sent as it is


class VideoEncoder:
    """Encodes frames at a constant rate (`fps`: the file's rate, each frame written `repeat` times)."""

    def __init__(self, path: Path, width: int, height: int, fps: int, codec: Codec, repeat: int = 1):
        ffmpeg = shutil.which("ffmpeg")
        if ffmpeg is None:
            raise UserError("ffmpeg not found; install it (`apt-get install ffmpeg`, or run `make test` once)")
        self.path = path
        self.codec = codec
        self.repeat = repeat
        self.frame_bytes = int(width * height * _BYTES_PER_PIXEL[codec.pixel_format])
        self._log = tempfile.TemporaryFile()
        command = [
            ffmpeg, "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", codec.pixel_format,
            "-s", f"{width}x{height}", "-r", str(fps), "-i", "-", *codec.options, "-f", "mp4", str(path),
        ]  # fmt: skip
        self._process = subprocess.Popen(command, stdin=subprocess.PIPE, stderr=self._log)

    def encode(self, frame: np.ndarray) -> bytes:
        """A film's frame as the pipe takes it."""
        if self.codec.conversion is not None:
            frame = cv2.cvtColor(frame, self.codec.conversion)
        return frame.tobytes()

    def write(self, frame: bytes) -> None:
        if len(frame) != self.frame_bytes:
            raise ValueError(f"frame of {len(frame)} bytes, expected {self.frame_bytes}")
        try:
            for _ in range(self.repeat):
                self._process.stdin.write(frame)
        except BrokenPipeError:
            self._fail()

    def close(self) -> None:
        """Finish the file; a failed encode is a UserError with ffmpeg's own words."""
        try:
            self._process.stdin.close()
        except BrokenPipeError:
            pass
        if self._process.wait() != 0:
            self._fail()
        self._log.close()

    def abort(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        self._log.close()
        self.path.unlink(missing_ok=True)

    def _fail(self) -> None:
        self._process.wait()
        self._log.seek(0)
        message = self._log.read().decode(errors="replace").strip().splitlines()
        self._log.close()
        detail = message[-1] if message else f"exit status {self._process.returncode}"
        raise UserError(f"ffmpeg could not write {self.path}: {detail}; check the disk and the ffmpeg install")
