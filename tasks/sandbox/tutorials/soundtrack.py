"""A tutorial's sound: its narration lines placed at their cues over silence, added to the finished video as AAC.

The sound is known only once the take is over (a cue starts when the performer gets to its
step), so the video is encoded first and the track added by a second ffmpeg pass that copies
the video stream: it rewrites the file once, about a second for 3 minutes of video.
The track is exactly as long as the video.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from foundation.errors import UserError

# AAC at 64 kb/s: plenty for one synthetic voice at 22.05 kHz, and what players and PyAV/ffmpeg read everywhere.
# ffmpeg's fast coder: its default (twoloop) took 1.5 s for 54 s of narration, a quarter of the whole recording;
# the fast one takes 0.3 s.
AUDIO_OPTIONS = ("-c:a", "aac", "-aac_coder", "fast", "-b:a", "64k")


def mix(clips: Sequence[tuple[float, np.ndarray]], seconds: float, rate: int) -> np.ndarray:
    """int16 samples `seconds` long: silence, with each clip (start in seconds, int16 samples) from its start."""
    track = np.zeros(round(seconds * rate), np.int32)
    for start, samples in clips:
        first = round(start * rate)
        if first < 0 or first + len(samples) > len(track):
            # The performer holds every step until its line is said, so this is a bug, not something to cut.
            raise ValueError(f"a clip at {start:.2f} s of {len(samples) / rate:.2f} s lies outside {seconds:.2f} s")
        track[first : first + len(samples)] += samples
    return np.clip(track, -32768, 32767).astype(np.int16)


def add_track(video: Path, track: np.ndarray, rate: int, out: Path) -> None:
    """`video` with `track` (int16 mono at `rate`) as its audio, written to `out` (mp4, whatever its name)."""
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        raise UserError("ffmpeg not found; install it (`apt-get install ffmpeg`, or run `make test` once)")
    command = [
        ffmpeg, "-hide_banner", "-loglevel", "error", "-y", "-i", str(video),
        "-f", "s16le", "-ar", str(rate), "-ac", "1", "-i", "-",
        "-map", "0:v:0", "-map", "1:a:0", "-c:v", "copy", *AUDIO_OPTIONS, "-movflags", "+faststart", "-f", "mp4",
        str(out),
    ]  # fmt: skip
    result = subprocess.run(command, input=track.tobytes(), capture_output=True)
    if result.returncode != 0:
        out.unlink(missing_ok=True)
        detail = result.stderr.decode(errors="replace").strip().splitlines()
        raise UserError(f"ffmpeg could not add the narration to {out}: "
                        f"{detail[-1] if detail else f'exit status {result.returncode}'}; "
                        "check the disk and the ffmpeg install")  # fmt: skip
