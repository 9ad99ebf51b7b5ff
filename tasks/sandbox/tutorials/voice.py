"""The narrator's voice: each script line spoken by espeak-ng, trimmed to where it is heard.

One voice at one rate, so a line always gives the same samples (espeak-ng has no randomness:
the same text, voice and espeak-ng give the same bytes). espeak-ng's `-s` is its own words per
minute, faster than it says: at 120 it speaks the 13 scripts' 5,795 words in 2,520 s, 138 words
a minute (on the earlier one-minute scripts 142; 125 gave 149 there, 150 gave 178), the relaxed
pace the silent recorder planned with (150 words a minute and 0.3 s a line, 2,419 s for these
lines), so the videos are only 4% longer than they were before they had a voice (measured
2026-11-28 on espeak-ng 1.51). `pacing.CHARS_PER_SECOND` is this pace.

A line is trimmed of the silence espeak-ng puts around it, so its length is the time it is
heard: the performer holds a step at least that long, and the subtitle cue is that interval.
Lines go to espeak-ng all at once, one process each (a line takes about 20 ms).

espeak-ng is required: the tutorials are narrated, and their fingerprint holds the voice
(`identity`), so a machine without it cannot tell a recording is current either.
"""

from __future__ import annotations

import functools
import hashlib
import io
import shutil
import subprocess
import wave
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from foundation.errors import UserError

VOICE = "en-us"
RATE_WPM = 120  # espeak-ng's figure; about 138 words a minute really spoken (see above)
SAMPLE_RATE = 22050  # what espeak-ng's own voices speak at
# Trim threshold: 1% of full scale. espeak-ng's silence around a line is digital zero, and speech
# crosses this within a millisecond of its start.
QUIET = 328
# A fixed phrase whose sound stands for the voice in the fingerprint: a new espeak-ng or other voice
# data (a distribution's patched dictionary) speaks it differently.
_PROBE = "Click the blue button, then type 42 kettles into the search box."
_INSTALL = "install it with `apt install espeak-ng` (scripts/bootstrap.sh installs it)"


@dataclass(frozen=True)
class SpokenLine:
    text: str
    samples: np.ndarray  # int16 mono at SAMPLE_RATE, from the first sound to the last

    @property
    def seconds(self) -> float:
        return len(self.samples) / SAMPLE_RATE


def speak_all(texts: Sequence[str]) -> list[SpokenLine]:
    """Every line spoken, in order."""
    with ThreadPoolExecutor(4) as pool:  # the work is in espeak-ng processes, not in Python
        return list(pool.map(speak, texts))


def speak(text: str) -> SpokenLine:
    samples = _trimmed(_synthesize(text))
    if not len(samples):
        raise UserError(f"espeak-ng spoke nothing for the narration line {text!r}; give the line words to say")
    return SpokenLine(text, samples)


@functools.cache
def identity() -> str:
    """What decides how a line sounds: espeak-ng's version, the voice, the rate, and a hash of a phrase it spoke."""
    version = _run([_espeak(), "--version"]).decode(errors="replace").split("Data at:")[0].strip()
    probe = hashlib.sha256(_synthesize(_PROBE).tobytes()).hexdigest()[:16]
    return f"{version}; voice {VOICE}; {RATE_WPM} wpm; probe {probe}"


def _synthesize(text: str) -> np.ndarray:
    # The text goes in on stdin, so a line starting with "-" is never read as an option.
    data = _run([_espeak(), "-v", VOICE, "-s", str(RATE_WPM), "--stdout"], text.encode())
    with wave.open(io.BytesIO(data)) as audio:
        if (audio.getframerate(), audio.getnchannels(), audio.getsampwidth()) != (SAMPLE_RATE, 1, 2):
            raise UserError(f"espeak-ng spoke {audio.getframerate()} Hz, {audio.getnchannels()} channel(s), "
                            f"{8 * audio.getsampwidth()} bits; the recorder expects {SAMPLE_RATE} Hz mono 16-bit "
                            f"from voice {VOICE}: reinstall espeak-ng")  # fmt: skip
        return np.frombuffer(audio.readframes(audio.getnframes()), np.int16)


def _trimmed(samples: np.ndarray) -> np.ndarray:
    loud = np.flatnonzero(np.abs(samples.astype(np.int32)) > QUIET)
    return samples[loud[0] : loud[-1] + 1] if len(loud) else samples[:0]


def _run(command: list[str], stdin: bytes | None = None) -> bytes:
    result = subprocess.run(command, input=stdin, capture_output=True)
    if result.returncode != 0:
        detail = result.stderr.decode(errors="replace").strip().splitlines()
        raise UserError(f"espeak-ng failed ({detail[-1] if detail else f'exit status {result.returncode}'}); "
                        f"check the install or {_INSTALL}")  # fmt: skip
    return result.stdout


def _espeak() -> str:
    found = shutil.which("espeak-ng")
    if found is None:
        raise UserError(f"espeak-ng not found: the sandbox tutorials are narrated by it; {_INSTALL}")
    return found
