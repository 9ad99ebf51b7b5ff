"""Streams on llama.cpp's real server (issue 39): a second request cuts a running stream when the server
interrupts (its default), and the client neither keeps nor caches the cut reply; its streams carry no
token counts, which the tables print as n/a."""

from __future__ import annotations

import json
import threading
import time

import pytest

from model_access.client import ModelClient
from model_access.messages import user_message
from model_access.retry import ModelCallError
from settings import load_settings
from tests.real_servers.conftest import point

LONG = "Write a long story about a shop that sells earbuds, in at least twenty sentences."


@pytest.fixture
def settings(tmp_path):
    settings = load_settings()
    settings.paths.cache_dir = tmp_path / "cache"
    settings.models.stream = True
    settings.models.max_concurrency = 2  # both requests reach the server, as two workers' would
    settings.models.max_retries = 3
    settings.models.backoff_initial_s = 0.05
    return settings


def _two_calls(client: ModelClient) -> list:
    """A long streamed call, and while it streams a second one: each outcome, a result or the error."""
    outcomes: list = [None, None]

    def call(slot: int, prompt: str, max_tokens: int) -> None:
        try:
            outcomes[slot] = client.chat("llm", [user_message(prompt)], stage="check", max_tokens=max_tokens)
        except ModelCallError as exc:
            outcomes[slot] = exc

    first = threading.Thread(target=call, args=(0, LONG, 160))
    first.start()
    time.sleep(1.0)  # the first reply is streaming by now
    call(1, "Name one color.", 8)
    first.join()
    return outcomes


def test_a_stream_cut_by_a_second_request_is_retried_never_kept(llama_interrupting, settings):
    point(settings, "llm", llama_interrupting, max_tokens=None)
    with ModelClient(settings) as client:
        outcomes = _two_calls(client)
        usage = client.ledger.usage()
    for outcome in outcomes:
        if isinstance(outcome, ModelCallError):  # cut on every try: said, with the flag that stops it
            assert "without a finish reason" in str(outcome) and "--interrupt_requests false" in str(outcome)
        else:
            assert outcome.finish_reason in ("stop", "length") and outcome.text.strip()
    # Nothing cut was cached: every stored reply ended with a finish reason.
    stored = [json.loads(p.read_text()) for p in (settings.paths.model_cache_dir / "chat").rglob("*.json")]
    assert all(entry["reply"]["finish_reason"] in ("stop", "length") for entry in stored)
    assert len(stored) == sum(not isinstance(o, ModelCallError) for o in outcomes)
    assert usage.cut_streams >= 1  # the server really cut a stream, and it was counted


def test_without_interruption_both_streams_finish_and_report_no_usage(llama_server, settings):
    point(settings, "llm", llama_server, max_tokens=None)
    with ModelClient(settings) as client:
        outcomes = _two_calls(client)
        usage = client.ledger.usage()
        table = client.ledger.summary_table()
    assert usage.cut_streams == 0
    assert all(o.finish_reason in ("stop", "length") and o.text.strip() for o in outcomes), outcomes
    # llama-cpp-python sends no usage in streams, though asked (stream_options.include_usage): n/a, not 0.
    assert all(not o.usage_reported for o in outcomes) and usage.no_usage == 2
    check_line = next(line for line in table.splitlines() if line.startswith("check"))
    assert check_line.split()[8:11] == ["n/a", "n/a", "n/a"]
