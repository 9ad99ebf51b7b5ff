"""A local OpenAI-compatible HTTP server whose replies come from a script: for tests and demos only.

It speaks enough of the API for the real `openai` client: `POST /v1/chat/completions`
(plain or streamed as server-sent events; a reply longer than the request's
`max_tokens` words is cut there with finish_reason "length"), `POST /v1/embeddings`, `POST /v1/audio/transcriptions` (verbose_json; a
reply is a JSON list of `{start, end, text}` segments, rules match the line "audio
transcription of <file name>") and `GET /v1/models`. Nothing it says is a
model's output, and it says so everywhere: every reply's model name is
`scripted/<name>`, its `system_fingerprint` is "scripted", every response carries
the header `X-Scripted: true`, and `ModelClient` marks such results `scripted=True`
so usage tables label them "SCRIPTED (not a model result)".

Script file (YAML or JSON)::

    name: demo                 # replies report the model "scripted/demo" (default: the requested name)
    delay_s: 0.2               # every request waits this long before answering (default 0)
    embedding_dim: 64          # size of the /v1/embeddings vectors (default 64)
    rules:                     # tried first, in order; the first that matches answers
      - contains: "Label the actions"   # a substring of the searched text...
        reply: '[{"action": "click"}]'
      - regex: "objective of (.*)"      # ...or a regular expression (re.search, dot matches newline)
        search: last_user               # what is searched: "prompt" (all message text, default) or "last_user"
        reply: "Find the cheapest item"
        times: 2                        # answers at most twice (default: no limit)
    replies:                   # then these, one per request, in order
      - "a plain reply"
      - {reply: "a slow reply", delay_s: 1.5}
      - {status: 429}          # answer this request with an HTTP error instead (429, 500, 503...)
      - {status: 500, times: 2}
      - {reply: "a reply cut short", cut: true}   # streamed: half the words, then [DONE] with no finish reason
    default: "OK"              # once the list is used up (without it, an exhausted script answers 400)
    serves: [model-a, model-b] # the names GET /v1/models lists (default: "scripted/<name>")
    stream_usage: false        # streams carry no usage even when asked, as llama-cpp-python's (default true)

A bare YAML/JSON list is a script of `replies` only. Any entry may carry `status`,
`delay_s`, `times` and `cut` (a streamed reply stops after half its words with
`data: [DONE]` and no finish reason, as llama-cpp-python's server ends a stream that
another request interrupts; a plain reply is unaffected); an entry with a status answers an OpenAI-style error body, or,
when it also has a `reply`, that text as the body (JSON when it parses), to play the
error shapes of other servers (FastAPI's `{"detail": ...}`, a bare string).

Embeddings are deterministic hashed bags of words (each lower-cased word adds
+-1 to one of `embedding_dim` slots chosen by its sha1, then L2-normalised): texts
sharing words are close, which is all a test of the plumbing needs. Token counts
are whitespace-separated words of the text parts, images excluded.

Every request is kept in `server.log` from the moment it arrives (method, path,
headers with the key masked, the full JSON body; then status, reply and which
entry answered) and appended to a JSONL file once answered when a file is
given, so tests can assert exactly what was sent. `max_in_flight` records the
most requests ever handled at once.

    with ScriptedServer(["first", "second"]) as server:   # port 0: a free port
        settings.models.vlm.base_url = server.base_url     # http://127.0.0.1:PORT/v1
        ...
        assert len(server.requests("/v1/chat/completions")) == 2

    videodemo models scripted-server --script replies.yaml --port 8100
"""

from __future__ import annotations

import base64
import email.parser
import email.policy
import hashlib
import json
import re
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from foundation.errors import UserError
from model_access.messages import prompt_text

SCRIPTED_FINGERPRINT = "scripted"
SCRIPTED_MODEL_PREFIX = "scripted/"
_ENTRY_KEYS = {"reply", "status", "delay_s", "times", "cut"}
_RULE_KEYS = _ENTRY_KEYS | {"contains", "regex", "search"}


