"""Our `video` policy as a BrowserGym agent, its model a SCRIPTED server: selection, then the policy's actions in a
real BrowserGym environment, to the end of a sandbox task (scored by the bridged task); then `agentoccam` (the paper's
base agent, which sends several commands per step) on the same task in the same process. Each step's AgentInfo
carries what the policy sent its model and got back (chat_messages) and the step's usage (stats), checked against
what the scripted server received and reported."""

from __future__ import annotations

from typing import Any

from model_access.messages import count_images, prompt_text
from model_access.scripted_server import ScriptedServer

from tests.agent.test_agentoccam import CLOSING, occam
from tests.agent.world import (
    CONTINUATION,
    DEMONSTRATION,
    EMBEDDING_MODEL,
    POLICY,
    STAGE1,
    SEARCH_SPANS,
    STAGE2,
    action,
    build_index,
    chat_requests,
    choice,
    picks,
    relevant,
    rules_for,
)

TASK = "videodemo.shop.1"
INTENT = "cheapest product in the Coffee & Tea category"
# A dollar a prompt token, two a reply token (per million: 1e6, 2e6), so a step's cost is input + 2 * output.
PRICES = (f"report.prices={{scripted-policy: {{input: 1000000, cached_input: 0, output: 2000000}}, "
          f"{EMBEDDING_MODEL}: {{input: 1000000, cached_input: 0, output: 0}}}}")  # fmt: skip


def test_the_video_policy_plays_a_sandbox_task_to_its_end_in_browsergym(bridge, tmp_path) -> None:
    rules = [
        *rules_for(INTENT, STAGE1, [picks(1, 2)]),
        *rules_for(INTENT, STAGE2, [choice(2)]),
        *rules_for(INTENT, CONTINUATION, [relevant("yes")]),
        *rules_for(INTENT, POLICY, [action("scroll [down]"), action("stop [$13.49]", "The cheapest costs $13.49.")]),
        *rules_for(INTENT, CLOSING, [occam("note [Coffee & Tea is under Grocery]"), occam("stop [$13.49]")]),
    ]
    with ScriptedServer({"name": "agent", "rules": rules}) as server:
        index = build_index(tmp_path / "index", server.base_url)
        indexed = len(server.requests(""))
        outcome, occam_outcome = bridge(
            "episode", TASK, "--policy", "video,agentoccam",
            "--set", f"agent.index_dir={index}", "--set", "agent.base_agent=react",
            "--set", f"models.policy.base_url={server.base_url}", "--set", "models.policy.model=scripted-policy",
            "--set", "models.embedding.backend=openai", "--set", f"models.embedding.base_url={server.base_url}",
            "--set", f"models.embedding.model={EMBEDDING_MODEL}", "--set", "models.max_retries=0",
            "--set", "models.use_cache=false", "--set", PRICES,
        )["episodes"]  # fmt: skip
        requests = chat_requests(server)
        played = server.requests("")[indexed:]

    assert outcome["reward"] == 1.0 and outcome["done"] and outcome["status"] == "passed", outcome
    assert outcome["actions"] == ["scroll(0, 720)", "send_msg_to_user('$13.49')"]
    assert [request.kind for request in requests][:5] == ["stage1", "stage2", "policy", "continuation", "policy"]
    first_policy = requests[2]
    # The demonstration stage 2 chose, and the page as BrowserGym saw it: its tree with BrowserGym's ids, screenshot.
    assert DEMONSTRATION in first_policy.text
    assert any(objective in first_policy.text for _, _, objective in SEARCH_SPANS)
    assert "link 'Grocery & Gourmet Food'" in first_policy.text
    assert "png" in first_policy.images

    # AgentOccam: its note changes only its memory (BrowserGym's noop), its stop is the answer; it reads the whole page.
    assert occam_outcome["reward"] == 1.0 and occam_outcome["status"] == "passed", occam_outcome
    assert occam_outcome["actions"] == ["noop()", "send_msg_to_user('$13.49')"]
    occam_prompt = requests[5].text
    assert CLOSING in occam_prompt and "Grocery & Gourmet Food" in occam_prompt

    # What AgentLab gets: each step's chat is what the server received and answered, its stats what it reported.
    steps = outcome["steps_info"] + occam_outcome["steps_info"]
    assert [len(step["model_calls"]) for step in steps] == [3, 2, 1, 1]  # stage 1, stage 2, policy; continuation...
    for step, (calls, usage) in zip(steps, _calls_and_usage(played, steps)):
        for call, sent in zip(_chat_calls(step), calls):
            asked, messages = call[:-1], sent["body"]["messages"]
            assert [message["role"] for message in asked] == [message["role"] for message in messages]
            assert "\n".join(message["text"] for message in asked) == prompt_text(messages)
            assert [message["images"] for message in asked] == [count_images([message]) for message in messages]
            assert call[-1] == {"role": "assistant", "text": sent["reply"], "images": 0}
        stats = step["stats"]
        assert (stats["input_tokens"], stats["output_tokens"], stats["n_api_calls"]) == usage, step["model_calls"]
        assert stats["cost"] == stats["input_tokens"] + 2 * stats["output_tokens"] > 0
        assert stats["usage_cached_tokens"] == stats["n_retry_llm"] == stats["cache_hits"] == 0
        assert stats["scripted_calls"] == stats["n_api_calls"]  # the scripted server's answers, labelled so
        assert step["n_token_agent_messages"] > 0  # BrowserGym's own counter reads the messages
    first_policy_call = _chat_calls(steps[0])[2]
    assert DEMONSTRATION in first_policy_call[-2]["text"] and first_policy_call[-2]["images"] >= 1  # the screenshot
    assert "stop [$13.49]" in _chat_calls(steps[1])[1][-1]["text"]


def _chat_calls(step: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """A step's chat messages cut into its calls (each: the messages sent, then the reply)."""
    starts = [call["first_message"] for call in step["model_calls"]] + [len(step["chat"])]
    return [step["chat"][start:end] for start, end in zip(starts, starts[1:])]


def _calls_and_usage(played: list[dict[str, Any]], steps: list[dict[str, Any]]) -> list[tuple[list, tuple]]:
    """Per step, the chat requests the server logged for it and the (prompt tokens, reply tokens, calls) it reported
    for them and for the embeddings asked before them: its usage counts words (model_access/scripted_server.py)."""
    queue, out = list(played), []
    for step in steps:
        calls, prompt, reply, answered = [], 0, 0, 0
        for _ in step["model_calls"]:
            while (entry := queue.pop(0))["path"].endswith("/embeddings"):
                texts = entry["body"]["input"]
                texts = [texts] if isinstance(texts, str) else texts
                prompt, answered = prompt + sum(len(text.split()) for text in texts), answered + len(texts)
            calls.append(entry)
            prompt += len(prompt_text(entry["body"]["messages"]).split())
            reply, answered = reply + len(entry["reply"].split()), answered + 1
        out.append((calls, (prompt, reply, answered)))
    assert not queue, [entry["path"] for entry in queue]
    return out
