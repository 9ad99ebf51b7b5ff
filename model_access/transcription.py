"""Speech to text through the `asr` role: an OpenAI-compatible `/v1/audio/transcriptions` endpoint.

    cues, scripted = transcribe(client, Path("talk.wav"), language="en", stage="transcripts")
    vtt_text(cues)   # WebVTT, so a transcript can be cut to the time span of a trajectory

vLLM serves Whisper models on this route (docs/models.md has the command). Requests
ask for `verbose_json`, whose timed segments become the cues. A finished call is
cached on disk like every chat call (`<model cache>/asr/`), keyed by the audio's
sha256, the model, the language and the response format, so a re-run never sends a
video's audio twice. It holds one of the client's slots, is retried like a chat call
and counted in the usage ledger under its stage and the role `asr`.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any

from foundation.subtitles import Cue
from model_access.cache import DiskCache, request_key
from model_access.client import ModelClient
from model_access.retry import call_with_retries
from model_access.scripted_server import is_scripted_reply

ROLE = "asr"
RESPONSE_FORMAT = "verbose_json"


def transcribe(client: ModelClient, audio_path: Path, *, language: str, stage: str) -> tuple[list[Cue], bool]:
    """Timed cues of the speech in `audio_path`, and whether a scripted server (not a model) gave them."""
    role = client.role_settings(ROLE)
    audio = Path(audio_path).read_bytes()
    key = request_key({
        "route": "audio/transcriptions", "model": role.model, "language": language,
        "response_format": RESPONSE_FORMAT, "audio_sha256": hashlib.sha256(audio).hexdigest(),
    })  # fmt: skip
    cache = DiskCache(client.settings.paths.model_cache_dir / "asr")
    use_cache = client.settings.models.use_cache
    if use_cache:
        entry = cache.get(key)
        if entry is not None and isinstance(entry.get("segments"), list):
            client.ledger.record(stage, ROLE, calls=1, cache_hits=1, scripted=int(bool(entry.get("scripted"))))
            return _cues(entry["segments"]), bool(entry.get("scripted"))

    http = client.http_client(role)

    def attempt() -> Any:
        client.connection_watch.before_attempt(ROLE)
        try:
            with client.slots_for(role.base_url):
                response = http.audio.transcriptions.create(
                    model=role.model, file=(Path(audio_path).name, audio), language=language or None,
                    response_format=RESPONSE_FORMAT, timeout=role.timeout_s,
                )  # fmt: skip
        except Exception as exc:
            client.connection_watch.attempt_failed(ROLE, role.model, role.base_url, exc)
            raise
        client.connection_watch.answered(ROLE)
        return response

    started = time.perf_counter()
    describe = f"asr model {role.model!r} at {role.base_url}"
    try:
        response = call_with_retries(attempt, client.retry_policy, describe)
    except Exception:
        client.ledger.record(stage, ROLE, calls=1, failures=1, latency_s=time.perf_counter() - started)
        raise
    data = response.model_dump() if hasattr(response, "model_dump") else dict(response)
    segments = [
        {"start": float(s.get("start", 0.0)), "end": float(s.get("end", 0.0)), "text": str(s.get("text", ""))}
        for s in data.get("segments") or []
    ]
    if not segments and str(data.get("text", "")).strip():  # a server that gives text without segments
        segments = [{"start": 0.0, "end": float(data.get("duration") or 0.0), "text": str(data["text"])}]
    scripted = is_scripted_reply(data.get("model"), data.get("system_fingerprint"))
    client.ledger.record(stage, ROLE, calls=1, latency_s=time.perf_counter() - started, scripted=int(scripted))
    if use_cache:
        cache.put(key, {"segments": segments, "scripted": scripted, "model": role.model, "served_by": role.base_url,
                        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")})  # fmt: skip
    return _cues(segments), scripted


def _cues(segments: list[dict[str, Any]]) -> list[Cue]:
    cues = [Cue(float(s["start"]), float(s["end"]), " ".join(str(s["text"]).split())) for s in segments]
    return [cue for cue in cues if cue.text]


def vtt_text(cues: list[Cue]) -> str:
    """The cues as a WebVTT document (foundation.subtitles reads it back)."""
    blocks = ["WEBVTT"]
    for cue in cues:
        blocks.append(f"{_timestamp(cue.start_s)} --> {_timestamp(cue.end_s)}\n{cue.text}")
    return "\n\n".join(blocks) + "\n"


def _timestamp(seconds: float) -> str:
    millis = max(0, round(seconds * 1000))
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    return f"{hours:02d}:{minutes:02d}:{rest // 1000:02d}.{rest % 1000:03d}"
