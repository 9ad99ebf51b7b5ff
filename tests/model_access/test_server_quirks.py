"""What real servers do that our own server did not, played by the scripted server through the real client:
text-only parts, length fields and cut replies, error shapes, repeated errors, timeouts, context overflow,
streaming, and honest retry counts (issue: real model servers)."""

from __future__ import annotations

import pytest

from model_access.accounting import UsageLedger
from model_access.client import ModelClient, length_fields
from model_access.messages import text_part, user_message
from model_access.retry import CallTimedOut, ContextOverflow, ModelCallError
from settings.schema import ModelRoleSettings


def _body(server) -> dict:
    return server.requests()[-1]["body"]


def test_a_message_of_text_parts_only_goes_as_one_string(model_settings, scripted, point_role):
    server = scripted({"default": "fine"})
    point_role(model_settings, "policy", server)
    parts = [text_part("RULES: click things."), text_part("PAGE: [3] button 'Go'")]
    with ModelClient(model_settings) as client:
        client.chat("policy", [{"role": "user", "content": parts}], stage="policy")
        client.chat("policy", [user_message("with an image", [b"\x89PNG\r\n\x1a\n" + b"0" * 16])], stage="policy")
    text_only, with_image = (entry["body"]["messages"][0]["content"] for entry in server.requests())
    assert text_only == "RULES: click things.\nPAGE: [3] button 'Go'"  # llama.cpp rejects the list form
    assert isinstance(with_image, list) and with_image[1]["type"] == "image_url"


def test_the_length_limit_goes_under_the_names_each_server_reads(model_settings, scripted, point_role):
    server = scripted({"default": "one two three four five six seven eight"})
    point_role(model_settings, "llm", server)
    model_settings.models.llm.max_tokens = 5
    with ModelClient(model_settings) as client:
        result = client.chat("llm", [user_message("count")], stage="merge")
    body = _body(server)
    assert (body["max_tokens"], body["max_completion_tokens"]) == (5, 5)
    # The scripted server obeys the limit as a server does: the reply is cut and says so.
    assert result.text == "one two three four five" and result.truncated
    assert client.ledger.usage().truncated == 1
    assert "cut at the length limit" in client.ledger.summary_table()

    openai_role = ModelRoleSettings(base_url="https://api.openai.com/v1", model="gpt-5-mini")
    assert length_fields(openai_role) == ("max_completion_tokens",)  # its reasoning models refuse max_tokens
    assert length_fields(ModelRoleSettings(base_url="http://gpu:8000/v1", length_field="max_tokens")) == ("max_tokens",)


def test_an_unset_length_limit_sends_neither_field(model_settings, scripted, point_role):
    server = scripted({"default": "ok"})
    point_role(model_settings, "policy", server)
    assert model_settings.models.policy.max_tokens is None  # the paper's: the model's own default
    with ModelClient(model_settings) as client:
        client.chat("policy", [user_message("act")], stage="policy")
    assert "max_tokens" not in _body(server) and "max_completion_tokens" not in _body(server)


@pytest.mark.parametrize(
    "body, expected",
    [
        ('{"detail": "Server is pinned to \'a\'; requested \'b\'"}', "Server is pinned to 'a'; requested 'b'"),
        ('{"error": "model not loaded"}', "model not loaded"),
        ('{"message": "bad field temperature"}', "bad field temperature"),
        ('{"detail": [{"loc": ["body", "model"], "msg": "field required"}]}', "field required"),
        ("plain text: the prompt has no user turn", "plain text: the prompt has no user turn"),
    ],
)
def test_the_servers_own_reason_is_shown_whatever_its_shape(model_settings, scripted, point_role, body, expected):
    server = scripted([{"status": 400, "reply": body}])
    point_role(model_settings, "llm", server)
    with ModelClient(model_settings) as client, pytest.raises(ModelCallError) as caught:
        client.chat("llm", [user_message("hi")], stage="merge")
    assert expected in str(caught.value)
    assert "HTTP 400" in str(caught.value)


