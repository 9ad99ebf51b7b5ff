"""Selection prompts in the order a prefix cache can reuse (issue 28), with the same words and decisions.

`selection.shared_opening` puts the step's context (task, page, history) first in every selection call;
off, each call opens with its own introduction as before. The same scripted story is played both ways:
the decisions must not change, every prompt must hold the same paragraphs, and only the shared order may
let stage 1 and stage 2 of one step open with the same page text. `selection.skip_unchanged` answers a
step identical to an earlier one from that step's decision, without a model call. `selection.stage1_objectives_first`
opens stage 1 with its objective list, so two tasks over the same videos share it as a prompt prefix.
"""

from __future__ import annotations

import re

import pytest

from agent.method.selection import TwoStageSelector
from agent.videos.candidates import CandidateSource
from evaluation.browser_env.observation import Observation
from model_access.client import ModelClient
from model_access.scripted_server import ScriptedServer
from processing.index import TrajectoryIndex
from settings import load_settings
from tests.agent.world import (
    CONTINUATION,
    FORUM_VIDEO,
    POLICY,
    SEARCH_VIDEO,
    STAGE1,
    STAGE2,
    action,
    choice,
    embedding_settings,
    picks,
    relevant,
    rules_for,
    chat_requests,
    steps,
)

TASK1 = "cheapest product in the Coffee & Tea category"


def _story() -> list[dict]:
    return [
        *rules_for(TASK1, STAGE1, [picks(1, 2), picks(3)]),
        *rules_for(TASK1, STAGE2, [choice(2), choice(3)]),
        *rules_for(TASK1, CONTINUATION, [relevant("yes"), relevant("no")]),
        *rules_for(TASK1, POLICY, [action("scroll [down]"), action("scroll [up]"), action("stop [$13.49]")]),
    ]


@pytest.fixture(scope="module")
def both_orders(run_agent):
    shared = run_agent(_story(), "1")
    separate = run_agent(_story(), "1", "--set", "selection.shared_opening=false")
    return shared, separate


def _paragraphs(text: str) -> list[str]:
    """The prompt's paragraphs in sorted order, element ids blanked (two browsers number a page apart)."""
    return sorted(re.sub(r"\[\d+\]", "[#]", " ".join(p.split())) for p in text.split("\n\n") if p.strip())


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def test_the_shared_order_changes_neither_the_decisions_nor_the_words(both_orders) -> None:
    shared, separate = both_orders
    assert shared.exit_code == 0 and separate.exit_code == 0, shared.stdout + separate.stdout
    decisions = [
        [(s["extra"]["selection"]["decision"], s["extra"]["selection"].get("chosen")) for s in steps(run.out, 1)]
        for run in (shared, separate)
    ]
    assert decisions[0] == decisions[1] and len(decisions[0]) == 3
    assert [r.kind for r in shared.requests] == [r.kind for r in separate.requests]
    for new, old in zip(shared.requests, separate.requests):
        assert _paragraphs(new.text) == _paragraphs(old.text), new.kind


def test_only_the_shared_order_lets_one_steps_selection_calls_open_alike(both_orders) -> None:
    for run, shares in ((both_orders[0], True), (both_orders[1], False)):
        kinds = [r.kind for r in run.requests]
        first = kinds.index("stage1")
        stage1, stage2 = run.requests[first], run.requests[first + 1]
        assert stage2.kind == "stage2"
        page_start = stage1.text.index("THE PAGE IT IS ON NOW")
        history_end = stage1.text.index("ITS RECENT STEPS")
        prefix = _common_prefix(stage1.text, stage2.text)
        if shares:  # the task, the whole page and the history heading come before anything that differs
            assert stage1.text.startswith("THE AGENT'S TASK") and prefix > history_end > page_start
        else:
            assert prefix < page_start


def _observation(tree: str) -> Observation:
    return Observation(
        text=f"Tab 0 (current): Shop\n\n{tree}", url="http://shop.test/", tabs=[], screenshot=None, nodes={},
        viewport=(1280, 720), scroll=(0.0, 0.0),
    )  # fmt: skip


