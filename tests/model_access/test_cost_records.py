"""What cost studies read: the client's per-call log (`models.call_log`) and llama.cpp's prefix reuse."""

from __future__ import annotations

import json

from model_access.client import ModelClient
from model_access.local_servers.llama_cpp_log import prompt_reuse
from model_access.messages import user_message
from model_access.scripted_server import ScriptedServer
from settings import load_settings

LLAMA_LOG = """\
INFO:     127.0.0.1:45568 - "GET /v1/models HTTP/1.1" 200 OK
llama_perf_context_print: prompt eval time =       0.07 ms /    45 tokens
INFO:     127.0.0.1:45572 - "POST /v1/chat/completions HTTP/1.1" 200 OK
Llama.generate: 758 prefix-match hit, remaining 1429 prompt tokens to eval
llama_perf_context_print: prompt eval time =   14000.00 ms /  1429 tokens
INFO:     127.0.0.1:45573 - "POST /v1/chat/completions HTTP/1.1" 200 OK
Llama.generate: 24 prefix-match hit, remaining 5774 prompt tokens to eval
Exception: can only concatenate str (not "list") to str
INFO:     127.0.0.1:45574 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error
Llama.generate: full prompt already cached, skipping reset
INFO:     127.0.0.1:45575 - "POST /v1/chat/completions HTTP/1.1" 200 OK
"""


def test_llama_cpp_reuse_is_read_per_answered_request_in_order() -> None:
    entries = prompt_reuse(LLAMA_LOG)
    assert [(e.reused, e.remaining, e.status) for e in entries] == [
        (0, None, 200), (758, 1429, 200), (24, 5774, 500), (0, 0, 200)
    ]  # fmt: skip
    assert entries[1].reused_of(2187) == 758 and entries[0].reused_of(45) == 0
    assert entries[3].whole_prompt_cached and entries[3].reused_of(300) == 300


def test_the_call_log_has_one_line_per_answered_call_with_its_stage_and_tokens(tmp_path) -> None:
    log = tmp_path / "calls.jsonl"
    with ScriptedServer({"default": "ok"}) as server:
        settings = load_settings()
        settings.paths.cache_dir = tmp_path / "cache"
        settings.models.llm.base_url, settings.models.llm.model = server.base_url, "scripted-llm"
        settings.models.call_log = str(log)
        settings.models.llm.temperature = 0.0  # a deterministic call: the same request is replayed
        with ModelClient(settings) as client:
            client.chat("llm", [user_message("first question")], stage="merging")
            client.chat("llm", [user_message("second, longer question with more words")], stage="trajectories")
            client.chat("llm", [user_message("first question")], stage="merging")  # from the disk cache: no line
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [line["stage"] for line in lines] == ["merging", "trajectories"]
    assert lines[1]["prompt_tokens"] > lines[0]["prompt_tokens"] > 0
    assert all(line["role"] == "llm" and line["finish_reason"] == "stop" and line["latency_s"] >= 0 for line in lines)
