"""Every chat request shape of the tool against llama.cpp's server and `transformers serve`, each running
SmolLM2-135M-Instruct: plain text, text and images, a long prompt, the length limit, a prompt over the
context, and `models check`'s verdicts (a wrong name, a server that drops images, a text role that works)."""

from __future__ import annotations

import pytest

from model_access.client import ModelClient
from model_access.messages import text_part, user_message
from model_access.retry import ContextOverflow
from model_access.role_check import FAIL, OK, WARN, check_role
from settings import load_settings
from tests.real_servers.conftest import REPLY_TOKENS, point

SERVERS = ["llama_cpp", "transformers"]
# Prose of a web page, a few thousand tokens of it, as long observations are.
PAGE_LINE = "Product: Kestrel Wired Earbuds with Microphone, price $24.99, rating 4 of 5, in stock, Add to Cart\n"


@pytest.fixture
def settings(tmp_path):
    settings = load_settings()
    settings.paths.cache_dir = tmp_path / "cache"
    settings.models.max_retries = 1
    settings.models.backoff_initial_s = 0.05
    return settings


@pytest.mark.parametrize("chat_server", SERVERS, indirect=True)
def test_a_text_request_comes_back_with_its_finish_reason_tokens_and_latency(chat_server, settings):
    point(settings, "llm", chat_server)
    with ModelClient(settings) as client:
        # AgentOccam sends its prompt as a list of text parts: llama.cpp refuses that form unless it is joined.
        parts = [text_part("You are a helpful assistant for a web shop."), text_part("Name one color.")]
        result = client.chat("llm", [{"role": "user", "content": parts}], stage="check", use_cache=False)
    assert result.text.strip() and not result.scripted
    assert result.finish_reason in ("stop", "length")
    assert 0 < result.completion_tokens <= REPLY_TOKENS and result.prompt_tokens > 10
    assert result.latency_s > 0
    assert client.ledger.usage().truncated == int(result.finish_reason == "length")


@pytest.mark.parametrize("chat_server", SERVERS, indirect=True)
def test_the_length_limit_is_obeyed_and_a_cut_reply_is_recorded(chat_server, settings):
    point(settings, "llm", chat_server, max_tokens=6)
    with ModelClient(settings) as client:
        result = client.chat("llm", [user_message("Count from one to fifty in words.")], stage="check")
    assert result.completion_tokens <= 6
    assert result.finish_reason == "length" and result.truncated
    assert client.ledger.usage().truncated == 1


@pytest.mark.parametrize("chat_server", SERVERS, indirect=True)
def test_a_long_prompt_within_the_context_is_answered(chat_server, settings):
    point(settings, "llm", chat_server, max_tokens=8)
    # About 2,200 tokens (36 a line): past a 2,048-token context (llama-cpp-python's default n_ctx), well within
    # the servers' 8,192. SmolLM2 reads ~60-100 tokens a second on 2 cores, slower the longer the prompt: 100 lines
    # (3,614 tokens) took llama.cpp 69 s in a test run, the slowest request of the suite.
    page = PAGE_LINE * 60
    with ModelClient(settings) as client:
        result = client.chat("llm", [user_message(page + "\nWhich product is on this page?")], stage="check")
    assert result.prompt_tokens > 2048 and result.text.strip()


def test_llama_cpp_refuses_a_prompt_over_its_context_and_the_tool_says_why(llama_small_context, settings):
    point(settings, "llm", llama_small_context, max_tokens=8)
    with ModelClient(settings) as client, pytest.raises(ContextOverflow) as caught:
        client.chat("llm", [user_message(PAGE_LINE * 200)], stage="check")
    assert "context" in str(caught.value) and "context_tokens" in str(caught.value)
    assert client.ledger.usage().retries == 0  # refused once, never resent


@pytest.mark.parametrize("chat_server", SERVERS, indirect=True)
def test_a_prompt_over_the_set_context_is_refused_before_sending(chat_server, settings):
    point(settings, "llm", chat_server, max_tokens=8)
    settings.models.llm.context_tokens = 2048  # the server would accept it and answer garbage (transformers)
    with ModelClient(settings) as client, pytest.raises(ContextOverflow):
        client.chat("llm", [user_message(PAGE_LINE * 200)], stage="check")


@pytest.mark.parametrize("chat_server", SERVERS, indirect=True)
def test_models_check_passes_a_text_role_and_fails_an_image_role_on_a_text_only_model(chat_server, settings, request):
    point(settings, "llm", chat_server)
    point(settings, "vlm", chat_server)
    settings.models.llm.structured_output = "auto"
    with ModelClient(settings) as client:
        text_role = check_role(client, "llm")
        image_role = check_role(client, "vlm")
    assert text_role.level != FAIL, [f.text for f in text_role.findings]
    assert any(f.level == OK and "answered" in f.text for f in text_role.findings)
    # Structured output asked for: llama.cpp's server honours the schema; `transformers serve` drops it, which the
    # check reports as a warning (free text), not a failure.
    structured = next(f for f in text_role.findings if "structured output" in f.text)
    if request.node.callspec.params["chat_server"] == "llama_cpp":
        assert structured.level == OK and "honours json_schema" in structured.text, structured.text
    else:
        assert structured.level == WARN and "constrains no replies" in structured.text, structured.text
    assert image_role.level == FAIL
    assert any("needs a vision model" in f.text for f in image_role.findings), [f.text for f in image_role.findings]


@pytest.mark.parametrize("chat_server", SERVERS, indirect=True)
def test_models_check_names_a_model_the_server_does_not_serve(chat_server, settings):
    point(settings, "llm", chat_server)
    settings.models.llm.model = "smollm2"
    with ModelClient(settings) as client:
        check = check_role(client, "llm")
    assert check.level == FAIL
    (finding,) = check.findings
    assert "does not serve 'smollm2'" in finding.text and chat_server.model in finding.text


@pytest.mark.parametrize("chat_server", SERVERS, indirect=True)
def test_drawn_samples_carry_seeds_the_server_takes_and_a_resume_replays_them(chat_server, settings):
    """At temperature 1.0 the same prompt twice is two calls (each with its own seed, which both servers accept);
    a second client in the same sample scope (a resumed task) replays both from the cache."""
    from model_access.sampling import sampling_scope

    point(settings, "policy", chat_server, max_tokens=8)
    settings.models.policy.temperature = 1.0
    prompt = [user_message("Name a fruit.")]
    with ModelClient(settings) as client, sampling_scope("task-1", sample=1):
        first = [client.chat("policy", prompt, stage="policy") for _ in range(2)]
    assert [r.cached for r in first] == [False, False] and all(r.text.strip() for r in first)
    assert client.ledger.usage().failures == 0
    with ModelClient(settings) as client, sampling_scope("task-1", sample=1):
        again = [client.chat("policy", prompt, stage="policy") for _ in range(2)]
    assert [r.cached for r in again] == [True, True]
    assert [r.text for r in again] == [r.text for r in first]