@dataclass
class Entry:
    reply: str = ""
    status: int = 200
    delay_s: float = 0.0
    times: int | None = None  # None: unlimited (rules) / once (ordered replies, expanded on load)
    contains: str | None = None
    regex: re.Pattern[str] | None = None
    search: str = "prompt"
    used: int = 0
    cut: bool = False  # a streamed reply ends part-way without a finish reason

    def matches(self, messages: list[dict[str, Any]]) -> bool:
        if self.times is not None and self.used >= self.times:
            return False
        text = _last_user_text(messages) if self.search == "last_user" else prompt_text(messages)
        if self.contains is not None and self.contains not in text:
            return False
        return self.regex is None or self.regex.search(text) is not None


@dataclass
class Script:
    name: str = ""
    delay_s: float = 0.0
    embedding_dim: int = 64
    rules: list[Entry] = field(default_factory=list)
    replies: list[Entry] = field(default_factory=list)
    default: Entry | None = None
    serves: list[str] = field(default_factory=list)
    stream_usage: bool = True  # False: `stream_options.include_usage` is ignored


def load_script(source: Any, origin: str = "script") -> Script:
    """A `Script` from a file path, a list of replies, or a mapping as documented above."""
    if isinstance(source, Script):
        return source
    if isinstance(source, (str, Path)):
        path = Path(source)
        if not path.is_file():
            raise UserError(f"script file {path} not found; pass an existing YAML or JSON file to --script")
        try:
            source = yaml.safe_load(path.read_text())
        except yaml.YAMLError as exc:
            raise UserError(f"script file {path} is not valid YAML/JSON: {' '.join(str(exc).split())}") from exc
        origin = str(path)
    if isinstance(source, list):
        source = {"replies": source}
    if not isinstance(source, dict):
        raise UserError(f"{origin} must be a list of replies or a mapping with rules/replies/default")
    known = {"name", "delay_s", "embedding_dim", "rules", "replies", "default", "serves", "stream_usage"}
    unknown = set(source) - known
    if unknown:
        raise UserError(f"{origin} has unknown keys {sorted(unknown)}; see model_access/scripted_server.py")
    for section in ("rules", "replies"):
        if not isinstance(source.get(section) or [], list):
            raise UserError(f"{origin}: `{section}` must be a list")
    script = Script(
        name=str(source.get("name") or ""),
        delay_s=float(source.get("delay_s") or 0.0),
        embedding_dim=int(source.get("embedding_dim") or 64),
        serves=[str(name) for name in source.get("serves") or []],
        stream_usage=bool(source.get("stream_usage", True)),
    )
    for i, raw in enumerate(source.get("rules") or []):
        rule = _entry(raw, f"{origin} rule {i + 1}", _RULE_KEYS)
        if rule.contains is None and rule.regex is None:
            raise UserError(f"{origin} rule {i + 1} needs `contains` or `regex`")
        script.rules.append(rule)
    for i, raw in enumerate(source.get("replies") or []):
        entry = _entry(raw, f"{origin} reply {i + 1}", _ENTRY_KEYS)
        # An ordered entry with `times: n` is n consecutive answers.
        script.replies.extend(_copy(entry) for _ in range(entry.times or 1))
    if source.get("default") is not None:
        script.default = _entry(source["default"], f"{origin} default", _ENTRY_KEYS)
    return script


