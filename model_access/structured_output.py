"""Constrained decoding of structured replies: which request fields each server reads.

`models.<role>.structured_output`:
- `off` (default: the method's paper and the anchors send none): free text, parsed as always;
- `json_schema`: the reply schema (model_access/reply_schema.py) in the server's JSON-schema field;
- `grammar`: the same schema as a GBNF grammar (model_access/reply_grammar.py);
- `auto`: what the role's server is known to honour, by its kind.

The server's kind is read once per endpoint from `GET /v1/models` (`owned_by`: "vllm",
"llamacpp" for llama.cpp's own server, "me" for llama-cpp-python's, "sglang", "scripted"),
from `GET /version` for vLLM's version, and from the host for api.openai.com.
Request shapes, checked against each server's code or docs:

- OpenAI API: json_schema = response_format {type: json_schema, json_schema: {name, schema, strict}};
  no grammar field (an error);
- vLLM: the same response_format in every version; grammar = structured_outputs {grammar} from 0.10.2,
  guided_grammar before (removed in 0.12);
- llama.cpp's server: the same response_format; grammar = `grammar` (GBNF);
- llama-cpp-python's server: response_format {type: json_object, schema} (its type list refuses
  json_schema); grammar = `grammar`;
- SGLang: the same response_format; grammar = `ebnf`;
- transformers serve: neither (it drops response_format with a log line).

A server that honours nothing gets free text and one warning per role; `videodemo models check`
sends a constrained probe and reports whether the reply kept to the schema.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any

import requests

from foundation.errors import UserError
from model_access.reply_grammar import grammar_for
from model_access.reply_schema import ReplySchema

log = logging.getLogger(__name__)

MODES = ("off", "json_schema", "grammar", "auto")
OPENAI, VLLM, LLAMA_CPP, LLAMA_CPP_PYTHON, SGLANG, TRANSFORMERS, SCRIPTED, UNKNOWN = (
    "openai", "vllm", "llama.cpp", "llama-cpp-python", "sglang", "transformers", "scripted", "unknown",
)  # fmt: skip
_OWNED_BY = {"vllm": VLLM, "llamacpp": LLAMA_CPP, "me": LLAMA_CPP_PYTHON, "sglang": SGLANG, "scripted": SCRIPTED}
# Kinds that constrain decoding to a JSON schema, and to a grammar.
JSON_SCHEMA_KINDS = (OPENAI, VLLM, LLAMA_CPP, LLAMA_CPP_PYTHON, SGLANG, SCRIPTED)
GRAMMAR_KINDS = (VLLM, LLAMA_CPP, LLAMA_CPP_PYTHON, SGLANG, SCRIPTED)


@dataclass(frozen=True)
class ServerKind:
    kind: str
    version: str = ""  # vLLM's, from GET /version

    def describe(self) -> str:
        return f"{self.kind} {self.version}".strip()


def check_mode(mode: str, role: str) -> str:
    mode = (mode or "off").strip()
    if mode not in MODES:
        raise UserError(f"models.{role}.structured_output must be one of {', '.join(MODES)}, got {mode!r}")
    return mode


class ServerKinds:
    """The kind of each endpoint, asked once per process (thread-safe)."""

    def __init__(self, timeout_s: float = 8.0) -> None:
        self.timeout_s = timeout_s
        self._kinds: dict[str, ServerKind] = {}
        self._lock = threading.Lock()
        self._warned: set[tuple[str, str]] = set()

    def of(self, base_url: str, api_key: str = "") -> ServerKind:
        with self._lock:
            if base_url not in self._kinds:
                self._kinds[base_url] = detect_kind(base_url, api_key, self.timeout_s)
            return self._kinds[base_url]

    def warn_once(self, role: str, text: str) -> None:
        with self._lock:
            if (role, text) in self._warned:
                return
            self._warned.add((role, text))
        log.warning(text)


def detect_kind(base_url: str, api_key: str = "", timeout_s: float = 8.0) -> ServerKind:
    """The server's kind from its model list (and vLLM's version); UNKNOWN when it does not say."""
    if "api.openai.com" in base_url:
        return ServerKind(OPENAI)
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    root = base_url.rstrip("/")
    try:
        listing = requests.get(f"{root}/models", headers=headers, timeout=timeout_s).json()
        owners = {str(item.get("owned_by", "")) for item in listing.get("data", [])}
    except (requests.RequestException, ValueError, AttributeError):
        return ServerKind(UNKNOWN)
    kind = next((_OWNED_BY[owner] for owner in owners if owner in _OWNED_BY), UNKNOWN)
    if kind == UNKNOWN and owners and _looks_like_transformers(root, headers, timeout_s):
        kind = TRANSFORMERS
    version = _vllm_version(root, headers, timeout_s) if kind == VLLM else ""
    return ServerKind(kind, version)


def _looks_like_transformers(root: str, headers: dict[str, str], timeout_s: float) -> bool:
    # `transformers serve` lists models owned by their hub organisation; its health route says nothing either,
    # so it is told by the route only it has among these servers.
    host = root.removesuffix("/v1")
    try:
        return requests.get(f"{host}/load_model", headers=headers, timeout=timeout_s).status_code == 405
    except requests.RequestException:
        return False


def _vllm_version(root: str, headers: dict[str, str], timeout_s: float) -> str:
    host = root.removesuffix("/v1")
    try:
        return str(requests.get(f"{host}/version", headers=headers, timeout=timeout_s).json().get("version", ""))
    except (requests.RequestException, ValueError, AttributeError):
        return ""


def resolve_mode(mode: str, kind: ServerKind) -> str:
    """The mode `auto` stands for on this kind of server (other modes stand for themselves)."""
    if mode != "auto":
        return mode
    return "json_schema" if kind.kind in JSON_SCHEMA_KINDS else "off"


def request_fields(mode: str, kind: ServerKind, schema: ReplySchema) -> dict[str, Any]:
    """The request fields that constrain the reply to `schema` on this server ({} for off).

    Raises UserError for a mode the server has no field for (grammar on the OpenAI API); returns {} for
    a server known to honour nothing (transformers serve), which the caller warns about."""
    if mode == "off" or kind.kind == TRANSFORMERS:
        return {}
    if mode == "json_schema":
        if kind.kind == LLAMA_CPP_PYTHON:
            return {"response_format": {"type": "json_object", "schema": schema.schema}}
        strict = {"name": schema.name, "schema": schema.schema, "strict": True}
        return {"response_format": {"type": "json_schema", "json_schema": strict}}
    if mode == "grammar":
        return grammar_fields(kind, grammar_for(schema.schema, schema.name))
    raise UserError(f"unknown structured_output mode {mode!r}")


def grammar_fields(kind: ServerKind, grammar: str) -> dict[str, Any]:
    """The request field that carries a GBNF grammar on this server ({} where none is honoured)."""
    if kind.kind == OPENAI:
        raise UserError("the OpenAI API takes no grammar: set models.<role>.structured_output to json_schema or auto")
    if kind.kind == TRANSFORMERS:
        return {}
    if kind.kind == VLLM:
        new = _at_least(kind.version, (0, 10, 2))
        return {"structured_outputs": {"grammar": grammar}} if new else {"guided_grammar": grammar}
    if kind.kind == SGLANG:
        return {"ebnf": grammar}
    return {"grammar": grammar}  # llama.cpp's servers, the scripted server, and any other


def _at_least(version: str, wanted: tuple[int, ...]) -> bool:
    """A version string at least `wanted`; an unreadable one counts as new (today's vLLM)."""
    parts: list[int] = []
    for piece in version.split(".")[:3]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return not parts or tuple(parts) >= wanted
