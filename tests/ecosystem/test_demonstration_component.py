"""The demonstration step as a component for other agents, and VideoWA's tasks mapped to BrowserGym's WebArena ids."""

from __future__ import annotations

import json

from model_access.scripted_server import ScriptedServer

from tests.agent.world import (
    EMBEDDING_MODEL,
    SEARCH_SPANS,
    SEARCH_VIDEO,
    STAGE1,
    STAGE2,
    build_index,
    choice,
    picks,
    rules_for,
)

INTENT = "cheapest product in the Coffee & Tea category"


def test_the_demonstration_step_returns_the_chosen_trajectory_as_text_and_images(bridge, tmp_path) -> None:
    rules = [*rules_for(INTENT, STAGE1, [picks(1)]), *rules_for(INTENT, STAGE2, [choice(1)])]
    with ScriptedServer({"name": "selection", "rules": rules}) as server:
        index = build_index(tmp_path / "index", server.base_url)
        outcome = bridge(
            "demonstrations", "videodemo.shop.1", "--videos", SEARCH_VIDEO,
            "--set", f"agent.index_dir={index}", "--set", f"models.policy.base_url={server.base_url}",
            "--set", "models.policy.model=scripted-policy", "--set", "models.embedding.backend=openai",
            "--set", f"models.embedding.base_url={server.base_url}",
            "--set", f"models.embedding.model={EMBEDDING_MODEL}",
            "--set", "models.max_retries=0", "--set", "models.use_cache=false",
        )  # fmt: skip
        asked = [entry["body"]["messages"] for entry in server.requests("/chat/completions")]

    chosen = outcome["chosen"]
    assert chosen is not None and chosen["decision"] == "reselected", outcome
    assert chosen["objective"] in [objective for _, _, objective in SEARCH_SPANS]
    assert chosen["images"] == len(chosen["steps"]) >= 1  # one keyframe per step
    assert all(step in chosen["text"] for step in chosen["steps"])
    assert len(asked) == 2  # stage 1, then stage 2; the page they read is BrowserGym's
    assert "Grocery & Gourmet Food" in json.dumps(asked[0])


def test_videowa_tasks_map_to_browsergym_webarena_ids(bridge, tmp_path) -> None:
    # WebArena's task 0 as VideoWA's skill-retention file states it (renumbered, with a video), and a task of ours.
    configs = tmp_path / "videowa.json"
    configs.write_text(json.dumps([
        {"task_id": 0, "sites": ["shopping_admin"], "start_url": "__SHOPPING_ADMIN__", "video": "find_best_selling",
         "intent": "What is the top-1 best-selling product in 2022"},
        {"task_id": 1, "sites": ["shopping"], "start_url": "__SHOPPING__", "intent": "Buy the sandbox a present",
         "video": "shop_search_sort"},
        {"task_id": 2, "sites": ["shopping"], "start_url": "__SHOPPING__", "intent": "Anything",
         "webarena_task_id": 118},
    ]))  # fmt: skip
    mapped = bridge("webarena_ids", str(configs), sandbox_settings=False)
    assert mapped["videowa:0"]["browsergym"] == "webarena.0"
    assert mapped["videowa:0"]["videos"] == ["find_best_selling"]
    assert mapped["videowa:1"]["browsergym"] is None and "no original task" in mapped["videowa:1"]["why"]
    assert mapped["videowa:2"]["browsergym"] == "webarena.118"
