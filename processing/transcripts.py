"""A video's transcript: its subtitle file when it has one, else its audio track through the `asr` role.

VideoWA's tutorials are .mov files with a voice track and no subtitles, so without
speech recognition `--transcript-only` and the transcript-reading stages would have
nothing. The timed transcript is kept as `transcript.vtt` in the video's artifact
folder, so it can be cut to a time span; the plain text goes into the video's record
(and from there into the index). When there is none, `reason` says why in one line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from foundation.subtitles import Cue, Transcript, load_transcript, parse_subtitles
from foundation.video_io import extract_audio, has_audio
from model_access.client import ModelClient
from model_access.transcription import transcribe, vtt_text

VTT_NAME = "transcript.vtt"
STAGE = "transcripts"
ASR_FIX = "set models.asr.base_url and models.asr.model (e.g. Whisper served by vLLM; docs/models.md)"


@dataclass
class TranscriptResult:
    text: str
    source: str  # "subtitles", "asr" or "" (none)
    reason: str = ""  # why there is none
    scripted: bool = False  # the asr reply came from the scripted test server


def video_transcript(video_path: Path, folder: Path, client: ModelClient, language: str) -> TranscriptResult:
    """The transcript of `video_path`; the timed cues are written to `folder`/transcript.vtt."""
    subtitles, none_because = _source(video_path, client, language)
    if subtitles is not None:
        _write_vtt(folder, list(subtitles.cues))
        return TranscriptResult(subtitles.text, "subtitles")
    if none_because:
        return TranscriptResult("", "", none_because)
    audio = extract_audio(video_path, folder / "audio.wav")
    try:
        cues, scripted = transcribe(client, audio, language=language, stage=STAGE)
    finally:
        audio.unlink(missing_ok=True)  # cached by its hash in the model cache; no need to keep the WAV
    if not cues:
        return TranscriptResult("", "", "no subtitles, and speech recognition heard no speech in its audio")
    _write_vtt(folder, cues)
    return TranscriptResult(" ".join(cue.text for cue in cues), "asr", scripted=scripted)


def planned_transcript_calls(video_path: Path, client: ModelClient, language: str) -> tuple[int, str]:
    """For a dry run: how many speech-recognition requests `video_transcript` would send, and why. Sends nothing."""
    subtitles, none_because = _source(video_path, client, language)
    if subtitles is not None:
        return 0, "from its subtitle file"
    if none_because:
        return 0, f"none: {none_because}"
    return 1, "at most: one request for the audio track (none if the model cache has it)"


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
