"""Cutting a real audio track (espeak-ng speech, ffmpeg silence and noise) into pieces for speech recognition."""

from __future__ import annotations

import shutil
import subprocess
import wave
from pathlib import Path

import pytest

from foundation.audio import encode_piece, loudness, plan_pieces


def _track(folder: Path, filters: str, inputs: list[str], seconds: float) -> Path:
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None or shutil.which("espeak-ng") is None:
        pytest.fail("ffmpeg and espeak-ng are needed: run `bash scripts/bootstrap.sh`")
    path = folder / "track.wav"
    args: list[str] = []
    for source in inputs:
        args += ["-f", "lavfi", "-i", source] if "=" in source else ["-i", source]
    subprocess.run([ffmpeg, "-v", "error", "-y", *args, "-filter_complex", filters, "-t", str(seconds), "-ac", "1",
                    "-ar", "16000", "-c:a", "pcm_s16le", str(path)], check=True)  # fmt: skip
    return path


def _phrase(folder: Path) -> Path:
    path = folder / "phrase.wav"
    subprocess.run(["espeak-ng", "-s", "170", "-w", str(path), "Open the cart and pay."], check=True)
    return path


def test_long_silence_is_cut_out_and_the_speech_around_it_kept(tmp_path) -> None:
    phrase = _phrase(tmp_path)
    # phrase at 0 s, 40 s of silence, phrase at about 42 s, then 5 s of silence (shorter than the cut).
    filters = ("[1:a]aresample=16000[p1];[2:a]aresample=16000,adelay=42000[p2];"
               "[0:a][p1][p2]amix=inputs=3:duration=first:normalize=0")  # fmt: skip
    track = _track(tmp_path, filters, ["anullsrc=r=16000:cl=mono", str(phrase), str(phrase)], 50)
    envelope = loudness(track)
    assert envelope.duration_s == pytest.approx(50, abs=0.01)
    pieces = plan_pieces(envelope, max_s=600, cut_window_s=20, silence_dbfs=-50, min_sound_s=0.3, silence_cut_s=10)
    assert [p.audible for p in pieces] == [True, False, True]
    first, gap, second = pieces
    assert first.start_s == 0 and 1.5 < first.end_s < 3.0  # the phrase (1.5 s) and half a second of padding
    assert 41.0 < second.start_s < 42.0 and second.end_s == 50  # the short silence after it stays
    assert gap.start_s == first.end_s and gap.end_s == second.start_s
    # Where sound begins after a silence (a transcript cue's start is moved there), and none over silence.
    assert envelope.first_sound_s(20.0, 50.0, -50) == pytest.approx(42.0, abs=0.1)
    assert envelope.first_sound_s(5.0, 40.0, -50) is None
    # Without cutting: one audible piece.
    whole = plan_pieces(envelope, max_s=600, cut_window_s=20, silence_dbfs=-50, min_sound_s=0.3)
    assert [(p.start_s, p.end_s, p.audible) for p in whole] == [(0.0, 50.0, True)]


def test_a_long_track_is_cut_at_its_quietest_moment_before_the_limit(tmp_path) -> None:
    phrase = _phrase(tmp_path)
    # Steady noise, with a quiet second at 55-56 s: the cut for a 60 s limit (20 s window) falls there.
    filters = ("[0:a]volume=enable='between(t,55,56)':volume=0.01[n];[1:a]aresample=16000,adelay=10000[p];"
               "[n][p]amix=inputs=2:duration=first:normalize=0")  # fmt: skip
    track = _track(tmp_path, filters, ["anoisesrc=r=16000:color=pink:amplitude=0.05", str(phrase)], 100)
    pieces = plan_pieces(loudness(track), max_s=60, cut_window_s=20, silence_dbfs=-50, min_sound_s=0.3,
                         silence_cut_s=10)  # fmt: skip
    assert len(pieces) == 2 and all(p.audible for p in pieces)
    assert 55.0 <= pieces[0].end_s <= 56.0 and pieces[1].start_s == pieces[0].end_s and pieces[1].end_s == 100
    flac = encode_piece(track, pieces[1], tmp_path / "up", "flac")
    assert flac.read_bytes()[:4] == b"fLaC"
    wav = encode_piece(track, pieces[1], tmp_path / "up", "wav")
    with wave.open(str(wav)) as audio:
        assert audio.getnframes() / audio.getframerate() == pytest.approx(pieces[1].duration_s, abs=0.01)
    assert flac.stat().st_size < 0.8 * wav.stat().st_size
    # The same samples give the same bytes (the cache key of a piece is its file's hash).
    again = encode_piece(track, pieces[1], tmp_path / "again", "flac")
    assert again.read_bytes() == flac.read_bytes()