class ScriptedServer:
    """The server in a background thread; a context manager giving its base URL and request log."""

    def __init__(
        self, script: Any, host: str = "127.0.0.1", port: int = 0, log_path: Path | None = None, echo: bool = False
    ) -> None:
        self.script = load_script(script)
        self.log: list[dict[str, Any]] = []
        self.log_path = Path(log_path) if log_path else None
        self.echo = echo
        self.max_in_flight = 0
        self._in_flight = 0
        self._next_reply = 0
        self._lock = threading.Lock()
        self._delays_released = threading.Event()
        self._httpd = _Server((host, port), _Handler)
        self._httpd.scripted = self
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def requests(self, path_suffix: str = "/chat/completions") -> list[dict[str, Any]]:
        """Logged requests whose path ends with `path_suffix`."""
        with self._lock:
            return [entry for entry in self.log if entry["path"].endswith(path_suffix)]

    def release_delays(self) -> None:
        """Answer the requests waiting out a `delay_s` now, and later ones at once: a test that has seen what it
        held a reply back for need not wait out the rest of the delay."""
        self._delays_released.set()

    def hold_delays(self) -> None:
        """Make `delay_s` hold replies back again (after `release_delays`)."""
        self._delays_released.clear()

    def wait_out(self, seconds: float) -> None:
        """A scripted delay: `seconds`, or until `release_delays`."""
        self._delays_released.wait(seconds)

    def start(self) -> "ScriptedServer":
        # A short poll interval makes stop() quick; the default half second adds up over a test suite.
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="scripted-server", daemon=True
        )
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self._httpd.serve_forever()

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._httpd.drop_connections()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> "ScriptedServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- request handling (called from handler threads) --------------------------------------

    def enter(self) -> None:
        with self._lock:
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)

    def leave(self) -> None:
        with self._lock:
            self._in_flight -= 1

    def pick(self, messages: list[dict[str, Any]]) -> tuple[Entry | None, str]:
        """The entry answering these messages and a label saying which one it was."""
        with self._lock:
            for i, rule in enumerate(self.script.rules):
                if rule.matches(messages):
                    rule.used += 1
                    return rule, f"rule {i + 1}"
            if self._next_reply < len(self.script.replies):
                self._next_reply += 1
                return self.script.replies[self._next_reply - 1], f"reply {self._next_reply}"
            if self.script.default is not None:
                return self.script.default, "default"
            return None, "script exhausted"

    def record(self, entry: dict[str, Any]) -> None:
        """Log a request on arrival (status None until `finish`), so a test sees even one still running."""
        with self._lock:
            entry["n"] = len(self.log) + 1
            self.log.append(entry)

    def finish(self, entry: dict[str, Any], status: int, reply: str, label: str) -> None:
        with self._lock:
            entry.update(status=status, reply=reply, answered_by=label)
            if self.log_path is not None:
                with self.log_path.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(entry) + "\n")
        if self.echo:
            line = f"#{entry['n']} {entry['method']} {entry['path']} -> {entry['status']} ({entry['answered_by']})"
            print(f"[scripted] {line}", file=sys.stderr, flush=True)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # the default of 5 refuses connections under a 32-wide burst
    scripted: ScriptedServer

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._connections: set[socket.socket] = set()
        self._connections_lock = threading.Lock()

    def handle_error(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
        # A client that gave up (a timeout test) closes the socket mid-reply: expected, not worth a traceback.
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)

    def process_request(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
        with self._connections_lock:
            self._connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request) -> None:  # type: ignore[no-untyped-def]
        with self._connections_lock:
            self._connections.discard(request)
        super().shutdown_request(request)

    def drop_connections(self) -> None:
        """Close kept-alive connections too, so a stopped server is gone for its clients (as a dead one is)."""
        with self._connections_lock:
            connections, self._connections = list(self._connections), set()
        for connection in connections:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the openai client expects
    # Headers and body go out in two writes; with Nagle on, keep-alive replies stall ~40 ms on delayed ACKs.
    disable_nagle_algorithm = True
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
        pass  # requests are logged by ScriptedServer.record instead

    def do_GET(self) -> None:
        scripted = self.server.scripted
        if self.path.rstrip("/").endswith("/models"):
            names = scripted.script.serves or [f"scripted/{scripted.script.name or 'model'}"]
            listing = [{"id": name, "object": "model", "created": 0, "owned_by": "scripted"} for name in names]
            status, payload = 200, {"object": "list", "data": listing}
        else:
            status, payload = 404, _error(404, f"scripted server: no route GET {self.path}")
        entry = self._log_entry(None)
        scripted.record(entry)
        scripted.finish(entry, status, "", "route")
        self._send(status, payload)

    def do_POST(self) -> None:
        scripted = self.server.scripted
        scripted.enter()
        try:
            try:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                if self.path.endswith("/audio/transcriptions"):
                    body = _form_fields(self.headers.get("Content-Type", ""), raw)
                else:
                    body = json.loads(raw or b"{}")
            except ValueError as exc:
                entry = self._log_entry(None)
                scripted.record(entry)
                scripted.finish(entry, 400, "", "bad request")
                self._send(400, _error(400, f"scripted server: unreadable body ({exc})"))
                return
            entry = self._log_entry(body)
            scripted.record(entry)
            if scripted.script.delay_s:
                scripted.wait_out(scripted.script.delay_s)
            if self.path.endswith("/chat/completions"):
                status, payload, reply, label = self._chat(body)
            elif self.path.endswith("/embeddings"):
                status, payload, reply, label = self._embeddings(body)
            elif self.path.endswith("/audio/transcriptions"):
                status, payload, reply, label = self._transcription(body)
            else:
                payload = _error(404, f"scripted server: no route POST {self.path}")
                status, reply, label = 404, "", "route"
            # Finish the log entry before answering, so a test reading it after the reply sees the outcome.
            scripted.finish(entry, status, reply, label)
            cut = bool(payload.pop("_cut", False)) if isinstance(payload, dict) else False
            if status == 200 and isinstance(body, dict) and body.get("stream") and "choices" in payload:
                asked = bool((body.get("stream_options") or {}).get("include_usage"))
                include_usage = asked and scripted.script.stream_usage
                self._send_stream(payload, include_usage, cut=cut)
            else:
                self._send(status, payload)
        finally:
            scripted.leave()

    def _chat(self, body: dict[str, Any]) -> tuple[int, dict[str, Any], str, str]:
        scripted = self.server.scripted
        messages = body.get("messages") or []
        entry, label = scripted.pick(messages)
        if entry is None:
            used = len(scripted.script.replies)
            message = f"scripted server: script exhausted after {used} replies; add replies or a default"
            return 400, _error(400, message), "", label
        if entry.delay_s:
            scripted.wait_out(entry.delay_s)
        if entry.status != 200:
            if entry.reply:  # another server's error shape, sent as it is
                return entry.status, _raw_body(entry.reply), "", label
            return entry.status, _error(entry.status, f"scripted HTTP {entry.status} from {label}"), "", label
        prompt_tokens = len(prompt_text(messages).split())
        reply, finish_reason = entry.reply, "stop"
        # The length limit is obeyed as a server would: the reply cut at that many words, finish_reason "length".
        limit = body.get("max_tokens") or body.get("max_completion_tokens")
        if isinstance(limit, int) and len(reply.split()) > limit:
            reply, finish_reason = " ".join(reply.split()[:limit]), "length"
        completion_tokens = len(reply.split())
        payload: dict[str, Any] = {"_cut": entry.cut} if entry.cut else {}
        payload |= {
            "id": f"scripted-{len(scripted.log) + 1}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": f"scripted/{scripted.script.name or body.get('model') or 'model'}",
            "system_fingerprint": SCRIPTED_FINGERPRINT,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply},
                    "finish_reason": finish_reason,
                    "logprobs": None,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }
        return 200, payload, reply, label

    def _embeddings(self, body: dict[str, Any]) -> tuple[int, dict[str, Any], str, str]:
        scripted = self.server.scripted
        texts = body.get("input")
        texts = [texts] if isinstance(texts, str) else texts
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            message = "scripted server: embeddings input must be a string or a list of strings"
            return 400, _error(400, message), "", "bad request"
        as_base64 = body.get("encoding_format") == "base64"
        data = []
        for i, text in enumerate(texts):
            vector = hashed_bag_of_words(text, scripted.script.embedding_dim)
            encoded: Any = base64.b64encode(vector.astype("<f4").tobytes()).decode() if as_base64 else vector.tolist()
            data.append({"object": "embedding", "index": i, "embedding": encoded})
        tokens = sum(len(t.split()) for t in texts)
        name = f"scripted/{scripted.script.name or body.get('model') or 'embedding'}"
        usage = {"prompt_tokens": tokens, "total_tokens": tokens}
        payload = {"object": "list", "data": data, "model": name, "usage": usage}
        return 200, payload, "", "hashed bag of words"

    def _transcription(self, body: dict[str, Any]) -> tuple[int, dict[str, Any], str, str]:
        """verbose_json of the scripted segments: a reply is a JSON list of {start, end, text} (other segment
        fields, e.g. no_speech_prob, kept), or plain text; `json` answers only the text. Rules match the line
        "audio transcription of <file name> as <response format>"; an error entry's `reply` is its message."""
        scripted = self.server.scripted
        audio = body.get("file") or {}
        if not audio.get("bytes"):
            return 400, _error(400, "scripted server: a transcription request needs a non-empty `file`"), "", "bad request"
        # Rules match on this line, e.g. `contains: "audio transcription"`, the file's name or "as json".
        response_format = str(body.get("response_format") or "json")
        line = f"audio transcription of {audio.get('name', '')} as {response_format}"
        entry, label = scripted.pick([{"role": "user", "content": line}])
        if entry is None:
            return 400, _error(400, "scripted server: script exhausted; add a transcription reply"), "", label
        if entry.status != 200:  # the entry's reply, when given, is the server's reason (e.g. vLLM's refusal)
            return entry.status, _error(entry.status, entry.reply or f"scripted HTTP {entry.status} from {label}"), "", label
        try:
            segments = json.loads(entry.reply)
        except ValueError:
            segments = [{"start": 0.0, "end": 0.0, "text": entry.reply}]
        if not isinstance(segments, list):
            segments = [{"start": 0.0, "end": 0.0, "text": str(entry.reply)}]
        segments = [{**s, "id": i, "start": float(s.get("start", 0)), "end": float(s.get("end", 0)),
                     "text": str(s.get("text", ""))} for i, s in enumerate(segments)]  # fmt: skip
        if response_format != "verbose_json":  # text without timing, as `json` is answered by every server
            text = " ".join(s["text"].strip() for s in segments)
            model = f"scripted/{scripted.script.name or body.get('model') or 'asr'}"
            return 200, {"text": text, "model": model, "system_fingerprint": SCRIPTED_FINGERPRINT}, entry.reply, label
        payload = {
            "task": "transcribe",
            "language": body.get("language") or "en",
            "duration": max((s["end"] for s in segments), default=0.0),
            "text": " ".join(s["text"].strip() for s in segments),
            "segments": segments,
            "model": f"scripted/{scripted.script.name or body.get('model') or 'asr'}",
            "system_fingerprint": SCRIPTED_FINGERPRINT,
        }
        return 200, payload, entry.reply, label

    def _send(self, status: int, payload: Any) -> None:
        data = payload.text.encode() if isinstance(payload, _RawText) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("X-Scripted", "true")
        self.end_headers()
        self.wfile.write(data)

    def _send_stream(self, payload: dict[str, Any], include_usage: bool, cut: bool = False) -> None:
        """A chat completion as server-sent events: the reply word by word, the finish reason, usage if asked.
        `cut`: half the words and then `[DONE]`, with no finish reason and no usage (an interrupted stream)."""
        choice = payload["choices"][0]
        words = choice["message"]["content"].split(" ")
        if cut:
            words = words[: len(words) // 2]
        base = {k: payload[k] for k in ("id", "created", "model", "system_fingerprint")}
        base["object"] = "chat.completion.chunk"
        chunks = [{**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}]
        for i, word in enumerate(words):
            text = word if i == 0 else " " + word
            chunks.append({**base, "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]})
        if not cut:
            chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}]})
        if include_usage and not cut:
            chunks.append({**base, "choices": [], "usage": payload["usage"]})
        data = b"".join(f"data: {json.dumps(chunk)}\n\n".encode() for chunk in chunks) + b"data: [DONE]\n\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("X-Scripted", "true")
        self.end_headers()
        self.wfile.write(data)

    def _log_entry(self, body: Any) -> dict[str, Any]:
        headers = {k.lower(): v for k, v in self.headers.items()}
        if "authorization" in headers:
            headers["authorization"] = _mask(headers["authorization"])
        return {
            "time": time.time(),
            "method": self.command,
            "path": self.path,
            "headers": headers,
            "body": body,
            "status": None,
            "reply": "",
            "answered_by": "",
        }


