"""Our `video` policy as a BrowserGym agent, its model a SCRIPTED server: selection, then the policy's actions in a
real BrowserGym environment, to the end of a sandbox task (scored by the bridged task); then `agentoccam` (the paper's
base agent, which sends several commands per step) on the same task in the same process."""

from __future__ import annotations

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
        outcome, occam_outcome = bridge(
            "episode", TASK, "--policy", "video,agentoccam",
            "--set", f"agent.index_dir={index}", "--set", "agent.base_agent=react",
            "--set", f"models.policy.base_url={server.base_url}", "--set", "models.policy.model=scripted-policy",
            "--set", "models.embedding.backend=openai", "--set", f"models.embedding.base_url={server.base_url}",
            "--set", f"models.embedding.model={EMBEDDING_MODEL}", "--set", "models.max_retries=0",
            "--set", "models.use_cache=false",
        )["episodes"]  # fmt: skip
        requests = chat_requests(server)

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
