"""One ffmpeg process per video: raw YUV 4:2:0 frames in through a pipe, H.264 mp4 out.

Frames arrive already in the encoder's own format (BT.601, limited range, as OpenCV's
I420 conversion writes them), so ffmpeg spends no time converting colours, and a frame
repeated while nothing moves costs the recorder nothing but the pipe write.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from foundation.errors import UserError


class VideoEncoder:
    """Encodes frames at a constant rate with libx264 (yuv420p, so every player opens it)."""

    def __init__(self, path: Path, width: int, height: int, fps: int):
        ffmpeg = shutil.which("ffmpeg")
        if ffmpeg is None:
            raise UserError("ffmpeg not found; install it (`apt-get install ffmpeg`, or run `make test` once)")
        self.path = path
        self.frame_bytes = width * height * 3 // 2
        self._log = tempfile.TemporaryFile()
        command = [
            ffmpeg, "-hide_banner", "-loglevel", "error", "-y",
            "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", f"{width}x{height}", "-r", str(fps), "-i", "-",
            # superfast: about a tenth less CPU than veryfast for files about half again as big, which
            # keeps recording every tutorial within its time budget on a small machine.
            "-c:v", "libx264", "-preset", "superfast", "-crf", "23", "-pix_fmt", "yuv420p",
            "-colorspace", "smpte170m", "-color_primaries", "smpte170m", "-color_trc", "smpte170m", "-color_range", "tv",
            # A key frame every two seconds keeps seeking in the result cheap.
            "-g", str(2 * fps), "-r", str(fps), "-movflags", "+faststart", "-f", "mp4", str(path),
        ]  # fmt: skip
        self._process = subprocess.Popen(command, stdin=subprocess.PIPE, stderr=self._log)
        self.frames = 0

    def write(self, frame: bytes) -> None:
        if len(frame) != self.frame_bytes:
            raise ValueError(f"frame of {len(frame)} bytes, expected {self.frame_bytes}")
        try:
            self._process.stdin.write(frame)
        except BrokenPipeError:
            self._fail()
        self.frames += 1

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
