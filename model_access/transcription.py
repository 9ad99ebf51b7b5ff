"""Speech to text through the `asr` role: an OpenAI-compatible `/v1/audio/transcriptions` endpoint.

    heard = transcribe(client, Path("piece000.flac"), language="en", stage="transcripts")
    heard.segments   # [{"start", "end", "text", "no_speech_prob"?}] in the file's own time
    vtt_text(cues)   # WebVTT, so a transcript can be cut to the time span of a trajectory

One call sends one audio file (processing/transcripts.py cuts a long track into pieces).
Requests ask for `verbose_json`, whose timed segments become cues. A server that refuses it
(older vLLM: "only support response_format text or json") is asked again with `json`, and
every later request to that server and model asks for `json` at once; a reply with text but
no segments comes back with `timed` false, so the caller can say the timing is missing.
The model name goes in `model` and in each of `model_name_fields` (faster-whisper-server
reads `model_name`). A finished call is cached on disk like every chat call (`<model
cache>/asr/`), keyed by the audio's sha256, the model and the language, so a re-run never
sends the same audio twice. It holds one of the client's slots, is retried like a chat call
and counted in the usage ledger under its stage and the role `asr`: retries, and a cache hit
as a cache hit.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from model_access.openai_sdk import openai

from foundation.subtitles import Cue
from model_access.cache import DiskCache, request_key
from model_access.client import ModelClient
from model_access.retry import ModelCallError, call_with_retries, error_summary
from model_access.scripted_server import is_scripted_reply

log = logging.getLogger(__name__)

ROLE = "asr"
TIMED_FORMAT = "verbose_json"
TEXT_FORMAT = "json"
# Words in a rejection that say the server does not offer timed segments (vLLM, whisper.cpp, others).
_FORMAT_REFUSAL_WORDS = ("response_format", "verbose_json", "response format")
# (base_url, model) of servers that refused `verbose_json` in this process: asked for `json` at once.
_TEXT_ONLY: set[tuple[str, str]] = set()
_TEXT_ONLY_LOCK = threading.Lock()


@dataclass
class Transcription:
    """What the server heard in one audio file."""

    segments: list[dict[str, Any]]  # start, end (s, in the file), text; no_speech_prob when the server gives it
    text: str  # all the text, also when there are no segments
    timed: bool  # False: the server answered text without segments (no timing)
    scripted: bool = False  # answered by the scripted test server, not a model
    cached: bool = False
    retries: int = 0  # requests sent again (errors, or another response format)
    response_format: str = TIMED_FORMAT
    notes: list[str] = field(default_factory=list)


def transcribe(
    client: ModelClient,
    audio_path: Path,
    *,
    language: str,
    stage: str,
    model_name_fields: Sequence[str] = ("model_name",),
) -> Transcription:
    """The speech in `audio_path` as the `asr` role's server hears it; ModelCallError when it cannot."""
    role = client.role_settings(ROLE)
    audio = Path(audio_path).read_bytes()
    key = request_key({
        "route": "audio/transcriptions", "model": role.model, "language": language,
        "audio_sha256": hashlib.sha256(audio).hexdigest(),
    })  # fmt: skip
    cache = DiskCache(client.settings.paths.model_cache_dir / "asr")
    use_cache = client.settings.models.use_cache
    if use_cache:
        entry = cache.get(key)
        if entry is not None and isinstance(entry.get("segments"), list):
            scripted = bool(entry.get("scripted"))
            client.ledger.record(stage, ROLE, calls=1, cache_hits=1, scripted=int(scripted))
            return Transcription(entry["segments"], str(entry.get("text", "")), bool(entry.get("timed", True)),
                                 scripted, cached=True, response_format=str(entry.get("response_format", "")))  # fmt: skip

    http = client.http_client(role)
    # Repeat the model name under each alias, then the role's own extra fields (they win).
    form = {**{name: role.model for name in model_name_fields}, **role.extra_body}
    retries = 0

    def count_retry(_: BaseException) -> None:
        nonlocal retries
        retries += 1

    def attempt(response_format: str) -> Any:
        client.connection_watch.before_attempt(ROLE)
        try:
            with client.slots_for(role.base_url):
                response = http.audio.transcriptions.create(
                    model=role.model, file=(Path(audio_path).name, audio), language=language or None,
                    response_format=response_format, extra_body=form or None, timeout=role.timeout_s,
                )  # fmt: skip
        except Exception as exc:
            client.connection_watch.attempt_failed(ROLE, role.model, role.base_url, exc)
            raise
        client.connection_watch.answered(ROLE)
        return response

    server = (role.base_url, role.model)
    with _TEXT_ONLY_LOCK:
        response_format = TEXT_FORMAT if server in _TEXT_ONLY else TIMED_FORMAT
    describe = f"asr model {role.model!r} at {role.base_url}"
    notes: list[str] = []
    started = time.perf_counter()
    try:
        try:
            response = call_with_retries(lambda: attempt(response_format), client.retry_policy, describe, count_retry)
        except ModelCallError as exc:
            if response_format != TIMED_FORMAT or not _refuses_timed_format(exc):
                raise
            with _TEXT_ONLY_LOCK:
                _TEXT_ONLY.add(server)
            notes.append(f"{describe} refused {TIMED_FORMAT} ({error_summary(exc.__cause__ or exc)}); "
                         f"asked again with {TEXT_FORMAT}, which has no timing")  # fmt: skip
            log.warning(notes[-1])
            retries += 1
            response_format = TEXT_FORMAT
            response = call_with_retries(lambda: attempt(response_format), client.retry_policy, describe, count_retry)
    except Exception:
        client.ledger.record(stage, ROLE, calls=1, failures=1, retries=retries,
                             latency_s=time.perf_counter() - started)  # fmt: skip
        raise
    data = _as_dict(response)
    segments = [_segment(s) for s in data.get("segments") or []]
    text = str(data.get("text", "")).strip() or " ".join(s["text"] for s in segments)
    timed = bool(segments) or not text
    scripted = is_scripted_reply(data.get("model"), data.get("system_fingerprint"))
    client.ledger.record(stage, ROLE, calls=1, retries=retries, latency_s=time.perf_counter() - started,
                         scripted=int(scripted))  # fmt: skip
    if use_cache:
        cache.put(key, {"segments": segments, "text": text, "timed": timed, "scripted": scripted,
                        "response_format": response_format, "model": role.model, "served_by": role.base_url,
                        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")})  # fmt: skip
    return Transcription(segments, text, timed, scripted, False, retries, response_format, notes)


def _refuses_timed_format(exc: ModelCallError) -> bool:
    """Whether the server rejected the request for its response format (not for the audio or the model)."""
    cause = exc.__cause__
    if not isinstance(cause, openai.APIStatusError) or cause.status_code not in (400, 415, 422):
        return False
    said = f"{error_summary(cause)} {cause.body}".lower()
    return any(word in said for word in _FORMAT_REFUSAL_WORDS)


def _as_dict(response: Any) -> dict[str, Any]:
    if isinstance(response, str):  # a server that answers plain text whatever was asked
        return {"text": response}
    if hasattr(response, "model_dump"):
        return response.model_dump()
    return dict(response)


def _segment(raw: Any) -> dict[str, Any]:
    raw = raw if isinstance(raw, dict) else dict(raw)
    segment = {"start": float(raw.get("start") or 0.0), "end": float(raw.get("end") or 0.0),
               "text": str(raw.get("text", ""))}  # fmt: skip
    for name in ("no_speech_prob", "avg_logprob"):
        if raw.get(name) is not None:
            segment[name] = float(raw[name])
    return segment


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
