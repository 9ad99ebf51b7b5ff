"""Query generation and coarse selection through the real model client and a scripted model server."""

from __future__ import annotations

import json

from model_access.client import ModelClient
from retrieval.applications import RetrievalTask, application_of
from retrieval.candidates import Candidate
from retrieval.queries import generate_query, read_query
from retrieval.selection import select_coarse

SHOPPING = application_of(RetrievalTask("t:1", "Add a mouse to the wish list", ("shopping",)))


def last_prompts(server) -> list[str]:
    return [entry["body"]["messages"][-1]["content"] for entry in server.requests()]


def test_a_short_query_is_taken_as_it_is(settings, scripted):
    server = scripted({"default": '{"query": "Magento 2 storefront tutorial for shoppers"}'}, settings)
    with ModelClient(settings) as client:
        result = generate_query(client, SHOPPING, max_words=9)
    assert result.query == "Magento 2 storefront tutorial for shoppers" and not result.truncated
    assert len(server.requests()) == 1 and len(result.attempts) == 1
    prompt = last_prompts(server)[0]
    assert "Magento 2" in prompt and "at most 9 words" in prompt
    # one query per task: the task is shown so that its operation can be named, with its values kept out
    assert "Add a mouse to the wish list" in prompt and "leave out its particular values" in prompt


def test_a_long_query_is_asked_again_then_cut(settings, scripted):
    long_query = "how to use the Magento 2 online store as a customer step by step guide"
    server = scripted({"default": json.dumps({"query": long_query})}, settings)
    with ModelClient(settings) as client:
        result = generate_query(client, SHOPPING, max_words=9)

    assert len(server.requests()) == 2
    retry_prompt = last_prompts(server)[1]
    assert long_query in retry_prompt and "15 words" in retry_prompt
    assert result.truncated and result.query == " ".join(long_query.split()[:9])
    assert len(result.query.split()) == 9 < 10
    assert [attempt["words"] for attempt in result.attempts] == [15, 15]


def test_the_retry_is_kept_when_it_fits(settings, scripted):
    server = scripted(
        {
            "rules": [{"contains": "Your last query", "reply": '{"query": "Postmill forum tutorial"}'}],
            "default": '{"query": "a very long query about using a forum website to post and comment on things"}',
        },
        settings,
    )
    forum = application_of(RetrievalTask("t:2", "Post in the books forum", ("reddit",)))
    with ModelClient(settings) as client:
        result = generate_query(client, forum, max_words=9)
    assert result.query == "Postmill forum tutorial" and not result.truncated
    assert [attempt["words"] for attempt in result.attempts] == [15, 3] and len(server.requests()) == 2


def test_a_task_without_sites_shows_its_text_to_name_the_application(settings, scripted):
    server = scripted({"default": "Query: GitLab merge request tutorial"}, settings)
    task = RetrievalTask.from_text("Open a merge request from the feature branch in my GitLab project")
    with ModelClient(settings) as client:
        result = generate_query(client, application_of(task), max_words=9)
    assert result.query == "GitLab merge request tutorial"  # a plain-text reply works too
    assert "Open a merge request from the feature branch" in last_prompts(server)[0]


def test_query_reading():
    assert read_query('```json\n{"query": "  magento   tutorial "}\n```') == "magento tutorial"
    assert read_query('"Magento cart tutorial"\n') == "Magento cart tutorial"
    assert read_query("") == ""


def candidate(number: int, title: str) -> Candidate:
    return Candidate(f"vid{number:08d}", title, f"Description of {title}", "Channel", 120.0 + number, "en", "spoken en")


def test_coarse_selection_keeps_at_most_the_limit_in_order_and_drops_unknown_ids(settings, scripted):
    candidates = [candidate(n, f"Magento video number {n}") for n in range(1, 16)]
    picked = [3, 1, 99, 3, 7, 2, 4, 5, 6, 8, 9, 10, 11, 12]  # 99 is made up, 3 is named twice
    reply = json.dumps([{"id": f"vid{n:08d}", "reason": f"reason {n}"} for n in picked])
    server = scripted({"default": reply}, settings)
    with ModelClient(settings) as client:
        selection = select_coarse(client, SHOPPING, "Add a mouse to the wish list", candidates, max_videos=10)

    assert [pick.candidate.youtube_id for pick in selection.picks] == [
        f"vid{n:08d}" for n in (3, 1, 7, 2, 4, 5, 6, 8, 9, 10)
    ]
    assert [pick.rank for pick in selection.picks] == list(range(1, 11))
    assert selection.picks[0].reason == "reason 3"
    reasons = {item.youtube_id: item.reason for item in selection.rejected}
    assert "made up" in reasons["vid00000099"]
    assert "after the first 10" in reasons["vid00000011"] and "after the first 10" in reasons["vid00000012"]
    assert all(reasons[f"vid{n:08d}"] == "not picked by the coarse selection" for n in (13, 14, 15))
    assert all(item.stage == "coarse" for item in selection.rejected)
    prompt = last_prompts(server)[0]
    assert "Add a mouse to the wish list" in prompt and "at most 10" in prompt
    assert all(f"[{c.youtube_id}] {c.title}" in prompt and c.description in prompt for c in candidates)


def test_an_unreadable_coarse_reply_picks_nothing_and_says_so(settings, scripted):
    scripted({"default": "I would watch the first two."}, settings)
    with ModelClient(settings) as client:
        selection = select_coarse(client, SHOPPING, "task", [candidate(1, "a")], max_videos=10)
    assert selection.picks == [] and "unreadable" in (selection.error or "")