def _form_fields(content_type: str, raw: bytes) -> dict[str, Any]:
    """A multipart/form-data body as {field: text}, the uploaded file as {name, bytes, sha256, head}."""
    if "multipart/form-data" not in content_type:
        raise ValueError(f"expected multipart/form-data, got {content_type or 'no content type'}")
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + raw
    )
    fields: dict[str, Any] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        data = part.get_payload(decode=True) or b""
        filename = part.get_filename()
        if filename is not None:
            digest = hashlib.sha256(data).hexdigest()
            fields[str(name)] = {"name": filename, "bytes": len(data), "sha256": digest, "head": data[:4].decode("latin-1")}
        else:
            fields[str(name)] = data.decode("utf-8", errors="replace")
    return fields


def is_scripted_reply(model: str | None, fingerprint: str | None = None) -> bool:
    """Whether a response came from this server (clients use it to label results)."""
    return fingerprint == SCRIPTED_FINGERPRINT or str(model or "").startswith(SCRIPTED_MODEL_PREFIX)


def hashed_bag_of_words(text: str, dim: int) -> np.ndarray:
    vector = np.zeros(dim, dtype=np.float32)
    for word in re.findall(r"\w+", text.lower()):
        digest = hashlib.sha1(word.encode()).digest()
        vector[int.from_bytes(digest[:4], "little") % dim] += 1.0 if digest[4] & 1 else -1.0
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else vector


