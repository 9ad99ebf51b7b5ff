"""ModelClient through the real openai client against the scripted server."""

from __future__ import annotations

import io
import socket
import threading

import numpy as np
import pytest
from PIL import Image

from foundation.errors import UserError
from model_access.client import ChatRequest, ModelClient
from model_access.messages import decode_data_url, system_message, user_message
from model_access.retry import ModelCallError
from settings import load_settings


def _png_bytes(seed: int) -> bytes:
    pixels = np.random.default_rng(seed).integers(0, 256, (24, 32, 3), dtype=np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG")
    return buffer.getvalue()


def _sent_images(request: dict) -> list[str]:
    return [
        part["image_url"]["url"]
        for message in request["body"]["messages"]
        if isinstance(message["content"], list)
        for part in message["content"]
        if part["type"] == "image_url"
    ]


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_text_and_images_arrive_intact(model_settings, scripted, point_role):
    server = scripted(["I see two images"])
    point_role(model_settings, "vlm", server)
    png = _png_bytes(1)
    frame = np.random.default_rng(2).integers(0, 256, (20, 30, 3), dtype=np.uint8)
    with ModelClient(model_settings) as client:
        messages = [system_message("You label UI actions."), user_message("What changed?", [png, frame])]
        result = client.chat("vlm", messages, stage="labeling")

    assert result.text == "I see two images"
    (request,) = server.requests()
    assert request["body"]["model"] == "test-model"
    assert request["body"]["messages"][0] == {"role": "system", "content": "You label UI actions."}
    assert request["body"]["messages"][1]["content"][0] == {"type": "text", "text": "What changed?"}
    first, second = _sent_images(request)
    assert decode_data_url(first) == ("image/png", png)
    mime, data = decode_data_url(second)
    assert mime == "image/png"
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(data))), frame)


def test_second_identical_call_is_replayed_from_disk(model_settings, scripted, point_role):
    server = scripted({"default": "the answer"})
    point_role(model_settings, "llm", server)
    model_settings.models.llm.temperature = 0.0  # deterministic: one answer serves every identical request
    messages = [user_message("Merge these actions", [_png_bytes(3)])]
    with ModelClient(model_settings) as client:
        first = client.chat("llm", messages, stage="merge")
        second = client.chat("llm", messages, stage="merge")
    assert (first.cached, second.cached) == (False, True)
    assert second.text == first.text == "the answer"
    assert len(server.requests()) == 1

    # A new client (a re-run) replays it too: the cache is on disk, not in memory.
    with ModelClient(model_settings) as rerun:
        assert rerun.chat("llm", messages, stage="merge").cached
    assert len(server.requests()) == 1

    with ModelClient(model_settings) as client:
        assert not client.chat("llm", messages, stage="merge", use_cache=False).cached
    assert len(server.requests()) == 2


def test_use_cache_false_from_overrides_bypasses_the_cache(model_settings, scripted, point_role, tmp_path):
    server = scripted({"default": "fresh"})
    settings = load_settings(overrides=["models.use_cache=false"])
    settings.paths.cache_dir = tmp_path / "cache"
    point_role(settings, "llm", server)
    with ModelClient(settings) as client:
        results = [client.chat("llm", [user_message("same question")], stage="s") for _ in range(2)]
    assert [r.cached for r in results] == [False, False]
    assert len(server.requests()) == 2
    assert not (tmp_path / "cache" / "model_calls" / "chat").exists()


def test_different_images_or_parameters_are_different_calls(model_settings, scripted, point_role):
    server = scripted({"default": "ok"})
    point_role(model_settings, "vlm", server)
    model_settings.models.vlm.temperature = 0.0
    with ModelClient(model_settings) as client:
        a = client.chat("vlm", [user_message("Describe", [_png_bytes(4)])], stage="s")
        b = client.chat("vlm", [user_message("Describe", [_png_bytes(5)])], stage="s")
        c = client.chat("vlm", [user_message("Describe", [_png_bytes(4)])], stage="s", temperature=0.0, top_p=0.5)
        again = client.chat("vlm", [user_message("Describe", [_png_bytes(4)])], stage="s")
    assert len({a.key, b.key, c.key}) == 3
    assert again.key == a.key and again.cached
    assert len(server.requests()) == 3


