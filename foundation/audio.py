"""A mono 16-bit WAV (what `video_io.extract_audio` writes) as loudness, pieces and encoded uploads.

Speech recognition servers cap an upload (25 MB at the OpenAI API and vLLM's Whisper: 13
minutes of 16 kHz WAV) and one long request can outlast any timeout, so long audio goes up
in pieces. `plan_pieces` cuts long silences out (Whisper invents words over them, and forgets real
ones after them) and cuts at most every `max_s` seconds, at the quietest moment near the
limit (not mid-word); it marks pieces with almost no sound, which need no request at all.
`encode_piece` writes one piece as FLAC, Opus or WAV with ffmpeg.

    envelope = loudness(wav)                      # dBFS of each 0.1 s frame
    for piece in plan_pieces(envelope, max_s=600, ...):
        if piece.audible: encode_piece(wav, piece, folder / f"piece{piece.index}.flac", "flac")
"""

from __future__ import annotations

import math
import shutil
import subprocess
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from foundation.errors import UserError

FRAME_S = 0.1  # loudness resolution: shorter than a syllable, long enough to average a waveform
AUDIO_FORMATS = {"flac": ("flac", ".flac"), "opus": ("libopus", ".ogg"), "wav": ("pcm_s16le", ".wav")}
SILENT_DBFS = -120.0  # what digital silence (all zeros) reads as


@dataclass(frozen=True)
class Loudness:
    """The RMS level of each `FRAME_S` frame of a WAV, in dB below full scale."""

    dbfs: np.ndarray  # float, one value a frame
    duration_s: float

    def sound_s(self, start_s: float, end_s: float, silence_dbfs: float) -> float:
        """Seconds of frames louder than `silence_dbfs` between `start_s` and `end_s`."""
        first, last = int(start_s / FRAME_S), int(math.ceil(end_s / FRAME_S))
        return float(np.count_nonzero(self.dbfs[first:last] > silence_dbfs)) * FRAME_S

    def first_sound_s(self, start_s: float, end_s: float, silence_dbfs: float) -> float | None:
        """Where the first frame louder than `silence_dbfs` begins, between `start_s` and `end_s`; None if none is."""
        first, last = int(start_s / FRAME_S), int(math.ceil(end_s / FRAME_S))
        loud = np.flatnonzero(self.dbfs[first:last] > silence_dbfs)
        return round((first + int(loud[0])) * FRAME_S, 3) if loud.size else None


@dataclass(frozen=True)
class Piece:
    index: int
    start_s: float
    end_s: float
    audible: bool  # holds enough sound to be worth a request

    @property
    def duration_s(self) -> float:
        return self.end_s - self.start_s


def loudness(wav_path: Path) -> Loudness:
    """Frame levels of a mono 16-bit WAV, read a block at a time (an hour is 115 MB of samples)."""
    with wave.open(str(wav_path), "rb") as audio:
        if audio.getsampwidth() != 2 or audio.getnchannels() != 1:
            raise UserError(f"{wav_path} is not mono 16-bit audio: extract it with foundation.video_io.extract_audio")
        rate = audio.getframerate()
        frame = max(1, round(rate * FRAME_S))
        levels: list[np.ndarray] = []
        total = 0
        while True:
            block = np.frombuffer(audio.readframes(frame * 600), dtype="<i2")
            if block.size == 0:
                break
            total += block.size
            padded = np.zeros(math.ceil(block.size / frame) * frame, dtype=np.float64)
            padded[: block.size] = block / 32768.0
            rms = np.sqrt(np.mean(padded.reshape(-1, frame) ** 2, axis=1))
            levels.append(20 * np.log10(np.maximum(rms, 1e-6)))
    dbfs = np.concatenate(levels) if levels else np.zeros(0)
    return Loudness(np.maximum(dbfs, SILENT_DBFS), total / rate if rate else 0.0)


