"""The intermediate score of factual-retention tasks (VideoWA's `intermediate_eval`)."""

from __future__ import annotations

import pytest

from evaluation.scoring import ConfigError, intermediate_details, intermediate_score

from tests.evaluation.scoring.model_helpers import scripted_judge, user_prompts

# Shaped like a VideoWA shopping task: the question about the video, then the task itself.
TASK = {
    "intent": "Add the two items that were added to the wishlist in the video to my cart.",
    "intermediate_intent": "What were the names of the two items added to the wishlist in the video?",
    "intermediate_eval": {
        "eval_types": ["string_match"],
        "reference_answers": {"must_include": ["Briess DME - Pilsen Light - 1 lb Bag", "Armor3 Headset"]},
        "reference_url": "",
        "program_html": [],
        "string_note": "",
    },
    "eval": {"eval_types": ["program_html"], "reference_answers": None},
}


def test_answer_naming_both_items_scores_one() -> None:
    answer = "They were the Briess DME - Pilsen Light - 1 lb Bag and the ARMOR3 headset."
    assert intermediate_score(TASK, answer) == 1.0


def test_answer_missing_an_item_scores_zero_and_says_which() -> None:
    checks = intermediate_details(TASK, "Only the Armor3 Headset")
    assert intermediate_score(TASK, "Only the Armor3 Headset") == 0.0
    assert [(c.reference, c.passed) for c in checks] == [
        ("Briess DME - Pilsen Light - 1 lb Bag", False),
        ("Armor3 Headset", True),
    ]


def test_judge_is_shown_the_intermediate_question(tmp_path) -> None:
    task = {**TASK, "intermediate_eval": {**TASK["intermediate_eval"], "reference_answers": {"fuzzy_match": ["two"]}}}
    with scripted_judge(["correct"], tmp_path) as (judge, server):
        assert intermediate_score(task, "2 items", judge=judge) == 1.0
        user = user_prompts(server)[0]
    assert TASK["intermediate_intent"] in user
    assert TASK["intent"] not in user


def test_task_without_intermediate_eval_has_no_intermediate_score() -> None:
    with pytest.raises(ConfigError, match="intermediate_eval"):
        intermediate_score({"intent": "x", "eval": {}}, "anything")


def test_intermediate_eval_without_its_question_is_a_config_error() -> None:
    task = {key: value for key, value in TASK.items() if key != "intermediate_intent"}
    with pytest.raises(ConfigError, match="intermediate_intent"):
        intermediate_score(task, "anything")
