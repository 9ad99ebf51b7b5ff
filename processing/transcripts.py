"""A video's transcript: its subtitle file when it has one, else its audio track through the `asr` role.

VideoWA's tutorials are .mov files with a voice track and no subtitles, so without
speech recognition `--transcript-only` and the transcript-reading stages would have
nothing. The audio goes up in pieces of at most `processing.speech.piece_max_s` (FLAC by
default, so a piece stays far below the 25 MB upload cap of common servers), each piece's
cues shifted by its start; a piece with almost no sound sends no request, and a segment
Whisper itself calls probably not speech over silent audio (its "You" on silence) is
dropped. Whisper often starts a piece's first segment at 0.0 s however late the speech
begins (the end is right), so a cue's start is moved to the first sound under it
(`processing.speech.cue_start_at_sound`). A server that answers text without timing gives
one cue spanning the piece, with a warning. The timed transcript is kept as `transcript.vtt` in the video's artifact
folder, so it can be cut to a time span; the plain text goes into the video's record (and
from there into the index). When there is none, `reason` says why in one line.
"""

from __future__ import annotations

import logging
import math
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from foundation.audio import Loudness, encode_piece, loudness, plan_pieces
from foundation.subtitles import Cue, Transcript, load_transcript, parse_subtitles
from foundation.video_io import extract_audio, has_audio, probe_duration
from model_access.client import ModelClient
from model_access.transcription import transcribe, vtt_text
from settings.schema import SpeechSettings

log = logging.getLogger(__name__)

VTT_NAME = "transcript.vtt"
STAGE = "transcripts"
ASR_FIX = "set models.asr.base_url and models.asr.model (e.g. Whisper served by vLLM; docs/models.md)"
# A segment's span counts as silent when under this share of it is sound (a hallucination's span often
# clips the end of a real phrase, so "no sound at all" would be too strict).
SILENT_SHARE = 0.2


@dataclass
class TranscriptResult:
    text: str
    source: str  # "subtitles", "asr" or "" (none)
    reason: str = ""  # why there is none
    scripted: bool = False  # the asr reply came from the scripted test server
    calls: int = 0  # speech-recognition requests, answered live or from the cache
    cached: int = 0  # of which from the model cache
    pieces: int = 0  # pieces the audio was cut into
    silent_pieces: int = 0  # of which sent no request
    dropped: int = 0  # segments dropped as probably not speech
    moved_starts: int = 0  # cues whose start was moved past the silence the server put at their beginning
    warnings: list[str] = field(default_factory=list)


