"""Reading the judge's verdicts and building its prompts.

The prompt tests send the judge's questions through the real client stack to the
scripted OpenAI-compatible server, which plays the model's replies.
"""

from __future__ import annotations

import pytest

from evaluation.scoring.errors import JudgeReplyError
from evaluation.scoring.judge import parse_grade, parse_same_reason

from tests.evaluation.scoring.model_helpers import scripted_judge


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("correct", "correct"),
        ("Correct.", "correct"),
        ("  CORRECT\n", "correct"),
        ("partially correct", "partially correct"),
        ("Partially Correct.", "partially correct"),
        ("incorrect", "incorrect"),
        ("Verdict: partially correct", "partially correct"),
        ("**Verdict:** incorrect", "incorrect"),
        ("The reference says 12; the answer says 12 pairs.\ncorrect", "correct"),
        ("The answer is partially correct because it misses one item.", "partially correct"),
        ("The answer is not correct.", "incorrect"),
        ("I would say the answer is correct.", "correct"),
        ("It names the right city, so it is correct, not incorrect.", "incorrect"),
    ],
)
def test_grade_verdicts(reply: str, verdict: str) -> None:
    assert parse_grade(reply) == verdict


def test_partially_correct_is_never_read_as_correct() -> None:
    for reply in ("partially correct", "The answer is partially correct.", "Partially correct: it is correct on one point."):
        assert parse_grade(reply) == "partially correct"


@pytest.mark.parametrize("reply", ["", "   ", "I cannot tell.", "yes", "correctness unclear"])
def test_grade_without_a_verdict_is_an_error(reply: str) -> None:
    with pytest.raises(JudgeReplyError, match="no verdict"):
        parse_grade(reply)


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("same", "same"),
        ("Same.", "same"),
        ("different", "different"),
        ("DIFFERENT", "different"),
        ("Both say the product does not exist.\nVerdict: same", "same"),
        ("They are not the same reason.", "different"),
        ("The reported reason is the same as the actual one.", "same"),
    ],
)
def test_reason_verdicts(reply: str, verdict: str) -> None:
    assert parse_same_reason(reply) == verdict


@pytest.mark.parametrize("reply", ["", "maybe", "sameness"])
def test_reason_without_a_verdict_is_an_error(reply: str) -> None:
    with pytest.raises(JudgeReplyError):
        parse_same_reason(reply)


def _system_and_user(server) -> tuple[str, str]:
    (entry,) = server.requests("/chat/completions")
    messages = {message["role"]: message["content"] for message in entry["body"]["messages"]}
    return messages["system"], messages["user"]


def test_grade_prompt_carries_question_reference_and_answer(tmp_path) -> None:
    with scripted_judge(["partially correct"], tmp_path) as (judge, server):
        verdict = judge.grade("How many pairs were bought?", "12", "twelve pairs, ${price} {0}")
        system, user = _system_and_user(server)
    assert verdict == "partially correct"
    assert "correct, partially correct, incorrect" in system
    assert "How many pairs were bought?" in user
    assert "Reference answer: 12" in user
    # Dollar signs and braces in an answer go through untouched.
    assert "twelve pairs, ${price} {0}" in user
    assert "$question" not in user and "$answer" not in user


def test_reason_prompt_carries_task_true_reason_and_given_reason(tmp_path) -> None:
    with scripted_judge(["different"], tmp_path) as (judge, server):
        verdict = judge.same_reason("Order the red mug.", "the store sells no red mug", "the site was down")
        system, user = _system_and_user(server)
    assert verdict == "different"
    assert "same or different" in system
    assert "Order the red mug." in user
    assert "the store sells no red mug" in user
    assert "the site was down" in user


def test_unreadable_model_reply_surfaces_as_an_error(tmp_path) -> None:
    with scripted_judge(["As an AI I cannot grade this."], tmp_path) as (judge, _):
        with pytest.raises(JudgeReplyError):
            judge.grade("q", "r", "a")