def plan_pieces(
    envelope: Loudness,
    *,
    max_s: float,
    cut_window_s: float,
    silence_dbfs: float,
    min_sound_s: float,
    silence_cut_s: float = 0.0,
    pad_s: float = 0.5,
) -> list[Piece]:
    """Consecutive pieces covering the audio, each at most `max_s` long; a cut falls on the quietest
    frame of the last `cut_window_s` before the limit. Silence of at least `silence_cut_s` (0: never)
    becomes a piece of its own, less `pad_s` at each end. A piece with under `min_sound_s` of sound
    is not audible."""
    if max_s <= 0:
        raise UserError(f"piece length {max_s} s must be above 0: set processing.speech.piece_max_s to e.g. 600")
    spans = _split_at_silence(envelope, silence_dbfs, silence_cut_s, pad_s)
    pieces: list[Piece] = []
    for span_start, span_end in spans:
        start = span_start
        while start < span_end - 1e-6:
            end = span_end
            if end - start > max_s:
                end = _quietest_cut(envelope, start + max_s - min(cut_window_s, max_s / 2), start + max_s)
            audible = envelope.sound_s(start, end, silence_dbfs) >= min_sound_s
            pieces.append(Piece(len(pieces), round(float(start), 3), round(float(end), 3), audible))
            start = end
    return pieces


def _split_at_silence(
    envelope: Loudness, silence_dbfs: float, silence_cut_s: float, pad_s: float
) -> list[tuple[float, float]]:
    """(start, end) spans covering the audio, with each long silence (less its padding) a span of its own."""
    total, frames = envelope.duration_s, envelope.dbfs.size
    if silence_cut_s <= 0 or frames == 0:
        return [(0.0, total)] if total > 0 else []
    pad_s = min(pad_s, silence_cut_s / 4)  # keeps the bounds in order
    quiet = np.concatenate(([0], (envelope.dbfs <= silence_dbfs).astype(np.int8), [0]))
    edges = np.flatnonzero(np.diff(quiet))
    bounds = [0.0]
    for first, last in zip(edges[::2], edges[1::2]):  # each run of quiet frames [first, last)
        if (last - first) * FRAME_S < silence_cut_s:
            continue
        # Padding keeps a word's soft start and end with its speech; the track's own ends need none.
        bounds.append(0.0 if first == 0 else first * FRAME_S + pad_s)
        bounds.append(total if last >= frames else min(total, last * FRAME_S - pad_s))
    bounds.append(total)
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if b - a > 1e-6]


def _quietest_cut(envelope: Loudness, earliest_s: float, latest_s: float) -> float:
    first, last = int(math.ceil(earliest_s / FRAME_S)), int(latest_s / FRAME_S)
    window = envelope.dbfs[first:last]
    if window.size == 0:
        return latest_s
    # The last of equally quiet frames, so silence between phrases is cut as late as allowed.
    quietest = window.size - 1 - int(np.argmin(window[::-1]))
    return (first + quietest) * FRAME_S


def encode_piece(wav_path: Path, piece: Piece, out_dir: Path, audio_format: str) -> Path:
    """Piece `piece` of `wav_path` as a file ready to upload (16 kHz mono, the rate Whisper reads)."""
    if audio_format not in AUDIO_FORMATS:
        raise UserError(f"audio format {audio_format!r} is unknown: set processing.speech.audio_format to one of "
                        f"{', '.join(AUDIO_FORMATS)}")  # fmt: skip
    codec, suffix = AUDIO_FORMATS[audio_format]
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        raise UserError("ffmpeg not found on PATH: install ffmpeg (e.g. apt-get install ffmpeg)")
    out_dir.mkdir(parents=True, exist_ok=True)
    out_path = out_dir / f"piece{piece.index:03d}{suffix}"
    # bitexact: no encoder version in the file, so the same samples give the same bytes (and cache key).
    command = [ffmpeg, "-nostdin", "-hide_banner", "-v", "error", "-y", "-ss", f"{piece.start_s:.3f}",
               "-t", f"{piece.duration_s:.3f}", "-i", str(wav_path), "-ac", "1", "-c:a", codec,
               "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(out_path)]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0 or not out_path.is_file():
        out_path.unlink(missing_ok=True)
        reason = (result.stderr.strip().splitlines() or ["no reason given"])[0]
        raise UserError(f"piece {piece.index} of {wav_path} could not be encoded as {audio_format} ({reason}): "
                        "check that ffmpeg was built with that encoder, or set processing.speech.audio_format")  # fmt: skip
    return out_path