def video_transcript(
    video_path: Path, folder: Path, client: ModelClient, language: str, speech: SpeechSettings | None = None
) -> TranscriptResult:
    """The transcript of `video_path`; the timed cues are written to `folder`/transcript.vtt."""
    speech = speech or client.settings.processing.speech
    subtitles, none_because = _source(video_path, client, language)
    if subtitles is not None:
        _write_vtt(folder, list(subtitles.cues))
        return TranscriptResult(subtitles.text, "subtitles")
    if none_because:
        return TranscriptResult("", "", none_because)
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="asr-", dir=folder) as work:
        wav = extract_audio(video_path, Path(work) / "audio.wav")
        envelope = loudness(wav)
        pieces = plan_pieces(envelope, max_s=speech.piece_max_s, cut_window_s=speech.cut_window_s,
                             silence_dbfs=speech.silence_dbfs, min_sound_s=speech.min_sound_s,
                             silence_cut_s=speech.silence_cut_s)  # fmt: skip
        result = TranscriptResult("", "", pieces=len(pieces), silent_pieces=sum(not p.audible for p in pieces))
        cues: list[Cue] = []
        for piece in pieces:
            if not piece.audible:
                continue
            upload = encode_piece(wav, piece, Path(work), speech.audio_format)
            heard = transcribe(client, upload, language=language, stage=STAGE,
                               model_name_fields=speech.model_name_fields)  # fmt: skip
            upload.unlink(missing_ok=True)
            result.calls += 1
            result.cached += int(heard.cached)
            result.scripted = result.scripted or heard.scripted
            result.warnings += heard.notes
            if not heard.timed:
                # No timing: the text is known to lie somewhere in this piece, and that is all.
                result.warnings.append(
                    f"speech recognition of {video_path.name} ({piece.start_s:.0f}-{piece.end_s:.0f} s) came back "
                    "as text without segments: one cue spans that stretch (a server that answers verbose_json "
                    "gives timed cues)"
                )
                log.warning(result.warnings[-1])
                cues.append(Cue(piece.start_s, piece.end_s, " ".join(heard.text.split())))
                continue
            for segment in heard.segments:
                start, end = piece.start_s + segment["start"], piece.start_s + segment["end"]
                if _probably_not_speech(segment, start, end, envelope, speech):
                    result.dropped += 1
                    log.info("dropped %r at %.1f-%.1f s of %s: no-speech probability %.2f over silent audio",
                             segment["text"], start, end, video_path.name, segment["no_speech_prob"])  # fmt: skip
                    continue
                if speech.cue_start_at_sound:
                    sound = envelope.first_sound_s(start, end, speech.silence_dbfs)
                    if sound is not None and sound > start:
                        result.moved_starts += 1
                        log.info("cue %r of %s starts at %.1f s where the server said %.1f s (silence before it)",
                                 segment["text"], video_path.name, sound, start)  # fmt: skip
                        start = sound
                cues.append(Cue(round(start, 3), round(min(end, piece.end_s), 3), " ".join(segment["text"].split())))
    cues = [cue for cue in cues if cue.text]
    if not cues:
        result.reason = (
            "no subtitles, and its audio track is silent (no speech recognition request sent)"
            if result.calls == 0
            else "no subtitles, and speech recognition heard no speech in its audio"
        )
        return result
    _write_vtt(folder, cues)
    result.text, result.source = " ".join(cue.text for cue in cues), "asr"
    return result


def _probably_not_speech(
    segment: dict[str, Any], start_s: float, end_s: float, envelope: Loudness, speech: SpeechSettings
) -> bool:
    """Whisper's own doubt (no-speech probability) over audio that is mostly silent."""
    if segment.get("no_speech_prob", 0.0) < speech.drop_no_speech_prob:
        return False
    span = max(end_s - start_s, 0.1)
    return envelope.sound_s(start_s, end_s, speech.silence_dbfs) < max(speech.min_sound_s, SILENT_SHARE * span)


def planned_transcript_calls(video_path: Path, client: ModelClient, language: str) -> tuple[int, str]:
    """For a dry run: how many speech-recognition requests `video_transcript` would send, and why. Sends nothing."""
    subtitles, none_because = _source(video_path, client, language)
    if subtitles is not None:
        return 0, "from its subtitle file"
    if none_because:
        return 0, f"none: {none_because}"
    speech = client.settings.processing.speech
    pieces = max(1, math.ceil(probe_duration(video_path) / speech.piece_max_s))
    return pieces, (f"at most: one request per piece of at most {speech.piece_max_s:g} s of audio "
                    "(none for silent pieces or those the model cache has)")  # fmt: skip


def needs_speech_recognition(video_path: Path, client: ModelClient, language: str) -> bool:
    """Whether `video_transcript` would ask the ASR server (no subtitles, an audio track, the role set up)."""
    subtitles, none_because = _source(video_path, client, language)
    return subtitles is None and not none_because


def _source(video_path: Path, client: ModelClient, language: str) -> tuple[Transcript | None, str]:
    """Where the transcript comes from: (its subtitles, ""), (None, "") for speech recognition, or (None, why none)."""
    subtitles = load_transcript(video_path, language)
    if subtitles is not None:
        return subtitles, ""
    if not has_audio(video_path):
        return None, "no subtitles and no audio track: the video has no transcript"
    if not client.is_configured("asr"):
        return None, f"no subtitles, and its audio is not transcribed: {ASR_FIX}"
    return None, ""


def timed_transcript(folder: Path) -> list[Cue]:
    """The cues kept by `video_transcript` in a video's artifact folder (empty when none was kept)."""
    path = folder / VTT_NAME
    if not path.is_file():
        return []
    return parse_subtitles(path.read_text(encoding="utf-8"))


def _write_vtt(folder: Path, cues: list[Cue]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / VTT_NAME).write_text(vtt_text(cues), encoding="utf-8")