def test_scripted_replies_stay_marked_when_replayed(model_settings, scripted, point_role):
    server = scripted({"name": "fake", "default": "ok"})
    point_role(model_settings, "judge", server)
    model_settings.models.judge.temperature = 0.0
    with ModelClient(model_settings) as client:
        live = client.chat("judge", [user_message("Is it done?")], stage="judge")
        replayed = client.chat("judge", [user_message("Is it done?")], stage="judge")
    assert live.scripted and replayed.scripted and replayed.cached
    assert live.model == replayed.model == "scripted/fake"
    assert client.ledger.usage().scripted == 2
    assert "SCRIPTED (not a model result)" in client.ledger.summary_table()


def test_rate_limit_then_success_is_retried(model_settings, scripted, point_role):
    server = scripted([{"status": 429}, "after the wait"])
    point_role(model_settings, "llm", server)
    with ModelClient(model_settings) as client:
        result = client.chat("llm", [user_message("hi")], stage="query")
    assert result.text == "after the wait"
    assert [r["status"] for r in server.requests()] == [429, 200]
    assert client.ledger.usage("query", "llm").retries == 1


def test_server_errors_twice_then_success(model_settings, scripted, point_role):
    server = scripted([{"status": 500, "times": 2}, "third time lucky"])
    point_role(model_settings, "llm", server)
    with ModelClient(model_settings) as client:
        assert client.chat("llm", [user_message("hi")], stage="s").text == "third time lucky"
    assert [r["status"] for r in server.requests()] == [500, 500, 200]


def test_a_streamed_call_that_timed_out_is_retried(model_settings, scripted, point_role):
    server = scripted({"replies": [{"reply": "too late", "delay_s": 2.0}], "default": "in time"})
    point_role(model_settings, "llm", server)
    model_settings.models.llm.timeout_s = 0.5
    model_settings.models.stream = True  # a dropped stream is cancelled on the server, so a resend cannot pile up
    with ModelClient(model_settings) as client:
        assert client.chat("llm", [user_message("hi")], stage="s").text == "in time"
    first, *retries = server.requests()
    assert first["answered_by"] in ("", "reply 1") and retries  # the slow one was abandoned, a retry answered
    assert client.ledger.usage().retries >= 1


def test_dead_endpoint_fails_with_one_clear_line(model_settings):
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    model_settings.models.vlm.base_url = url
    model_settings.models.vlm.model = "Qwen/Qwen2.5-VL-7B-Instruct"
    with ModelClient(model_settings) as client, pytest.raises(ModelCallError) as info:
        client.chat("vlm", [user_message("hello")], stage="labeling")
    message = str(info.value)
    assert "\n" not in message
    assert url in message and "Qwen/Qwen2.5-VL-7B-Instruct" in message
    assert "after 4 attempts" in message and "Connection refused" in message
    assert isinstance(info.value, UserError)
    usage = client.ledger.usage("labeling", "vlm")
    assert (usage.failures, usage.retries) == (1, 3)


def test_rejected_request_is_not_retried(model_settings, scripted, point_role):
    server = scripted([])  # an exhausted script answers 400
    point_role(model_settings, "llm", server)
    expected = "HTTP 400: scripted server: script exhausted"
    with ModelClient(model_settings) as client, pytest.raises(ModelCallError, match=expected):
        client.chat("llm", [user_message("hi")], stage="s")
    assert len(server.requests()) == 1


def test_unconfigured_and_unknown_roles_say_how_to_fix(model_settings):
    with ModelClient(model_settings) as client:
        with pytest.raises(UserError, match=r"--set models\.judge\.base_url=http://HOST:8000/v1"):
            client.chat("judge", [user_message("hi")], stage="s")
        with pytest.raises(UserError, match="roles are vlm, llm, policy, judge"):
            client.chat("planner", [user_message("hi")], stage="s")


def test_role_settings_and_overrides_are_sent(model_settings, scripted, point_role):
    server = scripted({"default": "ok"})
    point_role(model_settings, "llm", server)
    llm = model_settings.models.llm
    llm.temperature, llm.max_tokens, llm.reasoning_effort = 0.2, 300, "low"
    llm.extra_body = {"chat_template_kwargs": {"enable_thinking": False}}
    with ModelClient(model_settings) as client:
        client.chat("llm", [user_message("one")], stage="s")
        client.chat("llm", [user_message("two")], stage="s", temperature=0.9, max_tokens=10, stop=["\n"])
    first, second = (r["body"] for r in server.requests())
    assert (first["temperature"], first["max_completion_tokens"], first["reasoning_effort"]) == (0.2, 300, "low")
    assert first["chat_template_kwargs"] == {"enable_thinking": False}
    assert (second["temperature"], second["max_completion_tokens"], second["stop"]) == (0.9, 10, ["\n"])