def _last_user_text(messages: list[dict[str, Any]]) -> str:
    for message in reversed(messages):
        if message.get("role") == "user":
            return prompt_text([message])
    return ""


def _error(status: int, message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "scripted_error", "code": status}}


def _mask(value: str) -> str:
    scheme, _, secret = value.partition(" ")
    return f"{scheme} ...{secret[-4:]}" if secret else "..."


def _entry(raw: Any, where: str, allowed: set[str]) -> Entry:
    if isinstance(raw, str):
        return Entry(reply=raw)
    if not isinstance(raw, dict):
        raise UserError(f"{where} must be a string or a mapping, got {raw!r}")
    unknown = set(raw) - allowed
    if unknown:
        raise UserError(f"{where} has unknown keys {sorted(unknown)}; allowed: {sorted(allowed)}")
    if "reply" not in raw and "status" not in raw:
        raise UserError(f"{where} needs a `reply` or a `status`")
    try:
        regex = re.compile(str(raw["regex"]), re.DOTALL) if raw.get("regex") is not None else None
    except re.error as exc:
        raise UserError(f"{where} has an invalid regex: {exc}") from exc
    search = str(raw.get("search", "prompt"))
    if search not in ("prompt", "last_user"):
        raise UserError(f"{where}: search must be 'prompt' or 'last_user', got {search!r}")
    try:
        return Entry(
            reply=str(raw.get("reply", "")),
            status=int(raw.get("status", 200)),
            delay_s=float(raw.get("delay_s", 0.0)),
            times=int(raw["times"]) if raw.get("times") is not None else None,
            contains=str(raw["contains"]) if raw.get("contains") is not None else None,
            regex=regex,
            search=search,
            cut=bool(raw.get("cut", False)),
        )
    except (TypeError, ValueError) as exc:
        raise UserError(f"{where}: status and times must be whole numbers, delay_s a number ({exc})") from exc


def _copy(entry: Entry) -> Entry:
    return Entry(
        entry.reply, entry.status, entry.delay_s, None, entry.contains, entry.regex, entry.search, cut=entry.cut
    )


@dataclass
class _RawText:
    text: str


def _raw_body(reply: str) -> Any:
    """An error body given in a script: its JSON when it parses, else the text as it is."""
    try:
        return json.loads(reply)
    except ValueError:
        return _RawText(reply)
