"""Honest sampling: a call at temperature > 0 is never answered with another draw's reply (model_access/sampling.py)."""

from __future__ import annotations

from model_access.client import ChatRequest, ModelClient
from model_access.messages import user_message
from model_access.sampling import sampling_scope


def _bodies(server) -> list[dict]:
    return [request["body"] for request in server.requests("/v1/chat/completions")]


def test_identical_prompts_at_temperature_1_are_two_server_calls(model_settings, scripted, point_role):
    server = scripted(["first draw", "second draw"])
    point_role(model_settings, "policy", server)
    model_settings.models.policy.temperature = 1.0
    with ModelClient(model_settings) as client:
        replies = [client.chat("policy", [user_message("What next?")], stage="policy") for _ in range(2)]
    assert [r.text for r in replies] == ["first draw", "second draw"]
    assert [r.cached for r in replies] == [False, False]
    seeds = [body["seed"] for body in _bodies(server)]
    assert len(set(seeds)) == 2  # each draw carries its own seed


def test_unset_temperature_draws_too(model_settings, scripted, point_role):
    server = scripted(["a", "b"])
    point_role(model_settings, "llm", server)
    assert model_settings.models.llm.temperature is None  # the server's default, which samples
    with ModelClient(model_settings) as client:
        texts = [client.chat("llm", [user_message("Name it")], stage="s").text for _ in range(2)]
    assert texts == ["a", "b"]


def test_a_resumed_unit_replays_its_own_draws_in_order_and_pays_nothing(model_settings, scripted, point_role):
    server = scripted(["one", "two", "three"])
    point_role(model_settings, "policy", server)
    model_settings.models.policy.temperature = 1.0
    with ModelClient(model_settings) as client, sampling_scope("task-7", sample=2):
        first = [client.chat("policy", [user_message("Act")], stage="policy").text for _ in range(2)]
    with ModelClient(model_settings) as client, sampling_scope("task-7", sample=2):
        again = [client.chat("policy", [user_message("Act")], stage="policy") for _ in range(3)]
    assert [r.text for r in again[:2]] == first == ["one", "two"]
    assert [r.cached for r in again] == [True, True, False]  # only the new, third draw is sent
    assert again[2].text == "three"
    assert len(_bodies(server)) == 3


def test_samples_and_tasks_draw_apart(model_settings, scripted, point_role):
    server = scripted(["s1", "s2", "other task"])
    point_role(model_settings, "policy", server)
    model_settings.models.policy.temperature = 0.7
    with ModelClient(model_settings) as client:
        with sampling_scope("task-1", sample=1):
            a = client.chat("policy", [user_message("Act")], stage="policy")
        with sampling_scope("task-1", sample=2):
            b = client.chat("policy", [user_message("Act")], stage="policy")
        with sampling_scope("task-2", sample=1):
            c = client.chat("policy", [user_message("Act")], stage="policy")
    assert (a.text, b.text, c.text) == ("s1", "s2", "other task")
    assert not (a.cached or b.cached or c.cached)


def test_temperature_0_is_shared_across_samples_and_marked(model_settings, scripted, point_role):
    server = scripted(["the one answer"])
    point_role(model_settings, "judge", server)
    model_settings.models.judge.temperature = 0.0
    with ModelClient(model_settings) as client:
        with sampling_scope("task-1", sample=1):
            first = client.chat("judge", [user_message("Is it done?")], stage="judge")
        with sampling_scope("task-1", sample=2):
            second = client.chat("judge", [user_message("Is it done?")], stage="judge")
    assert "seed" not in _bodies(server)[0]
    assert (first.cached, first.shared) == (False, False)
    assert (second.cached, second.shared, second.text) == (True, True, "the one answer")
    assert client.ledger.usage().shared_cache_hits == 1
    assert "another sample's cache entry" in client.ledger.summary_table()


def test_parallel_calls_belong_to_the_callers_scope(model_settings, scripted, point_role):
    server = scripted({"default": "ok"})
    point_role(model_settings, "llm", server)
    model_settings.models.llm.temperature = 1.0
    requests = [ChatRequest("llm", [user_message(f"clip {n}")], stage="s") for n in range(3)]
    with ModelClient(model_settings) as client:
        with sampling_scope("video-a", sample=1):
            client.chat_many(requests)
        with sampling_scope("video-a", sample=1):
            replayed = client.chat_many(requests)
        with sampling_scope("video-b", sample=1):
            other = client.chat_many(requests)
    assert all(r.cached for r in replayed)
    assert not any(r.cached for r in other)
    assert len(_bodies(server)) == 6


def test_a_given_seed_wins_and_send_seed_off_sends_none(model_settings, scripted, point_role):
    server = scripted({"default": "ok"})
    point_role(model_settings, "policy", server)
    model_settings.models.policy.temperature = 1.0
    with ModelClient(model_settings) as client:
        client.chat("policy", [user_message("Act")], stage="policy", seed=1234)
        model_settings.models.policy.send_seed = False
        client.chat("policy", [user_message("Act")], stage="policy")
    bodies = _bodies(server)
    assert bodies[0]["seed"] == 1234
    assert "seed" not in bodies[1]