def test_temperature_and_reasoning_effort_are_sent_only_when_set(model_settings, scripted, point_role, tmp_path):
    server = scripted({"default": "ok"})
    point_role(model_settings, "llm", server)
    point_role(model_settings, "policy", server)
    model_settings.models.use_cache = True
    model_settings.paths.cache_dir = tmp_path
    with ModelClient(model_settings) as client:
        client.chat("llm", [user_message("one")], stage="s")  # defaults: the model's own temperature
        client.chat("policy", [user_message("one")], stage="s")  # the policy role defaults to effort "low"
        model_settings.models.policy.reasoning_effort = "medium"
        client.chat("policy", [user_message("one")], stage="s")  # another effort: another cache key
        model_settings.models.policy.temperature = 0.0
        client.chat("policy", [user_message("one")], stage="s")
    llm, policy, medium, zero = (r["body"] for r in server.requests())
    assert "temperature" not in llm and "reasoning_effort" not in llm
    assert "temperature" not in policy and policy["reasoning_effort"] == "low"
    assert medium["reasoning_effort"] == "medium" and "temperature" not in medium
    assert zero["temperature"] == 0.0


def test_concurrency_is_bounded_across_callers(model_settings, scripted, point_role):
    server = scripted({"delay_s": 0.2, "default": "ok"})
    point_role(model_settings, "llm", server)
    model_settings.models.max_concurrency = 3
    with ModelClient(model_settings) as client:
        batches = [[ChatRequest("llm", [user_message(f"q{t}-{i}")], stage="s") for i in range(6)] for t in range(2)]
        threads = [threading.Thread(target=client.chat_many, args=(batch,)) for batch in batches]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert len(server.requests()) == 12
    assert server.max_in_flight == 3


def test_chat_many_keeps_request_order(model_settings, scripted, point_role):
    rules = [{"contains": f"item {i}", "reply": f"answer {i}", "delay_s": 0.05 * (i % 3)} for i in range(8)]
    server = scripted({"rules": rules})
    point_role(model_settings, "llm", server)
    with ModelClient(model_settings) as client:
        results = client.chat_many([ChatRequest("llm", [user_message(f"item {i}")], stage="s") for i in range(8)])
    assert [r.text for r in results] == [f"answer {i}" for i in range(8)]
    assert len(server.requests()) == 8


def test_chat_many_reports_failures(model_settings, scripted, point_role):
    server = scripted({"rules": [{"contains": "bad", "status": 400}], "default": "fine"})
    point_role(model_settings, "llm", server)
    requests = [ChatRequest("llm", [user_message(text)], stage="s") for text in ("good", "bad", "good too")]
    with ModelClient(model_settings) as client:
        results = client.chat_many(requests, return_exceptions=True)
        assert [type(r).__name__ for r in results] == ["ChatResult", "ModelCallError", "ChatResult"]
        with pytest.raises(ModelCallError, match="HTTP 400"):
            client.chat_many(requests)


def test_accounting_per_stage_and_role(model_settings, scripted, point_role):
    server = scripted({"default": "three words here"})
    point_role(model_settings, "vlm", server)
    point_role(model_settings, "llm", server)
    model_settings.models.vlm.temperature = 0.0
    with ModelClient(model_settings) as client:
        for prompt in ("first frame", "second frame", "first frame"):
            client.chat("vlm", [user_message(prompt, [_png_bytes(7)])], stage="labeling")
        client.chat("llm", [user_message("merge them please")], stage="merge")
    labeling = client.ledger.usage("labeling", "vlm")
    assert (labeling.calls, labeling.cache_hits, labeling.images) == (3, 1, 2)
    assert (labeling.prompt_tokens, labeling.completion_tokens) == (4, 6)  # words, as the scripted server counts
    merge = client.ledger.usage("merge", "llm")
    assert (merge.calls, merge.prompt_tokens, merge.images) == (1, 3, 0)
    assert client.ledger.usage().calls == 4
    rows = {(row["stage"], row["role"]): row for row in client.ledger.to_dict()["rows"]}
    assert set(rows) == {("labeling", "vlm"), ("merge", "llm")}
    assert "warning" in client.ledger.to_dict()