def test_a_step_identical_to_an_earlier_one_reuses_its_decision_without_asking(agent_index, tmp_path) -> None:
    script = {"rules": [*rules_for("Sort the headphones", STAGE1, [picks(1)] * 3),
                        *rules_for("Sort the headphones", STAGE2, [choice(1)] * 3),
                        *rules_for("Sort the headphones", CONTINUATION, [relevant("no")] * 3)]}  # fmt: skip
    with ScriptedServer(script) as server:
        settings = embedding_settings(load_settings(), server.base_url)
        settings.paths.cache_dir = tmp_path
        settings.models.policy.base_url, settings.models.policy.model = server.base_url, "scripted-policy"
        settings.models.max_retries = 0
        settings.models.use_cache = False  # every call the selector makes reaches the server
        source = CandidateSource(TrajectoryIndex.load(agent_index, settings), pool_per_video=40)
        with ModelClient(settings) as client:
            selector = TwoStageSelector(settings, client, source)
            selector.reset([SEARCH_VIDEO, FORUM_VIDEO], {})
            page = _observation("[1] link 'Sort By'")
            first = selector.select("Sort the headphones by price", page, "1. clicked Search")
            calls = len(server.requests("/chat/completions"))
            # The previous trajectory differs at step 2 (none before step 1), so step 2 asks; step 3 repeats it.
            second = selector.select("Sort the headphones by price", page, "1. clicked Search")
            asked_second = len(server.requests("/chat/completions")) - calls
            third = selector.select("Sort the headphones by price", page, "1. clicked Search")
            asked_third = len(server.requests("/chat/completions")) - calls - asked_second
            changed = selector.select("Sort the headphones by price", _observation("[2] link 'Price'"), "1. x")
    assert first.record["decision"] == "reselected" and calls == 2
    assert asked_second == 3 and "reused_from_step" not in second.record, second.record
    assert asked_third == 0 and third.record["reused_from_step"] == 2
    assert third.record["chosen"] == second.record["chosen"] and third.record["usage"]["calls"] == 0
    assert "reused_from_step" not in changed.record and changed.record["usage"]["calls"] == 3


def _stage1_prompts(agent_index, tmp_path, objectives_first: bool) -> list[str]:
    """Stage 1's prompt text for two tasks on two pages over the same two videos."""
    tasks = ("Sort the headphones by price", "Find the forum about tea")
    script = {"rules": [rule for task in tasks for rule in rules_for(task, STAGE1, [picks()])]}
    with ScriptedServer(script) as server:
        settings = embedding_settings(load_settings(), server.base_url)
        settings.paths.cache_dir = tmp_path
        settings.models.policy.base_url, settings.models.policy.model = server.base_url, "scripted-policy"
        settings.models.max_retries, settings.models.use_cache = 0, False
        settings.selection.stage1_objectives_first = objectives_first
        source = CandidateSource(TrajectoryIndex.load(agent_index, settings), pool_per_video=40)
        with ModelClient(settings) as client:
            for task, tree in zip(tasks, ("[1] link 'Sort By'", "[7] link 'Forums'")):
                selector = TwoStageSelector(settings, client, source)
                selector.reset([SEARCH_VIDEO, FORUM_VIDEO], {})
                assert selector.select(task, _observation(tree), "").record["decision"] == "none"  # nothing picked
        return [r.text for r in chat_requests(server) if r.kind == "stage1"]


def test_objectives_first_moves_stage1s_list_ahead_of_the_task_with_the_same_words(agent_index, tmp_path) -> None:
    default = _stage1_prompts(agent_index, tmp_path / "default", objectives_first=False)
    first = _stage1_prompts(agent_index, tmp_path / "first", objectives_first=True)
    assert len(default) == len(first) == 2
    for new, old in zip(first, default):
        assert _paragraphs(new) == _paragraphs(old)
    listing_end = first[0].index("Work in three steps")  # the instructions that follow the whole list
    assert first[0].index("OBJECTIVES OF THE AVAILABLE") < listing_end < first[0].index("THE AGENT'S TASK")
    # Two tasks on two pages: their stage-1 prompts now share the introduction and the whole list as a prefix.
    assert _common_prefix(*first) > listing_end
    assert _common_prefix(*default) < default[0].index("OBJECTIVES OF THE AVAILABLE")
