"""Reading the selection replies: what real models send back, and what must count as unreadable."""

from __future__ import annotations

import pytest

from agent.base.replies import read_reply
from agent.method.selection_replies import read_choice, read_continuation, read_picks
from model_access.replies import ReplyParseError


@pytest.mark.parametrize(
    "reply, expected",
    [
        ('```json\n{"relevant": "yes", "reason": "still sorting"}\n```', (True, "still sorting")),
        ('{"relevant": false, "reason": "done with it"}', (False, "done with it")),
        ('<think>hmm, yes or no</think>{"relevant": "No", "reason": "moved on"}', (False, "moved on")),
        ("No. The agent already sorted the list.", (False, "")),
    ],
)
def test_continuation_answers(reply, expected) -> None:
    assert read_continuation(reply) == expected


@pytest.mark.parametrize("reply", ['{"relevant": "maybe"}', '{"keep": true, "reason": "no idea"}', "I cannot tell."])
def test_unclear_continuation_answers_are_unreadable(reply) -> None:
    with pytest.raises(ReplyParseError):
        read_continuation(reply)


@pytest.mark.parametrize(
    "reply, expected",
    [
        ('```json\n{"picks": [3, "12", 3], "reason": "close"}\n```', ([3, 12], "close")),
        ('{"picks": [], "reason": "the next step is plain"}', ([], "the next step is plain")),
        ('{"picks": "none"}', ([], "")),
        ("[4, 5]", ([4, 5], "")),
        ('{"picks": ["#7"]}', ([7], "")),
    ],
)
def test_stage1_picks(reply, expected) -> None:
    assert read_picks(reply) == expected


@pytest.mark.parametrize("reply", ["I'd take the third one.", '{"reason": "no list"}', '{"picks": ["the first"]}'])
def test_unreadable_stage1_replies(reply) -> None:
    with pytest.raises(ReplyParseError):
        read_picks(reply)


@pytest.mark.parametrize(
    "reply, expected",
    [
        ('{"choice": 4, "reason": "same page"}', (4, "same page")),
        ('{"choice": null, "reason": "none fits"}', (None, "none fits")),
        ('{"choice": "none"}', (None, "")),
        ('{"choice": "2"}', (2, "")),
    ],
)
def test_stage2_choices(reply, expected) -> None:
    assert read_choice(reply) == expected


@pytest.mark.parametrize("reply", ["Candidate 2 looks best.", '{"choice": "the second"}', '{"choice": true}'])
def test_unreadable_stage2_replies(reply) -> None:
    with pytest.raises(ReplyParseError):
        read_choice(reply)


def test_the_policy_reply_splits_into_reasoning_and_action() -> None:
    reply = read_reply("The search box is [13].\n```\ntype [13] [coffee] [1]\n```\nDone.")
    assert reply.reasoning == "The search box is [13]." and reply.action == "type [13] [coffee] [1]"
    assert reply.problem is None
    chatty = read_reply("I would click the search box next.")
    assert chatty.problem and chatty.reasoning == "I would click the search box next."
