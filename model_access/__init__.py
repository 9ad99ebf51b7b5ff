"""One home for model access: chat client, call cache, concurrency, accounting, embeddings.

    from model_access import ModelClient, Embedder, user_message, extract_json

Names are imported on first use so that `import model_access` (and the CLI) stays
fast; `openai` and `sentence_transformers` load only when a call is made.
"""

from __future__ import annotations

import importlib
from typing import Any

# The model roles, each configured under settings.models.<role>.
ROLES = ("vlm", "llm", "policy", "judge", "asr")
# Roles answered by `/v1/audio/transcriptions` rather than chat (model_access/transcription.py).
SPEECH_ROLES = ("asr",)

_EXPORTS = {
    "ModelClient": "model_access.client",
    "ChatRequest": "model_access.client",
    "ChatResult": "model_access.client",
    "ModelCallError": "model_access.retry",
    "UsageLedger": "model_access.accounting",
    "Embedder": "model_access.embeddings",
    "user_message": "model_access.messages",
    "system_message": "model_access.messages",
    "assistant_message": "model_access.messages",
    "rgb_from_bgr": "model_access.messages",
    "extract_json": "model_access.replies",
    "extract_code_block": "model_access.replies",
    "parse_yes_no": "model_access.replies",
    "ReplyParseError": "model_access.replies",
    "ScriptedServer": "model_access.scripted_server",
}

__all__ = ["ROLES", "SPEECH_ROLES", *_EXPORTS]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'model_access' has no attribute {name!r}")