def test_the_same_server_error_twice_is_not_retried_further(model_settings, scripted, point_role):
    server = scripted([{"status": 500, "reply": '{"error": {"message": "can only concatenate str"}}', "times": 5}])
    point_role(model_settings, "llm", server)
    model_settings.models.max_retries = 6
    with ModelClient(model_settings) as client, pytest.raises(ModelCallError) as caught:
        client.chat("llm", [user_message("hi")], stage="merge")
    assert len(server.requests()) == 2
    assert "twice with the same server error" in str(caught.value) and "can only concatenate str" in str(caught.value)
    assert client.ledger.usage().retries == 1


def test_retries_are_counted_in_the_usage_table(model_settings, scripted, point_role):
    server = scripted([{"status": 503, "times": 1}, {"status": 429, "times": 1}, {"status": 502, "times": 1}, "done"])
    point_role(model_settings, "llm", server)
    model_settings.models.llm.temperature = 0.0  # a deterministic call: the same request is replayed
    with ModelClient(model_settings) as client:
        assert client.chat("llm", [user_message("hi")], stage="merge").retries == 3
        client.chat("llm", [user_message("hi")], stage="merge")  # the same request: from the cache
    usage = client.ledger.usage()
    assert (usage.calls, usage.retries, usage.cache_hits) == (2, 3, 1)
    row = client.ledger.summary_table().splitlines()[2].split()
    assert row[2:6] == ["2", "1", "0", "3"]  # calls, cached, failed, retries


def test_a_plain_request_that_times_out_is_not_sent_again(model_settings, scripted, point_role):
    server = scripted([{"reply": "late", "delay_s": 1.5, "times": 3}])
    point_role(model_settings, "llm", server)
    model_settings.models.llm.timeout_s = 0.5
    with ModelClient(model_settings) as client, pytest.raises(CallTimedOut) as caught:
        client.chat("llm", [user_message("hi")], stage="merge")
    assert len(server.requests()) == 1  # the server is still generating it: a resend would only queue
    message = str(caught.value)
    assert "models.llm.timeout_s" in message and "models.llm.max_tokens" in message and "max_retries" not in message
    assert client.ledger.usage().timeouts == 1


def test_a_streamed_request_that_times_out_is_sent_once_more(model_settings, scripted, point_role):
    server = scripted([{"reply": "late", "delay_s": 1.5, "times": 3}])
    point_role(model_settings, "llm", server)
    model_settings.models.llm.timeout_s = 0.5
    model_settings.models.stream = True
    with ModelClient(model_settings) as client, pytest.raises(CallTimedOut):
        client.chat("llm", [user_message("hi")], stage="merge")
    assert len(server.requests()) == 2


def test_a_streamed_reply_is_put_together_with_its_usage(model_settings, scripted, point_role):
    server = scripted({"default": "In summary: click [12] now please"})
    point_role(model_settings, "policy", server)
    model_settings.models.stream = True
    model_settings.models.policy.max_tokens = 4
    with ModelClient(model_settings) as client:
        result = client.chat("policy", [user_message("act")], stage="policy")
    assert result.text == "In summary: click [12]" and result.finish_reason == "length" and result.scripted
    assert (result.prompt_tokens, result.completion_tokens) == (1, 4)
    assert _body(server)["stream"] is True and _body(server)["stream_options"] == {"include_usage": True}


def test_a_stream_cut_without_a_finish_reason_is_retried_and_never_cached(model_settings, scripted, point_role):
    # llama-cpp-python's server ends a stream with [DONE] and no finish reason when a second request arrives.
    server = scripted({"replies": [{"reply": "click [12] and then stop", "cut": True}], "default": "click [12] done"})
    point_role(model_settings, "policy", server)
    model_settings.models.stream = True
    model_settings.models.policy.temperature = 0.0  # a request replayed from the cache when asked again
    with ModelClient(model_settings) as client:
        result = client.chat("policy", [user_message("act")], stage="policy")
        assert result.text == "click [12] done" and result.finish_reason == "stop" and result.retries == 1
        assert len(server.requests()) == 2
        assert client.ledger.usage().cut_streams == 1
        assert "without a finish reason" in client.ledger.summary_table()
        # Only the whole reply was kept: a replay gives it, not the cut one.
        assert client.chat("policy", [user_message("act")], stage="policy").text == "click [12] done"
    assert len(server.requests()) == 2


def test_streams_cut_every_time_fail_with_the_llama_cpp_flag_named(model_settings, scripted, point_role):
    server = scripted({"default": {"reply": "click [12] and then stop", "cut": True}})
    point_role(model_settings, "policy", server)
    model_settings.models.stream = True
    with ModelClient(model_settings) as client, pytest.raises(ModelCallError) as failed:
        client.chat("policy", [user_message("act")], stage="policy")
    assert "without a finish reason" in str(failed.value) and "--interrupt_requests false" in str(failed.value)
    assert len(server.requests()) == model_settings.models.max_retries + 1
    assert client.ledger.usage().cut_streams == model_settings.models.max_retries + 1
    assert client.ledger.usage().failures == 1
    assert not list((model_settings.paths.model_cache_dir / "chat").rglob("*.json"))


def test_a_server_that_reports_no_usage_prints_n_a_not_zero(model_settings, scripted, point_role):
    # llama-cpp-python's server ignores stream_options.include_usage: its streams carry no token counts.
    server = scripted({"default": "click [12]", "stream_usage": False})
    point_role(model_settings, "policy", server)
    model_settings.models.stream = True
    with ModelClient(model_settings) as client:
        result = client.chat("policy", [user_message("act")], stage="policy")
    assert _body(server)["stream_options"] == {"include_usage": True}  # asked for, as OpenAI's API defines it
    assert result.text == "click [12]" and not result.usage_reported
    table = client.ledger.summary_table()
    policy_line = next(line for line in table.splitlines() if line.startswith("policy"))
    # prompt tok, reused tok, compl tok: unknown, never 0
    assert policy_line.split()[8:11] == ["n/a", "n/a", "n/a"]
    assert client.ledger.usage().no_usage == 1


def test_a_prompt_over_the_known_context_is_refused_before_sending(model_settings, scripted, point_role):
    server = scripted({"default": "ok"})
    point_role(model_settings, "llm", server)
    model_settings.models.llm.context_tokens = 1000
    model_settings.models.llm.max_tokens = 200
    with ModelClient(model_settings) as client, pytest.raises(ContextOverflow) as caught:
        client.chat("llm", [user_message("word " * 1000)], stage="merge")
    assert not server.requests()
    assert "models.llm.context_tokens=1000" in str(caught.value)
    assert client.ledger.usage().context_overflows == 1


@pytest.mark.parametrize("status", [400, 500])
def test_a_context_refusal_by_the_server_gets_its_own_hint_and_no_retry(model_settings, scripted, point_role, status):
    reason = "Requested tokens (9000) exceed context window of 2048"
    server = scripted([{"status": status, "reply": f'{{"error": {{"message": "{reason}"}}}}', "times": 4}])
    point_role(model_settings, "llm", server)
    with ModelClient(model_settings) as client, pytest.raises(ContextOverflow) as caught:
        client.chat("llm", [user_message("long")], stage="merge")
    assert len(server.requests()) == 1
    assert reason in str(caught.value) and "context_tokens" in str(caught.value)


def test_the_ledger_keeps_the_new_counts_through_a_merge():
    ledger = UsageLedger()
    ledger.record("policy", "policy", calls=1, truncated=1, timeouts=0, cached_prompt_tokens=300, prompt_tokens=400)
    merged = UsageLedger.from_dict(ledger.to_dict())
    assert (merged.usage().truncated, merged.usage().cached_prompt_tokens) == (1, 300)


def test_a_refused_request_with_images_says_the_model_may_read_text_only(model_settings, scripted, point_role):
    # llama.cpp's answer to image parts for a model without a vision projector.
    server = scripted([{"status": 500, "reply": '{"error": {"message": "can only concatenate str (not \\"list\\") to str"}}',
                        "times": 3}])  # fmt: skip
    point_role(model_settings, "policy", server)
    with ModelClient(model_settings) as client, pytest.raises(ModelCallError) as caught:
        client.chat("policy", [user_message("act", [b"\x89PNG\r\n\x1a\n" + b"0" * 16])], stage="policy")
    message = str(caught.value)
    assert "carried 1 image(s)" in message and "agent.use_screenshot=false" in message
